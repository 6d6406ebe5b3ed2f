"""ml_dtypes_exhaustive.json: what ml_dtypes 0.6 does with the formats only it defines
(f8e4m3, f8e3m4, f8e4m3b11fnuz, f6e2m3fn, f6e3m2fn), by numpy `astype`:

  decode      every code (0..255, or 0..63 for the 6-bit formats) to f32 and f64, as bit
              patterns
  f32         SHA-256 of the outputs for all 2^32 f32 bit patterns in increasing order
              (256 `astype` calls of 2^24 inputs), one byte per output
  f16, bf16   the same over all 2^16 bit patterns
  f64         the same over the sampled f64 inputs described in `_about.f64_inputs`

Each target has a key `TARGET` (ml_dtypes' own conversion) and, where the format has an
overflow choice (infinity or NaN), `TARGET/saturate=true`: the input clamped to
[-max, max] in its own type first (`np.clip`, which keeps NaN), then converted by
ml_dtypes: an independent computation of saturation.
"""
import hashlib
import multiprocessing as mp
import sys
import time
import warnings

import ml_dtypes
import numpy as np

warnings.filterwarnings("ignore")

FORMATS = {
    "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e3m4": ml_dtypes.float8_e3m4,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f6e2m3fn": ml_dtypes.float6_e2m3fn,
    "f6e3m2fn": ml_dtypes.float6_e3m2fn,
}
BITS = {"f8e4m3": 8, "f8e3m4": 8, "f8e4m3b11fnuz": 8, "f6e2m3fn": 6, "f6e3m2fn": 6}
# Formats whose overflow is not already a clamp (the f6 formats have no inf or NaN).
SATURABLE = ("f8e4m3", "f8e3m4", "f8e4m3b11fnuz")
CHUNK = 1 << 24
K = np.uint64(0x9E3779B97F4A7C15)


def f64_inputs():
    """The sampled f64 inputs, as u64 bit patterns (promo's test builds the same list):
    A: 2^20 values r_i = m ^ (m >> 31), m = i * K (mod 2^64), with the exponent field
       replaced by 983 + ((r_i >> 52) % 64) (2^-40 .. 2^23);
    B: for every bf16 pattern h (0..2^16), the f64 bits of its value, minus one, as is,
       plus one (wrapping): values on and one f64 ulp beside a fine grid holding every
       rounding tie of the narrow formats;
    C: 2^16 raw r_i (i in 0..2^16): NaNs, infinities, huge and tiny values."""
    i = np.arange(1 << 20, dtype=np.uint64)
    m = i * K
    r = m ^ (m >> np.uint64(31))
    exp = np.uint64(983) + ((r >> np.uint64(52)) % np.uint64(64))
    a = (r & np.uint64(0x800F_FFFF_FFFF_FFFF)) | (exp << np.uint64(52))
    h = np.arange(1 << 16, dtype=np.uint32)
    grid = (h << np.uint32(16)).view(np.float32).astype(np.float64).view(np.uint64)
    # The f32 -> f64 widening of a signalling NaN may quiet it: take the bits exactly.
    exact = ((h.astype(np.uint64) >> np.uint64(15)) << np.uint64(63))
    e = (h >> np.uint32(7)) & np.uint32(0xFF)
    nonfinite = e == 0xFF
    exact |= np.uint64(0x7FF0_0000_0000_0000) | ((h & np.uint32(0x7F)).astype(np.uint64) << np.uint64(45))
    grid = np.where(nonfinite, exact, grid)
    b = np.stack([grid - np.uint64(1), grid, grid + np.uint64(1)], axis=1).ravel()
    c = r[: 1 << 16]
    return np.concatenate([a, b, c])


def codes(fmt):
    raw = np.arange(1 << BITS[fmt], dtype=np.uint8)
    return raw.view(FORMATS[fmt])


def out_bytes(y):
    return np.ascontiguousarray(y).view(np.uint8).tobytes()


def clip(x, fmt):
    big = float(ml_dtypes.finfo(FORMATS[fmt]).max)
    return np.clip(x, x.dtype.type(-big), x.dtype.type(big))


def f32_hash(job):
    fmt, sat = job
    t0 = time.time()
    h = hashlib.sha256()
    base = np.arange(CHUNK, dtype=np.uint32)
    for c in range((1 << 32) // CHUNK):
        x = (base + np.uint32(c * CHUNK)).view(np.float32)
        if sat:
            x = clip(x, fmt)
        h.update(out_bytes(x.astype(FORMATS[fmt])))
    return job, h.hexdigest(), round(time.time() - t0, 1)


def small_hash(source, fmt, sat):
    if source == "f64":
        x = f64_inputs().view(np.float64)
    else:
        bits = np.arange(1 << 16, dtype=np.uint16)
        x = bits.view(np.float16 if source == "f16" else ml_dtypes.bfloat16)
    if sat:
        x = clip(x, fmt)
    return hashlib.sha256(out_bytes(x.astype(FORMATS[fmt]))).hexdigest()


def key(fmt, sat):
    return f"{fmt}/saturate=true" if sat else fmt


def main(out):
    t0 = time.time()
    jobs = [(f, False) for f in FORMATS] + [(f, True) for f in SATURABLE]
    doc = {}
    for fmt in FORMATS:
        c = codes(fmt)
        doc.setdefault("decode", {})[fmt] = {
            "f32_bits": [int(v) for v in c.astype(np.float32).view(np.uint32)],
            "f64_bits": [int(v) for v in c.astype(np.float64).view(np.uint64)],
        }
    results = {}
    with mp.Pool(2) as pool:
        for job, sha, secs in pool.imap_unordered(f32_hash, jobs):
            results[job] = (sha, secs)
            print(f"{key(*job)}: {sha[:16]} {secs}s", flush=True)
    for job in jobs:
        fmt, sat = job
        entry = {"f32": {"sha256": results[job][0], "seconds": results[job][1]}}
        for source in ("f16", "bf16", "f64"):
            entry[source] = {"sha256": small_hash(source, fmt, sat)}
        doc[key(fmt, sat)] = entry
    doc["_about"] = {
        "implementation": f"ml_dtypes {ml_dtypes.__version__} with numpy {np.__version__}: "
                          "numpy astype; saturate=true clips to [-finfo.max, finfo.max] in the "
                          "source type first",
        "bytes": "one byte per output (the code; the 6-bit formats in the low 6 bits)",
        "f32_inputs": "all f32 bit patterns 0x00000000..0xffffffff in increasing order",
        "f16_inputs": "all f16 bit patterns in increasing order",
        "bf16_inputs": "all bf16 bit patterns in increasing order",
        "f64_inputs": " ".join(f64_inputs.__doc__.split()),
        "f64_count": int(f64_inputs().size),
        "f64_inputs_sha256": hashlib.sha256(f64_inputs().astype("<u8").tobytes()).hexdigest(),
        "total_seconds": round(time.time() - t0, 1),
    }
    import json
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/ml_dtypes_exhaustive.json")
