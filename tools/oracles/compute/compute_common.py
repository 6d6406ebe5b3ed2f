"""Shared by the compute oracles: promo's element types, the input vectors every
oracle feeds to its framework, the case rows and the output blob.

Standard library only (the MLX environment has no NumPy): every input is a bit
pattern built here with integer arithmetic, so that each framework gets exactly the
same inputs, and `inputs.json` (written by `write_inputs`) holds them for the tests.

Terms (README.md has the data layout):
- a *code* is an element's bit pattern, zero-extended, in the low bits of its storage
  (one byte for every type of 8 bits or fewer: bool 0/1, i4 -1 is 0x0f, an f6 code in
  the low six bits, as ml_dtypes stores them);
- `specials[t]`: bit patterns chosen by rule (zeros, subnormals, ±1, max, ±inf, NaNs,
  ties and overflow boundaries of narrower formats, integer limits);
- `random_lhs[t]`, `random_rhs[t]`: SplitMix64-driven bit patterns (`randoms`);
- `scalar_array[t]`: the array a Python scalar meets (`scalar_array_codes`).
"""
import functools
import gzip
import hashlib
import json
import math
import os
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "promotion"))
from oracle_common import first_line  # noqa: E402  (the promotion oracles' error summary)

SCHEMA = 1

# ---------------------------------------------------------------- element types

# name -> (kind, bits). kind: bool, int, uint, float.
TYPES = {
    "bool": ("bool", 1),
    "u8": ("uint", 8), "u16": ("uint", 16), "u32": ("uint", 32), "u64": ("uint", 64),
    "i8": ("int", 8), "i16": ("int", 16), "i32": ("int", 32), "i64": ("int", 64),
    "i4": ("int", 4), "u4": ("uint", 4), "i2": ("int", 2), "u2": ("uint", 2), "i1": ("int", 1), "u1": ("uint", 1),
    "f16": ("float", 16), "bf16": ("float", 16), "f32": ("float", 32), "f64": ("float", 64),
    "f8e4m3fn": ("float", 8), "f8e4m3fnuz": ("float", 8), "f8e5m2": ("float", 8), "f8e5m2fnuz": ("float", 8),
    "f8e8m0": ("float", 8), "f8e4m3": ("float", 8), "f8e3m4": ("float", 8), "f8e4m3b11fnuz": ("float", 8),
    "f6e2m3fn": ("float", 6), "f6e3m2fn": ("float", 6), "f4e2m1": ("float", 4),
}

# float name -> (exponent bits, mantissa bits, bias, non-finite encoding)
#   ieee: all-ones exponent is inf (mantissa 0) or NaN; fn: only S.1..1.1..1 is NaN;
#   fnuz: 0x80 is the only NaN, no -0; none: every code finite; e8m0: 2^(code-127), 0xff NaN
FLOATS = {
    "f64": (11, 52, 1023, "ieee"), "f32": (8, 23, 127, "ieee"), "f16": (5, 10, 15, "ieee"),
    "bf16": (8, 7, 127, "ieee"),
    "f8e4m3fn": (4, 3, 7, "fn"), "f8e4m3fnuz": (4, 3, 8, "fnuz"), "f8e5m2": (5, 2, 15, "ieee"),
    "f8e5m2fnuz": (5, 2, 16, "fnuz"), "f8e4m3": (4, 3, 7, "ieee"), "f8e3m4": (3, 4, 3, "ieee"),
    "f8e4m3b11fnuz": (4, 3, 11, "fnuz"), "f6e2m3fn": (2, 3, 1, "none"), "f6e3m2fn": (3, 2, 3, "none"),
    "f4e2m1": (2, 1, 1, "none"), "f8e8m0": (8, 0, 127, "e8m0"),
}

OPS = ["add", "subtract", "multiply", "divide", "maximum", "minimum",
       "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
ARITH_OPS = OPS[:6]
COMPARE_OPS = OPS[6:]

# The Python scalars of the scalar cases, as Python source: scalar i of the data is
# `eval(SCALARS[i])` (a bool, an int or a float; the JSON holds the source, so the value
# is exact).
SCALARS = [
    "True", "3", "-1", "300", "16777217", "9007199254740993",
    "0.1", "1/3", "1e-08", "65519.0", "1e+30", "-0.0", "float('inf')", "float('nan')",
    # just above the tie between 1 and the next value of bf16, f16, e4m3 precision: rounded
    # to f32 first they become that tie exactly (and then round to even, down)
    "1 + 2**-8 + 2**-30", "1 + 2**-11 + 2**-30", "1 + 2**-4 + 2**-30",
]


def scalar_values():
    return [eval(s) for s in SCALARS]  # noqa: S307 - fixed literals above


def bits(t):
    return TYPES[t][1]


def nbytes(t):
    """Bytes per element in the data: 1 for every type of 8 bits or fewer."""
    b = bits(t)
    return 1 if b <= 8 else b // 8


def mask(t):
    return (1 << bits(t)) - 1


def is_float(t):
    return TYPES[t][0] == "float"


def exhaustive(t):
    """Same-type pairs of these types are swept over every pair of codes."""
    return bits(t) <= 8


def all_codes(t):
    return [0, 1] if t == "bool" else list(range(1 << bits(t)))


# ---------------------------------------------------------------- float formats

def _fields(t):
    e, m, bias, nf = FLOATS[t]
    return e, m, bias, nf, bits(t)


def decode(t, code):
    """The value of a code as a Python float (exact: every format here fits in f64)."""
    if t == "f64":
        return struct.unpack("<d", struct.pack("<Q", code))[0]
    e, m, bias, nf, nb = _fields(t)
    if nf == "e8m0":
        return math.nan if code == 0xFF else math.ldexp(1.0, code - 127)
    sign = -1.0 if code >> (nb - 1) & 1 else 1.0
    ex = (code >> m) & ((1 << e) - 1)
    man = code & ((1 << m) - 1)
    top = (1 << e) - 1
    if nf == "ieee" and ex == top:
        return sign * math.inf if man == 0 else math.nan
    if nf == "fn" and ex == top and man == (1 << m) - 1:
        return math.nan
    if nf == "fnuz" and code == 1 << (nb - 1):
        return math.nan
    if nf == "fnuz":
        bias = bias  # the bias already accounts for the missing infinities
    if ex == 0:
        return sign * math.ldexp(man, 1 - bias - m)
    return sign * math.ldexp((1 << m) + man, ex - bias - m)


def max_code(t):
    e, m, bias, nf, nb = _fields(t)
    top = (1 << e) - 1
    if nf == "e8m0":
        return 0xFE
    if nf == "ieee":
        return ((top - 1) << m) | ((1 << m) - 1)
    if nf == "fn":
        return (top << m) | ((1 << m) - 2)
    return (top << m) | ((1 << m) - 1)  # fnuz, none


def sign_bit(t):
    return 1 << (bits(t) - 1)


def encode(t, x):
    """Round the Python float (or Fraction) x to the nearest code of t, ties to even;
    None when x is beyond the largest finite value after rounding (the callers only
    build specials from values that fit). NaN and inf are not accepted."""
    e, m, bias, nf, nb = _fields(t)
    if nf == "e8m0":
        raise ValueError("no encoder for f8e8m0")
    x = Fraction(x)
    neg = x < 0
    a = -x if neg else x
    if a == 0:
        code = 0
    else:
        # scale so that the quantum of the binade is 1
        ex = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** ex > a:
            ex -= 1
        ex = max(ex, 1 - bias)  # subnormal range shares the smallest exponent
        q = Fraction(2) ** (ex - m)
        n = a / q
        f = math.floor(n)
        r = n - f
        if r > Fraction(1, 2) or (r == Fraction(1, 2) and f % 2 == 1):
            f += 1
        # f is the significand times 2^m (may carry into the next binade)
        if f >= (2 << m):
            f //= 2
            ex += 1
        if f < (1 << m):  # subnormal
            code = f
        else:
            code = ((ex + bias) << m) | (f - (1 << m))
        if code > max_code(t):
            return None
    if neg:
        if nf == "fnuz" and code == 0:
            return 0
        code |= sign_bit(t)
    return code



@functools.lru_cache(maxsize=None)
def float_specials(t):
    """The special bit patterns of a float type, in a fixed order, without repeats."""
    e, m, bias, nf, nb = _fields(t)
    out = []

    def add(c):
        if c is not None and c not in out:
            out.append(c)

    if nf == "e8m0":
        for c in (127, 126, 128, 0, 1, 2, 100, 120, 134, 150, 200, 253, 254, 255):
            add(c)
        return tuple(out)
    top = (1 << e) - 1
    s = sign_bit(t)
    one = encode(t, 1.0)
    core = [0, 1, (1 << m) - 1 if m else None, 1 << m, one, one + 1, one - 1, encode(t, 2.0), encode(t, 0.5),
            encode(t, 3.0), encode(t, 1.5), max_code(t), max_code(t) - 1]
    if nf == "ieee":
        core.append(top << m)  # infinity
    for c in core:
        if c is None:
            continue
        add(c)
        if not (nf == "fnuz" and c == 0):
            add(c | s)
    # NaNs
    if nf == "ieee":
        if bits(t) <= 8:  # the lowest, the quiet (top mantissa bit only) and the all-ones NaN
            for c in ((top << m) + 1, (top << m) | (1 << (m - 1)), (top << m) | ((1 << m) - 1)):
                add(c)
                add(c | s)
        else:
            q = (top << m) | (1 << (m - 1))
            for c in (q, q | s, (top << m) | 1, (top << m) | 1 | s, q | 1, q | 0x15 | s):
                add(c)
    elif nf == "fn":
        add(s - 1)
        add(2 * s - 1)
    elif nf == "fnuz":
        add(s)
    # finer points, positive only: values of interest rounded into t
    extras = [0.1, 1.0 / 3.0, 1e-8, 2049.0, 16777217.0]
    # ties between 1 and the next value of f16, bf16, e4m3 precision
    for mm in (10, 7, 3):
        if m > mm + 1:
            tie = 1.0 + 2.0 ** -(mm + 1)
            extras += [tie]
            c = encode(t, tie)
            if c is not None:
                add(c)
                add(c - 1)
                add(c + 1)
    # largest finite value and the overflow tie of f16, e4m3fn, e5m2 (and bf16 in f32/f64)
    bounds = [65504.0, 65520.0, 448.0, 464.0, 57344.0, 61440.0]
    if t in ("f32", "f64"):
        bounds += [decode("bf16", 0x7F7F), float(Fraction(decode("bf16", 0x7F7F)) + Fraction(2) ** 119)]
    for x in extras + bounds:
        if x > decode(t, max_code(t)):
            continue
        c = encode(t, x)
        if c is not None and c != 0:
            add(c)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def int_specials(t):
    kind, b = TYPES[t]
    if t == "bool":
        return [0, 1]
    lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if kind == "int" else (0, (1 << b) - 1)
    vals = [0, 1, -1, 2, -2, 3, hi, lo, hi - 1, lo + 1, 100, -100, 127, -128, 128, 255, 256, -129,
            2049, 16777217, 2147483647, -2147483648, 4294967295, 9007199254740993, -9007199254740993,
            1 << 62, 1 << 63]
    out = []
    for v in vals:
        if lo <= v <= hi:
            c = v & mask(t)
            if c not in out:
                out.append(c)
    return tuple(out)


def specials(t):
    return list(float_specials(t) if is_float(t) else int_specials(t))


# ---------------------------------------------------------------- random inputs

M64 = (1 << 64) - 1


def splitmix64(state):
    """Yields SplitMix64 outputs for the 64-bit seed `state`."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def seed_of(text):
    """FNV-1a 64 of the UTF-8 text: the seed of `randoms(t, side)` is seed_of(f"{t}/{side}")."""
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & M64
    return h


def random_count(t):
    return 512 if bits(t) > 8 else 256


@functools.lru_cache(maxsize=None)
def randoms(t, side):
    """`random_count(t)` codes of t from SplitMix64 seeded with seed_of(f"{t}/{side}"):
    for each output z, if z is odd the code is the raw bits (z >> 1) & mask; else a
    "moderate" value: floats get sign = bit 1, biased exponent = bias - 8 + (z >> 8) % 17
    clamped to [1, largest finite exponent field] and the mantissa from z >> 20;
    integers get (z >> 8) % 601 - 300 (signed) or (z >> 8) % 601 (unsigned), wrapped
    to the width; bool gets (z >> 1) & 1."""
    g = splitmix64(seed_of(f"{t}/{side}"))
    out = []
    kind, b = TYPES[t]
    for _ in range(random_count(t)):
        z = next(g)
        if t == "bool":
            out.append((z >> 1) & 1)
        elif z & 1:
            out.append((z >> 1) & mask(t))
        elif kind == "float":
            e, m, bias, nf, nb = _fields(t)
            if nf == "e8m0":
                out.append(max(0, min(254, 127 - 8 + (z >> 8) % 17)))
                continue
            top_field = max_code(t) >> m
            ex = max(1, min(top_field, bias - 8 + (z >> 8) % 17))
            code = (ex << m) | ((z >> 20) & ((1 << m) - 1))
            code = min(code, max_code(t))
            if (z >> 1) & 1 and not (nf == "fnuz" and code == 0):
                code |= sign_bit(t)
            out.append(code)
        else:
            v = (z >> 8) % 601 - (300 if kind == "int" else 0)
            out.append(v & mask(t))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def scalar_array_codes(t):
    """The array a Python scalar meets: every code for types of 8 bits or fewer, else
    the specials followed by the first 128 codes of random_lhs."""
    if exhaustive(t):
        return tuple(all_codes(t))
    return tuple(specials(t)) + randoms(t, "lhs")[:128]


@functools.lru_cache(maxsize=None)
def pair_inputs(lhs, rhs):
    """(lhs codes, rhs codes) of the case `lhs OP rhs` between two arrays:
    every pair of codes when lhs == rhs and the type has 8 bits or fewer (element k:
    lhs code k % 2^b, rhs code k // 2^b); else the specials crossed (element k < sA*sB:
    lhs specials[k % sA], rhs specials[k // sA]) followed by random_lhs[lhs] zipped
    with random_rhs[rhs] (as many as the shorter has)."""
    if lhs == rhs and exhaustive(lhs):
        c = all_codes(lhs)
        n = len(c)
        return tuple(c[k % n] for k in range(n * n)), tuple(c[k // n] for k in range(n * n))
    sa, sb = specials(lhs), specials(rhs)
    a = [sa[k % len(sa)] for k in range(len(sa) * len(sb))]
    b = [sb[k // len(sa)] for k in range(len(sa) * len(sb))]
    ra, rb = randoms(lhs, "lhs"), randoms(rhs, "rhs")
    n = min(len(ra), len(rb))
    return tuple(a) + ra[:n], tuple(b) + rb[:n]


def pack(t, codes):
    """Little-endian bytes of codes of type t (one byte each for <= 8 bits)."""
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[nbytes(t)]
    return struct.pack(f"<{len(codes)}{fmt}", *codes)


def unpack(t, data):
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}[nbytes(t)]
    n = len(data) // nbytes(t)
    return list(struct.unpack(f"<{n}{fmt}", data))


def inputs_doc(types):
    return {
        "schema": SCHEMA,
        "generated_by": "tools/oracles/compute/compute_common.py (write_inputs)",
        "scalars": SCALARS,
        "types": {t: {"kind": TYPES[t][0], "bits": bits(t), "bytes": nbytes(t),
                      "specials": specials(t), "random_lhs": list(randoms(t, "lhs")),
                      "random_rhs": list(randoms(t, "rhs")),
                      "random_seed_lhs": seed_of(f"{t}/lhs"), "random_seed_rhs": seed_of(f"{t}/rhs")}
                  for t in types},
    }


def write_inputs(path):
    doc = inputs_doc(list(TYPES))
    with open(path, "w") as f:
        f.write("{\n")
        keys = [k for k in doc if k != "types"]
        for k in keys:
            f.write(json.dumps(k) + ":" + json.dumps(doc[k], separators=(",", ":")) + ",\n")
        f.write('"types":{\n')
        items = list(doc["types"].items())
        for i, (t, v) in enumerate(items):
            f.write(json.dumps(t) + ":" + json.dumps(v, separators=(",", ":")) + (",\n" if i + 1 < len(items) else "\n"))
        f.write("}}\n")


# ---------------------------------------------------------------- the run

def cpu_model():
    """The model name of /proc/cpuinfo (recorded beside the data)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


class Recorder:
    """Collects case rows and their output bytes, then writes INDEX.json and INDEX.bin.gz."""

    def __init__(self):
        self.blob = bytearray()
        self.cases = []

    def ok(self, op, lhs, rhs, kind, result, data):
        n = len(data) // nbytes(result)
        self.cases.append([op, lhs, rhs, kind, result, len(self.blob), n])
        self.blob += data

    def fail(self, op, lhs, rhs, kind, error):
        self.cases.append([op, lhs, rhs, kind, None, None, 0, error])

    def write(self, out_dir, name, header):
        raw = bytes(self.blob)
        gz = gzip.compress(raw, compresslevel=9, mtime=0)
        with open(os.path.join(out_dir, name + ".bin.gz"), "wb") as f:
            f.write(gz)
        doc = dict(header)
        doc["schema"] = SCHEMA
        doc["blob"] = {"file": name + ".bin.gz", "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
        doc["ops"] = OPS
        doc["scalars"] = SCALARS
        doc["case_fields"] = ["op", "lhs", "rhs", "inputs", "result", "offset", "n", "error"]
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            f.write("{\n")
            for k, v in doc.items():
                f.write(json.dumps(k) + ":" + json.dumps(v, separators=(",", ":")) + ",\n")
            f.write('"cases":[\n')
            for i, c in enumerate(self.cases):
                f.write(json.dumps(c, separators=(",", ":")) + (",\n" if i + 1 < len(self.cases) else "\n"))
            f.write("]}\n")
        return len(raw), len(gz)


PROBE_LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129]


def probe_codes(t):
    """(+0, -0, NaN, 1.0) codes of float type t; None where the format lacks one."""
    e, m, bias, nf = FLOATS[t]
    if nf == "e8m0":
        return None, None, 0xFF, 127
    nan = {"ieee": ((1 << e) - 1) << m | (1 << (m - 1)) if m else None, "fn": sign_bit(t) - 1,
           "fnuz": sign_bit(t), "none": None}[nf]
    return 0, (None if nf == "fnuz" else sign_bit(t)), nan, encode(t, 1.0)


def rle(s):
    """Run-length form of a string of letters: "rrrrl" -> "r4l1"."""
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(f"{s[i]}{j - i}")
        i = j
    return "".join(out)


def minmax_probe(types, run_pair):
    """Where max/min's answer depends on the element's position (SIMD body or scalar
    tail): for each float type, op and pattern (lhs, rhs) in (+0,-0), (-0,+0), (NaN,1),
    (1,NaN), (sNaN,1), (1,sNaN) (IEEE formats with 2+ mantissa bits), arrays of every PROBE_LENGTHS length filled with that pair; per length the
    run-length string of the answers: l / r = the lhs / rhs operand's code (zeros),
    n / v = a NaN / the number (NaN patterns), x = anything else."""
    out = {}
    for op in ("maximum", "minimum"):
        for t in types:
            if not is_float(t):
                continue
            pz, nz, nan, one = probe_codes(t)
            e, m, _, nf = FLOATS[t]
            pats = {}
            if nz is not None:
                pats["+0,-0"], pats["-0,+0"] = (pz, nz), (nz, pz)
            if nan is not None:
                pats["nan,1"], pats["1,nan"] = (nan, one), (one, nan)
            if nf == "ieee" and m >= 2:  # a signalling NaN (quiet bit clear)
                snan = (((1 << e) - 1) << m) | 1
                pats["snan,1"], pats["1,snan"] = (snan, one), (one, snan)
            for name, (x, y) in pats.items():
                res = {}
                for n in PROBE_LENGTHS:
                    try:
                        rt, data = run_pair(op, t, t, (x,) * n, (y,) * n)
                    except Exception as e:  # noqa: BLE001
                        res = {"error": first_line(e)}
                        break
                    codes = unpack(rt, data)
                    if "nan" in name:
                        s = "".join("v" if c == one else ("n" if _is_nan(t, c) else "x") for c in codes)
                    else:
                        s = "".join("l" if c == x else ("r" if c == y else "x") for c in codes)
                    res[str(n)] = rle(s)
                out.setdefault(op, {}).setdefault(t, {})[name] = res
    return out


def _is_nan(t, c):
    return c is not None and math.isnan(decode(t, c))


def sweep(types, run_pair, run_scalar, rec, ops=OPS, log=sys.stderr, pair_filter=None):
    """Every op over every ordered pair of `types` (pair_inputs) and every type with
    every scalar on each side. `run_pair(op, lhs, rhs, a_codes, b_codes)` and
    `run_scalar(op, t, codes, scalar_index, scalar_on_left)` return (result type,
    output bytes) or raise."""
    for op in ops:
        for lhs in types:
            for rhs in types:
                if pair_filter is not None and not pair_filter(op, lhs, rhs):
                    continue
                kind = "all" if lhs == rhs and exhaustive(lhs) else "mix"
                a, b = pair_inputs(lhs, rhs)
                try:
                    res, data = run_pair(op, lhs, rhs, a, b)
                except Exception as e:  # noqa: BLE001
                    rec.fail(op, lhs, rhs, kind, first_line(e))
                    continue
                rec.ok(op, lhs, rhs, kind, res, data)
        for t in types:
            codes = scalar_array_codes(t)
            for si in range(len(SCALARS)):
                for left in (False, True):
                    lhs, rhs = (f"py:{si}", t) if left else (t, f"py:{si}")
                    try:
                        res, data = run_scalar(op, t, codes, si, left)
                    except Exception as e:  # noqa: BLE001
                        rec.fail(op, lhs, rhs, "scalar", first_line(e))
                        continue
                    rec.ok(op, lhs, rhs, "scalar", res, data)
        print(f"  {op}: {len(rec.cases)} cases, {len(rec.blob)} bytes", file=log, flush=True)
