"""What becomes of NaN bits in add/subtract/multiply/divide with an f16, bf16, f32 or
f64 result: for every NaN output, whether it is an operand's NaN carried over (its
payload aligned to the top of the result's mantissa, quiet bit set: IEEE conversion),
and which operand's, or the result type's default NaN (sign +/-).

    python tools/oracles/compute/nan_report.py tests/data/compute NAME [NAME ...]

Counts are split by how many operands are NaN (0: an invalid operation such as
inf - inf or 0 * inf; 1; 2), over pair and scalar cases together.
"""
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402
import models as M  # noqa: E402
from analyze import Case, quiet_convert  # noqa: E402

WIDE = ("f16", "bf16", "f32", "f64")


def operand_code(case, side, i):
    t = case.ta if side == 0 else case.tb
    if t == "py":
        return "f64", int(np.array([case.scalar], np.float64).view(np.uint64)[0])
    return t, int((case.a if side == 0 else case.b)[i])


def classify(case):
    out = collections.Counter()
    R = case.R
    nan_out = np.nonzero(M.is_nan_code(R, case.out))[0]
    default = {t: int(M.nan_code(t, np.array([False]))[0]) for t in WIDE}[R]
    sign = 1 << (cc.bits(R) - 1)
    for i in nan_out:
        kinds = []
        nans = []
        for side in (0, 1):
            t, c = operand_code(case, side, i)
            if cc.is_float(t) and bool(M.is_nan_code(t, np.array([c], np.uint64))[0]):
                nans.append((side, t, c))
        o = int(case.out[i])
        for side, t, c in nans:
            if t in WIDE and quiet_convert(t, c, R) == o:
                kinds.append("lhs" if side == 0 else "rhs")
            elif t not in WIDE and (o & ~sign) == default and bool(o & sign) == bool(c >> (cc.bits(t) - 1) & 1):
                kinds.append(("lhs" if side == 0 else "rhs") + "-sign")
        if not kinds:
            kinds = ["default+" if o == default else ("default-" if o == default | sign else "other")]
        out[(len(nans), "/".join(kinds))] += 1
    return out


def main():
    data_dir, names = sys.argv[1], sys.argv[2:]
    for name in names:
        idx, blob = M.load(data_dir, name)
        table = collections.defaultdict(collections.Counter)
        for row in idx["cases"]:
            if row[4] not in WIDE or row[0] not in ("add", "subtract", "multiply", "divide"):
                continue
            case = Case(row, blob)
            for k, v in classify(case).items():
                table[(row[4], row[0])][k] += v
        print(f"== {name}")
        for (R, op), cnt in sorted(table.items()):
            parts = ", ".join(f"{n}NaN:{k}={v}" for (n, k), v in sorted(cnt.items()))
            print(f"  {R:5} {op:9} {parts}")


if __name__ == "__main__":
    main()
