"""Candidate arithmetic models, computed independently of the frameworks with NumPy
(longdouble for exact values, native float32/float64 for IEEE operations) and the
rounding rules written out here; and the comparison of a framework's recorded bits
with them. Runs in the NumPy environment (ml_dtypes only decodes narrow codes).

A model of `a OP b` (Model):
    a' = conv(value(a), C), b' = conv(value(b), C)      # each operand into the compute type
    r  = a' OP b' correctly rounded in C                 # IEEE in C (f32 / f64 natively,
                                                         # narrower C via f64, exact enough)
    result = round(r, R)                                 # into the result type
where conv rounds to nearest even ("direct"), or first to f32 and then to C
("via_f32", how ml_dtypes converts a double), or keeps the value ("exact": C wide
enough); integers wrap; a float to an integer truncates toward zero and wraps.
Overflow into a narrow format follows `flavor` (ml_dtypes' non-saturating rules by
default, see round_to).
"""
import gzip
import json
import os
import sys

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

LD = np.longdouble
assert np.finfo(LD).nmant >= 63, "needs x87 extended precision (x86-64 Linux)"

VIEW = {
    "bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e5m2": ml_dtypes.float8_e5m2, "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e8m0": ml_dtypes.float8_e8m0fnu, "f4e2m1": ml_dtypes.float4_e2m1fn,
    "f8e4m3": ml_dtypes.float8_e4m3, "f8e3m4": ml_dtypes.float8_e3m4,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz, "f6e2m3fn": ml_dtypes.float6_e2m3fn,
    "f6e3m2fn": ml_dtypes.float6_e3m2fn,
    "i4": ml_dtypes.int4, "u4": ml_dtypes.uint4, "i2": ml_dtypes.int2, "u2": ml_dtypes.uint2,
    "i1": ml_dtypes.int1, "u1": ml_dtypes.uint1,
}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
WIDE = ("f16", "bf16", "f32", "f64")


# ---------------------------------------------------------------- data access

def load(data_dir, name):
    with open(os.path.join(data_dir, name + ".json")) as f:
        idx = json.load(f)
    with open(os.path.join(data_dir, idx["blob"]["file"]), "rb") as f:
        blob = gzip.decompress(f.read())
    return idx, blob


def scalar_ld(v):
    """A Python bool/int/float as an exact longdouble."""
    if isinstance(v, bool):
        return LD(int(v))
    if isinstance(v, int):
        s = -1 if v < 0 else 1
        v = abs(v)
        return LD(s) * (LD(v >> 32) * LD(2.0) ** 32 + LD(v & 0xFFFFFFFF))
    return LD(v)


def case_parts(case, blob):
    """(op, lhs type, lhs codes | None, rhs type, rhs codes | None, scalar value | None,
    scalar on the left, result type, output codes) of a recorded case."""
    op, lhs, rhs, kind, res, off, n = case[:7]
    scalar, left = None, False
    if kind == "scalar":
        left = lhs.startswith("py:")
        si = int((lhs if left else rhs)[3:])
        scalar = cc.scalar_values()[si]
        t = rhs if left else lhs
        codes = np.array(cc.scalar_array_codes(t), np.uint64)
        a, b = (None, codes) if left else (codes, None)
        ta, tb = ("py", t) if left else (t, "py")
    else:
        x, y = cc.pair_inputs(lhs, rhs)
        a, b = np.array(x, np.uint64), np.array(y, np.uint64)
        ta, tb = lhs, rhs
    out = None
    if res is not None:
        out = np.frombuffer(blob, dtype=f"<u{cc.nbytes(res)}", count=n, offset=off).astype(np.uint64)
    return op, ta, a, tb, b, scalar, left, res, out


# ---------------------------------------------------------------- values

def is_signed(t):
    return cc.TYPES[t][0] == "int"


def int_bits(t, codes):
    """Integer codes as 64-bit two's complement bit patterns (uint64): signed types
    sign-extended."""
    c = codes.astype(np.uint64)
    if not is_signed(t):
        return c
    b = cc.bits(t)
    if b == 64:
        return c
    sign = np.uint64(1 << (b - 1))
    return np.where(c & sign, c | np.uint64(((1 << 64) - 1) ^ ((1 << b) - 1)), c).astype(np.uint64)


def value(t, codes):
    """Exact values (longdouble) of codes of type t; NaN keeps its sign."""
    if cc.is_float(t):
        arr = codes.astype(UINT[cc.nbytes(t)]).view(VIEW[t])
        return arr.astype(np.float64).astype(LD)
    return int_bits(t, codes).view(np.int64).astype(LD) if is_signed(t) else codes.astype(np.uint64).astype(LD)


def is_nan_code(t, codes):
    if not cc.is_float(t):
        return np.zeros(codes.shape, bool)
    if t in ("f6e2m3fn", "f6e3m2fn", "f4e2m1"):
        return np.zeros(codes.shape, bool)
    return np.isnan(value(t, codes))


def nan_code(t, neg, flavor="ml"):
    """The code a NaN of sign `neg` becomes in t when no payload is kept (ml_dtypes'
    conversions; f16/f32/f64 the default quiet NaN)."""
    neg = np.asarray(neg, bool)
    s = np.uint64(cc.sign_bit(t))
    base = {"f64": 0x7FF8000000000000, "f32": 0x7FC00000, "f16": 0x7E00, "bf16": 0x7FC0,
            "f8e4m3fn": 0x7F, "f8e5m2": 0x7E, "f8e4m3": 0x7C, "f8e3m4": 0x78}.get(t)
    if t in ("f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz"):
        return np.full(neg.shape, 0x80, np.uint64)
    if t == "f8e8m0":
        return np.full(neg.shape, 0xFF, np.uint64)
    if t in ("f6e2m3fn", "f6e3m2fn", "f4e2m1"):  # no NaN: +NaN -> -0, -NaN -> +0 (ml_dtypes)
        return np.where(neg & (flavor != "xla"), np.uint64(0), s).astype(np.uint64)  # XLA: -0 for both
    return np.where(neg, np.uint64(base) | s, np.uint64(base)).astype(np.uint64)


# ---------------------------------------------------------------- rounding

def round_to(t, x, flavor="ml"):
    """Codes of t nearest to the exact values x (longdouble), ties to even.
    Overflow (the rounded magnitude beyond the largest finite value): infinity for
    IEEE formats, NaN for fn/fnuz formats, the largest value for f6/f4 (ml_dtypes);
    flavor "sat" saturates every format; flavor "torch" (c10's conversions) saturates
    f8e4m3fn (finite overflow and infinities) and keeps the others as ml_dtypes does,
    but for f8e8m0, whose sign it ignores and whose zero is 0x00. NaN becomes
    nan_code(t, sign).
    f8e8m0 follows ml_dtypes: the value is rounded to f32 first, then the f32 bits
    give the code (biased exponent, plus one when mantissa bit 22 and any lower bit or
    the exponent field is set); zero, negatives, inf and NaN give 0xFF."""
    x = np.asarray(x, dtype=LD)
    if t in ("bool",) or not cc.is_float(t):
        raise ValueError(t)
    if t == "f8e8m0":
        f = round_to("f32", np.abs(x) if flavor == "torch" else x).astype(np.uint32)
        exp = (f >> 23) & 0xFF
        man = f & 0x7FFFFF
        up = ((man & 0x400000) != 0) & (((man & 0x3FFFFF) != 0) | (exp > 0))
        code = exp.astype(np.int64) + up
        zero = (f & 0x7FFFFFFF) == 0
        bad = (f >> 31 == 1) | (exp == 0xFF) | (code > 0xFE)
        if flavor == "torch":  # c10: the sign is ignored, +-0 -> 0x00 (2^-127)
            bad &= ~zero
        else:
            bad |= zero
        return np.where(bad, 0xFF, np.where(zero, 0, code)).astype(np.uint64)
    e, m, bias, nf = cc.FLOATS[t]
    nan = np.isnan(x)
    neg = np.signbit(x)
    a = np.abs(np.where(nan, LD(0), x))
    inf = np.isinf(a)
    fa = np.where(inf, LD(0), a)
    _, ex = np.frexp(fa)
    E = np.maximum(ex.astype(np.int64) - 1, 1 - bias)
    q = np.ldexp(LD(1), (E - m).astype(np.int32))
    v = np.rint(fa / q) * q
    maxval = LD(cc.decode(t, cc.max_code(t)))
    over = (v > maxval) | inf
    v = np.where(over, LD(0), v)
    _, ex2 = np.frexp(v)
    E2 = np.maximum(ex2.astype(np.int64) - 1, 1 - bias)
    sub = v < np.ldexp(LD(1), 1 - bias)
    sig = v / np.ldexp(LD(1), (E2 - m).astype(np.int32))
    code_sub = np.where(sub, v / np.ldexp(LD(1), 1 - bias - m), LD(0)).astype(np.uint64)
    code_norm = (((E2 + bias).astype(np.uint64) << np.uint64(m))
                 | (np.where(sub, LD(2 ** m), sig) - LD(2 ** m)).astype(np.uint64))
    code = np.where(sub, code_sub, code_norm).astype(np.uint64)
    s = np.uint64(cc.sign_bit(t))
    if flavor == "sat" or nf == "none" or (flavor == "torch" and t == "f8e4m3fn"):
        ovc = np.uint64(cc.max_code(t))
    elif nf == "ieee":
        ovc = np.uint64(((1 << e) - 1) << m)
    else:
        ovc = None
    if ovc is None:
        code = np.where(over, nan_code(t, neg, flavor), code | np.where(neg, s, np.uint64(0)))
    else:
        code = np.where(over, ovc, code) | np.where(neg, s, np.uint64(0))
    if nf == "fnuz":
        code = np.where(~over & (code == s), np.uint64(0), code)
    code = np.where(nan, nan_code(t, neg, flavor), code)
    return code.astype(np.uint64)


def round_via_f32(t, x):
    """ml_dtypes' conversion of a double: to f32 first (nearest even), then to t."""
    return round_to(t, value("f32", round_to("f32", x)))


def conv(x, src, C, how):
    """The longdouble values x (of type src, or a Python scalar's value) as values of C."""
    if not cc.is_float(C):
        raise ValueError(C)
    if how == "exact":
        return x
    if how == "via_f32" and C not in ("f32", "f64"):
        return value(C, round_via_f32(C, x))
    return value(C, round_to(C, x))


def flush(x, t):
    """Subnormals of t to signed zero."""
    tiny = LD(cc.decode(t, 1 << cc.FLOATS[t][1])) if t in cc.FLOATS else LD(0)
    return np.where(np.abs(x) < tiny, np.copysign(LD(0), x), x)


# ---------------------------------------------------------------- models

def float_op(op, a, b, C, flavor="ml"):
    """a OP b correctly rounded in float type C, as longdouble values."""
    if op in ("add", "subtract", "multiply", "divide"):
        if C in ("f32", "f64"):
            nt = np.float32 if C == "f32" else np.float64
            x, y = a.astype(nt), b.astype(nt)
            with np.errstate(all="ignore"):
                r = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
                     "divide": np.divide}[op](x, y)
            return r.astype(LD)
        with np.errstate(all="ignore"):
            x, y = a.astype(np.float64), b.astype(np.float64)
            r = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide}[op](x, y)
        return value(C, round_to(C, r.astype(LD), flavor))
    raise ValueError(op)


def predict_arith(op, ta, va, tb, vb, C, R, how=("direct", "direct"), ftz=False, flavor="ml", final="direct"):
    """Predicted result codes of R for an arithmetic op (float compute type C)."""
    a = conv(va, ta, C, how[0])
    b = conv(vb, tb, C, how[1])
    if ftz:
        a, b = flush(a, C), flush(b, C)
    r = float_op(op, a, b, C)
    if ftz:
        r = flush(r, C)
    return (round_via_f32(R, r) if final == "via_f32" else round_to(R, r, flavor)), r


def predict_compare(op, a, b):
    with np.errstate(all="ignore"):
        return {"equal": np.equal, "not_equal": np.not_equal, "less": np.less, "less_equal": np.less_equal,
                "greater": np.greater, "greater_equal": np.greater_equal}[op](a, b).astype(np.uint64)


def to_int_values(codes, src, astype_to=None):
    """Operand values for integer compute as (exact longdouble values, 64-bit two's
    complement bits): ints as they are, bool 0/1, floats truncated toward zero (NaN and
    inf -> 0; values beyond 64 bits wrap as their low bits), or, with `astype_to`,
    floats cast to that integer type by ml_dtypes/NumPy `astype` (the framework's own
    cast, whose corner cases belong to the cast oracles)."""
    if cc.is_float(src) and astype_to is not None:
        with np.errstate(all="ignore"):
            c = codes.astype(UINT[cc.nbytes(src)]).view(VIEW[src]).astype(VIEW[astype_to])
        c = c.view(UINT[c.dtype.itemsize]).astype(np.uint64)
        if cc.bits(astype_to) < 8:
            c &= np.uint64(cc.mask(astype_to))
        return value(astype_to, c), int_bits(astype_to, c)
    if cc.is_float(src):
        v = value(src, codes)
        v = np.where(np.isfinite(v), np.trunc(v), LD(0))
        lo = np.mod(v, LD(2.0) ** 64)
        return v, lo.astype(np.uint64)
    return value(src, codes), int_bits(src, codes)


def int_op(op, x, y, C):
    """x, y: (values, bits) pairs; the result's codes in integer type C (wrapping)."""
    (vx, bx), (vy, by) = x, y
    m = np.uint64(cc.mask(C)) if cc.bits(C) < 64 else np.uint64((1 << 64) - 1)
    with np.errstate(all="ignore"):
        if op == "add":
            r = bx + by
        elif op == "subtract":
            r = bx - by
        elif op == "multiply":
            r = bx * by
        elif op == "maximum":
            r = np.where(vx >= vy, bx, by)
        elif op == "minimum":
            r = np.where(vx <= vy, bx, by)
        else:
            raise ValueError(op)
    return (r & m).astype(np.uint64)


def summarize_nan(t, codes):
    """Distinct NaN codes (hex) with counts."""
    out = {}
    for c in codes:
        k = hex(int(c))
        out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))
