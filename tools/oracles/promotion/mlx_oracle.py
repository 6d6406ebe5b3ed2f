"""Dump what MLX (CPU) does when a binary function meets two operands of different
dtypes, and what `mx.result_type` answers, to tests/data/promotion/mlx.json.

    python tools/oracles/promotion/mlx_oracle.py tests/data/promotion/mlx.json

`pip install "mlx[cpu]"` is MLX's CPU build for Linux; everything runs on `mx.cpu`.

Operands: `DTYPE` is `mx.ones(2, dtype)`, `scalar:DTYPE` is `mx.ones((), dtype)`,
`python:KIND` the literal True, 3, 2.5 or 1+2j, passed to the function as it is (every
mx function takes a Python scalar for either operand), Python with Python too. Every op
is its function (`mx.add`, `mx.divide`, `mx.floor_divide`, `mx.remainder`, `mx.power`,
`mx.less`, `mx.bitwise_and`, `mx.logical_and`, `mx.where(True, a, b)`, `mx.arctan2`,
...), and the result is evaluated (`mx.eval`), so a dtype the CPU build has no kernel for
fails there; the result is the output's dtype. The Python operator gives the same
answers as the function (`operator_vs_function` lists where it does not).
`result_type` is `mx.result_type(a, b)` on the same operands.
"""
import itertools
import sys
import time

import mlx.core as mx

from oracle_common import (OPERATORS, count_cases, drop_identical_ops, dtype_names, first_line, python_operands,
                           sweep, write)

NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "bfloat16",
    "float32", "float64", "complex64",
)
OPS = {
    "add": ("add", "+"), "subtract": ("subtract", "-"), "multiply": ("multiply", "*"), "divide": ("divide", "/"),
    "floor_divide": ("floor_divide", "//"), "remainder": ("remainder", "%"), "pow": ("power", "**"),
    "maximum": ("maximum", None), "minimum": ("minimum", None), "equal": ("equal", "=="),
    "not_equal": ("not_equal", "!="), "less_than": ("less", "<"), "less_equal": ("less_equal", "<="),
    "greater_than": ("greater", ">"), "greater_equal": ("greater_equal", ">="),
    "bitwise_and": ("bitwise_and", "&"), "bitwise_or": ("bitwise_or", "|"), "bitwise_xor": ("bitwise_xor", "^"),
    "logical_and": ("logical_and", None), "logical_or": ("logical_or", None), "where": ("where", None),
    "logaddexp": ("logaddexp", None), "atan2": ("arctan2", None),
}


def name_of(dtype):
    s = str(dtype).removeprefix("mlx.core.")
    return NAMES.get(s, NAMES.get(s.rstrip("_"), s))


def attr(n):
    return mx.bool_ if n == "bool" else getattr(mx, n)


def function(op):
    name = OPS[op][0]
    if name == "where":
        return lambda a, b: mx.where(True, a, b)
    return getattr(mx, name)


def evaluated(r):
    mx.eval(r)
    return name_of(r.dtype)


def setup():
    order = list(NAMES)
    tensor = [(NAMES[n], mx.ones(2, dtype=attr(n))) for n in order]
    zero_d = [("scalar:" + NAMES[n], mx.ones((), dtype=attr(n))) for n in order]
    mx.eval([t for _, t in tensor + zero_d])
    return order, tensor + zero_d + python_operands()


def main(out_path):
    start = time.time()
    mx.set_default_device(mx.cpu)
    order, operands = setup()
    groups, diffs, seen_warnings = [], [], {}
    for op, (_, sym) in OPS.items():
        t0 = time.time()
        fn = function(op)
        cases, seen = sweep(operands, lambda a, b: evaluated(fn(a, b)), python_pairs=True)
        if seen:
            seen_warnings[op] = seen
        groups.append({"options": {}, "op": op, "cases": cases})
        if sym is not None:
            index = {(c[0], c[1]): c for c in cases}
            opc, _ = sweep(operands, lambda a, b: evaluated(OPERATORS[sym](a, b)))
            for c in opc:
                f = index[(c[0], c[1])]
                if (c[2], len(c) > 3) != (f[2], len(f) > 3):
                    diffs.append({"op": op, "operator": sym, "lhs": c[0], "rhs": c[1], "function": f[2:],
                                  "with_operator": c[2:]})
        print(f"mlx {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    cases, _ = sweep(operands, lambda a, b: name_of(mx.result_type(a, b)), python_pairs=True)
    groups.append({"options": {}, "op": "result_type", "cases": cases})
    # result_type on dtypes as well as arrays: the same answers
    dtype_vs_array = []
    for l, r in itertools.product(order, order):
        try:
            d = name_of(mx.result_type(attr(l), attr(r)))
        except Exception as e:  # noqa: BLE001
            d = "error: " + first_line(e)
        a = next(c for c in cases if c[0] == NAMES[l] and c[1] == NAMES[r])
        if d != a[2]:
            dtype_vs_array.append([NAMES[l], NAMES[r], d, a[2:]])

    kept, same = drop_identical_ops(groups)
    doc = {
        "framework": "mlx",
        "version": mx.__version__,
        "generated_by": "tools/oracles/promotion/mlx_oracle.py",
        "device": str(mx.default_device()),
        "dtypes": [NAMES[n] for n in order],
        "functions": {op: (f"mx.{f}" if f != "where" else "mx.where(True, a, b)") for op, (f, _) in OPS.items()},
        "operator_vs_function": diffs,
        "result_type_of_dtypes_vs_arrays": dtype_vs_array,
        "warnings": seen_warnings,
        "ops_left_out_as_identical": same,
        "groups": kept,
    }
    write(out_path, doc)
    print(f"mlx {mx.__version__}: {len(order)} dtypes, {count_cases(kept)} cases kept of {count_cases(groups)}, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
