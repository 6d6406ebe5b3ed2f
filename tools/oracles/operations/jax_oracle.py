"""Dump what JAX (CPU) does with operations of every arity: unary functions,
reductions (with and without `dtype=`), matmul, concatenate of two and three arrays,
`a += b` (which rebinds `a`: JAX arrays are immutable) and `a.at[:].add(b)` /
`a.at[:].set(b)`, under every combination of `jax_enable_x64` (false, true) and
`jax_numpy_dtype_promotion` (standard, strict), to tests/data/operations/jax.json.

    python tools/oracles/operations/jax_oracle.py [OUT]

Each option combination runs in a process of its own (tools/oracles/promotion/
jax_oracle.py's `setup`, which sets the options before jax is imported). The dtypes
and operands are that oracle's: 32 dtypes; `DTYPE` `jnp.ones(2, dtype)`,
`scalar:DTYPE` `jnp.ones((), dtype)`, `weak:DTYPE` a weakly typed rank-0 array of
every dtype (`lax._convert_element_type(1, dtype, weak_type=True)`), `python:KIND`
the literal True, 3, 2.5 or 1+2j; with x64 off an operand is named by the dtype asked
for (`held_dtype`). For matmul `DTYPE` is `jnp.ones((2, 2), dtype)`. float6_e2m3fn,
float6_e3m2fn, int1 and uint1, which XLA's CPU client cannot hold, go through
`jax.eval_shape` (a ShapeDtypeStruct for the array, a 0-d NumPy constant for the 0-d
operand), and a case of theirs that runs is written `[operands, result, why,
"abstract_evaluation"]`; a `dtype=` argument of such a dtype sends the whole case
through `jax.eval_shape`. Everything else runs eagerly under `jax.disable_jit()`.

A result is `weak:DTYPE` where the returned array is weakly typed.

`a += b` etc. rebind `a` (jax.Array has no in-place operators); each of their cases is
compared with the jnp function (`jnp.subtract` for `-=`, ...) on the same operands, and
`-=`, `*=`, `/=` are left out when every case agrees (`ops_left_out_as_identical`).
`.at[:]` cases that warn keep `{"warning": ...}`: the warning's class and its text up to
the first colon (the rest names the two dtypes).

Compute dtypes (`compute`, `how: "jaxpr"`): for every case that ran, of the ops in
PRINCIPAL, `jax.make_jaxpr` of the same call, the dtype the op's principal primitive
computes in (its first operand's dtype; for `dot_general` its
`preferred_element_type`), recorded where it is neither the result's dtype nor an
operand's (unary, reductions) or is not the result's (matmul, `.at[]`). The jaxpr's
output is also compared with the eager result (`traced_vs_eager`).
"""
import contextlib
import itertools
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ops_common_a import (COMMON, DTYPE_REDUCTIONS, INPLACE, REDUCTIONS, UNARY, Sweep, count_cases,  # noqa: E402
                          default_out, drop_rank0, first_line, fold_check, functions_map, load_promotion_oracle,
                          outcome, run_children, write)

P = load_promotion_oracle("jax_oracle")  # tools/oracles/promotion/jax_oracle.py: setup, weak_of, Abstract
GROUPS = P.GROUPS

# op -> (how the data names the function, how to get it from (jax, jnp))
UNARY_FUNCTIONS = {op: (f"jnp.{op}", (lambda op: lambda jax, jnp: getattr(jnp, op))(op))
                   for op in UNARY if op not in ("sigmoid", "erf", "rsqrt")}
UNARY_FUNCTIONS["sigmoid"] = ("jax.nn.sigmoid", lambda jax, jnp: jax.nn.sigmoid)
UNARY_FUNCTIONS["erf"] = ("jax.scipy.special.erf", lambda jax, jnp: jax.scipy.special.erf)
UNARY_FUNCTIONS["rsqrt"] = ("jax.lax.rsqrt", lambda jax, jnp: jax.lax.rsqrt)
# the primitive whose operand dtype is the compute dtype of each op
PRINCIPAL = {
    "negative": ("neg",), "absolute": ("abs",), "sqrt": ("sqrt",), "exp": ("exp",), "log": ("log",),
    "sin": ("sin",), "tanh": ("tanh",), "reciprocal": ("integer_pow", "div"), "floor": ("floor",),
    "ceil": ("ceil",), "round": ("round",), "trunc": ("floor", "ceil"), "sign": ("sign",),
    "square": ("square", "integer_pow", "mul"), "exp2": ("exp2",), "log1p": ("log1p",), "expm1": ("expm1",),
    "sigmoid": ("logistic",), "erf": ("erf",), "rsqrt": ("rsqrt",), "angle": ("atan2",),
    "sum": ("reduce_sum",), "prod": ("reduce_prod",), "mean": ("reduce_sum",), "cumsum": ("cumsum",),
    "cumprod": ("cumprod",), "max": ("reduce_max",), "min": ("reduce_min",), "var": ("reduce_sum",),
    "std": ("reduce_sum",), "matmul": ("dot_general",), "at_add": ("scatter-add", "scatter_add"),
    "at_set": ("scatter",),
}
# exceptions of XLA (compiling or running on the CPU), after JAX's own checks passed
XLA_ERRORS = ("JaxRuntimeError", "XlaRuntimeError")
# the jnp function each augmented assignment is compared with
INPLACE_FUNCTIONS = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "true_divide"}
TRACED_WHY = "the CPU client cannot hold {} arrays (traced_dtypes)"


# the sub-byte dtypes the CPU client holds, each probed for a concatenate that kills the process
SUB_BYTE = ("i4", "u4", "i2", "u2", "f4e2m1")
CRASH_PROBE = """
import jax.numpy as jnp
x = jnp.ones(2, jnp.{name})
print(jnp.concatenate([x, x]).dtype)
"""


def concat_crash_probe(names, jnp_name):
    """{dtype: why} for each of `names` whose `jnp.concatenate([x, x])` kills the
    process (run in a process of its own, under the same options): XLA's CPU
    compiler checks and aborts."""
    import subprocess
    out = {}
    for n in names:
        p = subprocess.run([sys.executable, "-c", CRASH_PROBE.format(name=jnp_name[n])], capture_output=True, text=True,
                           env={**os.environ, "JAX_PLATFORMS": "cpu"})
        if p.returncode != 0:
            check = next((line.split("] ", 1)[-1].strip() for line in p.stderr.splitlines()
                          if "Check failed" in line), f"exit status {p.returncode}")
            out[n] = f"jnp.concatenate of two {n} arrays kills the process on the CPU (XLA: {check})"
    return out


def eqns_of(jaxpr):
    """Every equation of a jaxpr, those of the jaxprs in its equations' parameters
    (jit, cond, ...) right after the equation that holds them."""
    from jax._src import core
    for e in jaxpr.eqns:
        yield e
        for p in e.params.values():
            for sub in (p if isinstance(p, (tuple, list)) else (p,)):
                if isinstance(sub, core.ClosedJaxpr):
                    yield from eqns_of(sub.jaxpr)
                elif isinstance(sub, core.Jaxpr):
                    yield from eqns_of(sub)


def child(x64, mode, out_path):
    start = time.time()
    env = P.setup(x64, mode, P.weak_of, abstract=True)
    jax, jnp, np = env.jax, env.jnp, env.np
    Abstract = P.Abstract
    name_of, result = env.name_of, env.result
    traced = env.traced
    options = {"jax_enable_x64": x64, "jax_numpy_dtype_promotion": mode}
    by_name = dict(env.tensor + env.zero_d + env.weak + env.python)
    arrays = [n for n, _ in env.tensor]
    unary_operands = [n for n, _ in env.tensor + env.zero_d + env.weak + env.python]
    pythons = [n for n, _ in env.python]
    common = [d for d in COMMON if d in arrays]
    # [2, 2] arrays for matmul
    mat = {}
    for n, x in env.tensor:
        if isinstance(x, Abstract):
            mat[n] = Abstract(jax.ShapeDtypeStruct((2, 2), x.value.dtype))
        else:
            mat[n] = jnp.ones((2, 2), x.dtype)
    jnp_name = {v: k for k, v in P.NAMES.items()}
    # the dtype JAX gives each Python scalar (weakly typed): the default of its kind
    python_dtype = {n: name_of(jnp.asarray(v).dtype) for n, v in env.python}
    sweep = Sweep()
    groups, rank0_differs, traced_vs_eager, compute_missing, runtime_errors = [], {}, {}, {}, {}

    def base(n):
        return n.split(":")[-1]

    def abstract_of(x):
        """A concrete array as a ShapeDtypeStruct (weak kept); anything else as it is."""
        if isinstance(x, jax.Array):
            return Abstract(jax.ShapeDtypeStruct(x.shape, x.dtype, weak_type=bool(x.weak_type)))
        return x

    def run(key, op, names, args, fn, compute_rule=None, force_abstract=False, keep_warnings=False, why=None):
        """The case of `fn(*args)` (named `names`): eagerly, or through jax.eval_shape
        when an argument is Abstract (or `force_abstract`); with the compute dtype of
        PRINCIPAL[op] by make_jaxpr when `compute_rule` is given ("unary" or "binary")."""
        if force_abstract:
            args = [abstract_of(x) for x in args]
        abstract = any(isinstance(x, Abstract) for x in args)
        vals = [x.value if isinstance(x, Abstract) else x for x in args]
        slots = [i for i, x in enumerate(vals) if isinstance(x, jax.ShapeDtypeStruct)]

        def thunk():
            caught = []
            with (warnings.catch_warnings(record=True) if keep_warnings else contextlib.nullcontext()) as rec:
                if keep_warnings:
                    warnings.simplefilter("always")
                    caught = rec
                runtime_error = None
                if abstract:
                    res = evaluate_abstractly(fn, vals)
                else:
                    try:
                        with jax.disable_jit():
                            res = result(fn(*vals))
                    except Exception as e:  # noqa: BLE001
                        # JAX's checks passed and XLA's CPU build failed: the result is
                        # abstract evaluation's, with XLA's error
                        if type(e).__name__ not in XLA_ERRORS:
                            raise
                        runtime_error = first_line(e)
                        runtime_errors[key] = runtime_errors.get(key, 0) + 1
                        res = evaluate_abstractly(fn, [abstract_of(x) for x in vals])
            extra = {}
            if keep_warnings and caught:
                # the warning's text up to its first colon: what follows names the two
                # dtypes, which the operands already say
                text = str(caught[0].message).strip().split(":")[0]
                extra["warning"] = f"{caught[0].category.__name__}: {text}"
            if compute_rule is not None and op in PRINCIPAL:
                c, out_aval = compute_of(op, fn, vals)
                got = ("weak:" if out_aval.weak_type else "") + name_of(out_aval.dtype)
                if got != res:
                    traced_vs_eager.setdefault(key, []).append([names, res, got])
                if c is None:
                    compute_missing[key] = compute_missing.get(key, 0) + 1
                else:
                    c = name_of(c)
                    skip = {res.removeprefix("weak:")}
                    if compute_rule == "unary":
                        skip |= {python_dtype[n] if n.startswith("python:") else env.held[base(n)] for n in names}
                    if c not in skip:
                        extra["compute"], extra["how"] = c, "jaxpr"
            held_out = [base(n) for n in names if base(n) in traced]
            if abstract:
                return res, extra or None, why or TRACED_WHY.format(held_out[0]), "abstract_evaluation"
            if runtime_error is not None:
                return res, extra or None, runtime_error, "abstract_evaluation"
            return (res, extra) if extra else res

        case = sweep.run(key, names, thunk)
        return case

    def evaluate_abstractly(fn, vals):
        """The result name of fn(*vals) through jax.eval_shape, each Abstract value
        (a ShapeDtypeStruct) entering as a tracer."""
        vals = [x.value if isinstance(x, Abstract) else x for x in vals]
        slots = [i for i, x in enumerate(vals) if isinstance(x, jax.ShapeDtypeStruct)]
        out = []

        def traced_fn(*ts):
            xs = list(vals)
            for i, t in zip(slots, ts):
                xs[i] = t
            out.append(result(fn(*xs)))
            return 0

        jax.eval_shape(traced_fn, *[vals[i] for i in slots])
        return out[0]

    def compute_of(op, fn, vals):
        """(the dtype PRINCIPAL[op]'s first equation computes in, or None; the jaxpr's
        output aval)."""
        slots = [i for i, x in enumerate(vals) if isinstance(x, (jax.Array, jax.ShapeDtypeStruct))]

        def traced_fn(*ts):
            xs = list(vals)
            for i, t in zip(slots, ts):
                xs[i] = t
            return fn(*xs)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            closed = jax.make_jaxpr(traced_fn)(*[vals[i] for i in slots])
        found = None
        for e in eqns_of(closed.jaxpr):
            if e.primitive.name in PRINCIPAL[op]:
                if e.primitive.name == "dot_general" and e.params.get("preferred_element_type") is not None:
                    found = e.params["preferred_element_type"]
                else:
                    found = e.invars[0].aval.dtype
                break
        return found, closed.out_avals[0]

    fns, labels = {}, {}

    def group(op, kind, cases):
        groups.append({"options": options, "op": op, "kind": kind, "function": labels[(kind, op)], "cases": cases})
        print(f"jax x64={x64} {mode} {kind} {op}: {len(cases)} cases, {time.time() - start:.0f}s", file=sys.stderr)

    # ORACLE_ONLY=kind,kind... runs only those sections (for trying the script out)
    only = set(filter(None, os.environ.get("ORACLE_ONLY", "").split(",")))

    def wanted(kind):
        return not only or kind in only

    # 1. unary
    for op in (UNARY if wanted("unary") else ()):
        label, get = UNARY_FUNCTIONS[op]
        fns[op] = get(jax, jnp)
        labels[("unary", op)] = label
        cases = [run(f"unary:{op}", op, [n], [by_name[n]], fns[op], "unary") for n in unary_operands]
        group(op, "unary", drop_rank0(cases, rank0_differs, f"unary:{op}"))

    # 2. reductions
    for op in (REDUCTIONS if wanted("reduction") else ()):
        fns[op] = getattr(jnp, op)
        labels[("reduction", op)] = f"jnp.{op}"
        cases = [run(f"reduction:{op}", op, [n], [by_name[n]], fns[op], "unary") for n in unary_operands]
        group(op, "reduction", drop_rank0(cases, rank0_differs, f"reduction:{op}"))
    for op in (DTYPE_REDUCTIONS if wanted("reduction_dtype") else ()):
        labels[("reduction_dtype", op)] = f"jnp.{op}(x, dtype=D)"
        f = getattr(jnp, op)
        cases = []
        for n, d in itertools.product(arrays, arrays):
            g = (lambda f, dt: lambda x: f(x, dtype=dt))(f, env.types[jnp_name[d]])
            cases.append(run(f"reduction_dtype:{op}", op, [n, d], [by_name[n]],
                             g, "unary", force_abstract=d in traced))
        group(op, "reduction_dtype", cases)

    # 3. matmul
    def matmul_section():
        labels[("binary", "matmul")] = "jnp.matmul"
        cases = [run("binary:matmul", "matmul", [a, b], [mat[a], mat[b]], jnp.matmul, "binary")
                 for a, b in itertools.product(arrays, arrays)]
        for a, b in (("scalar:f32", "f32"), ("f32", "scalar:f32"), ("python:float", "f32"), ("f32", "python:float")):
            xs = [by_name[o] if ":" in o else mat[o] for o in (a, b)]
            cases.append(run("binary:matmul", "matmul", [a, b], xs, jnp.matmul))
        group("matmul", "binary", cases)

    # 4. concatenate
    def concat(*xs):
        return jnp.concatenate(list(xs))

    def concat_case(names, crashes):
        """A concatenate whose result (by abstract evaluation) is a dtype whose
        concatenate kills the process on the CPU (concat_crashes) is written from
        abstract evaluation."""
        args = [by_name[o] for o in names]
        sds = [x.value if isinstance(x, Abstract) else jax.ShapeDtypeStruct(x.shape, x.dtype) for x in args]
        try:
            predicted = name_of(jax.eval_shape(concat, *sds).dtype)
        except Exception:  # noqa: BLE001
            predicted = None
        if predicted in crashes:
            return run("list:concatenate", "concatenate", list(names), args, concat, force_abstract=True,
                       why=crashes[predicted])
        return run("list:concatenate", "concatenate", list(names), args, concat)

    def concat_section():
        labels[("list", "concatenate")] = "jnp.concatenate([a, b, ...])"
        crashes = concat_crash_probe([n for n in SUB_BYTE if n in arrays and n not in traced], jnp_name)
        pair_cases = [concat_case((a, b), crashes) for a, b in itertools.product(arrays, arrays)]
        triple_cases = [concat_case(t, crashes) for t in itertools.product(common, common, common)]
        extra = [run("list:concatenate", "concatenate", [a, b], [by_name[a], by_name[b]], concat)
                 for a, b in (("scalar:f32", "f32"), ("f32", "weak:f32"), ("f32", "python:float"))]
        group("concatenate", "list", pair_cases + triple_cases + extra)
        return fold_check(pair_cases, triple_cases), crashes

    # 5. a += b (rebinds a), a.at[:].add(b), a.at[:].set(b)
    def augmented(sym):
        def f(a, b):
            x = a
            if sym == "+=":
                x += b
            elif sym == "-=":
                x -= b
            elif sym == "*=":
                x *= b
            else:
                x /= b
            return x
        return f

    def inplace_section():
        for op, sym in INPLACE.items():
            labels[("inplace", op)] = f"a {sym} b (rebinds a)"
            f = augmented(sym)
            cases = [run(f"inplace:{op}", op, [a, b], [by_name[a], by_name[b]], f)
                     for a in arrays for b in arrays + pythons]
            # jax.Array has no __iadd__ etc.: Python rebinds a to a op b. Each case is
            # compared with the jnp function on the same operands; an op other than
            # add whose every case agrees is left out (ops_left_out_as_identical)
            twin = getattr(jnp, INPLACE_FUNCTIONS[op])
            twins = [run(f"inplace:{op}:function", op, c[0], [by_name[n] for n in c[0]], twin) for c in cases]
            differ = [[c[0], c[1:], t[1:]] for c, t in zip(cases, twins) if outcome(c) != outcome(t)]
            if op != "add" and not differ:
                left_out.append({"options": options, "op": op, "kind": "inplace", "function": labels[("inplace", op)],
                                 "same_as": f"jnp.{INPLACE_FUNCTIONS[op]}", "cases": len(cases)})
                continue
            if differ:
                inplace_differs[op] = differ
            group(op, "inplace", cases)
        weaks = [n for n, _ in env.weak]
        for op, label, f in (("at_add", "a.at[:].add(b)", lambda a, b: a.at[:].add(b)),
                             ("at_set", "a.at[:].set(b)", lambda a, b: a.at[:].set(b))):
            labels[("inplace", op)] = label
            cases = [run(f"inplace:{op}", op, [a, b], [by_name[a], by_name[b]], f, "binary", keep_warnings=True)
                     for a in arrays for b in arrays + weaks + pythons]
            group(op, "inplace", cases)

    if wanted("binary"):
        matmul_section()
    fold, crashes = concat_section() if wanted("list") else ({}, {})
    left_out, inplace_differs = [], {}
    if wanted("inplace"):
        inplace_section()

    # out=: jnp's ufuncs refuse it
    try:
        jnp.add(jnp.ones(2), jnp.ones(2), out=jnp.ones(2))
        out_probe = "accepted"
    except Exception as e:  # noqa: BLE001
        out_probe = first_line(e)

    doc = {
        "options": options,
        "versions": {"jax": jax.__version__, "jaxlib": __import__("jaxlib").__version__,
                     "ml_dtypes": env.ml_dtypes.__version__, "numpy": np.__version__},
        "dtypes": arrays,
        "traced_dtypes": traced,
        "held_dtype": env.held,
        "out_probe": out_probe,
        "concat_crashes": crashes,
        "ops_left_out_as_identical": left_out,
        "inplace_vs_function_differs": inplace_differs,
        "concatenate_three_vs_left_fold": fold,
        "rank0_differs": rank0_differs,
        "traced_vs_eager": traced_vs_eager,
        "compute_principal_not_found": compute_missing,
        "xla_runtime_errors": runtime_errors,
        "warnings": sweep.warnings,
        "groups": groups,
    }
    print(f"jax x64={x64} {mode}: {count_cases(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)
    with open(out_path, "w") as f:
        json.dump(doc, f)


def main(out_path):
    start = time.time()
    parts = run_children(__file__, out_path,
                         [(f"x64-{int(x64)}-{mode}", [str(int(x64)), mode]) for x64, mode in GROUPS])
    dtypes = parts[0]["dtypes"]
    assert all(p["dtypes"] == dtypes for p in parts)
    groups = [g for p in parts for g in p["groups"]]
    doc = {
        "framework": "jax", "version": parts[0]["versions"]["jax"], "versions": parts[0]["versions"],
        "generated_by": "tools/oracles/operations/jax_oracle.py", "device": "cpu", "dtypes": dtypes,
        "operands": {"DTYPE": "jnp.ones(2, dtype); jnp.ones((2, 2), dtype) for matmul",
                     "scalar:DTYPE": "jnp.ones((), dtype)",
                     "weak:DTYPE": "lax._convert_element_type(1, dtype, weak_type=True), rank 0",
                     "python:KIND": "True, 3, 2.5, 1+2j as they are"},
        "functions": functions_map(groups),
        "missing_ops": {"out": "jnp's functions take no out=: jnp.add(a, b, out=c) raises " + parts[0]["out_probe"]},
        "common_dtypes": [d for d in COMMON if d in dtypes],
        "traced_dtypes": parts[0]["traced_dtypes"],
        "held_dtype": {P.group_key(p): p["held_dtype"] for p in parts},
        "compute_observed": "jax.make_jaxpr of every case that ran of the ops with a principal primitive "
                            "(principal_primitives): its first operand's dtype (dot_general: "
                            "preferred_element_type), kept as `compute` where it is neither the result's dtype nor "
                            "an operand's (unary, reduction, reduction_dtype) or is not the result's (matmul, "
                            "at_add, at_set); no case of another op has one",
        "principal_primitives": {op: list(p) for op, p in PRINCIPAL.items()},
        "compute_principal_not_found": {P.group_key(p): p["compute_principal_not_found"] for p in parts},
        "traced_vs_eager": {P.group_key(p): p["traced_vs_eager"] for p in parts},
        "xla_runtime_errors": {P.group_key(p): p["xla_runtime_errors"] for p in parts},
        "concat_crashes": {P.group_key(p): p["concat_crashes"] for p in parts},
        "ops_left_out_as_identical": [x for p in parts for x in p["ops_left_out_as_identical"]],
        "inplace_vs_function_differs": {P.group_key(p): p["inplace_vs_function_differs"] for p in parts},
        "concatenate_three_vs_left_fold": {P.group_key(p): p["concatenate_three_vs_left_fold"] for p in parts},
        "rank0_cases_left_out": "a unary or reduction case with a `scalar:` operand is left out when it has the "
                                "outcome of the same case on a shape-[2] array; rank0_differs lists where some do not",
        "rank0_differs": {P.group_key(p): p["rank0_differs"] for p in parts},
        "warnings": {P.group_key(p): p["warnings"] for p in parts},
        "groups": groups,
    }
    write(out_path, doc)
    print(f"jax {doc['version']}: {len(dtypes)} dtypes, {count_cases(groups)} cases, {time.time() - start:.1f}s",
          file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2] == "1", sys.argv[3], sys.argv[4])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else default_out("jax"))
