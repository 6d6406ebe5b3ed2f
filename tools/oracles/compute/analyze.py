"""Checks a framework's recorded bits against the candidate models of models.py and
says, per case, which candidates reproduce every element; then groups the cases.

    python tools/oracles/compute/analyze.py tests/data/compute NAME [--out FILE.json]

NAME is a data set (numpy, torch, jax_x32, jax_x64, tensorflow, mlx). A candidate is
written `C=<compute>[/S=<first>][/<how>][/ftz]` (see models.py): each operand is first
rounded to S (its own type when absent; for a Python scalar S names where the
scalar goes first), then to the compute type C, the op is done in C, and the result
rounded to the result type. Every element is compared bit for bit except NaN
payloads: where the result format has NaN codes, a NaN output needs only a NaN
prediction (the NaN rules are checked separately, `nan_rules`).
Integer results are checked against wrap-around arithmetic on the operands'
values (floats truncated toward zero), bool against logical or/and.
"""
import argparse
import collections
import json
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402
import models as M  # noqa: E402

warnings.simplefilter("ignore")
FTZ = False  # --ftz: also try flushing subnormals in the compute type
ASTYPE_INT = True  # a float operand of an integer op is cast as ml_dtypes/NumPy astype does
FLOAT_ORDER = ["f8e8m0", "f4e2m1", "f6e2m3fn", "f6e3m2fn", "f8e4m3b11fnuz", "f8e4m3fnuz", "f8e5m2fnuz", "f8e3m4",
               "f8e4m3fn", "f8e4m3", "f8e5m2", "bf16", "f16", "f32", "f64"]


def category(t):
    if t == "py":
        return "py"
    if t == "bool":
        return "bool"
    k = cc.TYPES[t][0]
    if k in ("int", "uint"):
        return "int"
    if t in ("f16", "bf16", "f32", "f64"):
        return t
    return "narrow"



def expand_scalar(v, n):
    return np.full(n, M.scalar_ld(v), dtype=M.LD)


def scalar_type(v):
    return "pyint" if isinstance(v, (bool, int)) else "pyfloat"


EXACT_NAN = ("f6e2m3fn", "f6e3m2fn", "f4e2m1", "f8e8m0", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz")


def compare_codes(R, pred, out, pred_nan):
    """Mismatches, NaN-aware: where R has several NaN codes, a predicted NaN needs any
    NaN; formats with one NaN code or none are compared exactly."""
    out_nan = M.is_nan_code(R, out)
    if R in EXACT_NAN or not cc.is_float(R):
        return int(np.sum(pred != out))
    bad = (pred != out) & ~(pred_nan & out_nan)
    bad |= pred_nan != out_nan
    return int(np.sum(bad))


class Case:
    def __init__(self, case, blob):
        (self.op, self.ta, self.a, self.tb, self.b, self.scalar, self.left, self.R,
         self.out) = M.case_parts(case, blob)
        self.row = case
        self.n = 0 if self.out is None else len(self.out)
        self.va = None if self.ta == "py" else M.value(self.ta, self.a)
        self.vb = None if self.tb == "py" else M.value(self.tb, self.b)
        if self.ta == "py":
            self.va = expand_scalar(self.scalar, self.n)
        if self.tb == "py":
            self.vb = expand_scalar(self.scalar, self.n)

    def src(self, side):
        t = self.ta if side == 0 else self.tb
        return t


def float_candidates(case, extra_C=()):
    R = case.R
    Cs = []
    for C in ([R] if cc.is_float(R) else []) + ["f32", "f64"] + list(extra_C):
        if C not in Cs and C is not None:
            Cs.append(C)
    cands = []
    for C in Cs:
        for how in ("direct", "via_f32"):
            for ftz in ((False, True) if FTZ else (False,)):
                firsts = [None]
                if case.ta == "py" or case.tb == "py":
                    t = case.tb if case.ta == "py" else case.ta
                    firsts = [None, t, "f32", "f64"] + ([R] if cc.is_float(R) else [])
                else:
                    firsts = [None] + ([R] if cc.is_float(R) else [])
                for S in dict.fromkeys(firsts):
                    cands.append((C, S, how, ftz))
    return cands


def cand_name(C, S, how, ftz):
    s = f"C={C}"
    if S is not None:
        s += f"/S={S}"
    if how != "direct":
        s += f"/{how}"
    if ftz:
        s += "/ftz"
    return s


def first_round(case, side, S, how):
    """An operand's values after its first rounding (to S): for a Python scalar S is
    where it goes first, for an array operand S (when given) applies to it too."""
    t = case.ta if side == 0 else case.tb
    v = case.va if side == 0 else case.vb
    if S is None or not cc.is_float(S):
        return v
    if t == "py" or S != t:
        if t != "py" and cc.is_float(t) and cc.FLOATS[t][1] <= cc.FLOATS[S][1] and t != "f8e8m0" \
                and cc.FLOATS[t][0] <= cc.FLOATS[S][0]:
            return v
        if how == "via_f32" and S not in ("f32", "f64"):
            return M.value(S, M.round_via_f32(S, v))
        return M.value(S, M.round_to(S, v))
    return v


def eval_float_arith(case, C, S, how, ftz):
    vals = []
    for side in (0, 1):
        t = case.ta if side == 0 else case.tb
        Sx = S if (t == "py" or (case.ta != "py" and case.tb != "py")) else None
        vals.append(first_round(case, side, Sx, how))
    a, b = vals
    if case.op in ("maximum", "minimum"):
        return None
    pred, r = M.predict_arith(case.op, "x", a, "x", b, C, case.R, how=(how, how), ftz=ftz,
                              final=("via_f32" if how == "via_f32" and C == "f64" else "direct"))
    pred_nan = np.isnan(r)
    return compare_codes(case.R, pred, case.out, pred_nan)


def eval_compare(case, C, S, how, ftz):
    vals = []
    for side in (0, 1):
        t = case.ta if side == 0 else case.tb
        Sx = S if (t == "py" or (case.ta != "py" and case.tb != "py")) else None
        v = first_round(case, side, Sx, how)
        if C != "exact":
            v = M.value(C, M.round_via_f32(C, v) if how == "via_f32" and C not in ("f32", "f64") else M.round_to(C, v))
            if ftz:
                v = M.flush(v, C)
        vals.append(v)
    pred = M.predict_compare(case.op, vals[0], vals[1])
    return int(np.sum(pred != case.out))


def eval_minmax(case, C, S, how, ftz, tie):
    """max/min in C: NaN operand (lhs first) wins, else the larger/smaller, equal
    values (±0 too) give the `tie` side; the chosen operand rounded to R."""
    vals = []
    for side in (0, 1):
        t = case.ta if side == 0 else case.tb
        Sx = S if (t == "py" or (case.ta != "py" and case.tb != "py")) else None
        v = first_round(case, side, Sx, how)
        v = M.value(C, M.round_to(C, v))
        if ftz:
            v = M.flush(v, C)
        vals.append(v)
    a, b = vals
    na, nb = np.isnan(a), np.isnan(b)
    big = a > b if case.op == "maximum" else a < b
    small = b > a if case.op == "maximum" else b < a
    pick_a = na | (~nb & (big | (~small & (tie == "lhs"))))
    r = np.where(pick_a, a, b)
    pred = M.round_to(case.R, r)
    pred_nan = np.isnan(r)
    return compare_codes(case.R, pred, case.out, pred_nan)


def int_values(case, side):
    t = case.ta if side == 0 else case.tb
    if t == "py":
        v = int(case.scalar)
        return (np.full(case.n, M.scalar_ld(v), dtype=M.LD),
                np.full(case.n, v & ((1 << 64) - 1), dtype=np.uint64))
    codes = case.a if side == 0 else case.b
    astype_to = case.R if (ASTYPE_INT and case.R in M.VIEW and not cc.is_float(case.R) and case.R != "bool") else None
    return M.to_int_values(codes, t, astype_to)


def eval_int(case):
    x, y = int_values(case, 0), int_values(case, 1)
    R = case.R
    if R == "bool":
        x, y = x[0] != 0, y[0] != 0
        if case.op in ("add", "maximum"):
            pred = (x | y).astype(np.uint64)
        elif case.op in ("multiply", "minimum"):
            pred = (x & y).astype(np.uint64)
        else:
            return None
        return int(np.sum(pred != case.out))
    if case.op not in ("add", "subtract", "multiply", "maximum", "minimum"):
        return None
    pred = M.int_op(case.op, x, y, R)
    return int(np.sum(pred != case.out))


def eval_int_compare(case):
    x, y = int_values(case, 0), int_values(case, 1)
    f = {"equal": lambda p, q: p == q, "not_equal": lambda p, q: p != q, "less": lambda p, q: p < q,
         "less_equal": lambda p, q: p <= q, "greater": lambda p, q: p > q, "greater_equal": lambda p, q: p >= q}
    pred = f[case.op](x[0], y[0]).astype(np.uint64)
    return int(np.sum(pred != case.out))


def is_int_like(t):
    return t == "bool" or (t not in ("py",) and not cc.is_float(t))


def analyze_case(case, extra_C=()):
    """{candidate name: mismatching elements} (0 = reproduces the case)."""
    res = {}
    intish_operands = all(is_int_like(t) or (t == "py" and not isinstance(case.scalar, float))
                          for t in (case.ta, case.tb))
    if case.op in cc.COMPARE_OPS:
        if intish_operands:
            res["exact"] = eval_int_compare(case)
        for C, S, how, ftz in float_candidates(case, extra_C):
            res[cand_name(C, S, how, ftz)] = eval_compare(case, C, S, how, ftz)
        return res
    if not cc.is_float(case.R):
        r = eval_int(case)
        if r is not None:
            res["int"] = r
        return res
    for C, S, how, ftz in float_candidates(case, extra_C):
        if case.op in ("maximum", "minimum"):
            for tie in ("lhs", "rhs"):
                res[cand_name(C, S, how, ftz) + f"/tie={tie}"] = eval_minmax(case, C, S, how, ftz, tie)
        else:
            res[cand_name(C, S, how, ftz)] = eval_float_arith(case, C, S, how, ftz)
    return res


# ---------------------------------------------------------------- NaN rules

def quiet_convert(src, code, R):
    """A NaN code of src as R keeps it: IEEE payload (aligned to the top of the
    mantissa, quiet bit set) between f16/bf16/f32/f64; R's NaN with the sign for
    narrow formats (ml_dtypes)."""
    neg = (int(code) >> (cc.bits(src) - 1)) & 1 if src != "f8e8m0" else 0
    if src in M.WIDE and R in M.WIDE:
        ms, mr = cc.FLOATS[src][1], cc.FLOATS[R][1]
        pay = int(code) & ((1 << ms) - 1)
        pay = pay << (mr - ms) if mr >= ms else pay >> (ms - mr)
        er = cc.FLOATS[R][0]
        return (neg << (cc.bits(R) - 1)) | (((1 << er) - 1) << mr) | pay | (1 << (mr - 1))
    return int(M.nan_code(R, np.array([bool(neg)]))[0])


def nan_rules(case, C, default_neg=True):
    """For each rule, the number of NaN outputs whose bits it does not give:
    lhs_first / rhs_first: the first NaN operand (in that order) quieted and carried
    into C and then R, else (an invalid operation) the default NaN, negative on x86;
    pass: max/min returning the NaN operand's code unchanged."""
    if not cc.is_float(case.R) or case.R in ("f6e2m3fn", "f6e3m2fn", "f4e2m1", "f8e8m0"):
        return None
    out_nan = M.is_nan_code(case.R, case.out)
    if not out_nan.any():
        return None
    idx = np.nonzero(out_nan)[0]

    def code_of(side, i):
        t = case.ta if side == 0 else case.tb
        if t == "py":
            return "f64", int(np.array([case.scalar], np.float64).view(np.uint64)[0])
        return t, int((case.a if side == 0 else case.b)[i])

    def isnan(side, i):
        t, c = code_of(side, i)
        return cc.is_float(t) and bool(M.is_nan_code(t, np.array([c], np.uint64))[0])

    rules = {}
    for order in ("lhs_first", "rhs_first"):
        for quiet in (True, False):
            bad = 0
            for i in idx:
                sides = (0, 1) if order == "lhs_first" else (1, 0)
                exp = None
                for s in sides:
                    if isnan(s, i):
                        t, c = code_of(s, i)
                        if quiet:
                            c2 = quiet_convert(t, c, C) if C in M.WIDE else None
                            exp = quiet_convert(C, c2, case.R) if c2 is not None else quiet_convert(t, c, case.R)
                        else:
                            exp = c if t == case.R else quiet_convert(t, c, case.R)
                        break
                if exp is None:
                    dn = int(M.nan_code(C if C in M.WIDE else "f32", np.array([default_neg]))[0])
                    exp = quiet_convert(C if C in M.WIDE else "f32", dn, case.R)
                if exp != int(case.out[i]):
                    bad += 1
            rules[f"{order}{'' if quiet else '/unquieted'}"] = bad
    counts = M.summarize_nan(case.R, case.out[idx])
    return {"n": len(idx), "rules": rules, "codes": dict(list(counts.items())[:4])}


# ---------------------------------------------------------------- driver

def alias_names(name, case, loop):
    """The candidate's name and the same with its types named by role: R (the result
    type), loop (NumPy's loop type), arr (the array a scalar meets), lhs, rhs."""
    out = {name}
    roles = []
    arr = case.tb if case.ta == "py" else (case.ta if case.tb == "py" else None)
    for role, t in (("R", case.R), ("loop", loop.split(",")[0] if loop else None), ("arr", arr),
                    ("lhs", case.ta), ("rhs", case.tb)):
        if t and t != "py":
            roles.append((role, t))
    parts = name.split("/")
    variants = [[]]
    for p in parts:
        opts = [p]
        if "=" in p:
            k, v = p.split("=", 1)
            opts += [f"{k}={role}" for role, t in roles if t == v and k in ("C", "S")]
        variants = [x + [o] for x in variants for o in opts]
    out |= {"/".join(v) for v in variants}
    return out


def preference(name):
    """Simplest candidates first: fewer modifiers, then C=R before f32 before f64."""
    parts = name.split("/")
    c = parts[0]
    rank = {"exact": 0, "int": 0}.get(c, 1)
    mods = len(parts) - 1 - sum(p.startswith("tie=") for p in parts)
    cpos = 2 if c == "C=f64" else (1 if c == "C=f32" else 0)
    concrete = sum(1 for p in parts if "=" in p and p.split("=", 1)[1] in cc.TYPES)
    return (rank, mods, "ftz" in parts, concrete, cpos, name)


def group_key(case):
    op = case.op
    opk = "cmp" if op in cc.COMPARE_OPS else ("minmax" if op in ("maximum", "minimum") else
                                               ("divide" if op == "divide" else "arith"))
    if case.ta == "py" or case.tb == "py":
        t = case.tb if case.ta == "py" else case.ta
        side = "py⊕arr" if case.ta == "py" else "arr⊕py"
        return (opk, side, category(t), scalar_type(case.scalar), case.R)
    return (opk, category(case.ta), category(case.tb), case.R)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data_dir")
    ap.add_argument("name")
    ap.add_argument("--out")
    ap.add_argument("--only", help="comma-separated ops")
    ap.add_argument("--types", help="comma-separated types: cases with another type are skipped")
    ap.add_argument("--ftz", action="store_true")
    ap.add_argument("--extra-c", default="", help="more compute types to try (comma-separated)")
    args = ap.parse_args()
    global FTZ
    FTZ = args.ftz
    idx, blob = M.load(args.data_dir, args.name)
    only = set(args.only.split(",")) if args.only else None
    types = set(args.types.split(",")) if args.types else None
    extra = [x for x in args.extra_c.split(",") if x]
    per_case = []
    groups = collections.OrderedDict()
    for row in idx["cases"]:
        if row[4] is None:
            continue
        if only and row[0] not in only:
            continue
        if types and any(not x.startswith("py:") and x not in types for x in row[1:3]):
            continue
        case = Case(row, blob)
        more = list(extra) + [t for t in (case.ta, case.tb) if t != "py" and cc.is_float(t)]
        loop = idx.get("loops", {}).get(case.op, {}).get(f"{row[1]},{row[2]}")
        if loop:
            more.append(loop.split(",")[0])
        res = analyze_case(case, [c for c in more if c in cc.FLOATS])
        ok = sorted((k for k, v in res.items() if v == 0), key=preference)
        aliases = set()
        for k in ok:
            aliases |= alias_names(k, case, loop)
        nanr = None
        if case.op in cc.ARITH_OPS and cc.is_float(case.R) and ok:
            C = ok[0].split("/")[0][2:] if ok[0].startswith("C=") else case.R
            nanr = nan_rules(case, C)
        per_case.append({"case": row[:5], "n": case.n, "ok": ok,
                         "best": None if ok else sorted(res.items(), key=lambda kv: kv[1])[:3], "nan": nanr})
        g = groups.setdefault(group_key(case), {"cases": 0, "ok": None, "failing": []})
        g["cases"] += 1
        s = aliases
        g["ok"] = s if g["ok"] is None else g["ok"] & s
        if not ok:
            g["failing"].append([row[:5], sorted(res.items(), key=lambda kv: kv[1])[:2]])
    for k, g in groups.items():
        ok = sorted(g["ok"] or [], key=preference)
        print(" ".join(map(str, k)), f"[{g['cases']}]", "->", ", ".join(ok[:4]) if ok else "NONE",
              ("" if not g["failing"] else f"  failing: {len(g['failing'])} e.g. {g['failing'][:2]}"))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"groups": [[list(k), g["cases"], sorted(g["ok"] or []), g["failing"][:20]]
                                  for k, g in groups.items()],
                       "cases": per_case}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
