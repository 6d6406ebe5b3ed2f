"""MLX (CPU) elementwise arithmetic, bit for bit: every op of compute_common.OPS over
every ordered pair of MLX's real element types, and each type with each Python scalar
on either side.

    python tools/oracles/compute/mlx_compute_oracle.py tests/data/compute

writes mlx.json and mlx.bin.gz there (README.md has the layout). Each op is its
function (`mx.add`, `mx.subtract`, `mx.multiply`, `mx.divide`, `mx.maximum`,
`mx.minimum`, `mx.equal`, ..., `mx.greater_equal`) on 1-d arrays made by viewing
unsigned arrays of the input codes as the dtype, everything on `mx.cpu`, each result
evaluated and read back through an unsigned view; a Python scalar goes to the
function as it is. The MLX environment has no NumPy: the standard library packs the
bytes.
"""
import os
import platform
import sys
import time

import mlx.core as mx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

MT = {
    "bool": mx.bool_, "u8": mx.uint8, "u16": mx.uint16, "u32": mx.uint32, "u64": mx.uint64,
    "i8": mx.int8, "i16": mx.int16, "i32": mx.int32, "i64": mx.int64,
    "f16": mx.float16, "bf16": mx.bfloat16, "f32": mx.float32, "f64": mx.float64,
}
NAME = {v: k for k, v in MT.items()}
UINT = {1: mx.uint8, 2: mx.uint16, 4: mx.uint32, 8: mx.uint64}
FUNC = {
    "add": mx.add, "subtract": mx.subtract, "multiply": mx.multiply, "divide": mx.divide,
    "maximum": mx.maximum, "minimum": mx.minimum, "equal": mx.equal, "not_equal": mx.not_equal,
    "less": mx.less, "less_equal": mx.less_equal, "greater": mx.greater, "greater_equal": mx.greater_equal,
}
TYPES = list(MT)


def array(t, codes):
    if cc.nbytes(t) == 8:  # mx.array takes Python ints up to the int64 range only
        u = mx.array([c - (1 << 64) if c >> 63 else c for c in codes], dtype=mx.int64)
    else:
        u = mx.array(list(codes), dtype=UINT[cc.nbytes(t)])
    return u.view(MT[t])


def output(r):
    mx.eval(r)
    t = NAME[r.dtype]
    if t == "bool":
        codes = [int(x) for x in r.tolist()]
    elif cc.nbytes(t) == 8:
        codes = [c & ((1 << 64) - 1) for c in r.view(mx.int64).tolist()]
    else:
        codes = r.view(UINT[cc.nbytes(t)]).tolist()
    return t, cc.pack(t, codes)


def main(out_dir):
    t0 = time.time()
    mx.set_default_device(mx.cpu)
    scalars = cc.scalar_values()

    def run_pair(op, lhs, rhs, a, b):
        return output(FUNC[op](array(lhs, a), array(rhs, b)))

    def run_scalar(op, t, codes, si, left):
        x = array(t, codes)
        s = scalars[si]
        return output(FUNC[op](s, x) if left else FUNC[op](x, s))

    rec = cc.Recorder()
    cc.sweep(TYPES, run_pair, run_scalar, rec)
    probe = cc.minmax_probe(TYPES, run_pair)
    header = {
        "framework": "mlx", "setting": {"device": "cpu"},
        "version": {"mlx": mx.__version__, "python": platform.python_version()},
        "machine": {"cpu": cc.cpu_model(), "arch": platform.machine()},
        "minmax_probe": probe,
        "generated_by": "tools/oracles/compute/mlx_compute_oracle.py",
        "types": TYPES,
    }
    raw, gz = rec.write(out_dir, "mlx", header)
    print(f"mlx: {len(rec.cases)} cases, {raw} bytes ({gz} gzipped), {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
