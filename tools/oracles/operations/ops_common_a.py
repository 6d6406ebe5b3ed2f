"""Helpers shared by numpy_oracle.py, array_api_oracle.py, jax_oracle.py and
keras_oracle.py in this folder (standard library only; each oracle runs in its
framework's virtual environment).

The dtype names, the `python:KIND` operands, `first_line` for error messages,
`run_children` (one process per option setting) and the line-per-group JSON writer
come from ../promotion/oracle_common.py, imported from there.

A case is `[operands, result]`, `[operands, null, error]`, or with more after the
error slot: an object `{"compute": DTYPE, "how": ...}` (or `{"warning": ...}`) and/or a
trailing marker string such as "abstract_evaluation" (see README.md).
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "promotion"))

from oracle_common import (DTYPE_NAMES, PYTHON, dtype_names, first_line, python_operands,  # noqa: E402,F401
                           run_children, write)

# The unary operations swept (promo's op names); each oracle maps them to its
# framework's function or says it has none.
UNARY = ("negative", "positive", "absolute", "sqrt", "exp", "log", "sin", "tanh", "reciprocal", "floor", "ceil",
         "round", "trunc", "sign", "square", "isnan", "isfinite", "logical_not", "bitwise_not", "real", "imag",
         "conj", "angle", "exp2", "log1p", "expm1", "sigmoid", "erf", "rsqrt")
REDUCTIONS = ("sum", "prod", "mean", "cumsum", "cumprod", "max", "min", "argmax", "any", "all", "var", "std")
DTYPE_REDUCTIONS = ("sum", "prod", "mean")
INPLACE = {"add": "+=", "subtract": "-=", "multiply": "*=", "divide": "/="}
# the dtypes of the three-operand sweeps (concatenate of three, out=), where a framework has them
COMMON = ("bool", "u8", "u16", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "c64")


def load_promotion_oracle(name):
    """tools/oracles/promotion/<name>.py as a module (its name is that of an oracle
    here too, so it is loaded by path, as `promotion_<name>`)."""
    import importlib.util
    path = os.path.join(HERE, "..", "promotion", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"promotion_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def default_out(framework):
    """tests/data/operations/<framework>.json, from the repository root."""
    return os.path.join(REPO, "tests", "data", "operations", f"{framework}.json")


def make_case(operands, result, error=None, extra=None, marker=None):
    """`[operands, result]`, with the error slot, the extra object and the marker
    appended only when one of them is there."""
    c = [list(operands), result]
    if error is not None or extra or marker:
        c.append(error)
    if extra:
        c.append(extra)
    if marker:
        c.append(marker)
    return c


def outcome(case):
    """What a case says about dtypes: its result, and whether it was refused (an
    error with no result)."""
    return case[1], case[1] is None and len(case) > 2 and case[2] is not None


class Sweep:
    """Runs cases and keeps the warnings they raised, counted per group."""

    def __init__(self):
        self.warnings = {}
        self.prefix = ""  # put before each group key (an option setting)

    def run(self, group_key, operands, thunk):
        """`thunk()` returns a result name, or (result name, extra object or None,
        error text or None, marker or None); an exception is a refusal with its first
        line. Returns the case."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = thunk()
                if not isinstance(got, tuple):
                    got = (got,)
                result, extra, error, marker = (*got, None, None, None)[:4]
                case = make_case(operands, result, error, extra, marker)
            except Exception as e:  # noqa: BLE001
                case = make_case(operands, None, first_line(e))
        for w in caught:
            text = str(w.message).splitlines()[0] if str(w.message) else ""
            key = f"{w.category.__name__}: {text}"[:200]
            bucket = self.warnings.setdefault(self.prefix + group_key, {})
            bucket[key] = bucket.get(key, 0) + 1
        return case


def drop_rank0(cases, differs, key):
    """The cases without a `scalar:` operand, if each case with one has the same
    outcome as the same case with the operands as arrays; else all of them (and
    `differs[key]` says how many differ, with examples)."""
    index = {tuple(c[0]): c for c in cases}
    kept, differ = [], []
    for c in cases:
        if not any(n.startswith("scalar:") for n in c[0]):
            kept.append(c)
            continue
        twin = index.get(tuple(n.removeprefix("scalar:") for n in c[0]))
        if twin is None:
            kept.append(c)
        elif outcome(c) != outcome(twin):
            differ.append([c[0], c[1:], twin[1:]])
    if not differ:
        return kept
    differs[key] = {"cases that differ": len(differ), "all cases kept": True,
                    "examples [operands, outcome, outcome as arrays]": differ[:10]}
    return cases


def fold_check(pairs, triples, limit=400):
    """Compares each three-operand case with the left fold of the two-operand cases:
    (a, b, c) against ((a, b) -> r, then (r, c)), a refusal of either step being a
    refusal. Returns a summary with every triple that differs (up to `limit`)."""
    pair = {tuple(c[0]): c for c in pairs}
    same, differ, unknown = 0, [], 0
    for c in triples:
        a, b, z = c[0]
        first = pair.get((a, b))
        if first is None:
            unknown += 1
            continue
        if first[1] is None:
            fold = (None, True)
        else:
            second = pair.get((first[1].removeprefix("weak:"), z))
            if second is None:
                unknown += 1
                continue
            fold = outcome(second)
        if fold == outcome(c):
            same += 1
        else:
            differ.append([c[0], c[1:2] if c[1] else [None, "refused"], [fold[0]] if fold[0] else [None, "refused"]])
    out = {"triples": len(triples), "equal_to_left_fold": same, "differ": len(differ),
           "differing [operands, three-operand result, left fold]": differ[:limit]}
    if unknown:
        out["not_comparable"] = unknown
    return out


def count_cases(groups):
    return sum(len(g["cases"]) for g in groups)


def functions_map(groups):
    """op -> the function called; where an op appears under more than one kind,
    kind -> function."""
    by_op = {}
    for g in groups:
        by_op.setdefault(g["op"], {})[g["kind"]] = g["function"]
    return {op: (next(iter(k.values())) if len(set(k.values())) == 1 and len(k) == 1 else k)
            for op, k in by_op.items()}
