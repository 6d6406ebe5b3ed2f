"""Dump what NumPy's own promotion functions, `np.result_type(a, b)` and
`np.promote_types(a, b)`, answer (with ml_dtypes imported), to
tests/data/promotion/functions/numpy.json.

    python tools/oracles/promotion/numpy_functions_oracle.py tests/data/promotion/functions/numpy.json

The operands are numpy_oracle.py's, over the same 34 dtypes: `DTYPE` is
`np.ones(2, dtype)`, `scalar:DTYPE` `np.ones((), dtype)` (zeros for int1), `python:KIND`
the literal True, 3, 2.5 or 1+2j; Python with Python too. `result_type` is given the
operands as they are. `promote_types` takes dtypes only: an array or 0-d array is
given as its `.dtype`, and a Python scalar as it is, so that what NumPy does with one
is recorded (it is refused).
"""
import sys
import time
import warnings

import ml_dtypes
import numpy as np

from numpy_oracle import header, name_of, setup
from oracle_common import count_cases, sweep, write


def main(out_path):
    start = time.time()
    _, _, _, dtypes, operands = setup()

    def as_dtype(x):
        return x.dtype if isinstance(x, np.ndarray) else x

    groups, seen_warnings = [], {}
    for op, run in (("result_type", lambda a, b: name_of(np.result_type(a, b))),
                    ("promote_types", lambda a, b: name_of(np.promote_types(as_dtype(a), as_dtype(b))))):
        cases, seen = sweep(operands, lambda a, b: run(a, b), python_pairs=True)
        if seen:
            seen_warnings[op] = seen
        groups.append({"options": {}, "op": op, "cases": cases})
    doc = {
        **header("numpy_functions_oracle.py", dtypes),
        "functions": {"result_type": "np.result_type(a, b) on the operands as they are",
                      "promote_types": "np.promote_types(a, b) on the operands' dtypes (a Python scalar as it is)"},
        "warnings": seen_warnings,
        "groups": groups,
    }
    write(out_path, doc)
    print(f"numpy {np.__version__} + ml_dtypes {ml_dtypes.__version__} functions: {len(dtypes)} dtypes, "
          f"{count_cases(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main(sys.argv[1])
