"""Dump what JAX (CPU) really does when a jax.numpy function meets two operands of
different dtypes, under every combination of `jax_enable_x64` (false, true) and
`jax_numpy_dtype_promotion` (standard, strict), to tests/data/promotion/jax.json.

    python tools/oracles/promotion/jax_oracle.py tests/data/promotion/jax.json

Each option combination runs in a process of its own (the options are set through
JAX_ENABLE_X64 and JAX_NUMPY_DTYPE_PROMOTION before jax is imported), so nothing
cached under one setting leaks into another.

Operands: `DTYPE` is `jnp.ones(2, dtype)`, `scalar:DTYPE` is `jnp.ones((), dtype)`
(`zeros` for int1, whose one is -1), `weak:DTYPE` a weakly typed rank-0 array of EVERY
dtype, made as JAX's own dtypes_test makes one (`weak_of`:
`lax._convert_element_type(1, dtype, weak_type=True)`, the dtype canonicalized for the
x64 setting), and `python:KIND` the literal True, 3, 2.5 or 1+2j. With x64 off, an
operand is named by the dtype asked for: a 64-bit request holds the 32-bit dtype
(`jnp.ones(2, jnp.int64)` is an int32 array); `held_dtype` says which. The weak arrays
users meet most, `jnp.asarray(3)`, `(2.5)` and `(1+2j)`, are the weak operands of the
default int, float and complex dtypes: `asarray_vs_weak_operand_differ` compares them
on `add` with every operand (it is empty).

Dtypes JAX promotes but XLA's CPU client cannot hold (float6_e2m3fn, float6_e3m2fn:
"Invalid XLA PrimitiveType"; int1, uint1: their arrays come out as bool) are swept by
abstract evaluation, as JAX traces a function for any backend: `jax.eval_shape` with
the array a `ShapeDtypeStruct` (shape [2]; rank 0 and `weak_type=True` for the weak
operand) and the 0-d operand a NumPy constant of the dtype (concrete, as the eager 0-d
arrays are); the other operand is closed over as it is. Such a case that runs is
written `[lhs, rhs, result, why the CPU build cannot run it, "abstract_evaluation"]`
(`traced_dtypes` says why for each dtype); one that fails, failed in JAX's own checks,
before any backend. `traced_check` measures the method: it sweeps every other case
again with each operand so made abstract and compares with the eager outcome. The
cases that differ are all `pow` with a weak integer exponent, which eager mode holds
concretely (lax.integer_pow keeps the base's dtype) and abstract evaluation traces; a
weak exponent of a traced dtype is int1, uint1 or a float6, which operator.index
refuses, so eager mode would not take that path for it either.

Every op is run for real, eagerly (under `jax.disable_jit()`, so that each primitive
is compiled once per dtype rather than each jnp function once per signature), and
the result is the output's dtype, written `weak:DTYPE` when `.weak_type` is set. A
sample of the `add` and `pow` cases is run again under jit (`jit_check`).

JAX's promotion does not look at rank, and to keep the data small only `add` keeps
every operand kind; for each other op the rank-0 (`scalar:`) cases are run and
compared with the same case on shape-[2] operands, and are left out if all agree. An
op where some differ keeps all its cases, and `rank0_differs` says how many differ
(pow: eager `jnp.power` sends a concrete rank-0 integer exponent through
`lax.integer_pow`, which keeps the base's dtype; logical_and: a rank-0 bool with a
weak operand gives a weak result).
"""
import itertools
import json
import os
import sys
import time
import warnings
from types import SimpleNamespace

from oracle_common import (PYTHON, count_cases, drop_identical_ops, drop_rank0, dtype_names, first_line, python_operands,
                           run_children, sweep, write)

GROUPS = [(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")]
NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
    "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn", "int4", "uint4", "uint2",
    "float8_e4m3", "float8_e3m4", "float8_e4m3b11fnuz", "float6_e2m3fn", "float6_e3m2fn", "int2",
    "int1", "uint1",
)
OPS = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "true_divide",
    "floor_divide": "floor_divide", "remainder": "remainder", "pow": "power", "maximum": "maximum",
    "equal": "equal", "less_than": "less", "bitwise_and": "bitwise_and", "logical_and": "logical_and",
    "where": "where", "atan2": "arctan2",
}


# Ops kept with every operand kind; for the others, rank-0 operands are swept, checked
# against the shape-[2] ones, and left out where they agree (JAX does not look at rank).
FULL_RANK_OPS = ("add",)
# ops checked against jax.jit, every Nth case: eager jnp.power takes a concrete rank-0
# integer exponent through lax.integer_pow, which jit cannot (the exponent is traced)
JIT_CHECK = {"add": 46, "pow": 14}


# How setup() says why a dtype is left out: its arrays could not be made, or are not
# of the dtype asked for.
REFUSED = ("jnp.ones(2, jnp.{n}): {error}",
           "jnp.ones(2, jnp.{n}) gives an array of dtype {got} (asked for {want}), which np.asarray turns into {back}")


class Abstract:
    """An operand of a dtype the CPU client cannot hold: `value` is a ShapeDtypeStruct
    (entering `jax.eval_shape` as a tracer) or a 0-d NumPy constant (closed over,
    concrete)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Abstract({self.value!r})"


def call(jax, fn, a, b):
    """`fn(a, b)`; where an operand is `Abstract`, inside `jax.eval_shape`, the
    ShapeDtypeStructs as its tracers and everything else closed over as it is. `fn`
    must turn its result into plain Python data (a tracer cannot leave the trace)."""
    if not (isinstance(a, Abstract) or isinstance(b, Abstract)):
        return fn(a, b)
    args = [x.value if isinstance(x, Abstract) else x for x in (a, b)]
    slots = [i for i, x in enumerate(args) if isinstance(x, jax.ShapeDtypeStruct)]
    out = []

    def traced(*tracers):
        xs = list(args)
        for i, t in zip(slots, tracers):
            xs[i] = t
        out.append(fn(*xs))
        return 0

    jax.eval_shape(traced, *[args[i] for i in slots])
    return out[0]


def result_of_call(jax, fn, result, a, b):
    """`result(fn(a, b))`, through `call`."""
    return call(jax, lambda x, y: result(fn(x, y)), a, b)


def abstract_twin(jax, np, name, x):
    """Operand `x` (named `name`) as `setup` makes the operands of a traced dtype: an
    array as a ShapeDtypeStruct, a weak one with `weak_type=True`, a 0-d one as a NumPy
    constant; a Python number as itself."""
    if name.startswith("python:"):
        return x
    if name.startswith("scalar:"):
        return Abstract(np.asarray(x))
    return Abstract(jax.ShapeDtypeStruct(x.shape, x.dtype, weak_type=name.startswith("weak:")))


def weak_of(d):
    """A weak rank-0 array of dtype `d`, as JAX's dtypes_test makes one."""
    from jax._src import dtypes as jdt
    from jax._src.lax import lax as lax_internal
    return lax_internal._convert_element_type(1, jdt.canonicalize_dtype(d), weak_type=True)


def setup(x64, mode, weak_of=None, refused_as=REFUSED, abstract=False):
    """In a process of its own: imports JAX with `jax_enable_x64=x64` and
    `jax_numpy_dtype_promotion=mode`, and makes a shape-[2] and a rank-0 array of each
    dtype (and `weak_of(dtype)`, if given, a weak operand of it), leaving out a dtype
    whose arrays fail, or hold a dtype other than the canonical one (said as in
    `refused_as`), or, with `abstract`, making its operands `Abstract` (listed, with the
    reason, in `traced`). Returns a namespace with jax, jnp, np, ml_dtypes, jdt, name_of(dtype),
    result(array or tracer) (its name, `weak:` when weakly typed), order (dtype names kept),
    types (jnp type by name), extra (dtypes JAX knows that NAMES lacks), refused, held
    (promo's name -> the dtype held), tensor, zero_d, weak (per dtype, if weak_of) and
    python (the python:KIND operands)."""
    os.environ["JAX_PLATFORMS"] = "cpu"
    os.environ["JAX_ENABLE_X64"] = "1" if x64 else "0"
    os.environ["JAX_NUMPY_DTYPE_PROMOTION"] = mode
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np
    from jax._src import dtypes as jdt

    assert bool(jax.config.jax_enable_x64) == x64 and jax.config.jax_numpy_dtype_promotion == mode
    known = [np.dtype(d).name for d in jdt._jax_dtype_set] if hasattr(jdt, "_jax_dtype_set") else []
    extra = sorted(n for n in known if n not in NAMES)
    order = [n for n in NAMES if hasattr(jnp, n) or n == "bool"]
    types = {n: (jnp.bool_ if n == "bool" else getattr(jnp, n)) for n in order}

    def name_of(dtype):
        n = np.dtype(dtype).name
        return NAMES.get(n, n)

    def result(r):
        return ("weak:" if jdt.is_weakly_typed(r) else "") + name_of(r.dtype)

    def make(d, shape):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = jnp.ones(shape, d)
            if float(np.asarray(a.astype(jnp.float32)).ravel()[0]) != 1.0:
                a = jnp.zeros(shape, d)
        return a

    def make_abstract(n, why):
        """The operands of dtype `n` for abstract evaluation (see jax_oracle.py's docs)."""
        d = np.dtype(jdt.canonicalize_dtype(types[n]))
        one = np.ones((), d)
        zero_d_value = one if float(one.astype(np.float32)) == 1.0 else np.zeros((), d)
        traced[NAMES[n]] = why
        held[NAMES[n]] = name_of(d)
        tensor.append((NAMES[n], Abstract(jax.ShapeDtypeStruct((2,), d))))
        zero_d.append(("scalar:" + NAMES[n], Abstract(zero_d_value)))
        if weak_of is not None:
            weak.append(("weak:" + NAMES[n], Abstract(jax.ShapeDtypeStruct((), d, weak_type=True))))

    def not_held(n, why):
        """Dtype `n`, whose arrays the CPU client cannot make: abstract, or left out."""
        if abstract:
            make_abstract(n, why)
        else:
            refused[NAMES[n]] = why
            order.remove(n)

    held, refused, traced = {}, {}, {}
    tensor, zero_d, weak = [], [], []
    for n in list(order):
        try:
            t, s = make(types[n], (2,)), make(types[n], ())
            if weak_of is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    w = weak_of(types[n])
        except Exception as e:  # noqa: BLE001
            not_held(n, refused_as[0].format(n=n, error=first_line(e)))
            continue
        want = np.dtype(jdt.canonicalize_dtype(types[n]))
        back = np.asarray(t).dtype
        if t.dtype != want or back != t.dtype:
            not_held(n, refused_as[1].format(n=n, got=t.dtype, want=want, back=back))
            continue
        held[NAMES[n]] = name_of(t.dtype)
        tensor.append((NAMES[n], t))
        zero_d.append(("scalar:" + NAMES[n], s))
        if weak_of is not None:
            assert w.weak_type and w.ndim == 0 and w.dtype == t.dtype, (n, w)
            weak.append(("weak:" + NAMES[n], w))
    return SimpleNamespace(jax=jax, jnp=jnp, np=np, ml_dtypes=ml_dtypes, jdt=jdt, name_of=name_of, result=result,
                           order=order, types=types, extra=extra, refused=refused, traced=traced, held=held, tensor=tensor,
                           zero_d=zero_d, weak=weak, python=python_operands())


def run_groups(script, out_path):
    """Runs `script --child X64 MODE PART` for each of GROUPS; returns what each wrote."""
    return run_children(script, out_path, [(f"x64-{int(x64)}-{mode}", [str(int(x64)), mode]) for x64, mode in GROUPS])


def group_key(part):
    """A child's options, as the key of the per-options entries of the data."""
    return f"jax_enable_x64={str(part['options']['jax_enable_x64']).lower()}," \
           f"jax_numpy_dtype_promotion={part['options']['jax_numpy_dtype_promotion']}"


def header(script, parts):
    """The keys every JAX data file begins with."""
    versions = parts[0]["versions"]
    return {"framework": "jax", "version": versions["jax"], "versions": versions,
            "generated_by": f"tools/oracles/promotion/{script}", "device": "cpu", "dtypes": parts[0]["dtypes"]}


def child(x64, mode, out_path):
    start = time.time()
    env = setup(x64, mode, weak_of, abstract=True)
    jax, jnp, np, ml_dtypes = env.jax, env.jnp, env.np, env.ml_dtypes
    name_of, result, order, types = env.name_of, env.result, env.order, env.types
    tensor, zero_d, weak, held, refused, extra = env.tensor, env.zero_d, env.weak, env.held, env.refused, env.extra
    operands = tensor + zero_d + weak + env.python
    traced = env.traced
    # the operands every eager check below runs on: those of the dtypes the CPU client holds
    concrete = [(n, x) for n, x in operands if not isinstance(x, Abstract)]
    concrete_tensor = [(n, x) for n, x in tensor if not isinstance(x, Abstract)]
    concrete_weak = [(n, x) for n, x in weak if not isinstance(x, Abstract)]

    def dtype_of(name):
        return name.split(":")[-1]

    def mark_traced(cases):
        """A traced case that ran: the CPU build could not have run it."""
        for c in cases:
            held_out = [dtype_of(n) for n in c[:2] if dtype_of(n) in traced]
            if held_out and len(c) == 3:
                c.extend([f"the CPU client cannot hold {held_out[0]} arrays (traced_dtypes)", "abstract_evaluation"])

    fns = {op: getattr(jnp, f) for op, f in OPS.items()}
    fns["where"] = lambda a, b: jnp.where(True, a, b)
    groups, seen_warnings, jit_check, rank_differs, traced_check = [], {}, {}, {}, {}
    options = {"jax_enable_x64": x64, "jax_numpy_dtype_promotion": mode}
    for op, fn in fns.items():
        t0 = time.time()
        with jax.disable_jit():
            cases, seen = sweep(operands, lambda a, b: result_of_call(jax, fn, result, a, b), python_pairs=True)
            mark_traced(cases)
            # the method measured: every case of held dtypes again, its operands abstract
            by_name = dict(operands)
            check = {"checked": 0, "differ": 0, "differ_by_operand_kinds": {}, "examples": []}
            for c in cases:
                if any(dtype_of(n) in traced for n in c[:2]):
                    continue
                a, b = (abstract_twin(jax, np, n, by_name[n]) for n in c[:2])
                try:
                    got = [result_of_call(jax, fn, result, a, b)]
                except Exception as e:  # noqa: BLE001
                    got = [None, first_line(e)]
                check["checked"] += 1
                if (got[0], len(got) > 1) != (c[2], len(c) > 3):
                    check["differ"] += 1
                    kinds = ",".join(n.split(":")[0] if ":" in n else "array" for n in c[:2])
                    by_kinds = check["differ_by_operand_kinds"]
                    by_kinds[kinds] = by_kinds.get(kinds, 0) + 1
                    if len(check["examples"]) < 10:
                        check["examples"].append([c[0], c[1], c[2:], got])
            traced_check[op] = check
        if seen:
            seen_warnings[op] = seen
        if op in JIT_CHECK:
            by_name = dict(concrete)
            check = {"checked": 0, "differ": []}
            for c in cases[::JIT_CHECK[op]]:
                if c[0] not in by_name or c[1] not in by_name:
                    continue
                a, b = by_name[c[0]], by_name[c[1]]
                try:
                    got = [result(jax.jit(fn)(a, b))]
                except Exception as e:  # noqa: BLE001
                    got = [None, first_line(e)]
                check["checked"] += 1
                if got[0] != c[2]:
                    check["differ"].append([c[0], c[1], c[2:], got])
            jit_check[op] = check
        if op not in FULL_RANK_OPS:
            cases = drop_rank0(op, cases, rank_differs)
        groups.append({"options": options, "op": op, "cases": cases})
        print(f"jax x64={x64} {mode} {op}: {len(cases)} cases, {traced_check[op]['differ']} of "
              f"{traced_check[op]['checked']} differ traced, {time.time() - t0:.1f}s", file=sys.stderr)

    # jnp.result_type on dtypes (not arrays) and on Python scalars
    result_type = {}
    for l, r in itertools.product(order, order):
        try:
            result_type[f"{NAMES[l]},{NAMES[r]}"] = name_of(jnp.result_type(types[l], types[r]))
        except Exception as e:  # noqa: BLE001
            result_type[f"{NAMES[l]},{NAMES[r]}"] = "error: " + first_line(e)
    for n, (k, v) in itertools.product(order, PYTHON.items()):
        for key, args in ((f"{NAMES[n]},python:{k}", (types[n], v)), (f"python:{k},{NAMES[n]}", (v, types[n]))):
            try:
                result_type[key] = name_of(jnp.result_type(*args))
            except Exception as e:  # noqa: BLE001
                result_type[key] = "error: " + first_line(e)
    def add_result(a, b):
        try:
            return result(jnp.add(a, b))
        except Exception as e:  # noqa: BLE001
            return "error: " + first_line(e)

    # jnp.asarray(3), (2.5), (1+2j) are the weak operands of the default dtypes (checked on add)
    by_name, asarray_differ = dict(concrete), {}
    for v, kind in ((3, "int"), (2.5, "float"), (1 + 2j, "complex")):
        w = jnp.asarray(v)
        wn = "weak:" + NAMES[{"int": "int64", "float": "float64", "complex": "complex128"}[kind]]
        assert w.weak_type and w.ndim == 0 and w.dtype == by_name[wn].dtype, (v, w)
        for n, x in concrete:
            for key, got, ref in ((f"asarray({v!r}),{n}", (w, x), (by_name[wn], x)),
                                  (f"{n},asarray({v!r})", (x, w), (x, by_name[wn]))):
                outs = [add_result(*got), add_result(*ref)]
                if outs[0] != outs[1]:
                    asarray_differ[key] = {"jnp.asarray": outs[0], wn: outs[1]}
    # weak arrays of shape [2] behave as the rank-0 ones (checked on add)
    weak_shape = {}
    for (wn, w), (n, t) in itertools.product(concrete_weak, concrete_tensor):
        w2 = jnp.broadcast_to(w, (2,))
        for key, args, ref in ((f"{wn},{n}", (w2, t), (w, t)), (f"{n},{wn}", (t, w2), (t, w))):
            outs = [add_result(*args), add_result(*ref)]
            if outs[0] != outs[1]:
                weak_shape[key] = {"shape [2]": outs[0], "rank 0": outs[1]}
    doc = {
        "options": options,
        "versions": {"jax": jax.__version__, "jaxlib": jax.lib.__version__ if hasattr(jax.lib, "__version__")
                     else __import__("jaxlib").__version__, "ml_dtypes": ml_dtypes.__version__,
                     "numpy": np.__version__},
        "dtypes": [NAMES[n] for n in order],
        "jax_dtypes_without_agreed_name": extra,
        "refused": refused,
        "traced_dtypes": traced,
        "traced_check": traced_check,
        "held_dtype": held,
        "weak_operands": [w[0] for w in weak],
        "result_type": result_type,
        "weak_shape_2_vs_rank_0_differ": weak_shape,
        "asarray_vs_weak_operand_differ": asarray_differ,
        "jit_check": jit_check,
        "rank0_differs": rank_differs,
        "warnings": seen_warnings,
        "groups": groups,
    }
    print(f"jax x64={x64} {mode}: {time.time() - start:.1f}s", file=sys.stderr)
    with open(out_path, "w") as f:
        json.dump(doc, f)


def main(out_path):
    start = time.time()
    parts = run_groups(__file__, out_path)
    dtypes = parts[0]["dtypes"]
    assert all(p["dtypes"] == dtypes for p in parts)
    versions = parts[0]["versions"]
    doc = {
        **header("jax_oracle.py", parts),
        "not_dtypes": {**parts[0]["refused"],
                       **{n: "a dtype JAX knows that the sweep does not name" for n in parts[0]["jax_dtypes_without_agreed_name"]}},
        "functions": {op: (f"jnp.{f}" if op != "where" else "jnp.where(True, a, b)") for op, f in OPS.items()},
        "traced_dtypes": parts[0]["traced_dtypes"],
        "traced_made_as": "a ShapeDtypeStruct of shape [2] (the array), of shape () with weak_type=True (the weak "
                          "operand), a 0-d NumPy constant (the 0-d array), through jax.eval_shape",
        "traced_check": {group_key(p): p["traced_check"] for p in parts},
        "held_dtype": {group_key(p): p["held_dtype"] for p in parts},
        "weak_operands": {group_key(p): p["weak_operands"] for p in parts},
        "result_type": {group_key(p): p["result_type"] for p in parts},
        "weak_operands_made_as": "lax._convert_element_type(1, dtype, weak_type=True) for every dtype",
        "weak_shape_2_vs_rank_0_differ": {group_key(p): p["weak_shape_2_vs_rank_0_differ"] for p in parts},
        "asarray_vs_weak_operand_differ": {group_key(p): p["asarray_vs_weak_operand_differ"] for p in parts},
        "jit_check": {group_key(p): p["jit_check"] for p in parts},
        "rank0_cases_left_out": "for every op but add, the cases with a `scalar:` operand are swept and compared "
                                "with the same cases on shape-[2] operands, and left out if they all agree; an op "
                                "where some differ (rank0_differs) keeps them all",
        "rank0_differs": {group_key(p): p["rank0_differs"] for p in parts},
        "warnings": {group_key(p): p["warnings"] for p in parts},
    }
    doc["groups"], doc["ops_left_out_as_identical"] = drop_identical_ops([g for p in parts for g in p["groups"]])
    doc["groups_swept"] = sum(len(p["groups"]) for p in parts)
    write(out_path, doc)
    print(f"jax {versions['jax']}: {len(dtypes)} dtypes, {count_cases(doc['groups'])} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2] == "1", sys.argv[3], sys.argv[4])
    else:
        main(sys.argv[1])
