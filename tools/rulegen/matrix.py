#!/usr/bin/env python3
"""Print a rule-file matrix from oracle data, for writing or reviewing rules/*.toml.

    python3 tools/rulegen/matrix.py tests/data/promotion/openvino.json \
        --set promote_unsafe=true --op add --kinds tensor,tensor \
        [--base promote_unsafe=false ...] [--reason 'REGEX=key' ...]

Selects the cases whose options include every --set, whose op is --op and whose
operands are of the given kinds (tensor, scalar, python), and prints them as a
matrix: rows lhs, columns rhs. A refused case prints as `!key` for the first
--reason whose regex matches the error text (else `!refused`). With --base, cells
equal to the base selection print as `.`, so the output is a layer that overrides
only what differs.
"""
import argparse
import json
import re
import sys


def kind_of(operand):
    if operand.startswith("scalar:"):
        return "scalar", operand[7:]
    if operand.startswith("python:"):
        return "python", operand[7:]
    return "tensor", operand


def select(data, settings, op, kinds, reasons):
    cells = {}
    for group in data["groups"]:
        opts = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in group["options"].items()}
        if any(opts.get(k) != v for k, v in settings.items()):
            continue
        if group["op"] != op:
            continue
        for case in group["cases"]:
            (lk, l), (rk, r) = kind_of(case[0]), kind_of(case[1])
            if (lk, rk) != kinds:
                continue
            if case[2] is not None:
                value = case[2]
            else:
                text = case[3] if len(case) > 3 else ""
                value = "!refused"
                for pattern, key in reasons:
                    if re.search(pattern, text or ""):
                        value = "!" + key
                        break
            cells[(l, r)] = value
    return cells


def parse_settings(items):
    out = {}
    for item in items or []:
        k, v = item.split("=", 1)
        out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--op", default="add")
    ap.add_argument("--kinds", default="tensor,tensor")
    ap.add_argument("--base", action="append", default=None, help="KEY=VALUE of the base selection")
    ap.add_argument("--base-op", default=None)
    ap.add_argument("--base-kinds", default=None)
    ap.add_argument("--reason", action="append", default=[], help="REGEX=key")
    ap.add_argument("--order", default=None, help="comma-separated dtype order")
    args = ap.parse_args()
    data = json.load(open(args.data))
    reasons = [tuple(r.rsplit("=", 1)) for r in args.reason]
    kinds = tuple(args.kinds.split(","))
    cells = select(data, parse_settings(args.set), args.op, kinds, reasons)
    base = None
    if args.base is not None or args.base_op or args.base_kinds:
        base_kinds = tuple((args.base_kinds or "tensor,tensor").split(","))
        base = select(data, parse_settings(args.base), args.base_op or args.op, base_kinds, reasons)
    order = args.order.split(",") if args.order else data["dtypes"]
    py = ["bool", "int", "float", "complex"]
    rows = [d for d in (py if kinds[0] == "python" else order) if any(k[0] == d for k in cells)]
    cols = [d for d in (py if kinds[1] == "python" else order) if any(k[1] == d for k in cells)]
    if not cells:
        sys.exit("no cases match")
    table = [[""] + cols]
    for r in rows:
        line = [r]
        for c in cols:
            v = cells.get((r, c), "?")
            if base is not None:
                # Compare with the base cell for the same dtypes (scalar/tensor kinds map to dtypes).
                b = base.get((r, c))
                if b == v:
                    v = "."
            line.append(v)
        table.append(line)
    width = max(len(x) for row in table for x in row)
    for row in table:
        print("  ".join(x.ljust(width) for x in row).rstrip())


if __name__ == "__main__":
    main()
