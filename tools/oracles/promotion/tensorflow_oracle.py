"""Dump what TensorFlow (CPU) does under its new type promotion,
`tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=...)`
with `all` and `safe`, when a binary op meets two operands of different dtypes, to
tests/data/promotion/tensorflow.json. The mode can be set once per process: each mode
runs in a process of its own. `legacy` is run too and kept apart (`legacy_vs_all`
counts, per op, the cases where it differs from `all`; `legacy_add_group` keeps its
add cases), to show what the new promotion changes.

    python tools/oracles/promotion/tensorflow_oracle.py tests/data/promotion/tensorflow.json

Operands: `DTYPE` is a tensor of shape [2] (`tf.ones(2, dtype)`, or `tf.cast` of
float32 ones where `ones` has no kernel for the dtype), `scalar:DTYPE` a rank-0 one,
`weak:DTYPE` a rank-0 `WeakTensor.from_tensor(tf.ones((), dtype))` for each dtype TF
allows to be weak (i32 i64 f32 f64 c128), `python:KIND` the literal True, 3, 2.5 or
1+2j. Every op goes through its function (`tf.math.add(a, b)`), which takes a Python
scalar on either side. The result is the returned tensor's dtype, written
`weak:DTYPE` when it is a WeakTensor. Where promotion chose a dtype and the op's
signature excludes it (`Value for attr 'T' of bool is not in the list of allowed
values`: the op's registered type list, the same on every device), the operation
refuses the pair: the case is `[lhs, rhs, None, error]`. Where promotion chose a dtype
(and TF's promotion function, `flexible_dtypes.result_type`, agrees on that dtype) and
this CPU build has no kernel for it (`Could not find device for node`), the case is
`[lhs, rhs, promoted, error]` with that dtype (bool for comparisons and logical
operations): a fact of the build, not of the operation. An op the new promotion does not wrap (it
takes one dtype) checks its first operand's dtype against its kernels before it
compares the second's: where that failed for two tensors of different dtypes, what
the op does with them never showed, and the case is `[lhs, rhs, None, error,
"unknown_promotion"]`.
"""
import itertools
import json
import os
import re
import sys
import time
import warnings
from types import SimpleNamespace

from oracle_common import (count_cases, drop_identical_ops, dtype_names, first_line, python_operands, run_children,
                           sweep, write)

MODES = ["all", "safe", "legacy"]
NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
    "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float4_e2m1fn", "int4", "uint4", "uint2",
    "float8_e4m3b11fnuz", "int2",
)
# TF's kernel type names, as op-attribute errors print them
KERNEL_NAMES = {"float": "f32", "half": "f16", "double": "f64", "bfloat16": "bf16", "bool": "bool",
                **{k: v for k, v in NAMES.items()}}
NOT_ALLOWED = re.compile(r"Value for attr 'T' of (\w+) is not in the list of allowed values")
NO_DEVICE = re.compile(r"Could not find device for node: \{\{node \w+\}\} = \w+\[T=DT_(\w+)")
DT_NAMES = {"BOOL": "bool", "UINT8": "u8", "UINT16": "u16", "UINT32": "u32", "UINT64": "u64", "INT8": "i8",
            "INT16": "i16", "INT32": "i32", "INT64": "i64", "HALF": "f16", "BFLOAT16": "bf16", "FLOAT": "f32",
            "DOUBLE": "f64", "COMPLEX64": "c64", "COMPLEX128": "c128", "FLOAT8_E4M3FN": "f8e4m3fn",
            "FLOAT8_E5M2": "f8e5m2", "INT4": "i4", "UINT4": "u4"}
# what follows these in TF's messages is a list of allowed types, a node name or a
# function-node path
SHORTEN = re.compile(r"(?<=allowed values): .*$| name: ?$| \{\{function_node [^}]*\}\}.*$|; NodeDef: .*$"
                     r"|: <tf\.Tensor: shape=.*$")
BOOL_RESULT = {"equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal", "logical_and"}
# The ops the new promotion does not wrap: they take operands of one dtype. Without a
# kernel for the first operand's dtype they fail before they look at the second's.
SAME_DTYPE_OPS = {"not_equal", "less_than", "less_equal", "greater_than", "greater_equal", "bitwise_and",
                  "logical_and", "where", "atan2"}
# The fifth element of a case whose promotion never showed.
UNKNOWN_PROMOTION = "unknown_promotion"
OPS = {
    "add": "tf.math.add", "subtract": "tf.math.subtract", "multiply": "tf.math.multiply",
    "divide": "tf.math.truediv", "floor_divide": "tf.math.floordiv", "remainder": "tf.math.floormod",
    "pow": "tf.math.pow", "maximum": "tf.math.maximum", "minimum": "tf.math.minimum",
    "equal": "tf.math.equal", "not_equal": "tf.math.not_equal", "less_than": "tf.math.less",
    "less_equal": "tf.math.less_equal", "greater_than": "tf.math.greater",
    "greater_equal": "tf.math.greater_equal", "bitwise_and": "tf.bitwise.bitwise_and",
    "logical_and": "tf.math.logical_and", "where": "tf.where(tf.constant(True), a, b)",
    "atan2": "tf.math.atan2",
}
OPERATORS = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b, "floor_divide": lambda a, b: a // b, "remainder": lambda a, b: a % b,
    "pow": lambda a, b: a ** b, "equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b,
    "less_than": lambda a, b: a < b, "less_equal": lambda a, b: a <= b, "greater_than": lambda a, b: a > b,
    "greater_equal": lambda a, b: a >= b, "bitwise_and": lambda a, b: a & b,
}


def setup(mode):
    """In a process of its own: imports TensorFlow with `dtype_conversion_mode=mode` and
    builds the dtypes, the operands and the op functions. Returns a namespace with tf,
    weak_tensor, flexible_dtypes, name_of(dtype), result(tensor) (its name, `weak:`
    for a WeakTensor), order (dtype names swept), not_dtypes, made_by, tensor, zero_d,
    weak, weak_refused, operands and fns (op -> function)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    warnings.simplefilter("ignore")
    import numpy  # noqa: F401  (imported before tensorflow, as it always was)
    import tensorflow as tf
    from tensorflow.python.framework import flexible_dtypes, weak_tensor

    tf.get_logger().setLevel("ERROR")
    tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)

    every = {}
    for mod in (tf, tf.dtypes, tf.dtypes.experimental):
        for attr in dir(mod):
            d = getattr(mod, attr, None)
            if isinstance(d, tf.dtypes.DType):
                every.setdefault(d.name, d)

    def name_of(d):
        return NAMES.get(d.name, d.name)

    def result(r):
        return ("weak:" if isinstance(r, weak_tensor.WeakTensor) else "") + name_of(r.dtype)

    def make(d, shape):
        try:
            return tf.ones(shape, d), "tf.ones"
        except Exception:  # noqa: BLE001
            return tf.cast(tf.ones(shape, tf.float32), d), "tf.cast(tf.ones(shape, tf.float32), dtype)"

    order, not_dtypes, made_by = [], {}, {}
    for n in NAMES:
        if n not in every:
            continue
        try:
            t, how = make(every[n], (2,))
            assert t.dtype == every[n]
            order.append(n)
            made_by[NAMES[n]] = how
        except Exception as e:  # noqa: BLE001
            not_dtypes[NAMES[n]] = "no tensor can be made: " + first_line(e)
    for n in sorted(every):
        if n not in NAMES:
            not_dtypes[n] = "not numeric or quantized: not swept"
    tensor = [(NAMES[n], make(every[n], (2,))[0]) for n in order]
    zero_d = [("scalar:" + NAMES[n], make(every[n], ())[0]) for n in order]
    weak, weak_refused = [], {}
    for n in order:
        try:
            w = weak_tensor.WeakTensor.from_tensor(tf.ones((), every[n]))
            weak.append(("weak:" + NAMES[n], w))
        except Exception as e:  # noqa: BLE001
            weak_refused[NAMES[n]] = first_line(e)
    cond = tf.constant(True)
    fns = {
        "add": tf.math.add, "subtract": tf.math.subtract, "multiply": tf.math.multiply,
        "divide": tf.math.truediv, "floor_divide": tf.math.floordiv, "remainder": tf.math.floormod,
        "pow": tf.math.pow, "maximum": tf.math.maximum, "minimum": tf.math.minimum,
        "equal": tf.math.equal, "not_equal": tf.math.not_equal, "less_than": tf.math.less,
        "less_equal": tf.math.less_equal, "greater_than": tf.math.greater, "greater_equal": tf.math.greater_equal,
        "bitwise_and": tf.bitwise.bitwise_and, "logical_and": tf.math.logical_and,
        "where": lambda a, b: tf.where(cond, a, b), "atan2": tf.math.atan2,
    }
    assert set(fns) == set(OPS)
    return SimpleNamespace(tf=tf, weak_tensor=weak_tensor, flexible_dtypes=flexible_dtypes, name_of=name_of,
                           result=result, order=order, not_dtypes=not_dtypes, made_by=made_by, tensor=tensor,
                           zero_d=zero_d, weak=weak, weak_refused=weak_refused,
                           operands=tensor + zero_d + weak + python_operands(), fns=fns)


def run_modes(script, out_path, modes):
    """Runs `script --child MODE PART` for each mode; returns {mode: what it wrote}."""
    return dict(zip(modes, run_children(script, out_path, [(m, [m]) for m in modes])))


def header(script, first):
    """The keys every TensorFlow data file begins with; `first` is a child's output."""
    return {"framework": "tensorflow", "version": first["version"], "numpy_version": first["numpy"],
            "generated_by": f"tools/oracles/promotion/{script}", "device": "cpu", "dtypes": first["dtypes"]}


def child(mode, out_path):
    start = time.time()
    env = setup(mode)
    import numpy as np
    tf, weak_tensor, flexible_dtypes = env.tf, env.weak_tensor, env.flexible_dtypes
    name_of, result, order, operands, fns = env.name_of, env.result, env.order, env.operands, env.fns
    tensor, zero_d, weak = env.tensor, env.zero_d, env.weak
    not_dtypes, made_by, weak_refused = env.not_dtypes, env.made_by, env.weak_refused

    by_name = dict(operands)

    def promoted_without_kernel(op, case):
        """The dtype TF promoted to, when this build then had no kernel for it: the
        error names the dtype the op was given, and TF's promotion function agrees that
        this is where the two operands go. (Where the promotion function refuses, e.g.
        float8 with uint8, the weak-tensor wrapper passes the operands through unchanged
        and the op complains about the first one's dtype: no promotion happened.) None
        where the op's own signature excludes the dtype: the operation refuses it."""
        text = case[3]
        m = NOT_ALLOWED.search(text)
        signature = m is not None and m.group(1) in KERNEL_NAMES
        named = KERNEL_NAMES.get(m.group(1)) if m else None
        if named is None:
            m = NO_DEVICE.search(text)
            named = DT_NAMES.get(m.group(1)) if m else None
        if named is None or mode == "legacy":
            return None
        # Two tensors of different dtypes into an op that takes one dtype: the op
        # refused the first one's dtype before it compared the second's.
        if op in SAME_DTYPE_OPS and not any(o.startswith("python:") for o in case[:2]):
            if case[0].split(":")[-1] != case[1].split(":")[-1]:
                return UNKNOWN_PROMOTION
        if signature:
            return None
        try:
            promoted, _ = flexible_dtypes.result_type(by_name[case[0]], by_name[case[1]])
        except Exception:  # noqa: BLE001
            return None
        if name_of(promoted) != named:
            return None
        return "bool" if op in BOOL_RESULT else named

    def shorten(cases):
        """TF's messages go on with lists of allowed types, graph node names and
        function-node prefixes: those are cut."""
        for c in cases:
            if len(c) > 3:
                c[3] = SHORTEN.sub("", c[3])

    groups, diffs, kernels, seen_warnings = [], [], {}, {}
    for op, fn in fns.items():
        t0 = time.time()
        cases, seen = sweep(operands, lambda a, b: result(fn(a, b)), python_pairs=True)
        shorten(cases)
        kernels[op] = 0
        for c in cases:
            if c[2] is None:
                p = promoted_without_kernel(op, c)
                if p == UNKNOWN_PROMOTION:
                    c.append(p)
                elif p is not None:
                    c[2] = p
                    kernels[op] += 1
        if seen:
            seen_warnings[op] = seen
        groups.append({"options": {"dtype_conversion_mode": mode}, "op": op, "cases": cases})
        if op in OPERATORS:
            index = {(c[0], c[1]): c for c in cases}
            opc, _ = sweep(operands, lambda a, b: result(OPERATORS[op](a, b)))
            shorten(opc)
            for c in opc:
                if c[2] is None:
                    p = promoted_without_kernel(op, c)
                    c[2] = None if p == UNKNOWN_PROMOTION else p
                f = index[(c[0], c[1])]
                if (c[2], len(c) > 3) != (f[2], len(f) > 3):
                    diffs.append({"op": op, "lhs": c[0], "rhs": c[1], "function": f[2:], "operator": c[2:]})
        print(f"tensorflow {mode} {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    # flexible_dtypes.result_type, TF's promotion function, on dtypes and Python scalars
    result_type = {}
    probes = zero_d + weak + python_operands()
    for (ln, a), (rn, b) in itertools.product(probes, probes):
        try:
            d, is_weak = flexible_dtypes.result_type(a, b)
            result_type[f"{ln},{rn}"] = ("weak:" if is_weak else "") + name_of(d)
        except Exception as e:  # noqa: BLE001
            result_type[f"{ln},{rn}"] = "error: " + first_line(e)
    # weak tensors of shape [2] against the rank-0 ones, on add
    weak_shape = {}
    for (wn, w), (n, t) in itertools.product(weak, tensor):
        w2 = weak_tensor.WeakTensor.from_tensor(tf.ones((2,), w.dtype))
        for key, args, ref in ((f"{wn},{n}", (w2, t), (w, t)), (f"{n},{wn}", (t, w2), (t, w))):
            outs = []
            for x in (args, ref):
                try:
                    outs.append(result(tf.math.add(*x)))
                except Exception as e:  # noqa: BLE001
                    outs.append("error: " + first_line(e))
            if outs[0] != outs[1]:
                weak_shape[key] = {"shape [2]": outs[0], "rank 0": outs[1]}
    doc = {
        "mode": mode, "version": tf.__version__, "numpy": np.__version__,
        "dtypes": [NAMES[n] for n in order], "not_dtypes": not_dtypes, "made_by": made_by,
        "weak_refused": weak_refused, "weak_operands": [w[0] for w in weak],
        "kernel_missing_cases": kernels, "operator_vs_function": diffs, "result_type": result_type,
        "weak_shape_2_vs_rank_0_differ": weak_shape, "warnings": seen_warnings, "groups": groups,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f)
    print(f"tensorflow {mode}: {time.time() - start:.1f}s", file=sys.stderr)


def main(out_path):
    start = time.time()
    parts = run_modes(__file__, out_path, MODES)
    first = parts["all"]
    assert all(p["dtypes"] == first["dtypes"] for p in parts.values())
    groups, same = drop_identical_ops([g for m in ("all", "safe") for g in parts[m]["groups"]])
    # legacy: what it changes, against `all`, per op; the add group is kept whole
    legacy_vs_all = {}
    all_by_op = {g["op"]: {(c[0], c[1]): c for c in g["cases"]} for g in parts["all"]["groups"]}
    for g in parts["legacy"]["groups"]:
        differ = [[c[0], c[1], c[2:], all_by_op[g["op"]][(c[0], c[1])][2:]] for c in g["cases"]
                  if (c[2], len(c) > 3) != (all_by_op[g["op"]][(c[0], c[1])][2], len(all_by_op[g["op"]][(c[0], c[1])]) > 3)]
        legacy_vs_all[g["op"]] = {"cases": len(g["cases"]), "differ": len(differ),
                                  "examples [lhs, rhs, legacy, all]": differ[:: max(1, len(differ) // 12)][:12]}
    legacy_add = next(g for g in parts["legacy"]["groups"] if g["op"] == "add")
    doc = {
        **header("tensorflow_oracle.py", first),
        "not_dtypes": first["not_dtypes"],
        "made_by": first["made_by"],
        "weak_operands": first["weak_operands"],
        "weak_refused": first["weak_refused"],
        "functions": OPS,
        "kernel_missing_cases": {m: p["kernel_missing_cases"] for m, p in parts.items()},
        "result_type": {m: p["result_type"] for m, p in parts.items()},
        "operator_vs_function": {m: parts[m]["operator_vs_function"] for m in ("all", "safe")},
        "operator_vs_function_legacy_count": len(parts["legacy"]["operator_vs_function"]),
        "weak_shape_2_vs_rank_0_differ": {m: p["weak_shape_2_vs_rank_0_differ"] for m, p in parts.items()},
        "warnings": {m: p["warnings"] for m, p in parts.items()},
        "ops_left_out_as_identical": same,
        "legacy_vs_all": legacy_vs_all,
        "legacy_add_group": legacy_add,
        "groups": groups,
    }
    write(out_path, doc)
    print(f"tensorflow {first['version']}: {len(first['dtypes'])} dtypes, {count_cases(groups)} cases "
          f"(+{len(legacy_add['cases'])} legacy add), {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
