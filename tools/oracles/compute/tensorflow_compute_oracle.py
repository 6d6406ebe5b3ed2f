"""TensorFlow (CPU, eager) elementwise arithmetic, bit for bit, with the new type
promotion (`tf.experimental.numpy.experimental_enable_numpy_behavior(
dtype_conversion_mode="all")`): every op of compute_common.OPS over every ordered pair
of the element types a CPU tensor can hold, and each type with each Python scalar on
either side.

    python tools/oracles/compute/tensorflow_compute_oracle.py tests/data/compute

writes tensorflow.json and tensorflow.bin.gz there (README.md has the layout). Each op
is its function (`tf.math.add`, `tf.math.subtract`, `tf.math.multiply`,
`tf.math.truediv`, `tf.math.maximum`, `tf.math.minimum`, `tf.math.equal`,
`tf.math.not_equal`, `tf.math.less`, `tf.math.less_equal`, `tf.math.greater`,
`tf.math.greater_equal`) on 1-d tensors made with `tf.constant` from NumPy arrays of
the dtype (viewed from the input codes); a Python scalar is passed as it is.
"""
import os
import platform
import sys
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

MODE = "all"
NP = {
    "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
    "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz, "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz, "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4,
}
NAME = {np.dtype(v): k for k, v in NP.items()}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
FUNC = {
    "add": tf.math.add, "subtract": tf.math.subtract, "multiply": tf.math.multiply, "divide": tf.math.truediv,
    "maximum": tf.math.maximum, "minimum": tf.math.minimum, "equal": tf.math.equal,
    "not_equal": tf.math.not_equal, "less": tf.math.less, "less_equal": tf.math.less_equal,
    "greater": tf.math.greater, "greater_equal": tf.math.greater_equal,
}


def main(out_dir):
    tf.get_logger().setLevel("ERROR")  # "Falling back to old semantics" for every float8/int4 call
    tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=MODE)
    t0 = time.time()
    types = []
    not_types = {}
    for t in NP:
        try:
            x = tf.constant(np.zeros(2, UINT[cc.nbytes(t)]).view(NP[t]))
            np.asarray(x.numpy())
            types.append(t)
        except Exception as e:  # noqa: BLE001
            not_types[t] = cc.first_line(e)

    def array(t, codes):
        with tf.device("/CPU:0"):
            return tf.constant(np.array(codes, dtype=UINT[cc.nbytes(t)]).view(NP[t]))

    def output(r):
        r = np.asarray(r.numpy())
        t = NAME[r.dtype]
        u = r.view(UINT[r.dtype.itemsize]).astype(UINT[cc.nbytes(t)])
        if cc.bits(t) < 8:
            u = u & cc.mask(t)
        return t, u.astype(u.dtype.newbyteorder("<")).tobytes()

    scalars = cc.scalar_values()

    def run_pair(op, lhs, rhs, a, b):
        with tf.device("/CPU:0"):
            return output(FUNC[op](array(lhs, a), array(rhs, b)))

    def run_scalar(op, t, codes, si, left):
        x = array(t, codes)
        s = scalars[si]
        with tf.device("/CPU:0"):
            return output(FUNC[op](s, x) if left else FUNC[op](x, s))

    rec = cc.Recorder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.sweep(types, run_pair, run_scalar, rec)
    probe = cc.minmax_probe(types, run_pair)
    header = {
        "framework": "tensorflow", "setting": {"dtype_conversion_mode": MODE, "device": "cpu", "eager": True},
        "version": {"tensorflow": tf.__version__, "ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__,
                    "python": platform.python_version()},
        "machine": {"cpu": cc.cpu_model(), "arch": platform.machine()},
        "minmax_probe": probe,
        "generated_by": "tools/oracles/compute/tensorflow_compute_oracle.py",
        "types": types, "not_types": not_types,
    }
    raw, gz = rec.write(out_dir, "tensorflow", header)
    print(f"tensorflow: {len(rec.cases)} cases, {raw} bytes ({gz} gzipped), {time.time() - t0:.0f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
