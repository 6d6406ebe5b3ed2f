"""Dump what NVIDIA DALI's arithmetic operators really do with two operands of
different types, on CPU pipelines: every ordered pair of tensor types, and tensors
with Python int/float/bool constants on either side, for + - * / // & | ^ (and the
comparison, % and ** operators where DALI has them). Writes
tests/data/promotion/dali.json.

    python tools/oracles/promotion/dali_oracle.py tests/data/promotion/dali.json
"""
import itertools
import json
import sys
import time

import numpy as np
import nvidia.dali as dali
import nvidia.dali.fn as fn
import nvidia.dali.types  # noqa: F401  (dali.types)
from nvidia.dali import pipeline_def

DTYPES = {
    "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}
NUMPY_TO_PROMO = {np.dtype(v).name: k for k, v in DTYPES.items()}
DALI_TYPES = {
    "bool": "BOOL", "u8": "UINT8", "u16": "UINT16", "u32": "UINT32", "u64": "UINT64", "i8": "INT8",
    "i16": "INT16", "i32": "INT32", "i64": "INT64", "f16": "FLOAT16", "f32": "FLOAT", "f64": "FLOAT64",
}
DALI_TYPES = {k: getattr(dali.types.DALIDataType, v) for k, v in DALI_TYPES.items()}
OPS = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b,
    "floor_divide": lambda a, b: a // b,
    "bitwise_and": lambda a, b: a & b,
    "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b,
    "remainder": lambda a, b: a % b,
    "pow": lambda a, b: a ** b,
    "equal": lambda a, b: a == b,
    "not_equal": lambda a, b: a != b,
    "less_than": lambda a, b: a < b,
    "less_equal": lambda a, b: a <= b,
    "greater_than": lambda a, b: a > b,
    "greater_equal": lambda a, b: a >= b,
}
PYTHON = {"bool": True, "int": 3, "float": 2.5}


def run(op, left, right):
    """The result type of `op(left, right)`; each side is a numpy dtype (a tensor) or a
    Python value (a constant)."""

    @pipeline_def(batch_size=1, num_threads=1, device_id=None, prefetch_queue_depth=1)
    def pipe():
        def operand(side):
            if isinstance(side, type):  # a numpy scalar type: a tensor of it
                return fn.external_source(source=lambda: [np.array([3, 2], dtype=side)], device="cpu", batch=True)
            return side
        return OPS[op](operand(left), operand(right))

    p = pipe()
    p.build()
    (out,) = p.run()
    return NUMPY_TO_PROMO[out.as_array().dtype.name]


def first_line(e):
    """The sentence that says why: the first line after DALI's `encountered:`, without
    the `Assert on "..." failed:` prefix."""
    text = str(e)
    after = text.split("encountered:", 1)[-1]
    lines = [x.strip() for x in after.splitlines() if x.strip()]
    line = lines[0] if lines else type(e).__name__
    if line.startswith("Assert on") and "failed: " in line:
        line = line.split("failed: ", 1)[1]
    return line[:240]


def accepted():
    """The types the CPU arithmetic operators take at all (float16 works only on GPU),
    and why the others are refused."""
    out, rejected = {}, {}
    for name, dtype in DTYPES.items():
        try:
            run("multiply", dtype, dtype)
            out[name] = dtype
        except Exception as e:  # noqa: BLE001
            rejected[name] = first_line(e)
            print(f"not accepted: {name}: {first_line(e)}", file=sys.stderr)
    # DALI has no bfloat16 type at all (no DALIDataType for it).
    if not any("BFLOAT16" in n for n in dir(dali.types.DALIDataType)):
        rejected["bf16"] = "nvidia.dali.types.DALIDataType has no bfloat16"
    return out, rejected


def constant_probe(dtypes):
    """`tensor + types.Constant(1, T)` and the other order, for every pair of types:
    a typed constant, kept apart from the cases because promo has no operand for it."""
    probe = {}
    for l, r in itertools.product(dtypes, dtypes):
        for tensor_left in (True, False):
            const = dali.types.Constant(1, dtype=DALI_TYPES[r])
            key = f"{l},constant:{r}" if tensor_left else f"constant:{r},{l}"
            try:
                probe[key] = run("add", DTYPES[l], const) if tensor_left else run("add", const, DTYPES[l])
            except Exception as e:  # noqa: BLE001
                probe[key] = "error: " + first_line(e)
    return probe


def main(out_path):
    start = time.time()
    dtypes, rejected = accepted()
    groups = []
    for op in OPS:
        cases = []
        for l, r in itertools.product(dtypes, dtypes):
            try:
                cases.append([l, r, run(op, DTYPES[l], DTYPES[r])])
            except Exception as e:  # noqa: BLE001
                cases.append([l, r, None, first_line(e)])
        for d, (kind, value) in itertools.product(dtypes, PYTHON.items()):
            for tensor_left in (True, False):
                lhs, rhs = (d, "python:" + kind) if tensor_left else ("python:" + kind, d)
                args = (DTYPES[d], value) if tensor_left else (value, DTYPES[d])
                try:
                    cases.append([lhs, rhs, run(op, *args)])
                except Exception as e:  # noqa: BLE001
                    cases.append([lhs, rhs, None, first_line(e)])
        groups.append({"options": {}, "op": op, "cases": cases})
        print(f"{op}: {sum(1 for c in cases if c[2])} of {len(cases)} accepted", file=sys.stderr)
    complex_probe = {}
    for d in dtypes:
        try:
            complex_probe[d] = run("add", DTYPES[d], 1 + 2j)
        except Exception as e:  # noqa: BLE001
            complex_probe[d] = "error: " + first_line(e)
    doc = {
        "framework": "dali",
        "version": dali.__version__,
        "generated_by": "tools/oracles/promotion/dali_oracle.py",
        "dtypes": list(dtypes),
        "rejected_types": rejected,
        "python_complex_probe": complex_probe,
        "constant_probe": constant_probe(dtypes),
        "groups": groups,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    n = sum(len(g["cases"]) for g in groups)
    print(f"dali {dali.__version__}: {n} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
