"""NumPy 2 + ml_dtypes elementwise arithmetic, bit for bit: every op of
compute_common.OPS over every ordered pair of the real element types NumPy has with
ml_dtypes imported, and each type with each Python scalar on either side.

    python tools/oracles/compute/numpy_compute_oracle.py tests/data/compute

writes numpy.json and numpy.bin.gz there (README.md has the layout). Each op is its
ufunc (`np.add`, `np.subtract`, `np.multiply`, `np.true_divide`, `np.maximum`,
`np.minimum`, `np.equal`, ..., `np.greater_equal`) on 1-d arrays made by viewing the
input codes as the dtype; a Python scalar is passed to the ufunc as it is. Floating
point errors are ignored (`np.errstate(all="ignore")`). Besides the result type, each
case records the ufunc's loop (`ufunc.resolve_dtypes`, a Python scalar given as its
type, True as the bool dtype), in `loops`.
"""
import os
import platform
import sys
import time
import warnings

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

NP = {
    "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2, "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu, "f4e2m1": ml_dtypes.float4_e2m1fn,
    "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4, "u2": ml_dtypes.uint2, "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e3m4": ml_dtypes.float8_e3m4, "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f6e2m3fn": ml_dtypes.float6_e2m3fn, "f6e3m2fn": ml_dtypes.float6_e3m2fn,
    "i2": ml_dtypes.int2, "i1": ml_dtypes.int1, "u1": ml_dtypes.uint1,
}
NAME = {np.dtype(v): k for k, v in NP.items()}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
UFUNC = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.true_divide,
    "maximum": np.maximum, "minimum": np.minimum, "equal": np.equal, "not_equal": np.not_equal,
    "less": np.less, "less_equal": np.less_equal, "greater": np.greater, "greater_equal": np.greater_equal,
}
TYPES = list(NP)


def array(t, codes):
    return np.array(codes, dtype=UINT[cc.nbytes(t)]).view(NP[t])


def output(r):
    r = np.asarray(r)
    t = NAME[r.dtype]
    u = r.view(UINT[r.dtype.itemsize]).astype(UINT[cc.nbytes(t)])
    if cc.bits(t) < 8:
        u = u & cc.mask(t)
    return t, u.astype(u.dtype.newbyteorder("<")).tobytes()



def main(out_dir):
    t0 = time.time()
    scalars = cc.scalar_values()
    loops = {}

    def run_pair(op, lhs, rhs, a, b):
        x, y = array(lhs, a), array(rhs, b)
        u = UFUNC[op]
        loops.setdefault(op, {})[f"{lhs},{rhs}"] = ",".join(
            NAME.get(d, str(d)) for d in u.resolve_dtypes((x.dtype, y.dtype, None)))
        return output(u(x, y))

    def run_scalar(op, t, codes, si, left):
        x = array(t, codes)
        s = scalars[si]
        kind = np.dtype(bool) if isinstance(s, bool) else type(s)
        key = f"py:{si},{t}" if left else f"{t},py:{si}"
        try:
            dts = UFUNC[op].resolve_dtypes((kind, x.dtype, None) if left else (x.dtype, kind, None))
            loops.setdefault(op, {})[key] = ",".join(NAME.get(d, str(d)) for d in dts)
        except Exception:  # noqa: BLE001 - the call below raises the same error
            pass
        return output(UFUNC[op](s, x) if left else UFUNC[op](x, s))

    rec = cc.Recorder()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.sweep(TYPES, run_pair, run_scalar, rec)
        probe = cc.minmax_probe(TYPES, run_pair)
    header = {
        "framework": "numpy", "setting": {},
        "version": {"numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__, "python": platform.python_version()},
        "machine": {"cpu": cc.cpu_model(), "arch": platform.machine()},
        "minmax_probe": probe,
        "generated_by": "tools/oracles/compute/numpy_compute_oracle.py",
        "types": TYPES,
        "loops": loops,
    }
    raw, gz = rec.write(out_dir, "numpy", header)
    print(f"numpy: {len(rec.cases)} cases, {raw} bytes ({gz} gzipped), {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
