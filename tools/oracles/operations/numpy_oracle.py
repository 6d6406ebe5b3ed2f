"""Dump what NumPy 2 (with ml_dtypes imported) does with operations of every arity:
unary ufuncs and functions, reductions (with and without `dtype=`), matmul,
concatenate of two and three arrays, the augmented assignments `a += b` etc. and
`out=`, to tests/data/operations/numpy.json.

    python tools/oracles/operations/numpy_oracle.py [OUT]

The dtypes and operands are those of tools/oracles/promotion/numpy_oracle.py (its
`setup()`): 34 dtypes, `DTYPE` `np.ones(2, dtype)` (zeros for int1, whose one is -1),
`scalar:DTYPE` the same of shape (), `python:KIND` the literal True, 3, 2.5 or 1+2j.
For matmul `DTYPE` is of shape [2, 2]. A result is the dtype of what the function
returned, or `python:KIND` when it handed back a Python scalar as it is (`np.real(3)`).

Compute dtypes (the `compute` of a case, only where it differs from the result):
- mean, var, std: `np._core._methods.umr_sum` (`np.add.reduce`, the sum every one of
  them accumulates with) is wrapped while the call runs, and the dtype it summed in is
  kept (`how: "instrumented umr_sum"`): `_mean` asks float32 for float16 and float64
  for bool and integers.
- sum, prod, cumsum, cumprod of a floating dtype: value probes (`how: "value"`),
  chosen so that each candidate (the dtype itself, float32, float64) gives a different
  answer; the compute dtype is recorded when exactly one candidate agrees with what
  NumPy returned (`value_probes` lists every probe).
- `a += b` and `out=`: the loop NumPy picks, from the ufunc's own
  `resolve_dtypes((a, b, out), casting="same_kind")` (`how: "resolve_dtypes"`).
"""
import itertools
import math
import operator
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(HERE, "..", "promotion"))

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from numpy._core import _methods  # noqa: E402

from ops_common_a import (COMMON, DTYPE_REDUCTIONS, INPLACE, REDUCTIONS, UNARY, Sweep, count_cases,  # noqa: E402
                          default_out, drop_rank0, fold_check, functions_map, load_promotion_oracle, write)

promotion_numpy = load_promotion_oracle("numpy_oracle")  # tools/oracles/promotion/numpy_oracle.py

UNARY_FUNCTIONS = {
    "negative": "negative", "positive": "positive", "absolute": "absolute", "sqrt": "sqrt", "exp": "exp",
    "log": "log", "sin": "sin", "tanh": "tanh", "reciprocal": "reciprocal", "floor": "floor", "ceil": "ceil",
    "round": "round", "trunc": "trunc", "sign": "sign", "square": "square", "isnan": "isnan",
    "isfinite": "isfinite", "logical_not": "logical_not", "bitwise_not": "bitwise_not", "real": "real",
    "imag": "imag", "conj": "conj", "angle": "angle", "exp2": "exp2", "log1p": "log1p", "expm1": "expm1",
}
MISSING = {op: f"numpy has no {op} (no np.{op}; scipy.special has one, which is not numpy)"
           for op in UNARY if op not in UNARY_FUNCTIONS}
REDUCTION_FUNCTIONS = {op: op for op in REDUCTIONS}
UFUNC_OF = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.true_divide}
IOPS = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul, "divide": operator.itruediv}


def json_float(v):
    """`v` as JSON holds it: a finite float, or its text ("inf", "-inf", "nan")."""
    v = float(v)
    return v if math.isfinite(v) else repr(v)


def result_name(r, name_of):
    """The dtype of a result, or `python:KIND` for a Python scalar handed back."""
    if isinstance(r, (np.ndarray, np.generic)):
        return name_of(r.dtype)
    if isinstance(r, (bool, int, float, complex)):
        return "python:" + type(r).__name__
    return f"not an array: {type(r).__name__}"


class UmrSumSpy:
    """Wraps `np._core._methods.umr_sum` (np.add.reduce) and keeps the dtype of
    each sum it returns, in call order."""

    def __init__(self):
        self.calls = []
        self.orig = _methods.umr_sum

    def __enter__(self):
        self.calls = []

        def spy(*args, **kw):
            r = self.orig(*args, **kw)
            self.calls.append(np.asarray(r).dtype)
            return r

        _methods.umr_sum = spy
        return self

    def __exit__(self, *exc):
        _methods.umr_sum = self.orig
        return False


def is_float(t):
    try:
        fi = ml_dtypes.finfo(t)
    except Exception:  # noqa: BLE001
        return False
    return fi is not None and np.dtype(t).kind not in "c" and not str(np.dtype(t)).startswith(("complex", "bcomplex"))


def probe_arrays(op, t):
    """[(label, values)] for the compute probes of `op` on floating dtype `t`: values
    that each fit in `t`, whose result tells the candidates apart."""
    fi = ml_dtypes.finfo(t)
    big = float(np.array(float(fi.max) * 0.75).astype(t))
    tiny = float(fi.smallest_subnormal)
    if float(np.array(-big).astype(t)) != -big:
        return []  # no negative values (float8_e8m0fnu)
    if op in ("sum", "cumsum"):
        # 1 + 2**-k is exact in a dtype with k or more mantissa bits: k = t's own + 1
        # tells t from float32 and float64, k = 24 float32 from float64
        out = [("overflow", [big, big, -big])]
        for k in sorted({fi.nmant + 1, 24}):
            if 2.0 ** -k >= tiny and float(np.array(2.0 ** -k).astype(t)) == 2.0 ** -k:
                out.append((f"precision 2**-{k}", [1.0, 2.0 ** -k, -1.0]))
        return out
    if op in ("prod", "cumprod"):
        # a product that overflows t, and one that underflows float32 but not float64
        k = int(np.floor(np.log2(float(fi.max)))) - 1
        under = [tiny] * 7 + [2.0 ** k] * int(np.ceil(-6 * np.log2(tiny) / k))
        out = [("overflow", [big, 4.0, 0.25]), ("underflow", under)]
        # rounding: n factors 1 + 2**-nmant, rounded at each step in t or not, the
        # fewest n for which t and float32 end up apart
        one_up = 1.0 + 2.0 ** -fi.nmant
        for n in range(2, 65):
            vals = [one_up] * n
            if simulate(op, vals, t, np.dtype(t)) != simulate(op, vals, t, np.float32):
                out.append((f"rounding {n} x (1 + 2**-{fi.nmant})", vals))
                break
        return out
    return []


def simulate(op, values, t, c):
    """The result of `op` on `values` (of dtype t) computed step by step in dtype c,
    then cast to t, as a float."""
    xs = [np.array(v).astype(t).astype(c) for v in values]
    acc = xs[0]
    for x in xs[1:]:
        acc = (acc + x if op in ("sum", "cumsum") else acc * x).astype(c)
    return float(np.array(acc).astype(t).astype(np.float64))


def same_float(a, b):
    return (np.isnan(a) and np.isnan(b)) or a == b


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    ext, order, types, dtypes, operands = promotion_numpy.setup()
    name_of = promotion_numpy.name_of
    value = promotion_numpy.value
    by_name = dict(operands)
    promo_of = {n: promotion_numpy.NAMES.get(n, n) for n in order}
    type_of = {promo_of[n]: types[n] for n in order}
    arrays = [promo_of[n] for n in order]
    common = [d for d in COMMON if d in type_of]
    sweep = Sweep()
    groups, rank0_differs, probes = [], {}, {}
    options = {}

    def group(op, kind, function, cases):
        groups.append({"options": options, "op": op, "kind": kind, "function": function, "cases": cases})

    # 1. unary
    for op in UNARY:
        if op not in UNARY_FUNCTIONS:
            continue
        fn = getattr(np, UNARY_FUNCTIONS[op])
        cases = [sweep.run(f"unary:{op}", [n], lambda x=x: result_name(fn(x), name_of)) for n, x in operands]
        group(op, "unary", f"np.{UNARY_FUNCTIONS[op]}", drop_rank0(cases, rank0_differs, f"unary:{op}"))

    # 2. reductions
    spy = UmrSumSpy()

    def reduce_with_compute(op, fn, x, tname, **kw):
        with spy:
            r = fn(x, **kw)
        res = result_name(r, name_of)
        if op in ("mean", "var", "std") and spy.calls:
            c = name_of(spy.calls[-1])
            if c != res:
                return res, {"compute": c, "how": "instrumented umr_sum"}
            return res
        if op in ("sum", "prod", "cumsum", "cumprod") and tname in type_of and is_float(type_of[tname]) and not kw:
            t = type_of[tname]
            cands = [np.dtype(t)] + [np.dtype(c) for c in ("float32", "float64") if np.dtype(c) != np.dtype(t)]
            alive, rows = list(cands), []
            for label, vals in probe_arrays(op, t):
                got = fn(np.array(vals).astype(t))
                got = float(np.asarray(got).ravel()[-1].astype(np.float64))
                sims = {name_of(c): simulate(op, vals, t, c) for c in cands}
                alive = [c for c in alive if same_float(sims[name_of(c)], got)]
                # JSON has no infinity: a non-finite value is written as its text
                rows.append({"probe": label, "values": [json_float(v) for v in vals], "numpy": json_float(got),
                             "computed in": {k: json_float(v) for k, v in sims.items()}})
            verdict = name_of(alive[0]) if len(alive) == 1 else None
            probes[f"{op}:{tname}"] = {"probes": rows, "candidates left": [name_of(c) for c in alive]}
            if verdict is not None and verdict != res:
                return res, {"compute": verdict, "how": "value"}
        return res

    for op in REDUCTIONS:
        fn = getattr(np, REDUCTION_FUNCTIONS[op])
        cases = []
        for n, x in operands:
            tname = n.removeprefix("scalar:")
            cases.append(sweep.run(f"reduction:{op}", [n], lambda x=x, tname=tname: reduce_with_compute(op, fn, x, tname)))
        group(op, "reduction", f"np.{op}", drop_rank0(cases, rank0_differs, f"reduction:{op}"))
    for op in DTYPE_REDUCTIONS:
        fn = getattr(np, op)
        cases = []
        for n in arrays:
            for d in arrays:
                cases.append(sweep.run(f"reduction_dtype:{op}", [n, d],
                                       lambda n=n, d=d: reduce_with_compute(op, fn, by_name[n], None,
                                                                            dtype=type_of[d])))
        group(op, "reduction_dtype", f"np.{op}(x, dtype=D)", cases)

    # 3. matmul
    mat = {d: value(type_of[d], (2, 2)) for d in arrays}
    cases = [sweep.run("binary:matmul", [a, b], lambda a=a, b=b: name_of(np.matmul(mat[a], mat[b]).dtype))
             for a, b in itertools.product(arrays, arrays)]
    operator_differs = [c[0] for c in cases
                        if sweep.run("binary:@", c[0], lambda c=c: name_of((mat[c[0][0]] @ mat[c[0][1]]).dtype))[1:]
                        != c[1:]]
    for lhs, rhs in (("scalar:f32", "f32"), ("f32", "scalar:f32"), ("python:float", "f32"), ("f32", "python:float")):
        xs = [by_name[o] if ":" in o else mat[o] for o in (lhs, rhs)]
        cases.append(sweep.run("binary:matmul", [lhs, rhs], lambda xs=xs: name_of(np.matmul(*xs).dtype)))
    group("matmul", "binary", "np.matmul", cases)

    # 4. concatenate
    pair_cases = [sweep.run("list:concatenate", [a, b],
                            lambda a=a, b=b: name_of(np.concatenate([by_name[a], by_name[b]]).dtype))
                  for a, b in itertools.product(arrays, arrays)]
    triple_cases = [sweep.run("list:concatenate", list(t),
                              lambda t=t: name_of(np.concatenate([by_name[o] for o in t]).dtype))
                    for t in itertools.product(common, common, common)]
    extra = [sweep.run("list:concatenate", [a, b], lambda a=a, b=b: name_of(np.concatenate([by_name[a], by_name[b]]).dtype))
             for a, b in (("scalar:f32", "f32"), ("f32", "python:float"))]
    group("concatenate", "list", "np.concatenate([a, b, ...])", pair_cases + triple_cases + extra)
    fold = fold_check(pair_cases, triple_cases)

    # 5. a += b and out=
    resolve_failures = []

    def inplace(op, a, b, bname):
        x = value(type_of[a], (2,)).copy()
        r = IOPS[op](x, b)
        assert r is x, (op, a, bname)
        res = name_of(r.dtype)
        # resolve_dtypes takes the Python types int, float, complex (weak) but not bool:
        # a Python bool is NumPy's bool
        bdt = (np.dtype(bool) if isinstance(b, bool) else type(b)) if bname.startswith("python:") else b.dtype
        try:
            loop = UFUNC_OF[op].resolve_dtypes((x.dtype, bdt, x.dtype), casting="same_kind")
        except Exception as e:  # noqa: BLE001
            resolve_failures.append([op, a, bname, str(e)[:100]])
            return res
        c = name_of(loop[-1])
        return (res, {"compute": c, "how": "resolve_dtypes"}) if c != res else res

    for op, sym in INPLACE.items():
        cases = []
        for a in arrays:
            for bname in arrays + [n for n, _ in operands if n.startswith("python:")]:
                b = by_name[bname]
                cases.append(sweep.run(f"inplace:{op}", [a, bname], lambda a=a, b=b, bname=bname: inplace(op, a, b, bname)))
        group(op, "inplace", f"a {sym} b", cases)

    def with_out(op, a, b, o):
        out = value(type_of[o], (2,)).copy()
        r = UFUNC_OF[op](by_name[a], by_name[b], out=out)
        assert r is out
        res = name_of(r.dtype)
        try:
            loop = UFUNC_OF[op].resolve_dtypes((by_name[a].dtype, by_name[b].dtype, out.dtype), casting="same_kind")
        except Exception as e:  # noqa: BLE001
            resolve_failures.append([op, a, b, o, str(e)[:100]])
            return res
        c = name_of(loop[-1])
        return (res, {"compute": c, "how": "resolve_dtypes"}) if c != res else res

    for op in INPLACE:
        cases = [sweep.run(f"out:{op}", list(t), lambda t=t: with_out(op, *t))
                 for t in itertools.product(common, common, common)]
        group(op, "out", f"np.{UFUNC_OF[op].__name__}(a, b, out=c)", cases)

    doc = {
        **promotion_numpy.header("numpy_oracle.py", dtypes),
        "generated_by": "tools/oracles/operations/numpy_oracle.py",
        "dtype_sources": {promo_of[n]: ("numpy" if n in promotion_numpy.BUILTIN else f"ml_dtypes.{n}") for n in order},
        "operands": {"DTYPE": "np.ones(2, dtype) (zeros for i1); [2, 2] for matmul",
                     "scalar:DTYPE": "np.ones((), dtype)", "python:KIND": "True, 3, 2.5, 1+2j as they are"},
        "functions": None,
        "missing_ops": MISSING,
        "common_dtypes": common,
        "compute_observed": {
            "mean, var, std": "every case: instrumented umr_sum (np.add.reduce); a case without `compute` summed in "
                              "its result dtype",
            "sum, prod, cumsum, cumprod (kind reduction)": "floating dtypes: value probes (value_probes); `compute` "
                                                          "where exactly one candidate fits and it is not the result",
            "inplace, out": "every case: the ufunc's resolve_dtypes((a, b, out), casting='same_kind'); a case "
                            "without `compute` runs the loop of its result dtype",
        },
        "value_probes": probes,
        "resolve_dtypes_failed_where_call_ran": resolve_failures,
        "matmul_operator_differs_from_np_matmul": operator_differs,
        "concatenate_three_vs_left_fold": fold,
        "rank0_cases_left_out": "a case with a `scalar:` operand is left out when it has the outcome of the same case "
                                "on arrays; rank0_differs lists the groups where some do not (all kept)",
        "rank0_differs": rank0_differs,
        "warnings": sweep.warnings,
    }
    doc["functions"] = functions_map(groups)
    doc["groups"] = groups
    write(out_path, doc)
    print(f"numpy {np.__version__} + ml_dtypes {ml_dtypes.__version__}: {len(dtypes)} dtypes, "
          f"{count_cases(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else default_out("numpy"))
