"""Dump what OpenVINO's ConvertPromoteTypes-14 really does, for every accepted type pair,
option combination and operand rank, to tests/data/promotion/openvino.json."""
import itertools
import json
import sys

import openvino as ov
import openvino.opset14 as ops

NAMES = {
    "boolean": "bool", "u1": "u1", "u2": "u2", "u3": "u3", "u4": "u4", "u6": "u6", "u8": "u8", "u16": "u16",
    "u32": "u32", "u64": "u64", "i4": "i4", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64",
    "nf4": "nf4", "f4e2m1": "f4e2m1", "f8e4m3": "f8e4m3fn", "f8e5m2": "f8e5m2", "f8e8m0": "f8e8m0",
    "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "string": "string",
}


def ov_types():
    out = {}
    for attr in dir(ov.Type):
        t = getattr(ov.Type, attr)
        if isinstance(t, ov.Type):
            name = t.get_type_name() if hasattr(t, "get_type_name") else str(t)
            out[str(t.to_string() if hasattr(t, "to_string") else name)] = t
    return out


def promote(lt, rt, lshape, rshape, unsafe, pytorch, target):
    a = ops.parameter(lshape, lt)
    b = ops.parameter(rshape, rt)
    node = ops.convert_promote_types(a, b, promote_unsafe=unsafe, pytorch_scalar_promotion=pytorch,
                                     u64_integer_promotion_target=target)
    return node.get_output_element_type(0)


def main(out_path):
    types = ov_types()
    named = {}
    for key, t in types.items():
        promo = NAMES.get(key)
        if promo:
            named[promo] = t
    accepted = []
    for name, t in named.items():
        try:
            promote(t, t, [2], [2], True, False, "f32")
            accepted.append(name)
        except Exception as e:  # noqa: BLE001
            print(f"rejected {name}: {str(e).splitlines()[0]}", file=sys.stderr)
    order = [n for n in NAMES.values() if n in accepted]
    groups = []
    targets = ["f32", "f64", "i64", "u64", "bf16", "f16", "i8", "bool"]
    for unsafe, pytorch, target in itertools.product([False, True], [False, True], targets):
        cases = []
        for l, r in itertools.product(order, order):
            for lk, rk in [("", ""), ("scalar:", ""), ("", "scalar:"), ("scalar:", "scalar:")]:
                ls = [] if lk else [2]
                rs = [] if rk else [2]
                tgt = named.get(target, target)
                try:
                    res = promote(named[l], named[r], ls, rs, unsafe, pytorch, tgt)
                    res_name = NAMES.get(res.to_string(), res.to_string())
                    cases.append([lk + l, rk + r, res_name])
                except Exception as e:  # noqa: BLE001
                    # The last line of OpenVINO's message states the reason.
                    lines = [x.strip() for x in str(e).splitlines() if x.strip()]
                    cases.append([lk + l, rk + r, None, lines[-1] if lines else ""])
        groups.append({"options": {"promote_unsafe": unsafe, "pytorch_scalar_promotion": pytorch,
                                   "u64_integer_promotion_target": target}, "op": "add", "cases": cases})
    doc = {"framework": "openvino", "version": ov.__version__, "generated_by": "tools/oracles/promotion/openvino_oracle.py",
           "dtypes": order, "groups": groups}
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
