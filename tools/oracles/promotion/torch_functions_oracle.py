"""Dump what PyTorch's own promotion functions, `torch.result_type(a, b)` and
`torch.promote_types(a, b)`, answer, to tests/data/promotion/functions/torch.json.

    python tools/oracles/promotion/torch_functions_oracle.py tests/data/promotion/functions/torch.json

The operands are torch_oracle.py's, over the same 41 dtypes (the shell dtypes
`torch.uint1`..`uint7` and `torch.int1`..`int7` among them, made with `torch.zeros`):
`DTYPE` is `torch.ones(2, dtype=...)`, `scalar:DTYPE` `torch.ones((), dtype=...)` (a
zero-dim tensor), `python:KIND` the literal True, 3, 2.5 or 1+2j; Python with Python
too. `result_type` is given the operands as they are; `promote_types` takes dtypes
only: a tensor is given as its `.dtype`, and a Python scalar as it is, so that what
torch does with one is recorded.
"""
import sys
import time
import warnings

import torch

from oracle_common import count_cases, sweep, write
from torch_oracle import header, name_of, setup


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    _, order, _, operands, _ = setup()

    def as_dtype(x):
        return x.dtype if isinstance(x, torch.Tensor) else x

    runs = {
        "result_type": lambda a, b: name_of(torch.result_type(a, b)),
        "promote_types": lambda a, b: name_of(torch.promote_types(as_dtype(a), as_dtype(b))),
    }
    groups = []
    for op, run in runs.items():
        cases, _ = sweep(operands, run, python_pairs=True)
        groups.append({"options": {}, "op": op, "cases": cases})

    doc = {
        **header("torch_functions_oracle.py", order),
        "functions": {"result_type": "torch.result_type(a, b) on the operands as they are",
                      "promote_types": "torch.promote_types(a, b) on the operands' dtypes (a Python scalar as it is)"},
        "groups": groups,
    }
    write(out_path, doc)
    print(f"torch {torch.__version__} functions: {len(order)} dtypes, {count_cases(groups)} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
