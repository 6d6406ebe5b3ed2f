#!/usr/bin/env python3
"""Compare a rule file with oracle data through `promo query --stdin`, and list the
cases that differ, grouped by what the framework said.

    python3 tools/rulegen/compare.py rules/paddle.toml tests/data/promotion/paddle.json \
        [--promo target/debug/promo] [--set KEY=VALUE] [--ran] [--limit 30]

A case `[lhs, rhs, promoted, error]` (promotion chose a dtype, then the build could
not run it) expects `promoted`, or a refusal with `--ran` (compare with options that
ask what this build runs, such as Paddle's `device=cpu`).

A rule author edits the file and reruns this (no rebuild: the command reads the file);
the conformance tests are the final word.
"""
import argparse
import collections
import json
import re
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rules")
    ap.add_argument("data")
    ap.add_argument("--promo", default="target/debug/promo")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--ran", action="store_true")
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--op", action="append", default=[], help="only these operations")
    ap.add_argument("--mode", help="only groups with this mode option")
    args = ap.parse_args()
    data = json.load(open(args.data))
    lines, expected = [], []
    for group in data["groups"]:
        if args.op and group["op"] not in args.op:
            continue
        if args.mode and group.get("options", {}).get("mode") != args.mode:
            continue
        settings = [f"{k}={v}" for k, v in group.get("options", {}).items()] + args.set
        for case in group["cases"]:
            lines.append(" ".join([case[0], case[1], f"op={group['op']}"] + settings))
            expected.append((group, case))
    out = subprocess.run(
        [args.promo, "query", args.rules, "--stdin"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    answers = out.stdout.splitlines()
    if len(answers) != len(lines):
        raise SystemExit(f"{len(answers)} answers for {len(lines)} lines:\n{out.stderr}")
    wrong = collections.defaultdict(list)
    for line, answer, (group, case) in zip(lines, answers, expected):
        want = None if args.ran and len(case) > 3 else case[2]
        got = None if answer.startswith("!") else answer
        if got != want:
            error = re.sub(r"`[^`]*`|x: \w+, y: \w+|\d+", "_", (case[3] if len(case) > 3 else "") or "")[:90]
            wrong[(group["options"].get("mode", ""), want is None, error)].append(f"{line} -> {answer} (framework {want})")
    total = sum(len(v) for v in wrong.values())
    print(f"{len(lines) - total} of {len(lines)} agree")
    for key, cases in sorted(wrong.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(cases)} x {key}")
        for c in cases[: args.limit]:
            print("  ", c)


if __name__ == "__main__":
    main()
