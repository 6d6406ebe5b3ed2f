"""Dump what tinygrad does when a Tensor binary operator meets two operands of
different dtypes, and what its promotion function `least_upper_dtype` answers, to
tests/data/promotion/tinygrad.json.

    DEV=PYTHON python tools/oracles/promotion/tinygrad_oracle.py tests/data/promotion/tinygrad.json

DEV=PYTHON is tinygrad's pure-Python device (the default one compiles C with a host
toolchain); the script sets it itself before importing tinygrad.

Operands: `DTYPE` is `Tensor.ones(2, dtype=...)`, `scalar:DTYPE` is
`Tensor.ones((), dtype=...)`, `weak:i32` and `weak:f32` are `Tensor(3)` and
`Tensor(2.5)` (tinygrad types a Python int or float as `dtypes.weakint` or
`dtypes.weakfloat`, a constant that takes the other operand's dtype; they are stored,
when a result must be, as `dtypes.default_int` int32 and `dtypes.default_float` float32,
hence promo's names), and `python:KIND` the literal True, 3 or 2.5, on either side of the
Python operator (`t + 3`, `3 + t`, `3 < t`). tinygrad has no complex dtype: a Python
complex is refused before any promotion (`python_complex_probe`). maximum and minimum
are methods (`a.maximum(b)`), so a Python scalar goes on their right only; `where` is
`Tensor(True).where(a, b)`, which takes a Python scalar on either side.

A result is the output tensor's dtype, `weak:i32` / `weak:f32` when it is weakint /
weakfloat (`bool + 3` is weakint: the int stays weak on the tensor). Every result is then
read back with `.tolist()` on the PYTHON device (a weak one is cast to its default dtype
first), which builds the schedule, verifies its UOps and runs the kernels. A failed UOp
verification (`type_verify` with `spec_tensor` in tinygrad/uop/spec.py, the same for every
device) is the operation's refusal, `[lhs, rhs, null, error]`; any other failure, while
the device compiles or runs a kernel, would be `[lhs, rhs, DTYPE, error]` (none was seen:
`build_failures`). The operand tensors are realized buffers (`.contiguous().realize()`), so
that no operation between two tensors is folded away as constants.

`least_upper_dtype` (op `result_type`) is called on the dtypes themselves: each dtype,
`weak:i32` / `weak:f32` as `dtypes.weakint` / `dtypes.weakfloat`, and `python:KIND` as
`dtypes.from_py(literal)`, Python with Python too.
"""
import itertools
import os
import re
import sys
import time

os.environ.setdefault("DEV", "PYTHON")

from oracle_common import (OPERATORS, PYTHON, count_cases, drop_identical_ops, first_line, python_operands,
                           sweep, write)

from tinygrad import Device, Tensor, dtypes  # noqa: E402
from tinygrad.dtype import least_upper_dtype, strong_dtype  # noqa: E402
import tinygrad  # noqa: E402

# tinygrad's dtypes (their attribute names in `dtypes`) -> promo's names. fp8e4m3 is
# E4M3FN (max 448, no infinity: checked in `fp8e4m3_is_e4m3fn`).
NAMES = {
    "bool": "bool", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "int8": "i8",
    "int16": "i16", "int32": "i32", "int64": "i64", "fp8e4m3": "f8e4m3fn", "fp8e5m2": "f8e5m2",
    "fp8e4m3fnuz": "f8e4m3fnuz", "fp8e5m2fnuz": "f8e5m2fnuz", "float16": "f16", "bfloat16": "bf16",
    "float32": "f32", "float64": "f64",
}
WEAK = {"weakint": "weak:i32", "weakfloat": "weak:f32"}
# promo's op -> the Python operator, or a function of (a, b)
OPS = {
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//", "remainder": "%",
    "pow": "**", "maximum": lambda a, b: a.maximum(b), "minimum": lambda a, b: a.minimum(b),
    "equal": "==", "not_equal": "!=", "less_than": "<", "less_equal": "<=", "greater_than": ">",
    "greater_equal": ">=", "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^",
    "where": lambda a, b: Tensor(True).where(a, b),
}
# methods of a Tensor: no Python scalar on the left
METHODS = ("maximum", "minimum")


def name_of(dtype):
    for attr, name in itertools.chain(NAMES.items(), WEAK.items()):
        if getattr(dtypes, attr) is dtype:
            return name
    return repr(dtype)


class BuildFailure(Exception):
    """The schedule was built (the operation accepted the dtypes), then the device failed."""

    def __init__(self, dtype, error):
        super().__init__(f"{name_of(dtype)}|{error}")


_VERIFY = re.compile(r"UOp verification failed at \d+ on (Ops\.\w+) (dtypes\.\w+) .*")


def short(error):
    """tinygrad's UOp verification error without the UOp's position and sources, which
    differ from case to case: the op and the dtype it was asked to compute in."""
    return _VERIFY.sub(r"UOp verification failed on \1 \2", error)


def realize(r):
    """Reads `r` back with `.tolist()` (a weak result cast to its default dtype first),
    which builds the schedule, verifies its UOps and runs its kernels on the device (on
    DEV, also where both operands were constants, which `Tensor._buffer` would compute on
    "CPU", the C compiler's device). A
    failed UOp verification (`spec_tensor`, the same for every device) is the operation's
    refusal and is raised as it is; any other failure is the device's (BuildFailure)."""
    if r.dtype in dtypes.weaks:
        r = r.cast(strong_dtype(r.dtype))
    if r.uop.device is None:  # constants only: `.tolist()` would compute them on "CPU"
        r = r.contiguous().clone(Device.DEFAULT)
    try:
        r.tolist()
    except Exception as e:  # noqa: BLE001
        if "UOp verification failed" in str(e):
            raise
        raise BuildFailure(r.dtype, first_line(e, limit=1000)) from e


def setup():
    """The dtypes swept (tinygrad's attribute names, in order) and the operands."""
    order = list(NAMES)
    tensor = [(NAMES[n], Tensor.ones(2, dtype=getattr(dtypes, n)).contiguous().realize()) for n in order]
    zero_d = [("scalar:" + NAMES[n], Tensor.ones((), dtype=getattr(dtypes, n)).contiguous().realize()) for n in order]
    weak = [("weak:i32", Tensor(3)), ("weak:f32", Tensor(2.5))]
    assert [t.dtype for _, t in weak] == [dtypes.weakint, dtypes.weakfloat]
    python = [(n, v) for n, v in python_operands() if n != "python:complex"]
    return order, tensor + zero_d + weak + python


def fp8e4m3_is_e4m3fn():
    """fp8e4m3's largest finite value and what it makes of infinity and of 1e6."""
    got = Tensor([1e6, 448.0, 464.0, float("inf")]).cast(dtypes.fp8e4m3).cast(dtypes.float32).tolist()
    e5m2 = Tensor([1e6, 57344.0, float("inf")]).cast(dtypes.fp8e5m2).cast(dtypes.float32).tolist()
    return {"cast of [1e6, 448, 464, inf] to fp8e4m3 and back": [repr(x) for x in got],
            "cast of [1e6, 57344, inf] to fp8e5m2 and back": [repr(x) for x in e5m2], "name": dtypes.fp8e4m3.name}


def main(out_path):
    start = time.time()
    order, operands = setup()
    groups, build_failures, seen_warnings = [], [], {}
    for op, how in OPS.items():
        t0 = time.time()
        fn = OPERATORS[how] if isinstance(how, str) else how

        def run(a, b, fn=fn):
            r = fn(a, b)
            realize(r)
            return name_of(r.dtype)

        keep = (lambda ln, rn: not ln.startswith("python:")) if op in METHODS else None
        cases, seen = sweep(operands, run, keep=keep)
        for c in cases:
            if len(c) > 3:
                c[3] = short(c[3])
        if seen:
            seen_warnings[op] = seen
        # a failure after the schedule was built is the device's: DTYPE, error
        for c in cases:
            if len(c) > 3 and c[3].startswith("BuildFailure: "):
                c[2], c[3] = c[3].removeprefix("BuildFailure: ").split("|", 1)
                build_failures.append([op, *c])
        groups.append({"options": {}, "op": op, "cases": cases})
        print(f"tinygrad {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    # least_upper_dtype on the dtypes themselves
    lud = [(NAMES[n], getattr(dtypes, n)) for n in order] + [(w, getattr(dtypes, k)) for k, w in WEAK.items()]
    lud += [(f"python:{k}", dtypes.from_py(v)) for k, v in PYTHON.items() if k != "complex"]
    cases = []
    for (ln, a), (rn, b) in itertools.product(lud, lud):
        try:
            cases.append([ln, rn, name_of(least_upper_dtype(a, b))])
        except Exception as e:  # noqa: BLE001
            cases.append([ln, rn, None, first_line(e)])
    groups.append({"options": {}, "op": "result_type", "cases": cases})

    complex_probe = {}
    for n, t in ((NAMES[n], Tensor.ones(2, dtype=getattr(dtypes, n))) for n in order):
        for key, f in ((f"{n} + 1j", lambda: t + 1j), (f"1j + {n}", lambda: 1j + t)):
            try:
                complex_probe[key] = name_of(f().dtype)
            except Exception as e:  # noqa: BLE001
                complex_probe[key] = "error: " + first_line(e)

    kept, same = drop_identical_ops(groups)
    doc = {
        "framework": "tinygrad",
        "version": tinygrad.__version__ if hasattr(tinygrad, "__version__") else version(),
        "generated_by": "tools/oracles/promotion/tinygrad_oracle.py",
        "device": Device.DEFAULT,
        "dtypes": [NAMES[n] for n in order],
        "dtype_names": {NAMES[n]: f"dtypes.{n} ({getattr(dtypes, n).name})" for n in order},
        "weak_dtypes": {w: f"dtypes.{k}, stored as {strong_dtype(getattr(dtypes, k))!r}" for k, w in WEAK.items()},
        "default_dtypes": {"int": repr(dtypes.default_int), "float": repr(dtypes.default_float)},
        "fp8e4m3_is_e4m3fn": fp8e4m3_is_e4m3fn(),
        "operators": {op: (how if isinstance(how, str) else
                           {"maximum": "a.maximum(b)", "minimum": "a.minimum(b)",
                            "where": "Tensor(True).where(a, b)"}[op]) for op, how in OPS.items()},
        "python_complex_probe": complex_probe,
        "build_failures": build_failures,
        "warnings": seen_warnings,
        "ops_left_out_as_identical": same,
        "groups": kept,
    }
    write(out_path, doc)
    print(f"tinygrad {doc['version']} ({Device.DEFAULT}): {len(order)} dtypes, {count_cases(kept)} cases kept of "
          f"{count_cases(groups)}, {time.time() - start:.1f}s", file=sys.stderr)


def version():
    from importlib.metadata import version as v
    return v("tinygrad")


if __name__ == "__main__":
    main(sys.argv[1])
