"""int2.json: ONNX INT2 / UINT2 (Cast-25+) from and to every numeric type.

Every i2 / u2 code into every type (float 8 with saturate true and false, f8e8m0 with
each saturate and round mode), and into i2 / u2 from every type: every code of every
source of 16 bits or fewer, integer samples (as in ints.json) for wider integers, and
for f32 / f64 a grid of [-20, 20] step 1/64, the float list of ints.json, specials,
NaNs and 20000 random bit patterns. Only the main environment is needed (onnx 1.17
has no 2-bit types).

    {"groups": [{"from", "to", "opset", "saturate", "round_mode", "reference", "inputs",
                 "outputs" | "error"}, ...],
     "onnxruntime": [{"from", "to", "saturate", "round_mode", "n", "mismatches",
                      "examples": [[input, reference, onnxruntime], ...]} | {..., "error"}]}

`groups` holds every reference group, and the onnxruntime group wherever the
reference fails (i2 <-> u2, i4, u4, f8e8m0 -> i2 / u2); `onnxruntime` compares every
other group with the reference (first 16 mismatches)."""
import platform
import sys
import warnings

import numpy as np

import castlib as C
from gen_ints import FLOAT_VALUES, C_unique, fbits, int_samples

warnings.filterwarnings("ignore")
OPSET = 28
TWO = ["i2", "u2"]
INTS = ["i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
F8 = ["f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz"]
ALL = ["bool"] + TWO + INTS + FLOATS + F8 + ["f8e8m0", "f4e2m1"]
CODES = {"bool": 2, "i2": 4, "u2": 4, "i4": 16, "u4": 16, "f4e2m1": 16, "i8": 256, "u8": 256,
         "f16": 65536, "bf16": 65536, **{f: 256 for f in F8 + ["f8e8m0"]}}
NANS = [0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800001, 0xFF800001, 0x7FFFFFFF]


def source_inputs(src, rng):
    if src in CODES:
        return list(range(CODES[src]))
    if src in INTS:
        return int_samples(src, rng)
    grid = [k / 64 for k in range(-20 * 64, 20 * 64 + 1)]
    values = C_unique([fbits(src, v) for v in grid + FLOAT_VALUES + [0.49999997, 1.0e-45, 1e-30, -1e-30, 3.4e38]])
    if src == "f32":
        return C_unique(values + NANS + [0x7F800000, 0xFF800000, 0x7F7FFFFF, 0xFF7FFFFF, 1, 0x80000001]
                        + [int(x) for x in rng.integers(0, 2 ** 32, 20000, dtype=np.uint64)])
    return C_unique(values + [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001]
                    + [int(x) for x in rng.integers(0, 2 ** 64, 5000, dtype=np.uint64)])


def jobs(rng):
    out = []

    def add(src, dst, inputs, saturate=None, round_mode=None):
        out.append({"from": src, "to": dst, "inputs": inputs, "saturate": saturate,
                    "round_mode": round_mode, "opset": OPSET})

    for src in TWO:
        for dst in ALL:
            if dst == src:
                continue
            codes = list(range(4))
            if dst in F8:
                for sat in (True, False):
                    add(src, dst, codes, sat)
            elif dst == "f8e8m0":
                for sat in (True, False):
                    for mode in ("up", "down", "nearest"):
                        add(src, dst, codes, sat, mode)
            else:
                add(src, dst, codes)
    for dst in TWO:
        for src in ALL:
            if src not in TWO:  # i2 <-> u2 is in the loop above
                add(src, dst, source_inputs(src, rng))
    return out


def main(out):
    rng = np.random.default_rng(25)
    js = jobs(rng)
    ref, ort = C.describe("ref"), C.describe("ort") + f" ({platform.machine()})"
    groups = []
    for engine, desc in (("ref", ref), ("ort", ort)):
        for j in js:
            g = {"from": j["from"], "to": j["to"], "opset": j["opset"], "saturate": j["saturate"],
                 "round_mode": j["round_mode"], "reference": desc, "inputs": j["inputs"]}
            g.update(C.run_job(engine, j))
            groups.append(g)
    # onnxruntime's groups where the reference has none; elsewhere a comparison
    key = lambda g: (g["from"], g["to"], g["saturate"], g["round_mode"])
    primary = {key(g): g for g in groups if g["reference"] == ref}
    kept, crosscheck = [], []
    for g in groups:
        p = primary[key(g)]
        if g is p or ("error" in p and "outputs" in g):
            kept.append(g)
        if g is p or "error" in p:
            continue
        entry = {"from": g["from"], "to": g["to"], "saturate": g["saturate"], "round_mode": g["round_mode"]}
        if "error" in g:
            entry["error"] = g["error"]
        else:
            diff = [[i, a, b] for i, a, b in zip(g["inputs"], p["outputs"], g["outputs"]) if a != b]
            entry.update(n=len(g["inputs"]), mismatches=len(diff), examples=diff[:16])
        crosscheck.append(entry)
        if entry.get("mismatches") or "error" in entry:
            print(f"{key(g)}: onnxruntime {entry.get('error') or entry['mismatches']} "
                  f"{entry.get('examples', '')[:3]}")
    C.dump(out, {"groups": kept, "onnxruntime": crosscheck})
    n = sum(len(g["inputs"]) for g in kept if g["reference"] == ref and "outputs" in g)
    print(f"{len(kept)} groups, {n} reference outputs")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/int2.json")
