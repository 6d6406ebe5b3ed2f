"""Dump what Keras 3 with the numpy backend (floatx float32) does with operations of
every arity: `keras.ops` unary functions, reductions (and `dtype=` where one is
taken), matmul, concatenate of two and three tensors, and `keras.ops.slice_update`
(Keras has no in-place operators nor `out=`), to tests/data/operations/keras.json.

    python tools/oracles/operations/keras_oracle.py [OUT]

Settings, dtypes and operands are tools/oracles/promotion/keras_oracle.py's
(`setup()`): `KERAS_BACKEND=numpy`, floatx float32, 17 dtypes; `DTYPE`
`keras.ops.ones(2, dtype)` (`(2, 2)` for matmul), `scalar:DTYPE`
`keras.ops.ones((), dtype)`, `python:KIND` True, 3, 2.5 or 1+2j. The result is the
dtype of `np.asarray(result)`.

Compute dtypes (`compute`, `how: "instrumented np.NAME"`): the numpy backend computes
each op with a NumPy function and often casts the answer; while each case runs, the
`np` of the backend's modules is a spy that keeps the dtype of what the op's principal
NumPy function returned (PRINCIPAL; `scipy.special.erf` for erf), and for mean, var
and std the dtype NumPy's own `umr_sum` (np.add.reduce) summed in. Kept where it is
neither the result's dtype nor the operand's (unary, reductions), or is not the
result's (matmul).
"""
import itertools
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ops_common_a import (COMMON, REDUCTIONS, UNARY, Sweep, count_cases, default_out, drop_rank0,  # noqa: E402
                          first_line, fold_check, functions_map, load_promotion_oracle, python_operands, write)

P = load_promotion_oracle("keras_oracle")  # setup, header
FUNCTIONS = {op: op for op in UNARY}
FUNCTIONS.update({"absolute": "absolute", "bitwise_not": "bitwise_not"})
# op -> the NumPy (or scipy.special) function whose result dtype is the compute dtype
PRINCIPAL = {op: op for op in UNARY}
PRINCIPAL.update({"conj": "conjugate", "sigmoid": "exp", "rsqrt": "sqrt", "erf": "erf",
                  "bitwise_not": "invert"})
PRINCIPAL.update({op: op for op in REDUCTIONS})
# no compute dtype for what computes an index or a truth value
for op in ("argmax", "any", "all", "isnan", "isfinite", "logical_not"):
    del PRINCIPAL[op]
PRINCIPAL["matmul"] = "matmul"


class Spy:
    """Stands for a module (numpy, scipy.special): calls to the functions named in
    `watch` are passed on and the dtype of each result kept in `calls`."""

    def __init__(self, real, watch, calls):
        self._real, self._watch, self._calls = real, watch, calls

    def __getattr__(self, name):
        attr = getattr(self._real, name)
        if name in self._watch and callable(attr):
            import numpy as np

            def wrapper(*a, **k):
                r = attr(*a, **k)
                self._calls.append((name, np.asarray(r).dtype))
                return r
            return wrapper
        return attr


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    keras, np, name_of, dtypes, not_dtypes, tensor, zero_d = P.setup()
    import scipy
    from numpy._core import _methods
    from keras.src.backend.numpy import core as bcore, math as bmath, nn as bnn, numpy as bnumpy
    by_name = dict(tensor + zero_d + python_operands())
    arrays = [n for n, _ in tensor]
    pythons = [n for n, _ in python_operands()]
    unary_operands = arrays + [n for n, _ in zero_d] + pythons
    common = [d for d in COMMON if d in arrays]
    python_dtype = {n: name_of(keras.ops.convert_to_tensor(v).dtype) for n, v in python_operands()}
    sweep = Sweep()
    groups, rank0_differs = [], {}
    watch = set(PRINCIPAL.values())
    calls, sums = [], []

    class Scipy:
        special = Spy(scipy.special, {"erf"}, calls)

    modules = (bcore, bmath, bnn, bnumpy)
    real_np = {m: m.np for m in modules}
    real_scipy = bmath.scipy
    real_umr = _methods.umr_sum

    def umr_spy(*a, **k):
        r = real_umr(*a, **k)
        sums.append(np.asarray(r).dtype)
        return r

    def spied(op, fn, rule, names):
        """fn() with the spies in place; returns (result name, extra or None)."""
        calls.clear()
        sums.clear()
        for m in modules:
            m.np = Spy(real_np[m], watch, calls)
        bmath.scipy = Scipy
        _methods.umr_sum = umr_spy
        try:
            r = fn()
        finally:
            for m in modules:
                m.np = real_np[m]
            bmath.scipy = real_scipy
            _methods.umr_sum = real_umr
        res = name_of(np.asarray(r).dtype)
        principal = PRINCIPAL.get(op)
        seen = [d for n, d in calls if n == principal]
        if op in ("mean", "var", "std") and sums:
            c, how = name_of(sums[-1]), "instrumented umr_sum (np.add.reduce) under np." + op
        elif seen:
            c, how = name_of(seen[0]), f"instrumented {'scipy.special' if op == 'erf' else 'np'}.{principal}"
        else:
            return res
        skip = {res}
        if rule == "unary":
            skip |= {python_dtype[n] if n in python_dtype else n.removeprefix("scalar:") for n in names}
        return (res, {"compute": c, "how": how}) if c not in skip else res

    def group(op, kind, function, cases):
        groups.append({"options": {}, "op": op, "kind": kind, "function": function, "cases": cases})

    missing = {"out": "keras.ops functions take no out=",
               "inplace operators": "keras.ops has none; `a += b` on numpy-backend tensors (NumPy arrays) is NumPy's "
                                    "own (see numpy.json)"}
    # 1. unary
    for op in UNARY:
        f = getattr(keras.ops, FUNCTIONS[op], None)
        if f is None:
            missing[op] = f"keras.ops has no {FUNCTIONS[op]}"
            continue
        cases = [sweep.run(f"unary:{op}", [n], lambda n=n: spied(op, lambda: f(by_name[n]), "unary", [n]))
                 for n in unary_operands]
        group(op, "unary", f"keras.ops.{FUNCTIONS[op]}", drop_rank0(cases, rank0_differs, f"unary:{op}"))

    # 2. reductions
    for op in REDUCTIONS:
        f = getattr(keras.ops, op)
        cases = [sweep.run(f"reduction:{op}", [n], lambda n=n: spied(op, lambda: f(by_name[n]), "unary", [n]))
                 for n in unary_operands]
        group(op, "reduction", f"keras.ops.{op}", drop_rank0(cases, rank0_differs, f"reduction:{op}"))
    for op in ("sum", "prod", "mean"):
        f = getattr(keras.ops, op)
        try:
            f(by_name["f32"], dtype="float32")
        except TypeError as e:
            missing[f"{op}(dtype=)"] = f"keras.ops.{op} takes no dtype=: " + first_line(e)
            continue
        cases = [sweep.run(f"reduction_dtype:{op}", [n, d],
                           lambda n=n, d=d: spied(op, lambda: f(by_name[n], dtype=P.NAMES_BY_PROMO[d]), "unary", [n]))
                 for n, d in itertools.product(arrays, arrays)]
        group(op, "reduction_dtype", f"keras.ops.{op}(x, dtype=D)", cases)

    # 3. matmul
    mat = {n: keras.ops.ones((2, 2), P.NAMES_BY_PROMO[n]) for n in arrays}
    cases = [sweep.run("binary:matmul", [a, b],
                       lambda a=a, b=b: spied("matmul", lambda: keras.ops.matmul(mat[a], mat[b]), "binary", [a, b]))
             for a, b in itertools.product(arrays, arrays)]
    for a, b in (("scalar:f32", "f32"), ("f32", "scalar:f32"), ("python:float", "f32"), ("f32", "python:float")):
        xs = [by_name[o] if ":" in o else mat[o] for o in (a, b)]
        cases.append(sweep.run("binary:matmul", [a, b], lambda xs=xs: name_of(np.asarray(keras.ops.matmul(*xs)).dtype)))
    group("matmul", "binary", "keras.ops.matmul", cases)

    # 4. concatenate
    def concat(names):
        return name_of(np.asarray(keras.ops.concatenate([by_name[o] for o in names])).dtype)

    pair_cases = [sweep.run("list:concatenate", [a, b], lambda a=a, b=b: concat((a, b)))
                  for a, b in itertools.product(arrays, arrays)]
    triple_cases = [sweep.run("list:concatenate", list(t), lambda t=t: concat(t))
                    for t in itertools.product(common, common, common)]
    extra = [sweep.run("list:concatenate", [a, b], lambda a=a, b=b: concat((a, b)))
             for a, b in (("scalar:f32", "f32"), ("f32", "python:float"))]
    group("concatenate", "list", "keras.ops.concatenate([a, b, ...])", pair_cases + triple_cases + extra)
    fold = fold_check(pair_cases, triple_cases)

    # 5. slice_update (Keras' nearest to an in-place update)
    def slice_update(a, b):
        x = keras.ops.ones(2, P.NAMES_BY_PROMO[a])
        r = keras.ops.slice_update(x, (0,), by_name[b])
        if r is x:
            mutated[0] += 1
        return name_of(np.asarray(r).dtype)

    mutated = [0]
    cases = [sweep.run("inplace:slice_update", [a, b], lambda a=a, b=b: slice_update(a, b))
             for a in arrays for b in arrays + pythons]
    group("slice_update", "inplace", "keras.ops.slice_update(a, (0,), b)", cases)

    doc = {
        **P.header("keras_oracle.py", keras, np),
        "generated_by": "tools/oracles/operations/keras_oracle.py",
        "dtypes": dtypes,
        "not_dtypes": not_dtypes,
        "operands": {"DTYPE": "keras.ops.ones(2, dtype); (2, 2) for matmul", "scalar:DTYPE": "keras.ops.ones((), dtype)",
                     "python:KIND": "True, 3, 2.5, 1+2j as they are"},
        "functions": functions_map(groups),
        "missing_ops": missing,
        "common_dtypes": common,
        "compute_observed": "every case of the ops in principal_functions: the spied NumPy call's result dtype "
                            "(mean, var, std: umr_sum's), kept as `compute` where it is neither the result's dtype "
                            "nor the operand's (unary, reduction, reduction_dtype) or is not the result's (matmul)",
        "principal_functions": PRINCIPAL,
        "python_scalar_dtype": python_dtype,
        "slice_update_returned_its_input": f"{mutated[0]} of the cases that ran (the numpy backend assigns into "
                                           "`inputs` and returns it: the input tensor is changed)",
        "concatenate_three_vs_left_fold": fold,
        "rank0_cases_left_out": "a unary or reduction case with a `scalar:` operand is left out when it has the "
                                "outcome of the same case on a shape-[2] tensor; rank0_differs lists where some do not",
        "rank0_differs": rank0_differs,
        "warnings": sweep.warnings,
        "groups": groups,
    }
    write(out_path, doc)
    print(f"keras {keras.__version__} (numpy backend): {len(dtypes)} dtypes, {count_cases(groups)} cases, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    P.NAMES_BY_PROMO = {v: k for k, v in P.NAMES.items()}
    main(sys.argv[1] if len(sys.argv) > 1 else default_out("keras"))
