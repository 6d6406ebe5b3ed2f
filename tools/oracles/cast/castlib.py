"""Shared helpers for the ONNX Cast oracles: one Cast node, run by an engine.

Every value crosses this module as an unsigned integer: the bit pattern of the
value in its type, zero-extended (f32 1.0 -> 0x3F800000, i8 -56 -> 200, i4 -1 -> 15,
i2 -1 -> 3, bool true -> 1). Strings are Python str.

Engines:
  ref       the ONNX reference evaluator of the onnx package in this interpreter
  ort       onnxruntime, CPUExecutionProvider, graph optimisations off
  mldtypes  ml_dtypes: numpy `astype` between the two dtypes (no ONNX attributes)

Run as a script it serves the old-onnx virtual environment:
  python castlib.py ref < jobs.json > results.json
"""
from __future__ import annotations

import ctypes
import json
import sys

import numpy as np

# name -> (TensorProto enum name, storage width in bits, element bits)
TYPES = {
    "bool": ("BOOL", 8, 8),
    "i2": ("INT2", 8, 2),
    "u2": ("UINT2", 8, 2),
    "i4": ("INT4", 8, 4),
    "u4": ("UINT4", 8, 4),
    "i8": ("INT8", 8, 8),
    "u8": ("UINT8", 8, 8),
    "i16": ("INT16", 16, 16),
    "u16": ("UINT16", 16, 16),
    "i32": ("INT32", 32, 32),
    "u32": ("UINT32", 32, 32),
    "i64": ("INT64", 64, 64),
    "u64": ("UINT64", 64, 64),
    "f16": ("FLOAT16", 16, 16),
    "bf16": ("BFLOAT16", 16, 16),
    "f32": ("FLOAT", 32, 32),
    "f64": ("DOUBLE", 64, 64),
    "f8e4m3fn": ("FLOAT8E4M3FN", 8, 8),
    "f8e4m3fnuz": ("FLOAT8E4M3FNUZ", 8, 8),
    "f8e5m2": ("FLOAT8E5M2", 8, 8),
    "f8e5m2fnuz": ("FLOAT8E5M2FNUZ", 8, 8),
    "f8e8m0": ("FLOAT8E8M0", 8, 8),
    "f4e2m1": ("FLOAT4E2M1", 8, 4),
    "string": ("STRING", 0, 0),
}
F8 = ("f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz")
UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
SINT = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
NATIVE = {  # numpy dtypes onnxruntime's Python binding accepts and returns directly
    "bool": np.bool_, "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
    "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}
MLDTYPES = {
    "bf16": "bfloat16", "f8e4m3fn": "float8_e4m3fn", "f8e4m3fnuz": "float8_e4m3fnuz",
    "f8e5m2": "float8_e5m2", "f8e5m2fnuz": "float8_e5m2fnuz", "f8e8m0": "float8_e8m0fnu",
    "f4e2m1": "float4_e2m1fn", "i4": "int4", "u4": "uint4", "i2": "int2", "u2": "uint2",
}
SMALL_INTS = ("i2", "u2", "i4", "u4")


def enum(name):
    from onnx import TensorProto
    return getattr(TensorProto, TYPES[name][0])


def cast_model(src, dst, opset, saturate=None, round_mode=None):
    from onnx import helper
    attrs = {"to": enum(dst)}
    if saturate is not None:
        attrs["saturate"] = int(saturate)
    if round_mode is not None:
        attrs["round_mode"] = round_mode
    node = helper.make_node("Cast", ["x"], ["y"], **attrs)
    graph = helper.make_graph(
        [node], "cast",
        [helper.make_tensor_value_info("x", enum(src), [None])],
        [helper.make_tensor_value_info("y", enum(dst), [None])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10 if opset <= 22 else 11
    return model


def sign_extend4(codes):
    return sign_extend(codes, 4)


def sign_extend(codes, bits):
    return [c - (1 << bits) if c >= 1 << (bits - 1) else c for c in codes]


def to_array(name, values, dtype):
    """Bit patterns -> numpy array of `dtype` (the engine's dtype for `name`)."""
    if name == "string":
        return np.array(values, dtype=object)
    width = TYPES[name][1]
    if name in SMALL_INTS:
        signed = name[0] == "i"
        ints = np.array(sign_extend(values, TYPES[name][2]) if signed else values,
                        dtype=np.int8 if signed else np.uint8)
        if ints.dtype.itemsize == np.dtype(dtype).itemsize and np.dtype(dtype).names:
            return ints.view(dtype)  # onnx <= 1.17 custom element types
        return ints.astype(dtype)
    bits = np.array([int(v) for v in values], dtype=UINT[width])
    return bits.view(dtype)


def from_array(name, arr):
    if name == "string":
        return [str(s) for s in arr.ravel().tolist()]
    width, ebits = TYPES[name][1], TYPES[name][2]
    if arr.dtype.itemsize * 8 != width:
        raise TypeError(f"engine returned a {arr.dtype} array for {name}: {arr.ravel()[:4].tolist()}")
    raw = np.ascontiguousarray(arr).ravel().view(UINT[width])
    if ebits < 8:
        raw = raw & ((1 << ebits) - 1)
    if name == "bool":
        raw = (raw != 0).astype(np.uint8)
    return [int(v) for v in raw.tolist()]


# ---------------------------------------------------------------- engines

def describe(engine):
    if engine == "ref":
        import onnx
        return f"onnx {onnx.__version__} reference evaluator"
    if engine == "ort":
        import onnxruntime
        return f"onnxruntime {onnxruntime.__version__} CPUExecutionProvider"
    if engine == "mldtypes":
        import ml_dtypes
        return f"ml_dtypes {ml_dtypes.__version__} astype"
    raise ValueError(engine)


def ref_dtype(name):
    """The numpy dtype the reference evaluator uses for `name`."""
    import onnx
    from onnx.helper import tensor_dtype_to_np_dtype
    major, minor = (int(p) for p in onnx.__version__.split(".")[:2])
    if (major, minor) < (1, 18):
        # onnx <= 1.17 maps these to their storage type; its evaluator wants the
        # structured element types of onnx._custom_element_types instead
        import onnx._custom_element_types as ce
        custom = {"bf16": ce.bfloat16, "f8e4m3fn": ce.float8e4m3fn, "f8e4m3fnuz": ce.float8e4m3fnuz,
                  "f8e5m2": ce.float8e5m2, "f8e5m2fnuz": ce.float8e5m2fnuz, "i4": ce.int4, "u4": ce.uint4}
        if name in custom:
            return custom[name]
    return tensor_dtype_to_np_dtype(enum(name))


class RefCast:
    def __init__(self, src, dst, opset, saturate=None, round_mode=None):
        from onnx.helper import tensor_dtype_to_np_dtype
        from onnx.reference import ReferenceEvaluator
        self.src, self.dst = src, dst
        self.sess = ReferenceEvaluator(cast_model(src, dst, opset, saturate, round_mode))
        self.in_dtype = object if src == "string" else ref_dtype(src)

    def run_array(self, x):
        return self.sess.run(None, {"x": x})[0]

    def __call__(self, values):
        return from_array(self.dst, self.run_array(to_array(self.src, values, self.in_dtype)))


class OrtCast:
    def __init__(self, src, dst, opset, saturate=None, round_mode=None):
        import onnxruntime as ort
        self.ort = ort
        self.src, self.dst = src, dst
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        so.log_severity_level = 4
        self.sess = ort.InferenceSession(
            cast_model(src, dst, opset, saturate, round_mode).SerializeToString(), so,
            providers=["CPUExecutionProvider"])

    def input_value(self, values):
        ort = self.ort
        if self.src == "string":
            return ort.OrtValue.ortvalue_from_numpy(np.array(values, dtype=object))
        if self.src in NATIVE:
            return ort.OrtValue.ortvalue_from_numpy(to_array(self.src, values, NATIVE[self.src]))
        width, ebits = TYPES[self.src][1], TYPES[self.src][2]
        bits = np.array(values, dtype=UINT[width])
        if ebits < 8:  # packed 8 / ebits per byte, element 0 in the low bits
            per = 8 // ebits
            padded = np.zeros(-(-len(values) // per) * per, dtype=np.uint8)
            padded[: len(values)] = bits & ((1 << ebits) - 1)
            packed = np.zeros(len(padded) // per, dtype=np.uint8)
            for k in range(per):
                packed |= padded[k::per] << (k * ebits)
            return ("packed", packed)
        return ort.OrtValue.ortvalue_from_numpy_with_onnx_type(bits, enum(self.src))

    def __call__(self, values):
        n = len(values)
        if self.src == "string":
            # string tensors cannot be io-bound: plain run, so only targets numpy can hold
            if self.dst not in NATIVE and self.dst != "string":
                raise TypeError(f"onnxruntime's Python API can neither bind a string input nor return {self.dst}")
            return from_array(self.dst, self.sess.run(None, {"x": np.array(values, dtype=object)})[0])
        xin = self.input_value(values)
        io = self.sess.io_binding()
        if isinstance(xin, tuple):
            ov = self.ort.OrtValue.ortvalue_from_shape_and_type([n], enum(self.src))
            ctypes.memmove(ov.data_ptr(), xin[1].ctypes.data, xin[1].nbytes)
            io.bind_ortvalue_input("x", ov)
        else:
            io.bind_ortvalue_input("x", xin)
        io.bind_output("y", "cpu")
        self.sess.run_with_iobinding(io)
        out = io.get_outputs()[0]
        if self.dst == "string" or self.dst in NATIVE:
            return from_array(self.dst, out.numpy())
        size = out.tensor_size_in_bytes()
        raw = np.frombuffer(bytes((ctypes.c_uint8 * size).from_address(out.data_ptr())), dtype=np.uint8)
        width, ebits = TYPES[self.dst][1], TYPES[self.dst][2]
        if ebits < 8:
            per = 8 // ebits
            un = np.empty(raw.size * per, dtype=np.uint8)
            for k in range(per):
                un[k::per] = (raw >> (k * ebits)) & ((1 << ebits) - 1)
            return [int(v) for v in un[:n].tolist()]
        return [int(v) for v in raw.view(UINT[width])[:n].tolist()]


class MlCast:
    def __init__(self, src, dst, opset=None, saturate=None, round_mode=None):
        import ml_dtypes
        self.src, self.dst = src, dst

        def dt(name):
            if name in MLDTYPES:
                return np.dtype(getattr(ml_dtypes, MLDTYPES[name]))
            return np.dtype(NATIVE[name])
        self.in_dtype, self.out_dtype = dt(src), dt(dst)

    def __call__(self, values):
        return from_array(self.dst, to_array(self.src, values, self.in_dtype).astype(self.out_dtype))


ENGINES = {"ref": RefCast, "ort": OrtCast, "mldtypes": MlCast}


def run_job(engine, job):
    try:
        fn = ENGINES[engine](job["from"], job["to"], job.get("opset"), job.get("saturate"),
                             job.get("round_mode"))
        return {"outputs": fn(job["inputs"])}
    except Exception as e:  # recorded, not fatal: "this engine cannot do this cast"
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]}


def main():
    import warnings
    warnings.filterwarnings("ignore")
    engine = sys.argv[1]
    jobs = json.load(sys.stdin)
    json.dump({"engine": describe(engine), "results": [run_job(engine, j) for j in jobs]}, sys.stdout)


if __name__ == "__main__":
    main()


# ------------------------------------------------- helpers for the generators

def old_python():
    """Interpreter of the virtual environment with the older onnx release."""
    import os
    root = os.environ.get("PROMO_CAST_VENVS", "/work/venvs")
    return os.environ.get("PROMO_CAST_OLD_PY", f"{root}/onnx-old/bin/python")


def run_elsewhere(python, engine, jobs):
    """Run jobs through castlib.py in another interpreter; returns (engine description, results)."""
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run([python, os.path.join(here, "castlib.py"), engine],
                          input=json.dumps(jobs), capture_output=True, text=True, check=True)
    answer = json.loads(proc.stdout)
    return answer["engine"], answer["results"]


def dump(path, obj):
    """JSON with one group per line-ish: compact lists, readable keys."""
    with open(path, "w") as f:
        json.dump(obj, f, separators=(",", ":"), sort_keys=False)
        f.write("\n")
