"""Counts behind FUNCTIONS.md: each framework's promotion function
(tests/data/promotion/functions/FW.json) against its `add` operation
(tests/data/promotion/FW.json), case by case. Standard library only.

    python3 tools/oracles/promotion/compare_functions.py [FW ...]

A case of `add` counts as answered with DTYPE when it is `[lhs, rhs, DTYPE]` or
`[lhs, rhs, DTYPE, error]` (promotion chose DTYPE and the CPU build had no kernel:
`kernel_missing` counts those), as refused when it is `[lhs, rhs, null, error]`, and is
left out when it is `unknown_promotion`. For each option setting it prints how many
pairs both answer alike, answer differently, only one of them answers, both refuse,
or are not in the add data, then the differing pairs grouped by operand kinds and
dtype classes, with examples.
"""
import collections
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data", "promotion")
NARROW = {"f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1", "i4", "u4", "u2", "f8e4m3",
          "f8e3m4", "f8e4m3b11fnuz", "f6e2m3fn", "f6e3m2fn", "i2", "i1", "u1", "u3", "u5", "u6", "u7", "i3",
          "i5", "i6", "i7"}


def kind(op):
    if ":" not in op:
        return "tensor"
    return {"scalar": "rank0", "weak": "weak", "python": op}[op.split(":")[0]]


def dclass(op):
    d = op.split(":")[-1]
    if op.startswith("python:"):
        return "py"
    if d == "bool":
        return "bool"
    if d in NARROW:
        return "narrow"
    if d in ("c32", "bc32"):
        return "c32/bc32"
    if d[0] == "u":
        return "unsigned"
    if d[0] == "i":
        return "signed"
    if d in ("f16", "bf16", "f32", "f64"):
        return "float"
    if d[0] == "c":
        return "complex"
    return "other"


def load(path):
    with open(path) as f:
        return json.load(f)


def outcome(c):
    if len(c) > 4 and c[4] == "unknown_promotion":
        return "unknown"
    return c[2]  # None = refused


def compare(fn_cases, add_cases, label, out, examples=6):
    add = {(c[0], c[1]): c for c in add_cases}
    tally = collections.Counter()
    groups = collections.defaultdict(list)
    kernel_missing = 0
    for c in fn_cases:
        a = add.get((c[0], c[1]))
        if a is None:
            tally["not in add data"] += 1
            continue
        ao, fo = outcome(a), c[2]
        if ao == "unknown":
            tally["add unknown_promotion"] += 1
            continue
        if ao is not None and len(a) > 3:
            kernel_missing += 1
        if ao == fo:
            tally["same"] += 1
            continue
        if ao is None and fo is None:
            tally["both refuse"] += 1
            continue
        what = ("add refuses, function answers" if ao is None else
                "function refuses, add answers" if fo is None else "different dtypes")
        tally[what] += 1
        key = (what, f"{kind(c[0])} x {kind(c[1])}", f"{dclass(c[0])} x {dclass(c[1])}")
        groups[key].append([c[0], c[1], fo if fo is not None else "refused", ao if ao is not None else "refused"])
    out.append(f"== {label}: {len(fn_cases)} function cases; " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items()))
               + f"; add answered by promotion but no CPU kernel, among compared: {kernel_missing}")
    for key in sorted(groups, key=lambda k: (k[0], -len(groups[k]))):
        g = groups[key]
        out.append(f"   {key[0]} | {key[1]} | {key[2]}: {len(g)}  e.g. " +
                   "; ".join(f"{x[0]},{x[1]} fn={x[2]} add={x[3]}" for x in g[:: max(1, len(g) // examples)][:examples]))
    return tally


def pair_compare(g1, g2, label, out, examples=8):
    """Two function groups (same operand pairs) against each other."""
    other = {(c[0], c[1]): c for c in g2["cases"]}
    tally, groups = collections.Counter(), collections.defaultdict(list)
    for c in g1["cases"]:
        d = other[(c[0], c[1])]
        if c[2] == d[2] and (c[2] is not None or True):
            tally["same" if c[2] is not None else "both refuse"] += 1
            continue
        key = f"{kind(c[0])} x {kind(c[1])} | {dclass(c[0])} x {dclass(c[1])}"
        tally["differ"] += 1
        groups[key].append(f"{c[0]},{c[1]} {g1['op']}={c[2] or 'refused'} {g2['op']}={d[2] or 'refused'}")
    out.append(f"== {label}: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    for key in sorted(groups, key=lambda k: -len(groups[k])):
        g = groups[key]
        out.append(f"   {key}: {len(g)}  e.g. " + "; ".join(g[:: max(1, len(g) // examples)][:examples]))


def main(fws):
    out = []
    for fw in fws:
        fn = load(os.path.join(ROOT, "functions", f"{fw}.json"))
        ops = load(os.path.join(ROOT, f"{fw}.json"))
        adds = [g for g in ops["groups"] if g["op"] == "add"]
        by_op = collections.defaultdict(list)
        for g in fn["groups"]:
            by_op[g["op"]].append(g)
        for op, gs in by_op.items():
            for g in gs:
                match = [a for a in adds if a["options"] == g["options"]]
                if not match:
                    out.append(f"== {fw} {op} {g['options']}: no add group with these options")
                    continue
                compare(g["cases"], match[0]["cases"], f"{fw} {op} {json.dumps(g['options'])} vs add", out)
        if "result_type" in by_op and "promote_types" in by_op:
            for g1, g2 in zip(by_op["result_type"], by_op["promote_types"]):
                pair_compare(g1, g2, f"{fw} result_type vs promote_types {json.dumps(g1['options'])}", out)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:] or ["numpy", "torch", "jax", "array_api", "tensorflow"])
