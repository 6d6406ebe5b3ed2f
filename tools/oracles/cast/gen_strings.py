"""strings.json: string -> each numeric type, one string per run (so that one bad string
cannot hide the others), and numeric -> string for representative values of each type."""
import sys
import warnings

import numpy as np

import castlib as C

warnings.filterwarnings("ignore")
OPSET, OLD_OPSET = 28, 21
STRINGS = ["3.14", "1000", "-2.5", "1e-5", "1E8", "2.718", "100.5", "-0", "0.1", "1e400", "-1e400", "1e-50",
           "INF", "+INF", "inf", "+inf", "-Inf", "-INF", "Infinity", "nan", "NaN", "NAN", "-nan", " 1.5", "1.5 ",
           "abc", "", "0x10", "1_000", "65504", "65520", "448", "480", "300", "-129", "255", "256",
           "4294967296", "9223372036854775807", "18446744073709551615", "3.4028235e38", "1.5e-45", "true"]
TARGETS = ["bool", "i4", "u4", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64",
           "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1"]
OLD_TARGETS = [t for t in TARGETS if t not in ("f8e8m0", "f4e2m1")]


def numeric_samples():
    import ml_dtypes

    def fl(name, vals):
        dt = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16}[name]
        a = np.array(vals, dtype=np.float64).astype(dt)
        return [int(b) for b in a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]).tolist()]
    fv = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 3.14159265358979, 314.15926, 1e-5, 1e-7, 1e16, 1e17, 123456789.0,
          2.0 ** 24 + 1, 65504.0, 1e38, 3.4028234663852886e38, 1e-40, 5e-324, 1e300,
          float("inf"), float("-inf"), float("nan")]
    return {
        "bool": [0, 1], "i4": [0, 7, 8, 15], "u4": [0, 7, 8, 15], "i8": [0, 127, 128, 255],
        "u8": [0, 255], "i16": [0, 32767, 32768, 65535], "u16": [65535],
        "i32": [0, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1], "u32": [2 ** 32 - 1],
        "i64": [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1], "u64": [2 ** 64 - 1],
        "f16": fl("f16", fv), "bf16": fl("bf16", fv), "f32": fl("f32", fv), "f64": fl("f64", fv),
        "f8e4m3fn": [0, 0x80, 0x01, 0x38, 0x3B, 0x7E, 0xFE, 0x7F], "f8e4m3fnuz": [0, 0x01, 0x40, 0x7F, 0x80],
        "f8e5m2": [0, 0x80, 0x01, 0x3C, 0x7B, 0x7C, 0xFC, 0x7E], "f8e5m2fnuz": [0, 0x01, 0x40, 0x7F, 0x80],
        "f8e8m0": [0, 1, 127, 128, 254, 255], "f4e2m1": [0, 1, 2, 3, 7, 8, 9, 15],
    }


def per_string(engine, desc, opset, targets):
    jobs = [{"from": "string", "to": t, "opset": opset, "inputs": [s]} for t in targets for s in STRINGS]
    if desc is None:
        desc, res = C.run_elsewhere(C.old_python(), engine, jobs)
    else:
        res = [C.run_job(engine, j) for j in jobs]
    groups = []
    for t in targets:
        outs = []
        for s in STRINGS:
            r = res[[i for i, j in enumerate(jobs) if j["to"] == t and j["inputs"] == [s]][0]]
            outs.append(r["outputs"][0] if "outputs" in r else {"error": r["error"]})
        groups.append({"from": "string", "to": t, "opset": opset, "reference": desc, "inputs": STRINGS,
                       "outputs": outs})
    return groups


def to_string(engine, desc, opset, samples):
    jobs = [{"from": t, "to": "string", "opset": opset, "inputs": v} for t, v in samples.items()]
    if desc is None:
        desc, res = C.run_elsewhere(C.old_python(), engine, jobs)
    else:
        res = [C.run_job(engine, j) for j in jobs]
    out = []
    for j, r in zip(jobs, res):
        g = {"from": j["from"], "to": "string", "opset": opset, "reference": desc, "inputs": j["inputs"]}
        g.update(r)
        out.append(g)
    return out


def main(out):
    samples = numeric_samples()
    old_samples = {k: v for k, v in samples.items() if k not in ("f8e8m0", "f4e2m1")}
    groups = per_string("ref", C.describe("ref"), OPSET, TARGETS)
    groups += per_string("ort", C.describe("ort"), OPSET, TARGETS)
    groups += per_string("ref", None, OLD_OPSET, OLD_TARGETS)
    groups += to_string("ref", C.describe("ref"), OPSET, samples)
    groups += to_string("ort", C.describe("ort"), OPSET, samples)
    groups += to_string("ref", None, OLD_OPSET, old_samples)
    C.dump(out, groups)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/strings.json")
