"""The models of FINDINGS.md, written as code, checked against every recorded element.

    python tools/oracles/compute/verify.py tests/data/compute NAME [NAME ...] [--json FILE]

For each case, `MODELS[NAME](case, ctx)` gives a Spec (below): how each operand is
converted, the compute type, how the result is rounded. The Spec is evaluated with
models.py and compared with the framework's bits: every element bit for bit, except
that where the result format has several NaN codes a NaN needs only a NaN (FINDINGS.md
says what is known of NaN bits). The report counts cases and elements per rule and
lists every case the model misses (there should be none).
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
from analyze import EXACT_NAN, Case, compare_codes  # noqa: E402

warnings.simplefilter("ignore")
LD = M.LD
REDUCED = ("f16", "bf16")


class Spec:
    """kind: arith | minmax | cmp | int | bool.
    steps: per operand, the roundings applied to its exact value, in order, each
      (type, how) with how "direct" (nearest even) or "via_f32" (to f32 first);
      for an integer operand of an integer op, (type, "wrap"|"astype").
    C: the compute type (float), "exact" (comparisons of exact values) or an integer type.
    R: the result type; flavor: the rounding into narrow formats (models.round_to).
    tie: which operand max/min return for equal values (±0 included): "lhs" | "rhs".
    daz / ftz: subnormal operands (in C) / results (in C) flushed to signed zero.
    special: "recip_mul" (PyTorch's `s / t` = t.reciprocal() * s)."""

    def __init__(self, kind, R, C=None, steps=((), ()), flavor="ml", tie=None, daz=False, ftz=False,
                 special=None, rule=""):
        self.kind, self.R, self.C, self.steps = kind, R, C, steps
        self.flavor, self.tie, self.daz, self.ftz, self.special = flavor, tie, daz, ftz, special
        self.rule = rule


def apply_steps(v, steps, flavor):
    for t, how in steps:
        if how == "wrap":  # an exact integer value wrapped to integer type t
            m = LD(2.0) ** cc.bits(t)
            w = np.mod(v, m)
            if cc.TYPES[t][0] == "int":
                w = np.where(w >= m / 2, w - m, w)
            v = w
            continue
        if how == "via_f32" and t not in ("f32", "f64"):
            v = M.value("f32", M.round_to("f32", v))
        v = M.value(t, M.round_to(t, v, flavor))
    return v


def to_c(v, C, flavor):
    if C == "exact":
        return v
    return M.value(C, M.round_to(C, v, flavor))


def flush_tiny(r, exact, C):
    """FTZ: where the exact result is below C's smallest normal, a zero of its sign."""
    if C not in ("f32", "f64"):
        return r
    tiny = np.abs(exact) < LD(cc.decode(C, 1 << cc.FLOATS[C][1]))
    return np.where(tiny, np.copysign(LD(0), exact), r)


def daz_source(v, t):
    """DAZ at the operand's source: an f32, f64 or bf16 subnormal reads as zero (bf16
    subnormals are f32 subnormals); f16 subnormals are normal f32 values, untouched."""
    if t in ("f32", "f64", "bf16"):
        return M.flush(v, "f32" if t == "bf16" else t)
    return v


def int_operand(case, side, steps):
    t = case.ta if side == 0 else case.tb
    codes = case.a if side == 0 else case.b
    if t == "py":
        v = int(case.scalar)
        return (np.full(case.n, M.scalar_ld(v), dtype=LD), np.full(case.n, v & ((1 << 64) - 1), dtype=np.uint64))
    for target, how in steps:
        if how == "astype" and cc.is_float(t):
            return M.to_int_values(codes, t, target)
    return M.to_int_values(codes, t)


def wrap_scalar(case, side, target):
    """A Python int operand wrapped to integer type `target` (two's complement)."""
    v = int(case.scalar) & cc.mask(target)
    codes = np.full(case.n, v, dtype=np.uint64)
    return M.value(target, codes), M.int_bits(target, codes)


def evaluate(spec, case):
    """Mismatching elements of the case under the spec."""
    op, R = case.op, spec.R
    if spec.kind in ("int", "bool", "cmp_int", "int_div"):
        xs = []
        for side in (0, 1):
            st = spec.steps[side]
            t = case.ta if side == 0 else case.tb
            if t == "py" and st and st[0][1] == "wrap":
                xs.append(wrap_scalar(case, side, st[0][0]))
            else:
                v, bits_ = int_operand(case, side, st)
                if st and st[0][1] == "wrap" and t != "py":
                    T = st[0][0]
                    c = bits_ & np.uint64(cc.mask(T) if cc.bits(T) < 64 else (1 << 64) - 1)
                    v, bits_ = M.value(T, c), M.int_bits(T, c)
                xs.append((v, bits_))
        (va, ba), (vb, bb) = xs
        if spec.kind == "int_div":  # XLA integer division: toward zero, x / 0 = -1 (all ones), MIN / -1 = MIN
            q = np.where(vb == 0, LD(-1), np.trunc(va / np.where(vb == 0, LD(1), vb)))
            qi = np.mod(q, LD(2.0) ** 64).astype(np.uint64)
            pred = qi & np.uint64(cc.mask(R))
            return int(np.sum(pred != case.out))
        if spec.kind == "bool":
            x, y = va != 0, vb != 0
            pred = (x | y) if op in ("add", "maximum") else ((x ^ y) if op == "subtract" else (x & y))
            return int(np.sum(pred.astype(np.uint64) != case.out))
        if spec.kind == "cmp_int":
            pred = M.predict_compare(op, va, vb)
            return int(np.sum(pred != case.out))
        pred = M.int_op(op, (va, ba), (vb, bb), R)
        return int(np.sum(pred != case.out))
    va, vb = case.va, case.vb
    if spec.daz:  # operands subnormal in their own f32/f64/bf16 format read as zero
        va = daz_source(va, case.ta)
        vb = daz_source(vb, case.tb)
    va = apply_steps(va, spec.steps[0], spec.flavor)
    vb = apply_steps(vb, spec.steps[1], spec.flavor)
    C = spec.C
    a, b = to_c(va, C, spec.flavor), to_c(vb, C, spec.flavor)
    if spec.daz and C in ("f32", "f64"):
        a, b = M.flush(a, C), M.flush(b, C)
    if spec.kind == "cmp":
        pred = M.predict_compare(op, a, b)
        return int(np.sum(pred != case.out))
    if spec.kind == "minmax":
        na, nb = np.isnan(a), np.isnan(b)
        big = a > b if op == "maximum" else a < b
        small = b > a if op == "maximum" else b < a
        if spec.tie == "ieee":  # -0 < +0
            sa, sb = np.signbit(a), np.signbit(b)
            zero_tie = (a == b) & (sa != sb)
            prefer_a = (~sa if op == "maximum" else sa) & zero_tie
            pick_a = na | (~nb & (big | prefer_a | (~small & ~zero_tie)))
        else:
            tie_lhs = np.full(len(a), spec.tie == "lhs")
            if spec.tie.startswith("simd:"):  # rhs in whole SIMD vectors of V elements, lhs in the tail
                V = int(spec.tie[5:])
                n = len(a)
                tie_lhs = np.arange(n) >= (n - n % V if V else 0)
            pick_a = na | (~nb & (big | (~small & tie_lhs)))
        r = np.where(pick_a, a, b)
        pred = M.round_to(R, r, spec.flavor)
        return compare_codes(R, pred, case.out, M.is_nan_code(R, pred))
    if spec.special == "select_bool":  # bool * x = x where the bool is true, else +0
        bside = 0 if case.ta == "bool" else 1
        bv = (case.va if bside == 0 else case.vb) != 0
        other = b if bside == 0 else a
        r = np.where(bv, other, LD(0))  # no arithmetic: subnormals pass unflushed
        pred = M.round_to(R, r, spec.flavor)
        return compare_codes(R, pred, case.out, M.is_nan_code(R, pred))
    if spec.special in ("mul_recip", "select_recip"):  # x / s = x * round_R(1 / s): a broadcast divisor
        rec = M.float_op("divide", np.ones(len(b), LD), b, C, spec.flavor)
        RR = R if R in ("f16", "f32", "f64") else C  # XLA folds 1/s in f16, f32, f64; bf16/f8 go through f32
        rec = to_c(M.value(RR, M.round_to(RR, rec, spec.flavor)), C, spec.flavor)
        if spec.special == "select_recip":  # a bool dividend: select(bool, 1/s, +0)
            r = np.where(case.va != 0, rec, LD(0))
            pred = M.round_to(R, r, spec.flavor)
            return compare_codes(R, pred, case.out, M.is_nan_code(R, pred))
        r = M.float_op("multiply", a, rec, C, spec.flavor)
        if spec.ftz:
            r = flush_tiny(r, a * rec, C)
        pred = M.round_to(R, r, spec.flavor)
        return compare_codes(R, pred, case.out, M.is_nan_code(R, pred))
    if spec.special == "recip_mul":  # s / t = (1 / t) * s, the reciprocal rounded to R
        t_side = 1 if case.ta == "py" else 0
        s_val, t_val = (a, b) if t_side == 1 else (b, a)
        rec = M.float_op("divide", np.ones(len(t_val), LD), t_val, C, spec.flavor)
        rec = to_c(M.value(R, M.round_to(R, rec, spec.flavor)), C, spec.flavor)
        r = M.float_op("multiply", rec, s_val, C, spec.flavor)
    else:
        r = M.float_op(op, a, b, C, spec.flavor)
    if spec.ftz and C in ("f32", "f64"):  # a result tiny before rounding becomes a signed zero
        with np.errstate(all="ignore"):
            exact = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
                     "divide": np.divide}[op](a, b)
        r = flush_tiny(r, exact, C)
    pred = M.round_to(R, r, spec.flavor)
    return compare_codes(R, pred, case.out, M.is_nan_code(R, pred))


# ---------------------------------------------------------------- the models

def is_int(t):
    return t != "py" and not cc.is_float(t)


def py_is_int(case):
    return isinstance(case.scalar, (bool, int))


def numpy_model(case, ctx):
    """NumPy + ml_dtypes: the ufunc's loop type L (`resolve_dtypes`): each operand is
    converted to L (nearest even; a float to an integer L as `astype` casts), the loop
    computes in L correctly rounded, the result is L (bool for comparisons). Python
    scalars are weak: they take the array's loop type, like an operand of it."""
    loop = ctx["loops"].get(case.op, {}).get(f"{case.row[1]},{case.row[2]}")
    L = loop.split(",")[0]
    op, R = case.op, case.R
    if op in cc.COMPARE_OPS:
        if is_int(L) or L == "bool" or (all(is_int(t) or (t == "py" and py_is_int(case)) for t in (case.ta, case.tb))):
            return Spec("cmp_int", R, rule="compare exact integer values")
        return Spec("cmp", R, C=L, steps=(((L, "direct"),), ((L, "direct"),)), rule="compare in L")
    if not cc.is_float(R):
        if R == "bool":
            return Spec("bool", R, rule="bool: add/maximum = or, multiply/minimum = and")
        return Spec("int", R, C=R, steps=(((R, "astype"),), ((R, "astype"),)), rule="wrap in L; float operand cast by astype")
    st = (((L, "direct"),), ((L, "direct"),))
    if op in ("maximum", "minimum"):
        tie = "lhs" if L == "f16" else "rhs"
        return Spec("minmax", R, C=L, steps=st, tie=tie, rule=f"minmax in L, tie={tie}")
    return Spec("arith", R, C=L, steps=st, rule="op in L, correctly rounded")


def torch_model(case, ctx):
    """PyTorch CPU; see FINDINGS.md."""
    op, R = case.op, case.R
    scalar = "py" in (case.ta, case.tb)
    arr = case.tb if case.ta == "py" else case.ta
    common = ctx["common"].get((case.row[1], case.row[2]))
    if op in cc.COMPARE_OPS:
        if scalar:
            if arr == "bool" and py_is_int(case):
                return Spec("cmp_int", R, rule="bool tensor vs Python int: exact values")
            if is_int(arr) and py_is_int(case):
                wrap = ((arr, "wrap"),)
                return Spec("cmp_int", R, steps=(wrap, wrap), rule="int tensor vs Python int: the int wraps to the tensor's type")
            if arr == "bool" or is_int(arr):
                C = "f32" if not py_is_int(case) else "exact"
                if C == "exact":
                    return Spec("cmp_int", R, rule="bool tensor vs Python int")
                return Spec("cmp", R, C="f32", rule="int tensor vs Python float: both to f32")
            st = ((arr, "via_f32"),) if arr != "f64" else ((arr, "direct"),)
            return Spec("cmp", R, C=arr, steps=(st, st), flavor="torch", rule="scalar to the tensor type through f32")
        C = common or (case.ta if case.ta == case.tb else None)
        if is_int(C) or C == "bool":
            return Spec("cmp_int", R, rule="compare exact integer values")
        return Spec("cmp", R, C=C, steps=(((C, "direct"),), ((C, "direct"),)), flavor="torch", rule="compare in the common type")
    if not cc.is_float(R):
        if R == "bool":
            return Spec("bool", R, rule="bool: add/maximum = or, multiply/minimum = and")
        return Spec("int", R, C=R, rule="wrap")
    if op in ("maximum", "minimum"):
        V = {"f32": 16, "f64": 8, "f16": 32, "bf16": 32}[R]
        return Spec("minmax", R, C=R, steps=(((R, "direct"),), ((R, "direct"),)), tie=f"simd:{V}", flavor="torch",
                    rule="minmax in R, NaN propagates; equal values: rhs in whole 64-byte vectors, lhs in the tail")
    if not scalar:
        C = "f32" if R in REDUCED or R.startswith("f8") else R
        st = ((R, "direct"),)
        return Spec("arith", R, C=C, steps=(st, st), flavor="torch",
                    rule="operands to R, op in opmath (f32 for f16/bf16/f8), rounded to R")
    # a Python scalar
    if R in REDUCED:
        if op in ("add", "subtract"):
            s_steps = (("f32", "direct"), (R, "direct"))
            rule = "add/sub: scalar to R through f32, op in f32, rounded to R"
        else:
            s_steps = (("f32", "direct"),)
            rule = "mul/div: scalar kept as f32 (opmath), op in f32, rounded to R"
        t_steps = ((R, "direct"),)
        st = (s_steps, t_steps) if case.ta == "py" else (t_steps, s_steps)
        if op == "divide" and case.ta == "py":
            return Spec("arith", R, C="f32", steps=st, special="recip_mul", flavor="torch",
                        rule="s / t = round_R(1/t) * s (f32 opmath, scalar as f32)")
        return Spec("arith", R, C="f32", steps=st, flavor="torch", rule=rule)
    st = (((R, "direct"),), ((R, "direct"),))
    if op == "divide" and case.ta == "py":
        return Spec("arith", R, C=R, steps=st, special="recip_mul", rule="s / t = round_R(1/t) * s")
    return Spec("arith", R, C=R, steps=st, rule="scalar and tensor to R, op in R")


def mlx_model(case, ctx):
    """MLX CPU; see FINDINGS.md."""
    op, R = case.op, case.R
    scalar = "py" in (case.ta, case.tb)
    arr = case.tb if case.ta == "py" else case.ta
    common = ctx["common"].get((case.row[1], case.row[2]))
    left = case.ta == "py"

    def sides(s_steps, a_steps):
        return (s_steps, a_steps) if left else (a_steps, s_steps)

    int_home = "i32" if arr == "bool" else arr  # where a Python int goes with an integer/bool array
    if op in cc.COMPARE_OPS:
        if scalar:
            if py_is_int(case) and not cc.is_float(arr):
                return Spec("cmp_int", R, steps=sides(((int_home, "wrap"),), ()),
                            rule="int/bool array vs Python int: the int wraps to the array type (bool: i32)")
            if not cc.is_float(arr):
                return Spec("cmp", R, C="f32", rule="int/bool array vs Python float: both to f32")
            how = "via_f32" if not py_is_int(case) else "direct"
            return Spec("cmp", R, C=arr, steps=sides(((arr, how),), ()),
                        rule="float array vs scalar: the scalar to the array type (a float through f32)")
        if not cc.is_float(common):
            return Spec("cmp_int", R, rule="compare exact integer values")
        return Spec("cmp", R, C=common, steps=(((common, "direct"),), ((common, "direct"),)),
                    rule="compare in the common type")
    if R == "bool":
        return Spec("bool", R, rule="bool: add/maximum = or, multiply/minimum = and, subtract = xor")
    if not cc.is_float(R):
        s = ((int_home, "wrap"),) if scalar else ()
        return Spec("int", R, C=R, steps=sides(s, ()) if scalar else ((), ()), rule="wrap; a Python int wraps first")
    st_arr = ((R, "direct"),)
    if scalar:
        if py_is_int(case):
            s = ((int_home, "wrap"), (R, "direct")) if not cc.is_float(arr) else ((R, "direct"),)
        else:
            s = ((R, "via_f32"),)
        steps = sides(s, st_arr)
    else:
        steps = (st_arr, st_arr)
    if op in ("maximum", "minimum"):
        return Spec("minmax", R, C=R, steps=steps, tie="rhs", rule="minmax in R, NaN propagates, tie=rhs")
    return Spec("arith", R, C=R, steps=steps, rule="operands to R (a Python float through f32), op in R")


def tensorflow_model(case, ctx):
    """TensorFlow CPU, dtype_conversion_mode="all"; see FINDINGS.md."""
    op, R = case.op, case.R
    scalar = "py" in (case.ta, case.tb)
    arr = case.tb if case.ta == "py" else case.ta
    left = case.ta == "py"
    common = ctx["common"].get((case.row[1], case.row[2]))

    def sides(s_steps, a_steps):
        return (s_steps, a_steps) if left else (a_steps, s_steps)

    flush = dict(daz=True, ftz=True)
    if op in cc.COMPARE_OPS:
        if scalar:
            if py_is_int(case) and not cc.is_float(arr):
                if arr == "bool":
                    return Spec("cmp_int", R, rule="bool tensor vs Python int: exact")
                return Spec("cmp_int", R, steps=sides(((arr, "wrap"),), ()),
                            rule="int tensor vs Python int: the int wraps to the tensor type")
            if not cc.is_float(arr):
                C = common if common and cc.is_float(common) else "f32"
                return Spec("cmp", R, C=C, daz=True, rule="int/bool tensor vs Python float: compare in the promoted type")
            how = "via_f32" if not py_is_int(case) and arr != "f64" else "direct"
            return Spec("cmp", R, C=arr, steps=sides(((arr, how),), ()), daz=True,
                        rule="float tensor vs scalar: the scalar to the tensor type (a float through f32), DAZ")
        C = common or (case.ta if case.ta == case.tb else None)
        if not cc.is_float(C):
            return Spec("cmp_int", R, rule="compare exact integer values")
        return Spec("cmp", R, C=C, steps=(((C, "direct"),), ((C, "direct"),)), daz=True,
                    rule="compare in the common type, DAZ")
    if R == "bool":
        return Spec("bool", R, rule="bool")
    if not cc.is_float(R):
        s = ((arr, "wrap"),) if scalar and arr != "bool" else ()
        return Spec("int", R, C=R, steps=sides(s, ()) if scalar else ((), ()), rule="wrap; a Python int wraps first")
    C = "f32" if R in REDUCED else R
    st_arr = ((R, "direct"),)
    if scalar:
        if py_is_int(case) and not cc.is_float(arr):
            s = (("i32" if arr == "bool" else arr, "wrap"), (R, "direct"))
        elif py_is_int(case):
            s = ((R, "direct"),)
        else:
            s = ((R, "via_f32"),) if R != "f64" else ((R, "direct"),)
        steps = sides(s, st_arr)
    else:
        steps = (st_arr, st_arr)
    if op in ("maximum", "minimum"):
        tie = "lhs" if R in REDUCED else f"simd:{ {'f32': 8, 'f64': 4}[R] }"
        return Spec("minmax", R, C=R, steps=steps, tie=tie, daz=True,
                    rule="minmax in R, DAZ, NaN propagates; equal values: f16/bf16 lhs; f32/f64 rhs in whole "
                    "32-byte vectors, lhs in the tail")
    return Spec("arith", R, C=C, steps=steps, rule="operands to R (a Python float through f32), op in R "
                "(f16/bf16 in f32), DAZ + FTZ (tiny before rounding)", **flush)


def jax_model(case, ctx):
    """JAX on XLA CPU; see FINDINGS.md."""
    op, R = case.op, case.R
    scalar = "py" in (case.ta, case.tb)
    arr = case.tb if case.ta == "py" else case.ta
    left = case.ta == "py"
    x64 = ctx["x64"]
    common = ctx["common"].get((case.row[1], case.row[2]))

    def sides(s_steps, a_steps):
        return (s_steps, a_steps) if left else (a_steps, s_steps)

    def scalar_steps(target):
        if py_is_int(case):
            if not cc.is_float(target):
                return ((target, "wrap"),)
            return ((target, "direct"),)
        if x64:  # a weak f64, converted as XLA converts f64: to bf16 through f32, else directly
            return (("f64", "direct"), (target, "via_f32" if target == "bf16" else "direct"))
        return (("f32", "direct"), (target, "direct"))

    fl = "xla"
    if op in cc.COMPARE_OPS:
        C = common if common else (arr if scalar else case.ta)
        if not cc.is_float(C):
            wrap = ((C, "wrap"),) if C != "bool" else ()
            return Spec("cmp_int", R, steps=sides(scalar_steps(C), wrap) if scalar else (wrap, wrap),
                        rule="integers: both wrapped to the promoted type, exact compare")
        st = ((C, "direct"),)
        return Spec("cmp", R, C=C, steps=sides(scalar_steps(C), st) if scalar else (st, st), daz=True,
                    flavor=fl, rule="compare in the promoted type, DAZ")
    if R == "bool":
        return Spec("bool", R, rule="bool")
    if not cc.is_float(R):
        wrap = ((R, "wrap"),)
        st = sides(scalar_steps(R), wrap) if scalar else (wrap, wrap)
        if op == "divide":
            return Spec("int_div", R, C=R, steps=st, rule="i2/u2 true_divide stays integer: XLA division")
        return Spec("int", R, C=R, steps=st, rule="integers wrapped to R, op wraps")
    C = "f32" if R not in ("f32", "f64") else R
    st = ((R, "direct"),)
    steps = sides(scalar_steps(R), st) if scalar else (st, st)
    if op in ("maximum", "minimum"):
        return Spec("minmax", R, C=C, steps=steps, tie="ieee", daz=True, flavor=fl,
                    rule="minmax in R (narrower than f32: in f32), NaN propagates, -0 < +0, DAZ")
    if op == "multiply" and "bool" in (case.ta, case.tb) and R in ("f16", "f32", "f64"):
        return Spec("arith", R, C=C, steps=steps, flavor=fl, special="select_bool",
                    rule="bool * x = select(bool, x, +0) (f16, f32, f64)")
    if op == "divide" and case.tb == "py" and case.ta == "bool" and R in ("f16", "f32", "f64"):
        return Spec("arith", R, C=C, steps=steps, flavor=fl, special="select_recip",
                    rule="bool / scalar = select(bool, round_R(1 / scalar), +0)")
    if op == "divide" and case.tb == "py":
        return Spec("arith", R, C=C, steps=steps, daz=True, ftz=True, flavor=fl, special="mul_recip",
                    rule="x / scalar = x * rcp, rcp = 1/scalar rounded to R (f16/f32/f64) or f32 (bf16, f8)")
    return Spec("arith", R, C=C, steps=steps, daz=True, ftz=True, flavor=fl,
                rule="operands to R, op in R (narrower than f32: in f32), DAZ + FTZ")


# Cases a model misses on purpose, each with the reason (FINDINGS.md has the detail):
# (data set, op, lhs, rhs) -> (mismatching elements, why).
KNOWN = {
    ("jax_x32", "maximum", "u8", "f16"): (1, "f16 signalling NaN in the scalar tail of XLA's loop: max(31, 0x7ddd) = 31"),
    ("jax_x32", "minimum", "u8", "f16"): (1, "f16 signalling NaN in the scalar tail of XLA's loop: min(31, 0x7ddd) = 31"),
    ("jax_x64", "maximum", "u8", "f16"): (1, "f16 signalling NaN in the scalar tail of XLA's loop: max(31, 0x7ddd) = 31"),
    ("jax_x64", "minimum", "u8", "f16"): (1, "f16 signalling NaN in the scalar tail of XLA's loop: min(31, 0x7ddd) = 31"),
}

MODELS = {"numpy": numpy_model, "torch": torch_model, "mlx": mlx_model, "tensorflow": tensorflow_model,
          "jax": jax_model}


def context(idx):
    ctx = {"loops": idx.get("loops", {}), "common": {}, "x64": idx.get("setting", {}).get("jax_enable_x64")}
    for row in idx["cases"]:
        if row[0] == "add" and row[4] is not None:
            ctx["common"][(row[1], row[2])] = row[4]
    # comparisons: the common type of a pair is what add gives, but bool + bool is bool
    return ctx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data_dir")
    ap.add_argument("names", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--only")
    args = ap.parse_args()
    report = {}
    for name in args.names:
        idx, blob = M.load(args.data_dir, name)
        ctx = context(idx)
        model = MODELS[name.split("_")[0] if name.startswith("jax") else name]
        rules = collections.OrderedDict()
        misses, explained = [], []
        n_cases = n_el = 0
        for row in idx["cases"]:
            if row[4] is None or (args.only and row[0] not in args.only.split(",")):
                continue
            case = Case(row, blob)
            try:
                spec = model(case, ctx)
                bad = evaluate(spec, case)
            except Exception as e:  # noqa: BLE001
                spec, bad = Spec("error", case.R, rule=f"model error: {e!r}"[:120]), case.n
            n_cases += 1
            n_el += case.n
            r = rules.setdefault(spec.rule, [0, 0, 0])
            r[0] += 1
            r[1] += case.n
            known = KNOWN.get((name, row[0], row[1], row[2]))
            if bad and known and known[0] == bad:
                explained.append([row[:5], bad, known[1]])
            elif bad:
                r[2] += 1
                misses.append([row[:5], bad, case.n, spec.rule])
        print(f"{name}: {n_cases} cases, {n_el} elements, {len(misses)} cases missed, "
              f"{len(explained)} known exceptions")
        for e in explained:
            print("  KNOWN", e)
        for rule, (c, e, m) in rules.items():
            print(f"  {c:6} cases {e:9} elements  missed {m:4}  {rule}")
        for m in misses[:40]:
            print("  MISS", m)
        report[name] = {"cases": n_cases, "elements": n_el, "rules": rules, "misses": misses,
                        "known": explained}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
