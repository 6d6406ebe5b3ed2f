"""Dump what NumPy 2 (NEP 50) really does when a ufunc meets two operands of
different dtypes, with ml_dtypes imported (bfloat16, the float8 family, float6,
float4, int1/2/4, uint1/2/4, complex32, bcomplex32), to tests/data/promotion/numpy.json.

    python tools/oracles/promotion/numpy_oracle.py tests/data/promotion/numpy.json

Operands: `DTYPE` is `np.ones(2, dtype)`, `scalar:DTYPE` is `np.ones((), dtype)` (a
0-d array), `python:KIND` is the literal True, 3, 2.5 or 1+2j passed as it is. Every
op goes through its function (`np.add(a, b)`, `np.where(True, a, b)`); the result is
the returned array's (or NumPy scalar's) dtype. Side information: `np.promote_types`
and `np.result_type` for every pair, where the Python operator differs from the
ufunc, and where a NumPy scalar (`np.int8(1)`, `ml_dtypes.bfloat16(1)`) differs from
a 0-d array.
"""
import itertools
import sys
import time
import warnings

import ml_dtypes
import numpy as np

from oracle_common import (DTYPE_NAMES, OPERATORS, PYTHON, count_cases, drop_identical_ops, first_line,
                           python_operands, sweep, write)

# NumPy dtype name -> promo's canonical name (names promo lacks use the agreed ones).
NAMES = DTYPE_NAMES
BUILTIN = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
           "float16", "float32", "float64", "complex64", "complex128"]


def where(a, b):
    return np.where(True, a, b)


OPS = {
    "add": (np.add, "+"), "subtract": (np.subtract, "-"), "multiply": (np.multiply, "*"),
    "divide": (np.true_divide, "/"), "floor_divide": (np.floor_divide, "//"),
    "remainder": (np.remainder, "%"), "pow": (np.power, "**"),
    "maximum": (np.maximum, None), "minimum": (np.minimum, None), "fmax": (np.fmax, None), "fmin": (np.fmin, None),
    "equal": (np.equal, "=="), "not_equal": (np.not_equal, "!="), "less_than": (np.less, "<"),
    "less_equal": (np.less_equal, "<="), "greater_than": (np.greater, ">"), "greater_equal": (np.greater_equal, ">="),
    "bitwise_and": (np.bitwise_and, "&"), "bitwise_or": (np.bitwise_or, "|"), "bitwise_xor": (np.bitwise_xor, "^"),
    "logical_and": (np.logical_and, None), "logical_or": (np.logical_or, None), "logical_xor": (np.logical_xor, None),
    "where": (where, None), "logaddexp": (np.logaddexp, None), "nextafter": (np.nextafter, None),
    "atan2": (np.arctan2, None),
}


def name_of(dtype):
    n = np.dtype(dtype).name
    return NAMES.get(n, n)


def extension_types():
    """Every scalar type ml_dtypes registers with NumPy, by NumPy dtype name."""
    out = {}
    for attr in dir(ml_dtypes):
        t = getattr(ml_dtypes, attr)
        if isinstance(t, type) and not attr.startswith("_"):
            try:
                d = np.dtype(t)
            except TypeError:
                continue
            if d.name == attr:
                out[attr] = t
    return out


def value(dtype, shape):
    """Ones, or zeros where 1 is not representable (int1 holds -1 and 0: its "one"
    is -1, and -1 as an integer exponent makes np.power raise, a value fact)."""
    a = np.ones(shape, dtype)
    return a if np.all(a.astype(np.float64) == 1) else np.zeros(shape, dtype)


def result_name(r):
    return name_of(np.asarray(r).dtype) if not hasattr(r, "dtype") else name_of(r.dtype)


def setup():
    """The dtypes and operands. Returns (ml_dtypes' types by NumPy dtype name, dtype
    names in order, np.dtype by name, promo's names in order, operands)."""
    np.seterr(all="ignore")
    ext = extension_types()
    order = BUILTIN + [n for n in NAMES if n in ext] + sorted(n for n in ext if n not in NAMES)
    types = {n: (np.dtype(n) if n in BUILTIN else np.dtype(ext[n])) for n in order}
    dtypes = [NAMES.get(n, n) for n in order]
    tensor = [(NAMES.get(n, n), value(types[n], (2,))) for n in order]
    zero_d = [("scalar:" + NAMES.get(n, n), value(types[n], ())) for n in order]
    return ext, order, types, dtypes, tensor + zero_d + python_operands()


def header(script, dtypes):
    """The keys every NumPy data file begins with."""
    return {"framework": "numpy", "version": np.__version__, "ml_dtypes_version": ml_dtypes.__version__,
            "generated_by": f"tools/oracles/promotion/{script}", "dtypes": dtypes}


def main(out_path):
    start = time.time()
    ext, order, types, dtypes, operands = setup()
    unnamed = sorted(n for n in ext if n not in NAMES)
    not_dtypes = {
        "longdouble": f"np.longdouble ({np.dtype(np.longdouble).name}, x87 extended precision on x86-64): "
                      "promo has no name for it; not swept (it appears as a result f128/c256 only)",
        "clongdouble": f"np.clongdouble ({np.dtype(np.clongdouble).name}): not swept, as longdouble",
        "datetime64/timedelta64/str/bytes/object/void": "not numeric: not swept",
    }

    groups, seen_warnings = [], {}
    op_diffs, scalar_diffs = [], []
    # indexing a 0-d array with () gives its NumPy scalar (np.int8, ml_dtypes.bfloat16, ...)
    np_scalars = {"scalar:" + NAMES.get(n, n): value(types[n], ())[()] for n in order}
    for op, (fn, sym) in OPS.items():
        t0 = time.time()
        cases, seen = sweep(operands, lambda a, b: result_name(fn(a, b)), python_pairs=True)
        for k, v in seen.items():
            seen_warnings.setdefault(op, {})[k] = v
        groups.append({"options": {}, "op": op, "cases": cases})
        index = {(c[0], c[1]): c[2:] for c in cases}
        # the Python operator, on the same operands
        if sym is not None:
            opc, _ = sweep(operands, lambda a, b: result_name(OPERATORS[sym](a, b)), python_pairs=False)
            for c in opc:
                if c[2:] != index[(c[0], c[1])] and (c[2] or index[(c[0], c[1])][0]):
                    op_diffs.append({"op": op, "operator": sym, "lhs": c[0], "rhs": c[1],
                                     "function": index[(c[0], c[1])], "with_operator": c[2:]})
        # a NumPy scalar in place of each 0-d array
        swapped = [(n, np_scalars[n]) if n in np_scalars else (n, v) for n, v in operands]
        sc, _ = sweep(swapped, lambda a, b: result_name(fn(a, b)), python_pairs=False,
                      keep=lambda ln, rn: ln.startswith("scalar:") or rn.startswith("scalar:"))
        for c in sc:
            if c[2:] != index[(c[0], c[1])]:
                scalar_diffs.append({"op": op, "lhs": c[0], "rhs": c[1], "zero_d_array": index[(c[0], c[1])],
                                     "numpy_scalar": c[2:]})
        print(f"numpy {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    promote_types, result_type = {}, {}
    for l, r in itertools.product(order, order):
        key = f"{NAMES.get(l, l)},{NAMES.get(r, r)}"
        try:
            promote_types[key] = name_of(np.promote_types(types[l], types[r]))
        except Exception as e:  # noqa: BLE001
            promote_types[key] = "error: " + first_line(e)
    for n, (k, v) in itertools.product(order, PYTHON.items()):
        for key, args in ((f"{NAMES.get(n, n)},python:{k}", (types[n], v)),
                          (f"python:{k},{NAMES.get(n, n)}", (v, types[n]))):
            try:
                result_type[key] = name_of(np.result_type(*args))
            except Exception as e:  # noqa: BLE001
                result_type[key] = "error: " + first_line(e)
    # np.result_type of a dtype with a 0-d array: NEP 50 says no value-based casting
    for l, r in itertools.product(order, order):
        key = f"{NAMES.get(l, l)},scalar:{NAMES.get(r, r)}"
        try:
            got = name_of(np.result_type(types[l], np.ones((), types[r])))
        except Exception as e:  # noqa: BLE001
            got = "error: " + first_line(e)
        plain = promote_types[f"{NAMES.get(l, l)},{NAMES.get(r, r)}"]
        if got.startswith("error:") != plain.startswith("error:") or (not got.startswith("error:") and got != plain):
            result_type[key] = got
    longdouble = {}
    for n in order:
        for ld in (np.longdouble, np.clongdouble):
            key = f"{name_of(ld)},{NAMES.get(n, n)}"
            try:
                longdouble[key] = name_of(np.promote_types(ld, types[n]))
            except Exception as e:  # noqa: BLE001
                longdouble[key] = "error: " + first_line(e)

    doc = {
        **header("numpy_oracle.py", dtypes),
        "dtype_sources": {NAMES.get(n, n): ("numpy" if n in BUILTIN else f"ml_dtypes.{n}") for n in order},
        "not_dtypes": not_dtypes,
        "ml_dtypes_types_without_agreed_name": unnamed,
        "functions": {op: (fn.__name__ if op != "where" else "np.where(True, a, b)") for op, (fn, _) in OPS.items()},
        "promote_types": promote_types,
        "result_type_python_and_nondefault_0d": result_type,
        "promote_types_longdouble": longdouble,
        "operator_vs_function": op_diffs,
        "numpy_scalar_vs_0d_array": scalar_diffs,
        "warnings": seen_warnings,
    }
    doc["groups"], doc["ops_left_out_as_identical"] = drop_identical_ops(groups)
    write(out_path, doc)
    print(f"numpy {np.__version__} + ml_dtypes {ml_dtypes.__version__}: {len(dtypes)} dtypes, "
          f"{count_cases(doc['groups'])} cases kept of {count_cases(groups)}, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main(sys.argv[1])
