#!/usr/bin/env python3
"""Draft the `[[layer]]`s of a rule file from oracle data.

    python3 tools/rulegen/draft_layers.py tests/data/promotion/paddle.json \
        --set mode=eager --reason 'REGEX=key' ... [--commutative]

Operations whose cells agree are grouped. For each operand-kind pair (rank-0 with
dimensioned, tensor with Python scalar, …) the largest group's matrix becomes a
layer for every op, preceded by layers for the other groups that list only the cells
where they differ (`ops = [...]`, rows and columns with no difference left out). The
dimensioned-with-dimensioned matrix of the largest group is the base layer, last.

The output is a draft: a person checks it against the framework's documents, adds
comments, and the conformance tests compare the finished rule file with the data.
"""
import argparse
import collections
import json
import re
import sys

PY = ["bool", "int", "float", "complex"]


def kind(operand):
    if operand.startswith("scalar:"):
        return "scalar", operand[7:]
    if operand.startswith("python:"):
        return "python", operand[7:]
    return "dimensioned", operand


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--reason", action="append", default=[], help="REGEX=key")
    ap.add_argument("--commutative", action="store_true")
    ap.add_argument("--base-op", default=None, help="the op whose group gives the full layers (default: the largest group)")
    ap.add_argument("--no-python", action="store_true", help="leave out Python-scalar layers (typed by [python])")
    args = ap.parse_args()
    data = json.load(open(args.data))
    want = dict(s.split("=", 1) for s in args.set)
    reasons = [tuple(r.rsplit("=", 1)) for r in args.reason]
    order = data["dtypes"]

    # cells[kinds][op][(l, r)] = "dtype" or "!key"
    cells = collections.defaultdict(lambda: collections.defaultdict(dict))
    ops = []
    unmatched = set()
    for group in data["groups"]:
        opts = {k: v if isinstance(v, str) else json.dumps(v) for k, v in group["options"].items()}
        if any(opts.get(k) != v for k, v in want.items()):
            continue
        op = group["op"]
        ops.append(op)
        for case in group["cases"]:
            (lk, l), (rk, r) = kind(case[0]), kind(case[1])
            if case[2] is not None:
                value = case[2]
            else:
                value = None
                for pattern, key in reasons:
                    if re.search(pattern, case[3]):
                        value = "!" + key
                        break
                if value is None:
                    unmatched.add(case[3][:160])
                    value = "!refused"
            cells[(lk, rk)][op][(l, r)] = value
    if unmatched:
        print("# unmatched refusal texts:", file=sys.stderr)
        for u in sorted(unmatched):
            print("#   " + u, file=sys.stderr)

    def axis(side):
        return PY if side == "python" else order

    def render(name, op_list, sides, matrix, trim):
        rows = [a for a in axis(sides[0]) if any((a, b) in matrix for b in axis(sides[1]))]
        cols = [b for b in axis(sides[1]) if any((a, b) in matrix for a in axis(sides[0]))]
        if trim:
            rows = [a for a in rows if any(matrix.get((a, b), ".") != "." for b in cols)]
            cols = [b for b in cols if any(matrix.get((a, b), ".") != "." for a in rows)]
        if not rows:
            return ""
        # A pair the data lacks (a framework failing on shapes, say) defers.
        table = [[""] + cols] + [[a] + [matrix.get((a, b), ".") for b in cols] for a in rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        text = "\n".join("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in table)
        out = f"[[layer]]\nname = \"{name}\"\n"
        if op_list:
            out += "ops = [" + ", ".join(f'"{o}"' for o in op_list) + "]\n"
        if sides != ("tensor", "tensor"):
            out += f'operands = ["{sides[0]}", "{sides[1]}"]\n'
        return out + "matrix = '''\n" + text + "\n'''\n\n"

    def groups_of(kp):
        by = collections.defaultdict(list)
        for op in ops:
            if op in cells[kp]:
                by[json.dumps(sorted(cells[kp][op].items()))].append(op)
        gs = sorted(by.values(), key=lambda g: (args.base_op not in g, -len(g), ops.index(g[0])))
        return gs

    pairs = [("scalar", "dimensioned"), ("dimensioned", "scalar"), ("scalar", "scalar"),
             ("dimensioned", "python"), ("python", "dimensioned"), ("scalar", "python"), ("python", "scalar")]
    if args.commutative:
        pairs = [p for p in pairs if p not in {("dimensioned", "scalar"), ("python", "dimensioned"), ("python", "scalar")}]
    if args.no_python:
        pairs = [p for p in pairs if "python" not in p]
    out = []
    base_groups = groups_of(("dimensioned", "dimensioned"))
    base_common = cells[("dimensioned", "dimensioned")][base_groups[0][0]]
    for kp in pairs:
        gs = groups_of(kp)
        if not gs:
            continue
        common = cells[kp][gs[0][0]]
        if kp == ("scalar", "scalar") and all(
            cells[kp][op] == cells[("dimensioned", "dimensioned")][op] for op in ops if op in cells[kp]
        ):
            continue  # rank-0 pairs behave like dimensioned ones: the tensor layers cover them
        label = f"{kp[0]} with {kp[1]}"
        for g in gs[1:]:
            diff = {k: (v if common.get(k) != v else ".") for k, v in cells[kp][g[0]].items()}
            out.append(render(f"{label}: {g[0]} and alike", g, kp, diff, True))
        out.append(render(label, [], kp, common, False))
    for g in base_groups[1:]:
        m = cells[("dimensioned", "dimensioned")][g[0]]
        diff = {k: (v if base_common.get(k) != v else ".") for k, v in m.items()}
        out.append(render(f"tensor with tensor: {g[0]} and alike", g, ("tensor", "tensor"), diff, True))
    out.append(render("tensor with tensor", [], ("tensor", "tensor"), base_common, False))
    print("".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
