"""Dump what PaddlePaddle really does when a binary API or operator meets two
operands of different dtypes: every ordered pair of dtypes, tensors of rank >= 1,
0-d tensors, Python scalars, every op the type-promotion document lists, in eager
mode (and, for a subset, static-graph mode). Writes tests/data/promotion/paddle.json.

    python tools/oracles/promotion/paddle_oracle.py tests/data/promotion/paddle.json
"""
import itertools
import re
import json
import os
import sys
import warnings

os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("FLAGS_call_stack_level", "0")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

paddle.set_device("cpu")

CANDIDATES = {
    "bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "c64", "complex128": "c128", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
}

OPS = {
    # op name: (callable(a, b), operator or None)
    "add": (paddle.add, lambda a, b: a + b),
    "subtract": (paddle.subtract, lambda a, b: a - b),
    "multiply": (paddle.multiply, lambda a, b: a * b),
    "divide": (paddle.divide, lambda a, b: a / b),
    "floor_divide": (paddle.floor_divide, lambda a, b: a // b),
    "remainder": (paddle.remainder, lambda a, b: a % b),
    "pow": (paddle.pow, lambda a, b: a ** b),
    "equal": (paddle.equal, lambda a, b: a == b),
    "not_equal": (paddle.not_equal, lambda a, b: a != b),
    "less_than": (paddle.less_than, lambda a, b: a < b),
    "less_equal": (paddle.less_equal, lambda a, b: a <= b),
    "greater_than": (paddle.greater_than, lambda a, b: a > b),
    "greater_equal": (paddle.greater_equal, lambda a, b: a >= b),
    "bitwise_and": (paddle.bitwise_and, lambda a, b: a & b),
    "bitwise_or": (paddle.bitwise_or, lambda a, b: a | b),
    "bitwise_xor": (paddle.bitwise_xor, lambda a, b: a ^ b),
    "logical_and": (paddle.logical_and, None),
    "logical_or": (paddle.logical_or, None),
    "logical_xor": (paddle.logical_xor, None),
    "maximum": (paddle.maximum, None),
    "minimum": (paddle.minimum, None),
    "fmax": (paddle.fmax, None),
    "fmin": (paddle.fmin, None),
    "where": (lambda a, b: paddle.where(paddle.to_tensor(True), a, b), None),
    "logaddexp": (getattr(paddle, "logaddexp", None), None),
    "nextafter": (getattr(paddle, "nextafter", None), None),
    "atan2": (paddle.atan2, None),
    "l1_loss": (lambda a, b: F.l1_loss(a, b, reduction="none"), None),
    "mse_loss": (lambda a, b: F.mse_loss(a, b, reduction="none"), None),
    "poisson_nll_loss": (lambda a, b: F.poisson_nll_loss(a, b, reduction="none"), None),
}

PYTHON = {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}


def first_line(e):
    text = " ".join(str(e).split())
    for marker in ("(InvalidArgument)", "(Unimplemented)", "(NotFound)", "(Unavailable)", "(PreconditionNotMet)"):
        i = text.find(marker)
        if i >= 0:
            return text[i:i + 240]
    return (type(e).__name__ + ": " + text)[:240]


KERNEL = re.compile(r"Selected wrong DataType `(\w+)`")


def outcome(op, lhs, rhs, thunk):
    """`[lhs, rhs, result]`, or `[lhs, rhs, None, error]` when Paddle raises, or None for
    a shape error (not a dtype fact). When only the CPU kernel for the promoted dtype is
    missing, the promotion itself succeeded: the error names the dtype it selected, and
    that is recorded as the result, with the error as a note."""
    try:
        return [lhs, rhs, name_of(thunk().dtype)]
    except Exception as e:  # noqa: BLE001
        text = first_line(e)
        if "shape" in text and "dtype" not in text.lower():
            return None
        m = KERNEL.search(" ".join(str(e).split()))
        if m and "is not registered" in text:
            selected = CANDIDATES.get(m.group(1), m.group(1))
            # Bitwise kernels exist for integers and bool only, on every device: a
            # float or complex selection there is a refusal, not a missing CPU kernel.
            if not (op.startswith("bitwise_") and selected[0] in "fcb" and selected != "bool"):
                return [lhs, rhs, selected, "CPU kernel not registered: " + text]
        return [lhs, rhs, None, text]
        return [lhs, rhs, None, text]


def make(dtype, scalar):
    shape = [] if scalar else [2]
    return paddle.ones(shape, dtype="float32").astype(dtype)


def name_of(dtype):
    s = str(dtype).replace("paddle.", "")
    return CANDIDATES.get(s, s)


def main(out_path):
    dtypes = []
    for pd, ours in CANDIDATES.items():
        try:
            t = make(pd, False)
            _ = t + t
            dtypes.append(pd)
        except Exception as e:  # noqa: BLE001
            try:
                make(pd, False)
                dtypes.append(pd)  # exists, even if + is not implemented for it
            except Exception:
                print(f"no dtype {pd}: {first_line(e)}", file=sys.stderr)
    groups = []
    for op, (api, operator) in OPS.items():
        if api is None:
            print(f"no api {op}", file=sys.stderr)
            continue
        cases = []
        for l, r in itertools.product(dtypes, dtypes):
            for lk, rk in [("", ""), ("scalar:", ""), ("", "scalar:"), ("scalar:", "scalar:")]:
                a, b = make(l, lk == "scalar:"), make(r, rk == "scalar:")
                case = outcome(op, lk + CANDIDATES[l], rk + CANDIDATES[r], lambda: api(a, b))
                if case:
                    cases.append(case)
        call = operator or api
        for d, (kind, value), rank0 in itertools.product(dtypes, PYTHON.items(), (False, True)):
            for tensor_left in (True, False):
                t = make(d, rank0)
                name = ("scalar:" if rank0 else "") + CANDIDATES[d]
                lhs, rhs = (name, "python:" + kind) if tensor_left else ("python:" + kind, name)
                case = outcome(op, lhs, rhs, lambda: call(t, value) if tensor_left else call(value, t))
                if case:
                    cases.append(case)
        groups.append({"options": {"mode": "eager"}, "op": op, "cases": cases})
        print(f"{op}: {len(cases)} cases", file=sys.stderr)
    doc = {
        "framework": "paddle",
        "version": paddle.__version__,
        "generated_by": "tools/oracles/promotion/paddle_oracle.py",
        "dtypes": [CANDIDATES[d] for d in dtypes],
        "groups": groups,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
