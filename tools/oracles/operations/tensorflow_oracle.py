"""Dump what TensorFlow (CPU) does with the dtypes of operations of every arity under
its new type promotion (`dtype_conversion_mode` all and safe, one process each, as in
tools/oracles/promotion/tensorflow_oracle.py): unary tf.math functions, reductions,
tf.linalg.matmul, tf.concat, `a += b` (which rebinds `a`: tensors are immutable) and
tf.Variable.assign_add / assign_sub, to tests/data/operations/tensorflow.json.

    /work/venvs/tensorflow/bin/python tools/oracles/operations/tensorflow_oracle.py  # writes tests/data/operations/tensorflow.json

Operands are the promotion oracle's (its `setup(mode)`): `DTYPE` a tensor of shape [2]
(shape [2, 2] for matmul), `scalar:DTYPE` a rank-0 tensor, `weak:DTYPE` a WeakTensor
(i32 i64 f32 f64 c128; of shape [2] in concat), `python:KIND` True, 3, 2.5, 1+2j.

A failure is a refusal, `[operands, null, error]`, where the op's signature excludes
the dtype (`Value for attr 'T' of int32 is not in the list of allowed values`, the same
on every device), a Python wrapper refuses it, or promotion refuses; it is a fact of
this CPU build, `[operands, DTYPE, error]`, where the op has no CPU kernel for the dtype
(`Could not find device for node`): DTYPE is then the output dtype TensorFlow infers
when it builds the same call into a graph (`tf.function(...).get_concrete_function`
on `tf.TensorSpec`s, which needs no kernel), checked against every eager case that ran
(`graph_vs_eager`); for the binary ops it must also be what
`flexible_dtypes.result_type` gives.

Compute dtype: TensorFlow states none. Where the graph of a unary op or a reduction
casts its input to another dtype before the op (`Cast` nodes), the case carries
`{"compute": DTYPE, "how": "graph Cast"}`; `graph_casts` lists every graph with a Cast.
"""
import importlib.util
import itertools
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_common_b as C  # noqa: E402

MODES = ["all", "safe"]


def _load_promotion_oracle():
    spec = importlib.util.spec_from_file_location(
        "promotion_tensorflow_oracle", os.path.join(HERE, "..", "promotion", "tensorflow_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


P = _load_promotion_oracle()

UNARY = {
    "negative": "tf.math.negative", "absolute": "tf.math.abs", "sqrt": "tf.math.sqrt", "exp": "tf.math.exp",
    "log": "tf.math.log", "sin": "tf.math.sin", "tanh": "tf.math.tanh", "reciprocal": "tf.math.reciprocal",
    "floor": "tf.math.floor", "ceil": "tf.math.ceil", "round": "tf.math.round", "sign": "tf.math.sign",
    "square": "tf.math.square", "isnan": "tf.math.is_nan", "isfinite": "tf.math.is_finite",
    "logical_not": "tf.math.logical_not", "bitwise_not": "tf.bitwise.invert", "real": "tf.math.real",
    "imag": "tf.math.imag", "conj": "tf.math.conj", "angle": "tf.math.angle", "log1p": "tf.math.log1p",
    "expm1": "tf.math.expm1", "sigmoid": "tf.math.sigmoid", "erf": "tf.math.erf", "rsqrt": "tf.math.rsqrt",
}
MISSING = {
    "positive": "no tf.math.positive (tf.experimental.numpy.positive exists)",
    "trunc": "no tf.math.trunc (tf.experimental.numpy.trunc exists; tf.truncatediv is binary)",
    "exp2": "no tf.math.exp2 (tf.experimental.numpy.exp2 exists)",
    "sum dtype=": "tf.math.reduce_sum has no dtype argument",
    "prod dtype=": "tf.math.reduce_prod has no dtype argument",
    "mean dtype=": "tf.math.reduce_mean has no dtype argument",
    "out=": "no TensorFlow function has an out= argument (tensors are immutable)",
}
REDUCTIONS = {
    "sum": "tf.math.reduce_sum", "prod": "tf.math.reduce_prod", "mean": "tf.math.reduce_mean",
    "cumsum": "tf.math.cumsum", "cumprod": "tf.math.cumprod", "max": "tf.math.reduce_max",
    "min": "tf.math.reduce_min", "argmax": "tf.math.argmax", "any": "tf.math.reduce_any",
    "all": "tf.math.reduce_all", "var": "tf.math.reduce_variance", "std": "tf.math.reduce_std",
}
INPLACE = {"add": lambda a, b: _iadd(a, b), "subtract": lambda a, b: _isub(a, b),
           "multiply": lambda a, b: _imul(a, b), "divide": lambda a, b: _idiv(a, b)}


def _iadd(a, b):
    a += b
    return a


def _isub(a, b):
    a -= b
    return a


def _imul(a, b):
    a *= b
    return a


def _idiv(a, b):
    a /= b
    return a


NO_DEVICE = re.compile(r"Could not find device for node: \{\{node \w+\}\} = \w+\[[^\]]*?T=DT_(\w+)")


def child(mode, out_path):
    start = time.time()
    env = P.setup(mode)
    tf, weak_tensor, flexible_dtypes = env.tf, env.weak_tensor, env.flexible_dtypes
    name_of, result = env.name_of, env.result
    names = [P.NAMES[n] for n in env.order]
    dtype_of = {n: t.dtype for n, t in env.tensor}
    by_name = dict(env.operands)

    def shorten(c):
        if C.failed(c):
            c[2] = re.sub(r"^(\w+: )\{\{function_node [^}]*\}\} ?", r"\1", c[2])
            c[2] = P.SHORTEN.sub("", c[2])
            c[2] = re.sub(r" \[Op:\w+\]( name: \w*)?$", "", c[2])
        return c

    def attempt(ops, thunk):
        return shorten(C.attempt(ops, thunk))

    def traced(fn, specs):
        """The output dtype of `fn` built into a graph on `specs` (no kernel runs), and
        the casts in that graph [(from, to)], or (None, error)."""
        try:
            cf = tf.function(fn, autograph=False).get_concrete_function(*specs)
        except Exception as e:  # noqa: BLE001
            return None, P.SHORTEN.sub("", C.first_line(e))
        out = cf.structured_outputs
        casts = [(name_of(op.inputs[0].dtype), name_of(op.outputs[0].dtype), [c.type for c in op.outputs[0].consumers()])
                 for op in cf.graph.get_operations() if op.type == "Cast"]
        return (name_of(out.dtype), casts), None

    def make(n, shape):
        return P_make(tf, dtype_of[n], shape)

    groups, graph_vs_eager, graph_casts, counts = [], [], [], {}

    def one_input(op, fn, operands, kind):
        cases, k, pending = [], {"ran": 0, "no_cpu_kernel": 0, "refused": 0}, []
        for n, x in operands:
            c = attempt([n], lambda: result(fn(x)))
            extra = None
            is_tensor = not n.startswith(("python:", "weak:"))
            g, gerr = traced(fn, [tf.TensorSpec(x.shape, x.dtype)]) if is_tensor else (None, None)
            if g is not None:
                out, casts = g
                if casts:
                    graph_casts.append({"op": op, "operand": n, "casts [from, to, consumers]": casts})
                    first = casts[0]
                    if first[0] == n.removeprefix("scalar:") and first[1] != first[0]:
                        extra = {"compute": first[1], "how": "graph Cast"}
            if not C.failed(c):
                k["ran"] += 1
                if g is not None and g[0] != c[1].removeprefix("weak:"):
                    graph_vs_eager.append({"op": op, "operands": [n], "eager": c[1], "graph": g[0]})
            else:
                m = NO_DEVICE.search(c[2])
                if m and g is None and not is_tensor and P.DT_NAMES.get(m.group(1)) in dtype_of:
                    # a weak or Python operand: the op was given the dtype the error names
                    # (weak: decided below, from the cases of the op that ran)
                    g, _ = traced(fn, [tf.TensorSpec((), dtype_of[P.DT_NAMES[m.group(1)]])])
                    if g is not None:
                        pending.append(len(cases))
                if m and g is not None:
                    c[1] = g[0]
                    k["no_cpu_kernel"] += 1
                else:
                    k["refused"] += 1
            if extra is not None and c[1] is not None:
                c = C.case(c[0], c[1], c[2] if len(c) > 2 else None, extra)
            cases.append(c)
        # a weak or Python operand without a CPU kernel: weak where every weak or Python
        # case of the op that ran gave a weak result, else left a refusal
        ran = [x[1] for x in cases if not C.failed(x) and x[0][0].startswith(("weak:", "python:"))]
        for i in pending:
            if ran and all(r.startswith("weak:") for r in ran):
                cases[i][1] = "weak:" + cases[i][1]
            else:
                cases[i][1] = None
                k["no_cpu_kernel"] -= 1
                k["refused"] += 1
        counts[f"{op} {kind}"] = k
        groups.append(C.group(op, kind, cases, {"dtype_conversion_mode": mode}))

    unary_operands = env.tensor + env.zero_d + env.weak + C.python_operands()
    for op, fname in UNARY.items():
        one_input(op, _resolve(tf, fname), unary_operands, "unary")
    reduction_operands = env.tensor + [(w, weak_tensor.WeakTensor.from_tensor(tf.ones(2, by_name[w].dtype)))
                                       for w, _ in env.weak]
    for op, fname in REDUCTIONS.items():
        fn = _resolve(tf, fname)
        if op in ("cumsum", "cumprod"):
            fn = (lambda f: (lambda x: f(x, 0)))(fn)
        one_input(op, fn, reduction_operands, "reduction")

    def binary_case(op, names_, a, b, thunk, promotes=True):
        """A two-operand case; a missing CPU kernel kept as the promoted dtype where the
        error's dtype is what flexible_dtypes.result_type gives."""
        c = attempt(names_, thunk)
        if C.failed(c):
            m = NO_DEVICE.search(c[2])
            if m and promotes:
                named = P.DT_NAMES.get(m.group(1))
                try:
                    d, _ = flexible_dtypes.result_type(a, b)
                    if name_of(d) == named:
                        c[1] = named
                except Exception:  # noqa: BLE001
                    pass
        return c

    # matmul of two [2, 2] tensors
    mats = {n: make(n, (2, 2)) for n in names}
    cases = []
    for ln, rn in C.ordered_pairs(names):
        a, b = mats[ln], mats[rn]
        c = binary_case("matmul", [ln, rn], a, b, lambda: result(tf.linalg.matmul(a, b)))
        if C.failed(c) and c[1] is not None:
            g, _ = traced(tf.linalg.matmul, [tf.TensorSpec((2, 2), a.dtype), tf.TensorSpec((2, 2), b.dtype)])
            if g is None or g[0] != c[1]:
                c[1] = None
        cases.append(c)
    groups.append(C.group("matmul", "binary", cases, {"dtype_conversion_mode": mode}))

    # concat: pairs of tensors and shape-[2] weak tensors, triples of the subset
    vecs = dict(env.tensor)
    vecs.update({w: weak_tensor.WeakTensor.from_tensor(tf.ones(2, by_name[w].dtype)) for w, _ in env.weak})
    pair_names = [n for n, _ in env.tensor] + [w for w, _ in env.weak]
    subset = [n for n in C.SUBSET if n in names]
    def concat_case(ops):
        c = attempt(list(ops), lambda: result(tf.concat([vecs[x] for x in ops], 0)))
        # one dtype without a CPU ConcatV2 kernel: the graph's output dtype
        if C.failed(c) and NO_DEVICE.search(c[2]) and len(set(ops)) == 1 and not ops[0].startswith("weak:"):
            g, _ = traced(lambda *xs: tf.concat(list(xs), 0), [tf.TensorSpec((2,), vecs[x].dtype) for x in ops])
            if g is not None:
                c[1] = g[0]
        return c

    pairs = [concat_case((l, r)) for l, r in C.ordered_pairs(pair_names)]
    triples = [concat_case(t) for t in C.ordered_triples(subset)]
    groups.append(C.group("concatenate", "list", pairs + triples, {"dtype_conversion_mode": mode}))
    fold = C.fold_of_two(pairs, triples)

    # a += b (and -=, *=, /=): what `a` is rebound to
    rhs = env.tensor + env.weak + C.python_operands()
    for op, fn in INPLACE.items():
        cases = []
        for (ln, a), (rn, b) in itertools.product(env.tensor, rhs):
            cases.append(binary_case(op, [ln, rn], a, b, lambda: result(fn(a, b))))
        groups.append(C.group(op, "inplace", cases, {"dtype_conversion_mode": mode}))
    # tf.Variable.assign_add / assign_sub of a rank-0 variable (the update must have the
    # variable's shape): whether they take the other dtype
    rhs0 = env.zero_d + env.weak + C.python_operands()
    for op, meth in (("assign_add", "assign_add"), ("assign_sub", "assign_sub")):
        cases = []
        for (ln, a), (rn, b) in itertools.product(env.zero_d, rhs0):
            def run():
                v = tf.Variable(a)
                r = getattr(v, meth)(b)
                return name_of(r.dtype) if not isinstance(r, weak_tensor.WeakTensor) else result(r)
            c = binary_case(op, [ln, rn], a, b, run, promotes=False)
            # no CPU kernel for the variable's own dtype: the update would keep it
            m = re.search(r"No OpKernel was registered .* \[dtype=DT_(\w+)\]", c[2]) if C.failed(c) else None
            if m and P.DT_NAMES.get(m.group(1)) == ln.removeprefix("scalar:"):
                # no CPU kernel for the variable's own dtype: a build fact, unless the
                # arithmetic itself is refused for it (tf.math.add's signature has no bool,
                # float8, int4, uint4)
                plain = {"assign_add": tf.math.add, "assign_sub": tf.math.subtract}[op]
                try:
                    plain(a, b)
                    signature_refuses = False
                except Exception as e:  # noqa: BLE001
                    signature_refuses = P.NOT_ALLOWED.search(str(e)) is not None
                if not signature_refuses:
                    c[1] = ln.removeprefix("scalar:")
            cases.append(c)
        groups.append(C.group(op, "inplace", cases, {"dtype_conversion_mode": mode}))

    doc = {"mode": mode, "version": tf.__version__, "numpy": __import__("numpy").__version__, "dtypes": names,
           "subset": subset, "weak_operands": [w for w, _ in env.weak], "made_by": env.made_by,
           "not_dtypes": env.not_dtypes, "graph_vs_eager": graph_vs_eager, "graph_casts": graph_casts,
           "case_kinds": counts, "concatenate_fold": fold, "groups": groups}
    with open(out_path, "w") as f:
        json.dump(doc, f)
    print(f"tensorflow {mode}: {C.count(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


def P_make(tf, dtype, shape):
    try:
        return tf.ones(shape, dtype)
    except Exception:  # noqa: BLE001
        return tf.cast(tf.ones(shape, tf.float32), dtype)


def _resolve(tf, dotted):
    obj = tf
    for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def main(out_path):
    start = time.time()
    parts = dict(zip(MODES, C.run_children(__file__, out_path, [(m, [m]) for m in MODES])))
    first = parts["all"]
    groups = [g for m in MODES for g in parts[m]["groups"]]
    functions = dict(UNARY)
    functions.update({op: f + ("(t, 0)" if op in ("cumsum", "cumprod") else "(t)") for op, f in REDUCTIONS.items()})
    functions.update({"matmul": "tf.linalg.matmul(a, b), a and b of shape [2, 2]",
                      "concatenate": "tf.concat([a, b, ...], 0)",
                      **{f"{op} inplace": f"a {C.INPLACE[op]} b (rebinds a: tensors are immutable)" for op in INPLACE},
                      "assign_add inplace": "tf.Variable(a).assign_add(b), a rank 0",
                      "assign_sub inplace": "tf.Variable(a).assign_sub(b), a rank 0"})
    doc = {
        "framework": "tensorflow", "version": first["version"], "numpy_version": first["numpy"],
        "generated_by": C.GENERATED_BY + "tensorflow_oracle.py", "device": "cpu",
        "dtypes": first["dtypes"], "subset": first["subset"], "weak_operands": first["weak_operands"],
        "made_by": first["made_by"], "not_dtypes": first["not_dtypes"],
        "functions": functions, "missing_ops": MISSING, "kinds": {},
        "case_kinds": {m: parts[m]["case_kinds"] for m in MODES},
        "graph_vs_eager": {m: parts[m]["graph_vs_eager"] for m in MODES},
        "graph_casts": {m: parts[m]["graph_casts"] for m in MODES},
        "concatenate_fold": {m: parts[m]["concatenate_fold"] for m in MODES},
        "groups": groups,
    }
    C.write(out_path, doc)
    print(f"tensorflow {first['version']}: {C.count(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else C.DEFAULT_OUT.format("tensorflow"))
