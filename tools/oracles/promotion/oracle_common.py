"""Helpers shared by the Python oracles of NumPy, PyTorch, JAX, the Array API and
TensorFlow (each runs in its own virtual environment; this file needs only the
standard library).

An oracle builds a list of operands, each `(name, value)` with `name` in the data
format of README.md (`DTYPE`, `scalar:DTYPE`, `weak:DTYPE`, `python:KIND`), and a
function `run(op, a, b)` that performs the operation and returns the result's name
(or raises). `sweep` runs every ordered pair and turns each outcome into a case.
"""
import itertools
import json
import os
import re
import subprocess
import sys
import warnings

# The Python literal behind each `python:KIND` operand.
PYTHON = {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}
# Every dtype name the Python frameworks give (NumPy's, ml_dtypes', jax.numpy's,
# PyTorch's, TensorFlow's) -> promo's canonical name.
DTYPE_NAMES = {
    "bool": "bool", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "int8": "i8",
    "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16", "bfloat16": "bf16",
    "float32": "f32", "float64": "f64", "complex64": "c64", "complex128": "c128",
    "float8_e4m3fn": "f8e4m3fn", "float8_e4m3fnuz": "f8e4m3fnuz", "float8_e5m2": "f8e5m2",
    "float8_e5m2fnuz": "f8e5m2fnuz", "float8_e8m0fnu": "f8e8m0", "float4_e2m1fn": "f4e2m1",
    "int4": "i4", "uint4": "u4", "uint2": "u2", "float8_e4m3": "f8e4m3", "float8_e3m4": "f8e3m4",
    "float8_e4m3b11fnuz": "f8e4m3b11fnuz", "float6_e2m3fn": "f6e2m3fn", "float6_e3m2fn": "f6e3m2fn",
    "int2": "i2", "int1": "i1", "uint1": "u1", "complex32": "c32", "bcomplex32": "bc32",
    # PyTorch's shell dtypes (no CPU kernel computes in them)
    "uint3": "u3", "uint5": "u5", "uint6": "u6", "uint7": "u7", "int3": "i3", "int5": "i5", "int6": "i6",
    "int7": "i7",
    # PyTorch's bits dtypes (uninterpreted bits: copied, never computed with)
    "bits8": "bits8", "bits16": "bits16", "bits1x8": "bits1x8", "bits2x4": "bits2x4", "bits4x2": "bits4x2",
    # results only (NumPy's x87 extended precision; no oracle sweeps them)
    "float128": "f128", "complex256": "c256",
}
# Python's binary operators by symbol.
OPERATORS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
}


def python_operands():
    """The `python:KIND` operands, each the literal of PYTHON, in that order."""
    return [("python:" + k, v) for k, v in PYTHON.items()]


def run_children(script, out_path, settings):
    """Runs `script --child ARGS... PART` for each `(tag, ARGS)` of `settings`, each in
    a process of its own, PART being `out_path.TAG.part`, and returns what each child
    wrote to its PART (as JSON, in the order of `settings`; the file is removed)."""
    parts = []
    for tag, args in settings:
        part = f"{out_path}.{tag}.part"
        # messages that list a set of dtypes depend on string hashing: fix its seed
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run([sys.executable, script, "--child", *args, part], check=True, env=env)
        with open(part) as f:
            parts.append(json.load(f))
        os.remove(part)
    return parts


def dtype_names(*names):
    """The `DTYPE_NAMES` of `names`, in that order: the dtypes an oracle sweeps."""
    return {n: DTYPE_NAMES[n] for n in names}


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9'`)\]>\"])\. (?=[A-Z])")


def first_line(e, limit=300):
    """The first sentence of the first non-empty line of an exception's message,
    prefixed with its type unless the message already names it. What follows the
    first sentence is advice or a restatement (NumPy's "This means that no common
    DType exists ...", JAX's "Try explicitly casting ..."), and would make up most of
    the data if kept. Memory addresses are dropped so the data stays the same from run
    to run."""
    text = str(e).strip()
    line = next((x.strip() for x in text.splitlines() if x.strip()), "")
    line = _ADDRESS.sub("", line)
    m = _SENTENCE_END.search(line)
    if m and m.start() >= 20:
        line = line[:m.start() + 1]
    name = type(e).__name__
    if not line:
        return name
    return (line if line.startswith(name) else f"{name}: {line}")[:limit]


def is_python(name):
    return name.startswith("python:")


def sweep(operands, run, python_pairs=False, keep=None):
    """Every ordered pair of operands (Python with Python only if `python_pairs`), in
    the order given; `keep(lhs, rhs)` may leave a pair out. Returns
    (cases, warnings seen): a case is `[lhs, rhs, result]` or `[lhs, rhs, null, error]`."""
    cases, seen = [], {}
    for (ln, a), (rn, b) in itertools.product(operands, operands):
        if is_python(ln) and is_python(rn) and not python_pairs:
            continue
        if keep is not None and not keep(ln, rn):
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                cases.append([ln, rn, run(a, b)])
            except Exception as e:  # noqa: BLE001
                cases.append([ln, rn, None, first_line(e)])
        for w in caught:
            key = f"{w.category.__name__}: {str(w.message).splitlines()[0] if str(w.message) else ''}"[:300]
            seen[key] = seen.get(key, 0) + 1
    return cases, seen


def outcome(case):
    """What a case says about dtypes: the result, and whether the call failed."""
    return case[2], len(case) > 3


# The ops every oracle sweeps where the framework has them; never left out.
REQUIRED_OPS = ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "maximum",
                "equal", "less_than", "bitwise_and", "logical_and")


def drop_identical_ops(groups, drop=True):
    """Finds each group whose every case has the same outcome (result dtype, and
    whether the call failed; the error text differs only by naming the op) as an
    earlier group with the same options, and leaves it out if `drop` and it is not
    one of REQUIRED_OPS. Returns (groups kept, [{options, op, same_as, cases, kept}])."""
    kept, same = [], []
    for g in groups:
        twin = next((k for k in kept if k["options"] == g["options"]
                     and [c[:2] for c in k["cases"]] == [c[:2] for c in g["cases"]]
                     and all(outcome(a) == outcome(b) for a, b in zip(k["cases"], g["cases"]))), None)
        keep = twin is None or not drop or g["op"] in REQUIRED_OPS
        if keep:
            kept.append(g)
        if twin is not None:
            same.append({"options": g["options"], "op": g["op"], "same_as": twin["op"], "cases": len(g["cases"]),
                         "kept": keep})
    return kept, same


def drop_rank0(op, cases, differs):
    """The cases without a `scalar:` operand, if every case with one has the same
    outcome as the same case on shape-[2] operands; else every case (and the number of
    cases that differ, with examples, in `differs`)."""
    index = {(c[0], c[1]): c for c in cases}
    kept, differ = [], []
    for c in cases:
        if not (c[0].startswith("scalar:") or c[1].startswith("scalar:")):
            kept.append(c)
            continue
        twin = index[(c[0].removeprefix("scalar:"), c[1].removeprefix("scalar:"))]
        if (c[2], len(c) > 3) != (twin[2], len(twin) > 3):
            differ.append([c[0], c[1], c[2:], twin[2:]])
    if not differ:
        return kept
    differs[op] = {"cases that differ": len(differ), "all cases kept": True,
                   "examples [lhs, rhs, result, result on shape [2]]": differ[:: max(1, len(differ) // 10)][:10]}
    return cases


def count_cases(groups):
    return sum(len(g["cases"]) for g in groups)


def write(out_path, doc):
    """Compact JSON with each group on a line of its own (the rest as one line per
    top-level key), so that a change shows up as a readable diff."""
    keys = [k for k in doc if k != "groups"]
    with open(out_path, "w") as f:
        f.write("{\n")
        for k in keys:
            f.write(json.dumps(k) + ":" + json.dumps(doc[k], separators=(",", ":"), sort_keys=False) + ",\n")
        f.write('"groups":[\n')
        groups = doc.get("groups", [])
        for i, g in enumerate(groups):
            f.write(json.dumps(g, separators=(",", ":")) + (",\n" if i + 1 < len(groups) else "\n"))
        f.write("]}\n")
