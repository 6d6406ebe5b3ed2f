"""Helpers shared by the operation oracles of PyTorch, TensorFlow, MLX, tinygrad and
PaddlePaddle (each runs in its own virtual environment; this file needs only the
standard library). It builds on tools/oracles/promotion/oracle_common.py: the dtype
names, `first_line` for error messages and `run_children` for one process per option
setting come from there.

A case is `[operands, result]`, `[operands, None, error]`, `[operands, DTYPE, error]`
(the dtype was chosen, the build has no kernel for it) or any of those with a fourth
element, an object `{"compute": DTYPE, "how": ...}`: the dtype the framework computes
in, where it states it.
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "promotion"))

import re  # noqa: E402

import oracle_common  # noqa: E402
from oracle_common import DTYPE_NAMES, PYTHON, python_operands, run_children, write  # noqa: E402,F401

# where an internal assertion failed in the framework's source (a path of its build machine)
_ASSERT_AT = re.compile(r' at "[^"]*":\d+, please report a bug to \w+\.?')


def first_line(e, limit=300):
    """oracle_common.first_line, without the source location of a failed internal
    assertion (`... INTERNAL ASSERT FAILED at "/__w/pytorch/...":105, please report a
    bug to PyTorch.`)."""
    return _ASSERT_AT.sub("", oracle_common.first_line(e, 1000))[:limit]

# The operations swept, by NumPy's names (each oracle maps them to the framework's
# function and records which one it called).
UNARY = ("negative", "positive", "absolute", "sqrt", "exp", "log", "sin", "tanh", "reciprocal", "floor", "ceil",
         "round", "trunc", "sign", "square", "isnan", "isfinite", "logical_not", "bitwise_not", "real", "imag",
         "conj", "angle", "exp2", "log1p", "expm1", "sigmoid", "erf", "rsqrt")
REDUCTIONS = ("sum", "prod", "mean", "cumsum", "cumprod", "max", "min", "argmax", "any", "all", "var", "std")
REDUCTIONS_WITH_DTYPE = ("sum", "prod", "mean")
INPLACE = {"add": "+=", "subtract": "-=", "multiply": "*=", "divide": "/="}
# The dtypes of the three-operand concatenate and of `out=` (each framework keeps the
# ones it has).
SUBSET = ("bool", "u8", "u16", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "c64")
GENERATED_BY = "tools/oracles/operations/"
# where each oracle writes when no path is given (run from the repository root)
DEFAULT_OUT = "tests/data/operations/{}.json"


def case(operands, result, error=None, extra=None):
    """A case, as short as it can be written."""
    c = [list(operands), result]
    if error is not None or extra is not None:
        c.append(error)
    if extra is not None:
        c.append(extra)
    return c


def attempt(operands, thunk, limit=300):
    """Runs `thunk()` (which returns the result's dtype name) and makes the case."""
    try:
        return case(operands, thunk())
    except Exception as e:  # noqa: BLE001
        return case(operands, None, first_line(e, limit))


def failed(c):
    return len(c) > 2 and c[2] is not None


def outcome(c):
    """(result, whether it failed)"""
    return c[1], failed(c)


def fold_of_two(pair_cases, triple_cases):
    """Compares every three-operand case with the left fold of the two-operand answers
    ((a, b) first, then its result with c). Returns a summary: how many agree, and each
    triple that does not, with the fold's answer."""
    pairs = {tuple(c[0]): c for c in pair_cases}
    agree, differ, unknown = 0, [], 0
    for c in triple_cases:
        a, b, x = c[0]
        ab = pairs.get((a, b))
        if ab is None:
            unknown += 1
            continue
        if ab[1] is None:
            fold = (None, True)
        else:
            abc = pairs.get((ab[1], x))
            if abc is None:
                unknown += 1
                continue
            fold = outcome(abc)
        if fold == outcome(c):
            agree += 1
        else:
            differ.append([c[0], c[1:], "fold:", fold[0], "failed" if fold[1] else "ran"])
    return {"triples": len(triple_cases), "equal_to_left_fold": agree, "differ": len(differ),
            "not_comparable": unknown, "differing": differ}


def ordered_pairs(names):
    return list(itertools.product(names, names))


def ordered_triples(names):
    return list(itertools.product(names, names, names))


def group(op, kind, cases, options=None, **more):
    g = {"options": options or {}, "op": op, "kind": kind}
    g.update(more)
    g["cases"] = cases
    return g


def count(groups):
    return sum(len(g["cases"]) for g in groups)
