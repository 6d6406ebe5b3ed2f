"""Dump what OpenVINO's ConvertPromoteTypes-14 really does, for every element type it
accepts, every ordered pair, every option combination and every operand rank, to
tests/data/promotion/openvino.json.

    python tools/oracles/promotion/openvino_oracle.py tests/data/promotion/openvino.json

The node is built from two Parameters (shape [2] for a dimensioned operand, [] for a
rank-0 one, written `scalar:DTYPE`); the output element type after type inference is
the result, and an exception is a refusal.
"""
import itertools
import json
import sys
import time

import openvino as ov
import openvino.opset14 as ops

# OpenVINO type name -> promo's canonical name.
NAMES = {
    "boolean": "bool", "u1": "u1", "u2": "u2", "u3": "u3", "u4": "u4", "u6": "u6", "u8": "u8",
    "u16": "u16", "u32": "u32", "u64": "u64", "i4": "i4", "i8": "i8", "i16": "i16", "i32": "i32",
    "i64": "i64", "nf4": "nf4", "f4e2m1": "f4e2m1", "f8e4m3": "f8e4m3fn", "f8e5m2": "f8e5m2",
    "f8e8m0": "f8e8m0", "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "string": "string",
}
RANKS = [("", ""), ("scalar:", ""), ("", "scalar:"), ("scalar:", "scalar:")]


def all_types():
    """Every ov.Type the Python API exposes, by OpenVINO name."""
    out = {}
    for attr in dir(ov.Type):
        t = getattr(ov.Type, attr)
        if isinstance(t, ov.Type):
            out[t.to_string()] = t
    return out


def promote(lt, rt, lshape, rshape, unsafe=False, pytorch=False, target=None):
    a = ops.parameter(lshape, lt)
    b = ops.parameter(rshape, rt)
    kw = {} if target is None else {"u64_integer_promotion_target": target}
    node = ops.convert_promote_types(a, b, promote_unsafe=unsafe, pytorch_scalar_promotion=pytorch, **kw)
    out0, out1 = node.get_output_element_type(0), node.get_output_element_type(1)
    assert out0 == out1, (out0, out1)
    return out0


def reason(e):
    """The sentence that says why. OpenVINO's message is `Check '...' failed at FILE:LINE:`,
    then `While validating node ...`, then (for promotion refusals) the reason itself."""
    lines = [x.strip() for x in str(e).splitlines() if x.strip()]
    if len(lines) >= 3 and lines[1].startswith("While validating node"):
        return lines[-1][:240]
    return (lines[0] if lines else type(e).__name__)[:240]


def main(out_path):
    start = time.time()
    types = all_types()
    accepted, rejected, unnamed = [], {}, {}
    for ov_name, t in types.items():
        try:
            res = promote(t, t, [2], [2], unsafe=True)
        except Exception as e:  # noqa: BLE001
            rejected[NAMES.get(ov_name, ov_name)] = reason(e)
            continue
        if ov_name in NAMES:
            accepted.append(ov_name)
        else:
            unnamed[ov_name] = res.to_string()
    order = [k for k in NAMES if k in accepted]
    promo = [NAMES[k] for k in order]
    for name in unnamed:  # e.g. `dynamic`: accepted, but promo has no name for it
        probe = {}
        for k in order:
            for l, r in ((name, k), (k, name)):
                try:
                    probe[f"{NAMES.get(l, l)},{NAMES.get(r, r)}"] = promote(types[l], types[r], [2], [2]).to_string()
                except Exception as e:  # noqa: BLE001
                    probe[f"{NAMES.get(l, l)},{NAMES.get(r, r)}"] = "error: " + reason(e)
        unnamed[name] = probe
    # u64_integer_promotion_target is taken as it is; probe values outside the sweep.
    target_probe = {}
    for tname in ["string", "nf4", "dynamic", "u2", "f8e8m0"]:
        try:
            res = promote(types["u64"], types["i8"], [2], [2], unsafe=True, target=types[tname]).to_string()
            target_probe[f"u64,i8 promote_unsafe=true target={tname}"] = NAMES.get(res, res)
        except Exception as e:  # noqa: BLE001
            target_probe[f"u64,i8 promote_unsafe=true target={tname}"] = "error: " + reason(e)

    groups = []
    targets = ["f32", "f64", "i64", "u64", "bf16", "f16", "i8", "bool"]
    targets += [n for n in promo if n not in targets]
    back = {v: k for k, v in NAMES.items()}
    for unsafe, pytorch, target in itertools.product([False, True], [False, True], targets):
        cases = []
        for l, r in itertools.product(order, order):
            for lk, rk in RANKS:
                ls = [] if lk else [2]
                rs = [] if rk else [2]
                lhs, rhs = lk + NAMES[l], rk + NAMES[r]
                try:
                    res = promote(types[l], types[r], ls, rs, unsafe, pytorch, types[back[target]])
                    cases.append([lhs, rhs, NAMES[res.to_string()]])
                except Exception as e:  # noqa: BLE001
                    cases.append([lhs, rhs, None, reason(e)])
        groups.append({"options": {"promote_unsafe": unsafe, "pytorch_scalar_promotion": pytorch,
                                   "u64_integer_promotion_target": target}, "op": "add", "cases": cases})
    doc = {
        "framework": "openvino",
        "version": ov.__version__,
        "generated_by": "tools/oracles/promotion/openvino_oracle.py",
        "dtypes": promo,
        "rejected_types": rejected,
        "accepted_types_without_promo_name": unnamed,
        "u64_integer_promotion_target_probe": target_probe,
        "groups": groups,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    n = sum(len(g["cases"]) for g in groups)
    print(f"openvino {ov.__version__}: {len(promo)} types, {n} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
