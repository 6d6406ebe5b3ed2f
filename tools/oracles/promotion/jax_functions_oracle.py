"""Dump what JAX's own promotion function, `jnp.result_type(a, b)`, answers under
every combination of `jax_enable_x64` (false, true) and `jax_numpy_dtype_promotion`
(standard, strict), to tests/data/promotion/functions/jax.json.

    python tools/oracles/promotion/jax_functions_oracle.py tests/data/promotion/functions/jax.json

Each option combination runs in a process of its own, as in jax_oracle.py. The
operands are jax_oracle.py's, over the same 32 dtypes, except that there is a weak
operand of EVERY dtype, made as JAX's own dtypes_test makes them:
`lax._convert_element_type(1, dtype, weak_type=True)` (the dtype canonicalized
for the x64 setting), a rank-0 array with
`.weak_type` set. So: `DTYPE` is `jnp.ones(2, dtype)`, `scalar:DTYPE`
`jnp.ones((), dtype)`, `weak:DTYPE` the weak rank-0 array, `python:KIND` the literal
True, 3, 2.5 or 1+2j; Python with Python too. As in jax_oracle.py, with x64 off an
operand is named by the dtype asked for and holds the 32-bit one (`held_dtype`).

The result is `jax._src.dtypes.result_type(a, b, return_weak_type_flag=True)`, written
`weak:DTYPE` when the flag is set; its dtype is checked against the public
`jnp.result_type(a, b)` (`public_vs_internal` lists any difference).

The dtypes XLA's CPU client cannot hold (`traced_dtypes`: the float6 types, int1,
uint1) are jax_oracle.py's abstract operands: jnp.result_type looks at dtypes and weak
types only, and answers for them on any backend; a weak one enters through
`jax.eval_shape`, whose tracer carries the weak type.
"""
import json
import sys
import time

from jax_oracle import NAMES, call, group_key, header, run_groups, setup, weak_of
from oracle_common import count_cases, first_line, sweep, write


# The messages for a dtype left out, as this file has always written them.
REFUSED = ("jnp.{n}: {error}", "jnp.ones(2, jnp.{n}) gives {got}, which np.asarray turns into {back}")


def child(x64, mode, out_path):
    start = time.time()
    env = setup(x64, mode, weak_of, REFUSED, abstract=True)
    jax, jnp, np, ml_dtypes, jdt = env.jax, env.jnp, env.np, env.ml_dtypes, env.jdt
    name_of, order, held, refused = env.name_of, env.order, env.held, env.refused
    operands = env.tensor + env.zero_d + env.weak + env.python

    differ = []

    def run(a, b):
        d, is_weak = jdt.result_type(a, b, return_weak_type_flag=True)
        got = ("weak:" if is_weak else "") + name_of(d)
        try:
            public = name_of(jnp.result_type(a, b))
        except Exception as e:  # noqa: BLE001
            public = "error: " + first_line(e)
        if public != name_of(d):
            differ.append([repr(a)[:40], repr(b)[:40], got, public])
        return got

    options = {"jax_enable_x64": x64, "jax_numpy_dtype_promotion": mode}
    cases, seen = sweep(operands, lambda a, b: call(jax, run, a, b), python_pairs=True)
    doc = {
        "options": options,
        "versions": {"jax": jax.__version__, "jaxlib": __import__("jaxlib").__version__,
                     "ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__},
        "dtypes": [NAMES[n] for n in order],
        "refused": refused,
        "traced_dtypes": env.traced,
        "held_dtype": held,
        "public_vs_internal": differ,
        "warnings": seen,
        "groups": [{"options": options, "op": "result_type", "cases": cases}],
    }
    print(f"jax functions x64={x64} {mode}: {len(cases)} cases, {time.time() - start:.1f}s", file=sys.stderr)
    with open(out_path, "w") as f:
        json.dump(doc, f)


def main(out_path):
    start = time.time()
    parts = run_groups(__file__, out_path)
    dtypes = parts[0]["dtypes"]
    assert all(p["dtypes"] == dtypes for p in parts)
    versions = parts[0]["versions"]
    doc = {
        **header("jax_functions_oracle.py", parts),
        "not_dtypes": parts[0]["refused"],
        "traced_dtypes": parts[0]["traced_dtypes"],
        "functions": {"result_type": "jax._src.dtypes.result_type(a, b, return_weak_type_flag=True), "
                                     "the dtype checked against jnp.result_type(a, b)"},
        "weak_operands": "lax._convert_element_type(1, dtype, weak_type=True) for every dtype",
        "held_dtype": {group_key(p): p["held_dtype"] for p in parts},
        "public_vs_internal": {group_key(p): p["public_vs_internal"] for p in parts},
        "warnings": {group_key(p): p["warnings"] for p in parts},
        "groups": [g for p in parts for g in p["groups"]],
    }
    write(out_path, doc)
    print(f"jax {versions['jax']} functions: {len(dtypes)} dtypes, {count_cases(doc['groups'])} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2] == "1", sys.argv[3], sys.argv[4])
    else:
        main(sys.argv[1])
