"""Dump what PyTorch's own promotion functions, `torch.result_type(a, b)` and
`torch.promote_types(a, b)`, answer, to tests/data/promotion/functions/torch.json.

    python tools/oracles/promotion/torch_functions_oracle.py tests/data/promotion/functions/torch.json

The operands are torch_oracle.py's, over the same 22 dtypes: `DTYPE` is
`torch.ones(2, dtype=...)`, `scalar:DTYPE` `torch.ones((), dtype=...)` (a zero-dim
tensor), `python:KIND` the literal True, 3, 2.5 or 1+2j; Python with Python too.
`result_type` is given the operands as they are; `promote_types` takes dtypes only: a
tensor is given as its `.dtype`, and a Python scalar as it is, so that what torch does
with one is recorded.

Beside the groups, `shell_groups` (same format) has the shell dtypes `torch.uint1` ..
`torch.uint7` and `torch.int1` .. `torch.int7` (tensors made with `torch.zeros`; no
CPU kernel computes in them) with every operand above and with each other, for
`result_type`, `promote_types` and `+` (`a + b`; where the error is the missing
`add_stub` kernel for a dtype, the case is `[lhs, rhs, that dtype, error]`). Shell
dtypes are named by promo's names where there is one (`u1`, `u2`, `u4`, `i1`, `i2`,
`i4`) and by torch's otherwise (`uint3`, `int5`, ...).
"""
import re
import sys
import time
import warnings

import torch

from oracle_common import DTYPE_NAMES, count_cases, first_line, sweep, write
from torch_oracle import C10, NAMES, header, setup

SHELLS = [f"uint{i}" for i in range(1, 8)] + [f"int{i}" for i in range(1, 8)]
SHELL_NAMES = {n: DTYPE_NAMES.get(n, n) for n in SHELLS}
ADD_STUB = re.compile(r'^(?:\w+: )?"add_stub" not implemented for \'(\w+)\'')
KERNEL_DTYPES = {**C10, **{f"UInt{i}": SHELL_NAMES[f"uint{i}"] for i in range(1, 8)},
                 **{f"Int{i}": SHELL_NAMES[f"int{i}"] for i in range(1, 8)}}


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    every, order, _, operands, _ = setup()
    names = {**NAMES, **SHELL_NAMES}

    def name_of(dtype):
        s = str(dtype).replace("torch.", "")
        return names.get(s, s)

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

    # the shell dtypes, with everything above and with each other
    shells = [n for n in SHELLS if n in every]
    made, shell_t, shell_0 = {}, [], []
    for n in shells:
        try:
            shell_t.append((SHELL_NAMES[n], torch.zeros(2, dtype=every[n])))
            shell_0.append(("scalar:" + SHELL_NAMES[n], torch.zeros((), dtype=every[n])))
            made[SHELL_NAMES[n]] = "torch.zeros"
        except Exception as e:  # noqa: BLE001
            made[SHELL_NAMES[n]] = "error: " + first_line(e)
    shell_names = {x for x, _ in shell_t + shell_0}
    shell_operands = shell_t + shell_0 + operands
    shell_groups = []
    for op, run in {**runs, "add": lambda a, b: name_of((a + b).dtype)}.items():
        cases, _ = sweep(shell_operands, run, python_pairs=False,
                         keep=lambda ln, rn: ln in shell_names or rn in shell_names)
        if op == "add":
            for c in cases:
                m = ADD_STUB.match(c[3]) if c[2] is None else None
                if m and m.group(1) in KERNEL_DTYPES:
                    c[2] = KERNEL_DTYPES[m.group(1)]
        shell_groups.append({"options": {}, "op": op, "cases": cases})

    doc = {
        **header("torch_functions_oracle.py", order),
        "functions": {"result_type": "torch.result_type(a, b) on the operands as they are",
                      "promote_types": "torch.promote_types(a, b) on the operands' dtypes (a Python scalar as it is)",
                      "add (shell_groups only)": "a + b"},
        "shell_dtypes": {SHELL_NAMES[n]: f"torch.{n}" for n in shells},
        "shell_made_by": made,
        "shell_groups": shell_groups,
        "groups": groups,
    }
    write(out_path, doc)
    print(f"torch {torch.__version__} functions: {len(order)} dtypes, {count_cases(groups)} cases, "
          f"{count_cases(shell_groups)} shell-dtype cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
