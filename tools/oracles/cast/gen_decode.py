"""decode.json: every code of each <=8-bit format, Cast to f32, as f32 bit patterns."""
import sys
import warnings

import castlib as C

warnings.filterwarnings("ignore")
NEW_OPSET = 28   # newest opset of the onnx release in the main environment
OLD_OPSET = 21   # newest Cast of onnx 1.17
FORMATS = ["f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1", "i4", "u4"]
OLD_FORMATS = {"f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "i4", "u4"}  # onnx 1.17 types


def codes(fmt):
    return list(range(16 if C.TYPES[fmt][2] == 4 else 256))


def main(out):
    old_jobs = [{"from": f, "to": "f32", "opset": OLD_OPSET, "inputs": codes(f)} for f in FORMATS if f in OLD_FORMATS]
    old_desc, old_res = C.run_elsewhere(C.old_python(), "ref", old_jobs)
    old = {j["from"]: r for j, r in zip(old_jobs, old_res)}
    doc = {}
    for fmt in FORMATS:
        job = {"from": fmt, "to": "f32", "opset": NEW_OPSET, "inputs": codes(fmt)}
        main_res = C.run_job("ref", job)
        if "error" in main_res:
            sys.exit(f"reference cannot decode {fmt}: {main_res['error']}")
        bits = main_res["outputs"]
        alts = []
        for desc, opset, res in [
            (C.describe("ort"), NEW_OPSET, C.run_job("ort", job)),
            (C.describe("mldtypes"), None, C.run_job("mldtypes", job)),
        ] + ([(old_desc, OLD_OPSET, old[fmt])] if fmt in old else []):
            alt = {"reference": desc, "opset": opset}
            if "error" in res:
                alt["error"] = res["error"]
            else:
                alt["f32_bits"] = res["outputs"]
                alt["differs_at_codes"] = [c for c, (a, b) in enumerate(zip(bits, res["outputs"])) if a != b]
            alts.append(alt)
        doc[fmt] = {"reference": C.describe("ref"), "opset": NEW_OPSET, "f32_bits": bits, "alternatives": alts}
        for a in alts:
            print(fmt, a["reference"], a.get("error") or f"differs at {a['differs_at_codes']}")
    C.dump(out, doc)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/decode.json")
