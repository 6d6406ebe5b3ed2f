"""Dump what tinygrad (DEV=PYTHON) does with the dtypes of operations of every arity:
unary Tensor methods, reductions (and the `dtype=` of sum and prod), matmul, Tensor.cat
and `a += b` (-=, *=, /=), and the accumulation dtype tinygrad states, to
tests/data/operations/tinygrad.json.

    /work/venvs/tinygrad/bin/python tools/oracles/operations/tinygrad_oracle.py  # writes tests/data/operations/tinygrad.json

Dtypes, operands and the reading back of each result are those of
tools/oracles/promotion/tinygrad_oracle.py (imported from there; DEV=PYTHON, its
pure-Python device): `DTYPE` a realized tensor of shape [2] (shape [2, 2] for matmul),
`scalar:DTYPE` of shape (), `weak:i32` / `weak:f32` the constants `Tensor(3)` /
`Tensor(2.5)`; Python scalars only on the right of `a += b` (the unary functions are
Tensor methods). A failed UOp verification (the same on every device) is a refusal,
`[operands, null, error]`; a failure of the PYTHON device after the schedule was built
is `[operands, DTYPE, error]`.

Compute dtype: tinygrad states the accumulation dtype of its sums in the source:
`Tensor.sum` casts its input to `dtypes.sum_acc_dtype(dtype)` (unless `dtype=` is
given) and casts the result back for float16, bfloat16 and the fp8 types; `mean`, `var`
and `std` sum in `sum_acc_dtype` too; `dot`/`matmul` sums the product, whose dtype is
`least_upper_dtype(a, b)`, in its `sum_acc_dtype` and casts back. Those cases carry
`{"compute": ..., "how": "sum_acc_dtype"}` (the function's own answer); prod keeps its
input's dtype.
"""
import importlib.util
import itertools
import os
import sys
import time

os.environ.setdefault("DEV", "PYTHON")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_common_b as C  # noqa: E402


def _load_promotion_oracle():
    spec = importlib.util.spec_from_file_location(
        "promotion_tinygrad_oracle", os.path.join(HERE, "..", "promotion", "tinygrad_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


P = _load_promotion_oracle()
from tinygrad import Tensor, dtypes  # noqa: E402
from tinygrad.dtype import least_upper_dtype, sum_acc_dtype  # noqa: E402

UNARY = {
    "negative": "neg", "absolute": "abs", "sqrt": "sqrt", "exp": "exp", "log": "log", "sin": "sin", "tanh": "tanh",
    "reciprocal": "reciprocal", "floor": "floor", "ceil": "ceil", "round": "round", "trunc": "trunc", "sign": "sign",
    "square": "square", "isnan": "isnan", "isfinite": "isfinite", "logical_not": "logical_not",
    "bitwise_not": "bitwise_not", "exp2": "exp2", "sigmoid": "sigmoid", "erf": "erf", "rsqrt": "rsqrt",
}
MISSING = {"positive": "no Tensor.positive (and no unary + on a Tensor)", "real": "no complex dtypes: no Tensor.real",
           "imag": "no complex dtypes: no Tensor.imag", "conj": "no complex dtypes: no Tensor.conj",
           "angle": "no Tensor.angle", "log1p": "no Tensor.log1p", "expm1": "no Tensor.expm1",
           "mean dtype=": "Tensor.mean has no dtype argument", "out=": "no Tensor method has an out= argument"}
REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "cumsum": "cumsum", "cumprod": "cumprod", "max": "max",
              "min": "min", "argmax": "argmax", "any": "any", "all": "all", "var": "var", "std": "std"}
# the reductions that sum in sum_acc_dtype (tinygrad's source)
ACCUMULATE = ("sum", "mean", "var", "std")
WITH_DTYPE = ("sum", "prod")
INPLACE = {"add": "__iadd__", "subtract": "__isub__", "multiply": "__imul__", "divide": "__itruediv__"}


def run_case(operands, thunk):
    """A case, with a failure after the schedule was built kept as the device's."""
    c = C.attempt(operands, thunk, limit=1000)
    if C.failed(c):
        if c[2].startswith("BuildFailure: "):
            c[1], c[2] = c[2].removeprefix("BuildFailure: ").split("|", 1)
        c[2] = P.short(c[2])[:300]
    return c


def main(out_path):
    start = time.time()
    order, operands = P.setup()
    names = [P.NAMES[n] for n in order]
    dt = {P.NAMES[n]: getattr(dtypes, n) for n in order}
    name_of = P.name_of

    def fresh(n, shape=(2,)):
        return Tensor.ones(*shape, dtype=dt[n]).contiguous().realize() if shape else \
            Tensor.ones((), dtype=dt[n]).contiguous().realize()

    def done(r):
        P.realize(r)
        return name_of(r.dtype)

    tensor_ops = [(n, v) for n, v in operands if not n.startswith(("scalar:", "weak:", "python:"))]
    no_python = [(n, v) for n, v in operands if not n.startswith("python:")]
    groups, build = [], []
    for op, m in UNARY.items():
        cases = [run_case([n], lambda: done(getattr(x, m)())) for n, x in no_python]
        groups.append(C.group(op, "unary", cases))
    for op, m in REDUCTIONS.items():
        cases = []
        for n, x in tensor_ops + [(n, v) for n, v in operands if n.startswith("weak:")]:
            fn = (lambda x: getattr(x, m)(0)) if op in ("cumsum", "cumprod") else (lambda x: getattr(x, m)())
            c = run_case([n], lambda: done(fn(x)))
            if op in ACCUMULATE and c[1] is not None and not n.startswith("weak:"):
                c = C.case(c[0], c[1], c[2] if len(c) > 2 else None,
                           {"compute": name_of(sum_acc_dtype(dt[n])), "how": "sum_acc_dtype"})
            cases.append(c)
        groups.append(C.group(op, "reduction", cases))
    for op in WITH_DTYPE:
        cases = [run_case([l, r], lambda: done(getattr(fresh(l), op)(dtype=dt[r]))) for l, r in C.ordered_pairs(names)]
        groups.append(C.group(op, "reduction_dtype", cases))
    cases = []
    for l, r in C.ordered_pairs(names):
        c = run_case([l, r], lambda: done(fresh(l, (2, 2)).matmul(fresh(r, (2, 2)))))
        if c[1] is not None:
            c = C.case(c[0], c[1], c[2] if len(c) > 2 else None,
                       {"compute": name_of(sum_acc_dtype(least_upper_dtype(dt[l], dt[r]))), "how": "sum_acc_dtype"})
        cases.append(c)
    groups.append(C.group("matmul", "binary", cases))
    subset = [n for n in C.SUBSET if n in names]
    pairs = [run_case([l, r], lambda: done(fresh(l).cat(fresh(r)))) for l, r in C.ordered_pairs(names)]
    triples = [run_case(list(t), lambda: done(fresh(t[0]).cat(*[fresh(x) for x in t[1:]])))
               for t in C.ordered_triples(subset)]
    groups.append(C.group("concatenate", "list", pairs + triples))
    rhs = [(n, v) for n, v in operands if not n.startswith("scalar:")]
    for op, meth in INPLACE.items():
        cases = []
        for ln, (rn, b) in itertools.product(names, rhs):
            def run():
                a = fresh(ln)
                r = getattr(a, meth)(b)
                assert r is a
                return done(a)
            cases.append(run_case([ln, rn], run))
        groups.append(C.group(op, "inplace", cases))
    for g in groups:
        for c in g["cases"]:
            if C.failed(c) and c[1] is not None:
                build.append([g["op"], g["kind"], *c])

    functions = {op: f"Tensor.{m}()" for op, m in UNARY.items()}
    functions.update({op: f"Tensor.{m}({'0' if op in ('cumsum', 'cumprod') else ''})" for op, m in REDUCTIONS.items()})
    functions.update({f"{op} dtype=": f"Tensor.{op}(dtype=d)" for op in WITH_DTYPE})
    functions.update({"matmul": "a.matmul(b), a and b of shape [2, 2]", "concatenate": "a.cat(b, ...)",
                      **{f"{op} inplace": f"a {C.INPLACE[op]} b (Tensor.{m}: a.assign(a op b))"
                         for op, m in INPLACE.items()}})
    doc = {
        "framework": "tinygrad", "version": P.version(), "generated_by": C.GENERATED_BY + "tinygrad_oracle.py",
        "device": os.environ["DEV"], "dtypes": names, "subset": subset,
        "functions": functions, "missing_ops": MISSING, "kinds": {},
        "sum_acc_dtype": {n: name_of(sum_acc_dtype(dt[n])) for n in names},
        "build_failures": build,
        "concatenate_fold": C.fold_of_two(pairs, triples),
        "groups": groups,
    }
    C.write(out_path, doc)
    print(f"tinygrad: {C.count(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else C.DEFAULT_OUT.format("tinygrad"))
