"""Dump what array-api-strict (the reference implementation of the Python Array API
standard) does when a binary function meets two operands of different dtypes, to
tests/data/promotion/array_api.json.

    python tools/oracles/promotion/array_api_oracle.py tests/data/promotion/array_api.json

The standard version is set to the newest released one array-api-strict supports
(`set_array_api_strict_flags(api_version=...)`; the draft is left alone). Operands:
`DTYPE` is `xp.ones(2, dtype=...)`, `scalar:DTYPE` is `xp.ones((), dtype=...)`,
`python:KIND` the literal True, 3, 2.5 or 1+2j, passed to the function as it is (the
standard allows a Python scalar for either operand of the elementwise functions since
2024.12). `where` is `xp.where(xp.asarray(True), a, b)`. Side information: where the
Python operator differs from the function, and what older standard versions do
differently for add.
"""
import itertools
import sys
import time
import warnings

import array_api_strict as xp
from array_api_strict import _flags

from oracle_common import (OPERATORS, PYTHON, count_cases, drop_identical_ops, dtype_names, first_line,
                           python_operands, sweep, write)

NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float32",
    "float64", "complex64", "complex128",
)
OPS = {
    "add": ("add", "+"), "subtract": ("subtract", "-"), "multiply": ("multiply", "*"),
    "divide": ("divide", "/"), "floor_divide": ("floor_divide", "//"), "remainder": ("remainder", "%"),
    "pow": ("pow", "**"), "maximum": ("maximum", None), "minimum": ("minimum", None),
    "equal": ("equal", "=="), "not_equal": ("not_equal", "!="), "less_than": ("less", "<"),
    "less_equal": ("less_equal", "<="), "greater_than": ("greater", ">"), "greater_equal": ("greater_equal", ">="),
    "bitwise_and": ("bitwise_and", "&"), "bitwise_or": ("bitwise_or", "|"), "bitwise_xor": ("bitwise_xor", "^"),
    "logical_and": ("logical_and", None), "logical_or": ("logical_or", None), "logical_xor": ("logical_xor", None),
    "where": ("where", None), "logaddexp": ("logaddexp", None), "nextafter": ("nextafter", None),
    "atan2": ("atan2", None),
}


def name_of(dtype):
    s = str(dtype).replace("array_api_strict.", "")
    return NAMES.get(s, s)


def function(op):
    name = OPS[op][0]
    if name == "where":
        cond = xp.asarray(True)
        return lambda a, b: xp.where(cond, a, b)
    return getattr(xp, name)


def setup():
    """Sets the newest released standard version and builds the operands. Returns
    (newest version, flags, dtype names in order, xp dtype by name, operands)."""
    newest = max(_flags.supported_versions)
    xp.set_array_api_strict_flags(api_version=newest)
    flags = xp.get_array_api_strict_flags()
    order = [n for n in NAMES if hasattr(xp, n)]
    types = {n: getattr(xp, n) for n in order}
    tensor = [(NAMES[n], xp.ones(2, dtype=types[n])) for n in order]
    zero_d = [("scalar:" + NAMES[n], xp.ones((), dtype=types[n])) for n in order]
    return newest, flags, order, types, tensor + zero_d + python_operands()


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    newest, flags, order, types, operands = setup()

    groups, diffs = [], []
    options = {"api_version": flags["api_version"]}
    for op, (_, sym) in OPS.items():
        fn = function(op)
        cases, _ = sweep(operands, lambda a, b: name_of(fn(a, b).dtype))
        groups.append({"options": options, "op": op, "cases": cases})
        if sym is not None:
            index = {(c[0], c[1]): c for c in cases}
            opc, _ = sweep(operands, lambda a, b: name_of(OPERATORS[sym](a, b).dtype))
            for c in opc:
                f = index[(c[0], c[1])]
                if (c[2], len(c) > 3) != (f[2], len(f) > 3):
                    diffs.append({"op": op, "operator": sym, "lhs": c[0], "rhs": c[1], "function": f[2:],
                                  "with_operator": c[2:]})

    # what the older versions of the standard change, for add
    older = {}
    base = {(c[0], c[1]): c[2:] for c in groups[0]["cases"]}
    for version in sorted(_flags.supported_versions):
        if version == newest:
            continue
        xp.set_array_api_strict_flags(api_version=version)
        cases, _ = sweep(operands, lambda a, b: name_of(xp.add(a, b).dtype))
        changed = [c for c in cases if (c[2], len(c) > 3) != (base[(c[0], c[1])][0], len(base[(c[0], c[1])]) > 1)]
        older[version] = {"cases_that_differ": len(changed), "examples": changed[:8]}
    xp.set_array_api_strict_flags(api_version=newest)

    promote = {}
    for l, r in itertools.product(order, order):
        try:
            promote[f"{NAMES[l]},{NAMES[r]}"] = name_of(xp.result_type(types[l], types[r]))
        except Exception as e:  # noqa: BLE001
            promote[f"{NAMES[l]},{NAMES[r]}"] = "error: " + first_line(e)
    for n, (k, v) in itertools.product(order, PYTHON.items()):
        for key, args in ((f"{NAMES[n]},python:{k}", (types[n], v)), (f"python:{k},{NAMES[n]}", (v, types[n]))):
            try:
                promote[key] = name_of(xp.result_type(*args))
            except Exception as e:  # noqa: BLE001
                promote[key] = "error: " + first_line(e)

    kept, same = drop_identical_ops(groups)
    doc = {
        "framework": "array_api",
        "version": xp.__version__,
        "generated_by": "tools/oracles/promotion/array_api_oracle.py",
        "package": "array-api-strict",
        "api_version": flags["api_version"],
        "supported_api_versions": list(_flags.supported_versions),
        "draft_api_version": getattr(_flags, "draft_version", None),
        "flags": {k: (list(v) if isinstance(v, tuple) else v) for k, v in flags.items()},
        "dtypes": [NAMES[n] for n in order],
        "not_dtypes": {"f16": "not in the standard", "bf16": "not in the standard"},
        "functions": {op: (f"xp.{f}" if op != "where" else "xp.where(xp.asarray(True), a, b)")
                      for op, (f, _) in OPS.items()},
        "result_type": promote,
        "operator_vs_function": diffs,
        "older_api_versions_add": older,
        "ops_left_out_as_identical": same,
        "groups": kept,
    }
    write(out_path, doc)
    print(f"array-api-strict {xp.__version__} (standard {flags['api_version']}): {len(order)} dtypes, "
          f"{count_cases(kept)} cases kept of {count_cases(groups)}, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
