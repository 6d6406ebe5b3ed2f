"""Input sets for encode.json: special values, every tie between adjacent target codes
with its f32 neighbours, overflow boundaries, random patterns, and f64 values built to
expose double rounding through f32."""
import numpy as np

import castlib as C

SEED = 20240601
F32_NANS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FBFFFFF, 0x7FFFFFFF, 0xFFFFFFFF,
            0x7FC00001, 0x7FE00000, 0x7FA00000, 0xFFA00000]
F64_NANS = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF4000000000000,
            0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0x7FF8000000000001, 0x7FF0000020000000,
            0x7FF8000020000000, 0xFFF0000000000001]
F16_NANS = [0x7E00, 0xFE00, 0x7C01, 0xFC01, 0x7DFF, 0x7FFF, 0xFFFF, 0x7E01]
BF16_NANS = [0x7FC0, 0xFFC0, 0x7F81, 0xFF81, 0x7FBF, 0x7FFF, 0xFFFF, 0x7FC1]


def f32(v):
    return int(np.array(v, dtype=np.float32).view(np.uint32))


def f32v(bits):
    return float(np.array(bits, dtype=np.uint32).view(np.float32))


def uniq(seq):
    seen, out = set(), []
    for v in seq:
        v = int(v)
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def with_neighbours32(bits):
    """f32 pattern and +-1 ulp (in magnitude, staying in the same sign)."""
    out = [bits]
    mag, sign = bits & 0x7FFFFFFF, bits & 0x80000000
    if mag > 0:
        out.append(sign | (mag - 1))
    if mag < 0x7F800000:
        out.append(sign | (mag + 1))
    return out


def target_values(to):
    """Positive finite values of the target, ascending (a sample for f16/bf16)."""
    if to in ("i4", "u4"):
        return None
    if to == "f8e8m0":
        return [2.0 ** k for k in range(-127, 128)]
    if to in ("f16", "bf16"):
        width = 16
        codes = np.arange(0, 0x7C00 if to == "f16" else 0x7F80, dtype=np.uint16)
        dt = np.float16 if to == "f16" else __import__("ml_dtypes").bfloat16
        allv = codes.view(dt).astype(np.float64)
        rng = np.random.default_rng(SEED + width)
        one = int(np.array(1.0, dt).view(np.uint16))
        pick = set(range(0, 24)) | set(range(one - 12, one + 24)) | set(range(len(codes) - 24, len(codes)))
        for lo in (0x0400, 0x0080):  # first normals of f16 / bf16
            pick |= set(range(lo - 8, lo + 8))
        pick |= set(int(c) for c in rng.integers(0, len(codes) - 1, 120))
        vals = sorted(set(float(allv[c]) for c in pick if c < len(codes)))
        # make each picked value come with its successor so that every pick gives a tie
        extra = [float(allv[min(i + 1, len(codes) - 1)]) for i in sorted(pick) if i + 1 < len(codes)]
        return sorted(set(vals) | set(extra)), float(allv[-1])
    bits = np.arange(256 if C.TYPES[to][2] == 8 else 16, dtype=np.uint8)
    import ml_dtypes
    v = bits.view(getattr(ml_dtypes, C.MLDTYPES[to])).astype(np.float64)
    v = sorted(set(float(x) for x in v if np.isfinite(x) and x >= 0))
    return v


def target_points(to):
    """Interesting positive points (as Python floats, exact in f32) for target `to`."""
    tv = target_values(to)
    if isinstance(tv, tuple):
        vals, vmax = tv
        sampled = True
    else:
        vals, vmax, sampled = tv, tv[-1], False
    pts = []
    for a, b in zip(vals, vals[1:]):
        if sampled and b > a * 1.01 + 1e-300 and a != 0:
            continue  # not adjacent in the sample
        pts += [a, (a + b) / 2]
    pts.append(vmax)
    if to == "f8e8m0":
        pts += [1.5 * 2.0 ** k for k in range(-127, 128)]
        pts += [2.0 ** -128, 2.0 ** -149, 3 * 2.0 ** -129]
    else:
        ulp = vals[-1] - vals[-2]
        nxt = vmax + ulp  # the next code if the format went on (the next binade)
        pts += [(vmax + nxt) / 2, nxt, nxt + ulp, 2 * nxt]
        sub = vals[1]  # smallest positive
        pts += [sub / 2, sub / 4, 3 * sub / 4]
    return [p for p in pts if 0 < p < 3.4e38]


def f32_inputs(to, rng):
    if to in ("i4", "u4"):
        grid = [f32(k / 4) for k in range(-80, 81)]
        extra = [0.49999997, 0.5, 0.50000006, 1e10, 2.0 ** 31, 2.0 ** 32, 3e9, 2.0 ** 63, 2.0 ** 64, 1e30,
                 -1e10, -(2.0 ** 31), -(2.0 ** 32), -3e9, -(2.0 ** 63), -1e30, 1e-30, -1e-30,
                 100.5, -100.5, 127.5, 128.0, 255.5, 256.0, -128.5, -129.0, 1.0e-45]
        specials = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0xFF7FFFFF] + F32_NANS
        return uniq(specials + grid + [f32(v) for v in extra]), []
    specials = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000,
                0x00000001, 0x80000001, 0x3F800000, 0xBF800000] + F32_NANS
    pts = []
    for p in target_points(to):
        for b in with_neighbours32(f32(p)):
            pts += [b, b | 0x80000000]
    rand = rng.integers(0, 2 ** 32, 2000, dtype=np.uint64).tolist()
    # random values inside the target's range (plus a binade either side)
    vals = target_values(to)
    if isinstance(vals, tuple):
        vals = vals[0]
    lo = max(min(v for v in vals if v > 0), 1.2e-38) / 4
    hi = min(vals[-1] * 4, 3e38)
    e = rng.uniform(np.log2(lo), np.log2(hi), 1000)
    inr = (np.exp2(e) * rng.choice([-1.0, 1.0], 1000)).astype(np.float32).view(np.uint32).tolist()
    return uniq(specials + pts), uniq(rand + inr)


def f64_inputs(to, rng, f32_in):
    """Specials, the non-random f32 inputs widened, and f64 values near f32-exact ties."""
    w = np.array(f32_in, dtype=np.uint32).view(np.float32)
    widened = [int(b) for b, x in zip(w.astype(np.float64).view(np.uint64).tolist(), w)
               if not np.isnan(x)]
    if len(widened) > 800:
        widened = widened[:300] + [widened[i] for i in sorted(rng.choice(len(widened) - 300, 500, replace=False) + 300)]
    specials = [0, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FEFFFFFFFFFFFFF,
                0xFFEFFFFFFFFFFFFF, 0x0000000000000001, 0x8000000000000001] + F64_NANS
    big = [1e300, -1e300, 1e-300, -1e-300, 3.4028235677973366e38, 3.4028235677973362e38,
           float(np.float32(3.4028234663852886e38)) * (1 + 2.0 ** -25), 1e39, -1e39,
           2.0 ** -150, 2.0 ** -149 * 0.75, 2.0 ** -149 * 0.5]
    near = []
    pts = target_points(to) if to not in ("i4", "u4") else [k / 4 + 0.125 for k in range(-80, 80)] + [k / 2 for k in range(-40, 41)]
    if len(pts) > 160:  # keep the two ends (underflow, overflow) and a random sample between
        mid = rng.choice(len(pts) - 40, 120, replace=False) + 20
        pts = pts[:20] + [pts[i] for i in sorted(mid)] + pts[-20:]
    for t in pts:
        if not (0 < abs(t) < 3e38):
            continue
        t32 = float(np.float32(t))
        if t32 != t:
            continue
        ulp32 = float(np.spacing(np.float32(abs(t))))
        for d in (2.0 ** -40, 2.0 ** -30):
            near += [t * (1 + d), t * (1 - d)]
        # f32 midpoints next to t and just inside/outside them
        for m in (abs(t) + ulp32 / 2, abs(t) - ulp32 / 2):
            near += [m, m * (1 + 2.0 ** -45), m * (1 - 2.0 ** -45)]
        near = near[:-6] + [np.copysign(x, t) for x in near[-6:]]
    vals = [float(x) for x in big + near]
    vals += [-x for x in vals]
    as_bits = np.array(vals, dtype=np.float64).view(np.uint64).tolist()
    rand = rng.integers(0, 2 ** 63, 300, dtype=np.uint64) * 2 + rng.integers(0, 2, 300, dtype=np.uint64)
    return uniq(specials + as_bits + widened + rand.tolist())


def narrow_inputs(src, to, rng, f32_in):
    """f16 / bf16 inputs: specials, the f32 inputs that are exact in `src`, +-1 src ulp, random."""
    import ml_dtypes
    dt = np.float16 if src == "f16" else ml_dtypes.bfloat16
    nans = F16_NANS if src == "f16" else BF16_NANS
    x = np.array(f32_in, dtype=np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        n = x.astype(dt)
    exact = [int(b) for b, a, y in zip(n.view(np.uint16).tolist(), x, n.astype(np.float32))
             if not np.isnan(a) and a == y]
    inf = 0x7C00 if src == "f16" else 0x7F80
    specials = [0, 0x8000, inf, inf | 0x8000, inf - 1, (inf - 1) | 0x8000, 1, 0x8001] + nans
    nb = []
    for b in exact:
        m, s = b & 0x7FFF, b & 0x8000
        nb += [b] + ([s | (m - 1)] if m > 0 else []) + ([s | (m + 1)] if m < inf else [])
    rand = rng.integers(0, 2 ** 16, 500, dtype=np.uint64).tolist()
    return uniq(specials + nb + rand)


def inputs_for(src, to):
    rng = np.random.default_rng(SEED + sum(map(ord, src + to)))
    fixed, rand = f32_inputs(to, rng)
    if src == "f32":
        return uniq(fixed + rand)
    if src == "f64":
        return f64_inputs(to, rng, fixed)
    return narrow_inputs(src, to, rng, fixed + rand)
