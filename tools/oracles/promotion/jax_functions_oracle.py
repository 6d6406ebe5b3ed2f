"""Dump what JAX's own promotion function, `jnp.result_type(a, b)`, answers under
every combination of `jax_enable_x64` (false, true) and `jax_numpy_dtype_promotion`
(standard, strict), to tests/data/promotion/functions/jax.json.

    python tools/oracles/promotion/jax_functions_oracle.py tests/data/promotion/functions/jax.json

Each option combination runs in a process of its own, as in jax_oracle.py. The
operands are jax_oracle.py's, over the same 28 dtypes, except that there is a weak
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
"""
import json
import os
import subprocess
import sys
import time
import warnings

from jax_oracle import GROUPS, NAMES
from oracle_common import PYTHON, count_cases, first_line, sweep, write


def child(x64, mode, out_path):
    os.environ["JAX_PLATFORMS"] = "cpu"
    os.environ["JAX_ENABLE_X64"] = "1" if x64 else "0"
    os.environ["JAX_NUMPY_DTYPE_PROMOTION"] = mode
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np
    from jax._src import dtypes as jdt
    from jax._src.lax import lax as lax_internal

    assert bool(jax.config.jax_enable_x64) == x64 and jax.config.jax_numpy_dtype_promotion == mode
    start = time.time()
    order = [n for n in NAMES if hasattr(jnp, n) or n == "bool"]
    types = {n: (jnp.bool_ if n == "bool" else getattr(jnp, n)) for n in order}

    def name_of(dtype):
        n = np.dtype(dtype).name
        return NAMES.get(n, n)

    held, refused = {}, {}
    tensor, zero_d, weak = [], [], []
    for n in list(order):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                t, s = jnp.ones(2, types[n]), jnp.ones((), types[n])
                w = lax_internal._convert_element_type(1, jdt.canonicalize_dtype(types[n]), weak_type=True)
            except Exception as e:  # noqa: BLE001
                refused[NAMES[n]] = f"jnp.{n}: " + first_line(e)
                order.remove(n)
                continue
        back = np.asarray(t).dtype
        if t.dtype != np.dtype(jdt.canonicalize_dtype(types[n])) or back != t.dtype:
            refused[NAMES[n]] = f"jnp.ones(2, jnp.{n}) gives {t.dtype!s}, which np.asarray turns into {back!s}"
            order.remove(n)
            continue
        assert w.weak_type and w.ndim == 0 and w.dtype == t.dtype, (n, w)
        held[NAMES[n]] = name_of(t.dtype)
        tensor.append((NAMES[n], t))
        zero_d.append(("scalar:" + NAMES[n], s))
        weak.append(("weak:" + NAMES[n], w))
    python = [("python:" + k, v) for k, v in PYTHON.items()]
    operands = tensor + zero_d + weak + python

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
    cases, seen = sweep(operands, run, python_pairs=True)
    doc = {
        "options": options,
        "versions": {"jax": jax.__version__, "jaxlib": __import__("jaxlib").__version__,
                     "ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__},
        "dtypes": [NAMES[n] for n in order],
        "refused": refused,
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
    parts = []
    for x64, mode in GROUPS:
        part = f"{out_path}.x64-{int(x64)}-{mode}.part"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run([sys.executable, __file__, "--child", str(int(x64)), mode, part], check=True, env=env)
        with open(part) as f:
            parts.append(json.load(f))
        os.remove(part)
    dtypes = parts[0]["dtypes"]
    assert all(p["dtypes"] == dtypes for p in parts)
    key = lambda p: f"jax_enable_x64={str(p['options']['jax_enable_x64']).lower()}," \
                    f"jax_numpy_dtype_promotion={p['options']['jax_numpy_dtype_promotion']}"  # noqa: E731
    versions = parts[0]["versions"]
    doc = {
        "framework": "jax",
        "version": versions["jax"],
        "versions": versions,
        "generated_by": "tools/oracles/promotion/jax_functions_oracle.py",
        "device": "cpu",
        "dtypes": dtypes,
        "not_dtypes": parts[0]["refused"],
        "functions": {"result_type": "jax._src.dtypes.result_type(a, b, return_weak_type_flag=True), "
                                     "the dtype checked against jnp.result_type(a, b)"},
        "weak_operands": "lax._convert_element_type(1, dtype, weak_type=True) for every dtype",
        "held_dtype": {key(p): p["held_dtype"] for p in parts},
        "public_vs_internal": {key(p): p["public_vs_internal"] for p in parts},
        "warnings": {key(p): p["warnings"] for p in parts},
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
