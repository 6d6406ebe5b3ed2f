"""Dump what TensorFlow's own promotion function under the new type promotion,
`tensorflow.python.framework.flexible_dtypes.result_type(a, b)`, answers with
`dtype_conversion_mode` `all` and `safe`, to
tests/data/promotion/functions/tensorflow.json; and, for every op that
tensorflow_oracle.py sweeps, what it does with two bool tensors and whether the raw
op's signature (its OpDef) allows bool at all.

    python tools/oracles/promotion/tensorflow_functions_oracle.py tests/data/promotion/functions/tensorflow.json

Each mode runs in a process of its own (the mode can be set once). The operands are
tensorflow_oracle.py's, over the same 19 dtypes: `DTYPE` a tensor of shape [2]
(`tf.ones`, or `tf.cast` of float32 ones), `scalar:DTYPE` a rank-0 one, `weak:DTYPE`
`WeakTensor.from_tensor(tf.ones((), dtype))` for the five dtypes TF lets be weak (i32
i64 f32 f64 c128), `python:KIND` the literal True, 3, 2.5 or 1+2j; Python with Python
too. `result_type` returns (dtype, is_weak): the result is `weak:DTYPE` when is_weak.

`bool_with_bool`, per mode and op: the case `[bool, bool, ...]` of the function on two
bool tensors of shape [2] (a missing kernel is not re-read as a promotion here: the
error is kept as it is), the raw ops the function builds (traced with `tf.function`
on float32, else int32, else bool inputs), and for each raw op whether its OpDef
allows bool for each type attribute and whether a CPU kernel is registered for bool.
"""
import json
import sys
import time

from oracle_common import count_cases, first_line, sweep, write
from tensorflow_oracle import NAMES, OPS, SHORTEN, header, run_modes, setup

MODES = ["all", "safe"]
GRAPH_PLUMBING = {"Placeholder", "Identity", "Const", "NoOp"}


def child(mode, out_path):
    start = time.time()
    env = setup(mode)
    import numpy as np
    from tensorflow.python.framework import kernels, op_def_registry
    tf, weak_tensor, flexible_dtypes = env.tf, env.weak_tensor, env.flexible_dtypes
    name_of, order, weak, operands, fns = env.name_of, env.order, env.weak, env.operands, env.fns

    def run(a, b):
        d, is_weak = flexible_dtypes.result_type(a, b)
        return ("weak:" if is_weak else "") + name_of(d)

    cases, seen = sweep(operands, run, python_pairs=True)
    for c in cases:
        if len(c) > 3:
            c[3] = SHORTEN.sub("", c[3])

    def raw_ops(fn):
        for d in (tf.float32, tf.int32, tf.bool):
            try:
                spec = tf.TensorSpec((2,), d)
                graph = tf.function(fn).get_concrete_function(spec, spec).graph
                return d.name, sorted({o.type for o in graph.get_operations()} - GRAPH_PLUMBING)
            except Exception:  # noqa: BLE001
                continue
        return None, []

    def signature(op_type):
        op_def = op_def_registry.get(op_type)
        cpu_bool = set()
        for k in kernels.get_registered_kernels_for_op(op_type).kernel:
            if k.device_type == "CPU":
                for c in k.constraint:
                    if tf.bool.as_datatype_enum in c.allowed_values.list.type:
                        cpu_bool.add(c.name)
        attrs = {}
        for a in op_def.attr:
            if a.type != "type":
                continue
            allowed = [tf.dtypes.as_dtype(t).name for t in a.allowed_values.list.type]
            attrs[a.name] = {"opdef_allows_bool": (not allowed) or "bool" in allowed,
                             "opdef_allowed": allowed or "any type",
                             "cpu_kernel_for_bool": a.name in cpu_bool}
        return attrs

    # bool with bool, for every op tensorflow_oracle.py sweeps
    b2 = tf.ones(2, tf.bool)
    bool_with_bool = {}
    for op, fn in fns.items():
        try:
            r = fn(b2, b2)
            case = ["bool", "bool", ("weak:" if isinstance(r, weak_tensor.WeakTensor) else "") + name_of(r.dtype)]
        except Exception as e:  # noqa: BLE001
            case = ["bool", "bool", None, SHORTEN.sub("", first_line(e))]
        traced_with, types = raw_ops(fn)
        sig = {t: signature(t) for t in types}
        bool_with_bool[op] = {
            "function": OPS[op], "case": case, "raw_ops_traced_with": traced_with, "raw_ops": sig,
            "signature_refuses_bool": any(not a["opdef_allows_bool"] for s in sig.values() for a in s.values()),
        }

    doc = {
        "mode": mode, "version": tf.__version__, "numpy": np.__version__,
        "dtypes": [NAMES[n] for n in order], "weak_operands": [w[0] for w in weak],
        "warnings": seen, "bool_with_bool": bool_with_bool,
        "groups": [{"options": {"dtype_conversion_mode": mode}, "op": "result_type", "cases": cases}],
    }
    with open(out_path, "w") as f:
        json.dump(doc, f)
    print(f"tensorflow functions {mode}: {len(cases)} cases, {time.time() - start:.1f}s", file=sys.stderr)


def main(out_path):
    start = time.time()
    parts = run_modes(__file__, out_path, MODES)
    first = parts["all"]
    assert all(p["dtypes"] == first["dtypes"] for p in parts.values())
    doc = {
        **header("tensorflow_functions_oracle.py", first),
        "weak_operands": first["weak_operands"],
        "functions": {"result_type": "tensorflow.python.framework.flexible_dtypes.result_type(a, b) "
                                     "on the operands as they are"},
        "warnings": {m: p["warnings"] for m, p in parts.items()},
        "bool_with_bool": {m: p["bool_with_bool"] for m, p in parts.items()},
        "groups": [g for m in MODES for g in parts[m]["groups"]],
    }
    write(out_path, doc)
    print(f"tensorflow {first['version']} functions: {len(first['dtypes'])} dtypes, {count_cases(doc['groups'])} "
          f"cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
