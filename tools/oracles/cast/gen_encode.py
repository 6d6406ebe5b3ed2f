"""encode.json (+ encode_crosscheck.json): float -> each narrow format, through the onnx
reference evaluator (primary), and the same inputs through onnx 1.17, onnxruntime and
ml_dtypes for comparison."""
import sys
import warnings

import castlib as C
import inputs as I

warnings.filterwarnings("ignore")
SOURCES = ["f32", "f64", "f16", "bf16"]
TARGETS = ["f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1", "i4", "u4", "f16", "bf16"]
NEW_OPSETS = [23, 28]        # primary groups; 24 and 25 are checked to equal 28
CHECK_OPSETS = [24, 25]
OLD_OPSET = 21
ORT_OPSETS = [21, 23, 24, 25, 28]
E8M0_MODES = ["up", "down", "nearest"]
MAX_EXAMPLES = 1000


def configs(to, opset):
    """(saturate, round_mode) combinations that exist for `to` at `opset`."""
    if to == "f8e8m0":
        if opset < 24:
            return []
        return [(s, r) for s in (True, False) for r in E8M0_MODES]
    if to in C.F8:
        return [(True, None), (False, None)]
    if to == "f4e2m1" and opset < 23:
        return []
    return [(None, None)]


def job(src, to, opset, sat, rm, inputs):
    return {"from": src, "to": to, "opset": opset, "saturate": sat, "round_mode": rm, "inputs": inputs}


def main(out, cross_out):
    ref_desc, ort_desc, ml_desc = C.describe("ref"), C.describe("ort"), C.describe("mldtypes")
    groups, checks, seen = [], [], {}
    primary = {}  # (src, to, opset, sat, rm) -> outputs
    ins = {(s, t): I.inputs_for(s, t) for s in SOURCES for t in TARGETS}
    for src in SOURCES:
        for to in TARGETS:
            for opset in NEW_OPSETS + CHECK_OPSETS:
                for sat, rm in configs(to, opset):
                    r = C.run_job("ref", job(src, to, opset, sat, rm, ins[(src, to)]))
                    if "error" in r:
                        sys.exit(f"reference failed on {src}->{to} opset {opset}: {r['error']}")
                    primary[(src, to, opset, sat, rm)] = r["outputs"]
                    if opset in NEW_OPSETS:
                        groups.append({"from": src, "to": to, "saturate": sat, "opset": opset, "round_mode": rm,
                                       "reference": ref_desc, **{"inputs": ins[(src, to)], "outputs": r["outputs"]}})
    # the reference's opset 24 and 25 behave as 28; stop if that ever changes
    for (src, to, opset, sat, rm), outs in primary.items():
        if opset in CHECK_OPSETS and outs != primary[(src, to, 28, sat, rm)]:
            sys.exit(f"reference opset {opset} differs from 28 on {src}->{to}; dump it too")

    def compare(desc, opset, against_opset, src, to, sat, rm, res, ml_sat=None):
        base = primary[(src, to, against_opset, sat if ml_sat is None else ml_sat, rm)]
        entry = {"reference": desc, "opset": opset, "from": src, "to": to, "saturate": sat, "round_mode": rm,
                 "compared_with": f"{ref_desc}, opset {against_opset}"
                                  + ("" if ml_sat is None else f", saturate={str(ml_sat).lower()}")}
        if "error" in res:
            entry["error"] = res["error"]
        else:
            x = ins[(src, to)]
            bad = [[x[i], base[i], o] for i, o in enumerate(res["outputs"]) if o != base[i]]
            same = seen.get((desc, src, to, sat, rm))
            if same and same[1] == res["outputs"]:
                entry.update({"n": len(x), "mismatches": len(bad), "identical_to_opset": same[0]})
            else:
                entry.update({"n": len(x), "mismatches": len(bad), "examples": bad[:MAX_EXAMPLES]})
                seen[(desc, src, to, sat, rm)] = (opset, res["outputs"])
        checks.append(entry)

    # onnx 1.17 (its newest Cast is Cast-21)
    old_jobs = [job(s, t, OLD_OPSET, sat, rm, ins[(s, t)]) for s in SOURCES for t in TARGETS
                if t not in ("f8e8m0", "f4e2m1") for sat, rm in configs(t, OLD_OPSET)]
    old_desc, old_res = C.run_elsewhere(C.old_python(), "ref", old_jobs)
    for j, r in zip(old_jobs, old_res):
        compare(old_desc, OLD_OPSET, 23, j["from"], j["to"], j["saturate"], j["round_mode"], r)
    # onnxruntime at several opsets
    for src in SOURCES:
        for to in TARGETS:
            for opset in ORT_OPSETS:
                for sat, rm in configs(to, opset):
                    r = C.run_job("ort", job(src, to, opset, sat, rm, ins[(src, to)]))
                    compare(ort_desc, opset, 23 if opset <= 23 else 28, src, to, sat, rm, r)
    # ml_dtypes astype: no attributes; compared with the non-saturating reference
    for src in SOURCES:
        for to in TARGETS:
            r = C.run_job("mldtypes", job(src, to, None, None, None, ins[(src, to)]))
            if to == "f8e8m0":
                for rm in E8M0_MODES:
                    compare(ml_desc, None, 28, src, to, None, rm, r, ml_sat=False)
            else:
                compare(ml_desc, None, 28, src, to, None, None, r, ml_sat=False if to in C.F8 else None)
    C.dump(out, groups)
    C.dump(cross_out, checks)
    for c in checks:
        if c.get("mismatches") or "error" in c:
            print(f"{c['reference']:45s} op{c['opset']} {c['from']}->{c['to']} sat={c['saturate']} rm={c['round_mode']}: "
                  + (c.get("error", "")[:90] or f"{c['mismatches']}/{c['n']} differ"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/cast/encode.json",
         sys.argv[2] if len(sys.argv) > 2 else "tests/data/cast/encode_crosscheck.json")
