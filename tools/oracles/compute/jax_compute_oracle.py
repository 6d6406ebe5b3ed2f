"""JAX (XLA CPU) elementwise arithmetic, bit for bit, with `jax_enable_x64` off and on:
every op of compute_common.OPS over every ordered pair of the element types JAX can
hold on the CPU in that setting, and each type with each Python scalar on either side.

    python tools/oracles/compute/jax_compute_oracle.py tests/data/compute

runs itself twice (`--child x32|x64`, one process per setting, as the flag is best
set before anything runs) and writes jax_x32.{json,bin.gz} and jax_x64.{json,bin.gz}.
Each op is its jax.numpy function (`jnp.add`, `jnp.subtract`, `jnp.multiply`,
`jnp.true_divide`, `jnp.maximum`, `jnp.minimum`, `jnp.equal`, ..., `jnp.greater_equal`),
called eagerly on arrays put on the CPU device from NumPy arrays of the ml_dtypes
dtype (`jax.device_put`), a Python scalar passed as it is. With x64 off, u64, i64 and
f64 do not exist (JAX would hold them as 32-bit) and are not swept. float6_e2m3fn,
float6_e3m2fn, int1 and uint1 cannot be put on the CPU device (see the promotion
oracle) and are not swept.
"""
import os
import platform
import subprocess
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

ALL_TYPES = ["bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64",
             "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1", "f8e4m3", "f8e3m4",
             "f8e4m3b11fnuz", "i4", "u4", "i2", "u2"]


def child(setting, out_dir):
    import jax
    jax.config.update("jax_enable_x64", setting == "x64")
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np

    NP = {
        "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
        "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
        "f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16,
        "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
        "f8e5m2": ml_dtypes.float8_e5m2, "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
        "f8e8m0": ml_dtypes.float8_e8m0fnu, "f4e2m1": ml_dtypes.float4_e2m1fn,
        "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "u2": ml_dtypes.uint2,
        "f8e4m3": ml_dtypes.float8_e4m3, "f8e3m4": ml_dtypes.float8_e3m4,
        "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    }
    NAME = {np.dtype(v): k for k, v in NP.items()}
    UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
    FUNC = {
        "add": jnp.add, "subtract": jnp.subtract, "multiply": jnp.multiply, "divide": jnp.true_divide,
        "maximum": jnp.maximum, "minimum": jnp.minimum, "equal": jnp.equal, "not_equal": jnp.not_equal,
        "less": jnp.less, "less_equal": jnp.less_equal, "greater": jnp.greater, "greater_equal": jnp.greater_equal,
    }
    types = [t for t in ALL_TYPES if setting == "x64" or cc.bits(t) < 64]
    cpu = jax.devices("cpu")[0]

    def array(t, codes):
        return jax.device_put(np.array(codes, dtype=UINT[cc.nbytes(t)]).view(NP[t]), cpu)

    def output(r):
        r = np.asarray(r)
        t = NAME[r.dtype]
        u = r.view(UINT[r.dtype.itemsize]).astype(UINT[cc.nbytes(t)])
        if cc.bits(t) < 8:
            u = u & cc.mask(t)
        return t, u.astype(u.dtype.newbyteorder("<")).tobytes()

    scalars = cc.scalar_values()

    def run_pair(op, lhs, rhs, a, b):
        return output(FUNC[op](array(lhs, a), array(rhs, b)))

    def run_scalar(op, t, codes, si, left):
        x = array(t, codes)
        s = scalars[si]
        return output(FUNC[op](s, x) if left else FUNC[op](x, s))

    t0 = time.time()
    rec = cc.Recorder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.sweep(types, run_pair, run_scalar, rec)
    probe = cc.minmax_probe(types, run_pair)
    import jaxlib
    header = {
        "framework": "jax", "setting": {"jax_enable_x64": setting == "x64", "device": "cpu"},
        "version": {"jax": jax.__version__, "jaxlib": jaxlib.__version__, "ml_dtypes": ml_dtypes.__version__,
                    "numpy": np.__version__, "python": platform.python_version()},
        "machine": {"cpu": cc.cpu_model(), "arch": platform.machine()},
        "minmax_probe": probe,
        "generated_by": "tools/oracles/compute/jax_compute_oracle.py",
        "types": types,
    }
    name = "jax_" + setting
    raw, gz = rec.write(out_dir, name, header)
    print(f"{name}: {len(rec.cases)} cases, {raw} bytes ({gz} gzipped), {time.time() - t0:.0f} s", file=sys.stderr)


def main(out_dir):
    for setting in ("x32", "x64"):
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", setting, out_dir], check=True)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
