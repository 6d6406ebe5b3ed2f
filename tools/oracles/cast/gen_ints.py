"""ints.json: integer -> integer (wrap-around), integer -> float (rounding, overflow),
float -> integer (rounding, out of range, NaN: undefined by the spec, recorded as each
engine does it on this machine) and bool <-> numeric."""
import platform
import sys
import warnings

import numpy as np

import castlib as C

warnings.filterwarnings("ignore")
OPSET, OLD_OPSET = 28, 21
INTS = ["i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
F8 = ["f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz"]
BITS = {"i4": 4, "u4": 4, "i8": 8, "u8": 8, "i16": 16, "u16": 16, "i32": 32, "u32": 32, "i64": 64, "u64": 64}


def ibits(name, v):
    """Integer value -> its bit pattern in `name` (value must fit)."""
    return int(v) & ((1 << BITS[name]) - 1)


def fbits(name, v):
    import ml_dtypes
    dt = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16}[name]
    a = np.array([v], dtype=np.float64).astype(dt)
    return int(a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])[0])


def in_range(name, vals):
    b = BITS[name]
    lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if name[0] == "i" else (0, (1 << b) - 1)
    return [ibits(name, v) for v in vals if lo <= v <= hi]


def int_samples(name, rng):
    b = BITS[name]
    lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if name[0] == "i" else (0, (1 << b) - 1)
    vals = {lo, hi, 0, 1, -1, 2, 127, 128, 200, 255, 256, -56, -128, -129, 32767, 32768, 65535, 65536,
            2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 64 - 1, -(2 ** 31),
            -(2 ** 63), 65504, 65519, 65520, 65536 + 32, 448, 464, 480, 57344, 61440, 16777217,
            2 ** 24 + 3, 3 * 2 ** 60 + 1, lo + 1, hi - 1}
    vals |= set(range(max(lo, -140), min(hi, 140) + 1))
    if b > 16:
        vals |= {int(x) for x in rng.integers(lo, hi, 60, dtype=np.int64 if name[0] == "i" else np.uint64, endpoint=True)}
    else:
        vals = set(range(lo, hi + 1)) if b <= 8 else vals | {int(x) for x in rng.integers(lo, hi + 1, 60)}
    return sorted(in_range(name, vals))


FLOAT_VALUES = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.7, -2.7, 0.9999, -0.9999, 7.5, 8.5, -8.5, 15.5,
                127.5, 128.0, -128.5, -129.0, 255.5, 256.0, 300.0, -1.0, 32767.5, 32768.0, 65535.0, 65536.0,
                2.0 ** 31 - 128, 2.0 ** 31, -(2.0 ** 31), -(2.0 ** 31) - 256, 2.0 ** 32, 3e9, -3e9,
                2.0 ** 53 + 2, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 64, 1e19, 1e20, -1e20, 1e30, 65504.0,
                float("inf"), float("-inf"), float("nan"), -float("nan")]


def groups_for(engine, desc, opset, jobs):
    if desc is None:
        desc, results = C.run_elsewhere(C.old_python(), engine, jobs)
    else:
        results = [C.run_job(engine, j) for j in jobs]
    out = []
    for j, r in zip(jobs, results):
        g = {"from": j["from"], "to": j["to"], "opset": opset, "saturate": j.get("saturate"),
             "reference": desc, "inputs": j["inputs"]}
        g.update(r)
        out.append(g)
    return out


def main(out):
    rng = np.random.default_rng(7)
    jobs = []

    def add(src, dst, inputs, saturate=None):
        jobs.append({"from": src, "to": dst, "inputs": inputs, "saturate": saturate})

    # integer -> integer
    for src in INTS:
        for dst in INTS:
            if src != dst:
                add(src, dst, int_samples(src, rng))
    # integer -> float (and float 8, both saturate modes)
    for src in INTS:
        s = int_samples(src, rng)
        for dst in FLOATS + ["f4e2m1"]:
            add(src, dst, s)
        for dst in F8:
            for sat in (True, False):
                add(src, dst, s, sat)
    # float -> integer
    for src in FLOATS:
        inputs = C_unique([fbits(src, v) for v in FLOAT_VALUES]
                          + ([0x7FC00001, 0xFFC00000, 0x7F800001] if src == "f32" else [])
                          + ([0x7E00, 0xFE00] if src == "f16" else []))
        for dst in INTS:
            add(src, dst, inputs)
    # small floats -> integer
    for src in ["f8e4m3fn", "f8e5m2", "f4e2m1"]:
        codes = list(range(256 if src != "f4e2m1" else 16))
        for dst in ["i4", "u4", "i8", "u8", "i32", "u64"]:
            add(src, dst, codes)
    # bool <-> numeric
    for t in INTS + FLOATS + F8 + ["f8e8m0", "f4e2m1"]:
        add("bool", t, [0, 1])
    for t in INTS:
        add(t, "bool", int_samples(t, rng)[:64] + in_range(t, [256, 512, 65536, 2 ** 32, -256]))
    for t in FLOATS:
        add(t, "bool", C_unique([fbits(t, v) for v in FLOAT_VALUES + [1e-40, 5e-324, 1e-8]]))
    for t in F8 + ["f8e8m0", "f4e2m1"]:
        add(t, "bool", list(range(256 if t != "f4e2m1" else 16)))

    def valid(j, old):
        if j.get("saturate") is not None and j["to"] not in F8:
            return False
        if old and ("f4e2m1" in (j["from"], j["to"]) or "f8e8m0" in (j["from"], j["to"])):
            return False
        return True

    new_jobs = [dict(j, opset=OPSET) for j in jobs if valid(j, False)]
    old_jobs = [dict(j, opset=OLD_OPSET) for j in jobs if valid(j, True)]
    groups = groups_for("ref", C.describe("ref"), OPSET, new_jobs)
    groups += groups_for("ort", C.describe("ort") + f" ({platform.machine()})", OPSET, new_jobs)
    groups += groups_for("ref", None, OLD_OPSET, old_jobs)
    # keep a secondary engine's group only where it says something the reference does not
    # (float -> integer from onnxruntime is always kept: the spec leaves it undefined)
    primary = {(g["from"], g["to"], g["saturate"]): g for g in groups if g["reference"] == C.describe("ref")}
    kept = []
    for g in groups:
        p = primary.get((g["from"], g["to"], g["saturate"]))
        always = g["reference"].startswith("onnxruntime") and g["from"] in FLOATS and g["to"] in INTS
        if g is p or always or p is None or g.get("outputs") != p.get("outputs") or g.get("error") != p.get("error"):
            kept.append(g)
    C.dump(out, kept)
    # a short report of where the engines part
    by = {}
    for g in groups:
        by.setdefault((g["from"], g["to"], g["saturate"]), []).append(g)
    for k, gs in by.items():
        base = gs[0]
        for g in gs[1:]:
            if "outputs" in g and "outputs" in base and g["outputs"] != base["outputs"]:
                n = sum(a != b for a, b in zip(g["outputs"], base["outputs"]))
                print(f"{k}: {g['reference']} differs from {base['reference']} on {n}/{len(g['inputs'])}")
            elif ("error" in g) != ("error" in base):
                print(f"{k}: {g['reference']}: {g.get('error', 'ok')} / reference: {base.get('error', 'ok')}")


def C_unique(xs):
    seen, out = set(), []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/ints.json")
