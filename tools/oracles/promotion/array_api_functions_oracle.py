"""Dump what array-api-strict's `result_type(a, b)` answers, to
tests/data/promotion/functions/array_api.json.

    python tools/oracles/promotion/array_api_functions_oracle.py tests/data/promotion/functions/array_api.json

As array_api_oracle.py: the standard version is the newest released one
array-api-strict supports, the 13 dtypes are the same, `DTYPE` is `xp.ones(2,
dtype=...)`, `scalar:DTYPE` `xp.ones((), dtype=...)`, `python:KIND` the literal True,
3, 2.5 or 1+2j, given to `xp.result_type` as they are; Python with Python too (the
standard requires at least one array or dtype, and array-api-strict says so).
"""
import sys
import time
import warnings

import array_api_strict as xp

from array_api_oracle import NAMES, name_of, setup
from oracle_common import count_cases, sweep, write


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    _, flags, order, _, operands = setup()
    options = {"api_version": flags["api_version"]}
    cases, _ = sweep(operands, lambda a, b: name_of(xp.result_type(a, b)), python_pairs=True)
    groups = [{"options": options, "op": "result_type", "cases": cases}]
    doc = {
        "framework": "array_api",
        "version": xp.__version__,
        "generated_by": "tools/oracles/promotion/array_api_functions_oracle.py",
        "package": "array-api-strict",
        "api_version": flags["api_version"],
        "dtypes": [NAMES[n] for n in order],
        "functions": {"result_type": "xp.result_type(a, b) on the operands as they are"},
        "groups": groups,
    }
    write(out_path, doc)
    print(f"array-api-strict {xp.__version__} (standard {flags['api_version']}) functions: {len(order)} dtypes, "
          f"{count_cases(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
