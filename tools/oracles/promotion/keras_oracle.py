"""Dump what Keras 3 with the numpy backend really does when a `keras.ops` binary
function meets two operands of different dtypes, to tests/data/promotion/keras.json.

    python tools/oracles/promotion/keras_oracle.py tests/data/promotion/keras.json

Settings, fixed (Keras' defaults with the numpy backend): `KERAS_BACKEND=numpy` and
`config.floatx()` float32, set before keras is imported (KERAS_HOME points at an empty
directory, so no ~/.keras/keras.json can change them). The backend decides
`BIT64_TO_BIT32_DTYPE` and `PYTHON_DTYPES_MAP` in keras/src/backend/common/dtypes.py
at import; floatx decides what a weak result becomes (`_resolve_weak_type`).

Dtypes: every one of `ALLOWED_DTYPES` in keras/src/backend/common/dtypes.py that
`keras.ops.ones` can make on this backend ('string' cannot: `not_dtypes`).

Operands: `DTYPE` is `keras.ops.ones(2, dtype)` (a NumPy array), `scalar:DTYPE`
`keras.ops.ones((), dtype)`, `python:KIND` the literal True, 3, 2.5 or 1+2j; Python
with Python too. Every op is the keras.ops function (`keras.ops.add`,
`keras.ops.divide`, `keras.ops.floor_divide`, `keras.ops.mod`, `keras.ops.power`,
`keras.ops.maximum`, `keras.ops.equal`, `keras.ops.less`, `keras.ops.bitwise_and`,
`keras.ops.logical_and`, `keras.ops.where(True, a, b)`, `keras.ops.arctan2`), run
eagerly; the result is the dtype of `np.asarray(result)`. The Python operators on
NumPy arrays are NumPy's, not Keras', so they are not swept.

Keras' promotion does not look at rank, and to keep the data small only `add` keeps
every operand kind; for each other op the rank-0 (`scalar:`) cases are run and
compared with the same case on shape-[2] operands, and are left out if all agree
(`rank0_differs` says where they do not).

The symbolic path (`keras.KerasTensor` operands, each op's `compute_output_spec`) is
checked against the eager one on every tensor pair of every op (`symbolic_vs_eager`
lists where they differ).
"""
import os
import sys
import tempfile
import time
import warnings

from oracle_common import count_cases, drop_identical_ops, drop_rank0, dtype_names, first_line, python_operands, sweep, write

NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
    "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
)
OPS = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide",
    "floor_divide": "floor_divide", "remainder": "mod", "pow": "power", "maximum": "maximum",
    "equal": "equal", "less_than": "less", "bitwise_and": "bitwise_and", "logical_and": "logical_and",
    "where": "where", "atan2": "arctan2",
}
FULL_RANK_OPS = ("add",)


def setup():
    """Imports Keras with the numpy backend and float32 floatx; returns (keras, np,
    name_of, dtypes, not_dtypes, tensor, zero_d)."""
    os.environ["KERAS_BACKEND"] = "numpy"
    os.environ["KERAS_HOME"] = tempfile.mkdtemp(prefix="keras_home_")
    os.environ.pop("KERAS_FLOATX", None)
    import keras
    import numpy as np
    from keras.src.backend.common import dtypes as kdt

    assert keras.backend.backend() == "numpy" and keras.config.floatx() == "float32"
    assert tuple(kdt.ALLOWED_DTYPES) == tuple(sorted(set(kdt.ALLOWED_DTYPES), key=kdt.ALLOWED_DTYPES.index))

    def name_of(dtype):
        n = np.dtype(dtype).name
        return NAMES.get(n, n)

    not_dtypes, tensor, zero_d = {}, [], []
    for n in kdt.ALLOWED_DTYPES:
        try:
            t, s = keras.ops.ones(2, n), keras.ops.ones((), n)
        except Exception as e:  # noqa: BLE001
            not_dtypes[n] = f"keras.ops.ones(2, {n!r}): {first_line(e)}"
            continue
        assert n in NAMES, n
        assert t.dtype.name == n and s.dtype.name == n, (n, t.dtype)
    for n in NAMES:
        tensor.append((NAMES[n], keras.ops.ones(2, n)))
        zero_d.append(("scalar:" + NAMES[n], keras.ops.ones((), n)))
    return keras, np, name_of, list(NAMES.values()), not_dtypes, tensor, zero_d


def header(script, keras, np):
    """The keys every Keras data file begins with."""
    import ml_dtypes
    return {"framework": "keras", "version": keras.__version__,
            "versions": {"keras": keras.__version__, "numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__},
            "generated_by": f"tools/oracles/promotion/{script}", "backend": keras.backend.backend(),
            "floatx": keras.config.floatx()}


def main(out_path):
    start = time.time()
    keras, np, name_of, dtypes, not_dtypes, tensor, zero_d = setup()
    operands = tensor + zero_d + python_operands()

    fns = {op: getattr(keras.ops, f) for op, f in OPS.items()}
    fns["where"] = lambda a, b: keras.ops.where(True, a, b)
    groups, seen_warnings, rank_differs, symbolic = [], {}, {}, {}
    for op, fn in fns.items():
        t0 = time.time()
        cases, seen = sweep(operands, lambda a, b: name_of(np.asarray(fn(a, b)).dtype), python_pairs=True)
        if seen:
            seen_warnings[op] = seen
        # the symbolic path: compute_output_spec on KerasTensors of the same dtypes
        eager = {(c[0], c[1]): c for c in cases}
        differ = []
        for (ln, a), (rn, b) in ((x, y) for x in tensor for y in tensor):
            try:
                got = [name_of(fn(keras.KerasTensor((2,), a.dtype.name), keras.KerasTensor((2,), b.dtype.name)).dtype)]
            except Exception as e:  # noqa: BLE001
                got = [None, first_line(e)]
            want = eager[(ln, rn)]
            if (got[0], len(got) > 1) != (want[2], len(want) > 3):
                differ.append([ln, rn, want[2:], got])
        symbolic[op] = {"compared": len(tensor) ** 2, "differ": len(differ), "examples": differ[:10]}
        if op not in FULL_RANK_OPS:
            cases = drop_rank0(op, cases, rank_differs)
        groups.append({"options": {}, "op": op, "cases": cases})
        print(f"keras {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    doc = {
        **header("keras_oracle.py", keras, np),
        "dtypes": dtypes,
        "not_dtypes": not_dtypes,
        "functions": {op: (f"keras.ops.{f}" if op != "where" else "keras.ops.where(True, a, b)")
                      for op, f in OPS.items()},
        "rank0_cases_left_out": "for every op but add, the cases with a `scalar:` operand are swept and compared "
                                "with the same cases on shape-[2] operands, and left out if they all agree; an op "
                                "where some differ (rank0_differs) keeps them all",
        "rank0_differs": rank_differs,
        "symbolic_vs_eager": symbolic,
        "warnings": seen_warnings,
    }
    doc["groups"], doc["ops_left_out_as_identical"] = drop_identical_ops(groups)
    write(out_path, doc)
    print(f"keras {keras.__version__} (numpy backend): {len(dtypes)} dtypes, {count_cases(doc['groups'])} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main(sys.argv[1])
