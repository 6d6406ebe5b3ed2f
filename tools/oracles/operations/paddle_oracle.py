"""Dump what PaddlePaddle (CPU, eager) does with the dtypes of operations of every arity:
unary APIs, reductions (and the `dtype=` of sum, prod and mean), paddle.matmul,
paddle.concat, `a += b` (-=, *=, /=) and `out=` of paddle.add/subtract/multiply/divide,
to tests/data/operations/paddle.json.

    /work/venvs/paddle/bin/python tools/oracles/operations/paddle_oracle.py  # writes tests/data/operations/paddle.json

Dtypes and tensors are those of tools/oracles/promotion/paddle_oracle.py (imported
from there): bool u8 i8 i16 i32 i64 f16 bf16 f32 f64 c64 c128 f8e4m3fn f8e5m2, `DTYPE`
of shape [2] ([2, 2] for matmul), `scalar:DTYPE` 0-d, `python:KIND` True, 3, 2.5, 1+2j.

A failure is kept as in the promotion oracle: `[operands, null, error]` where Paddle
refuses (its promotion, an API's dtype check), `[operands, DTYPE, error]` where the
error is "The kernel with key (CPU, ..., T) of kernel `K` is not registered" for the
operation's own kernel K (the dtype was chosen; this CPU build has no kernel for it).
DTYPE is then the output dtype static mode infers when it builds the same call into a
program (InferMeta; nothing runs). Where static mode refuses (its program builder checks the dtype against the CPU kernels this build has: "Check data
type error for op: sqrt, input: x, x.dtype: float16"), DTYPE is what the cases of the
op that ran, with a first operand of the same category (bool, integer, floating,
complex), say: the error's dtype where each kept its input's dtype, the `dtype=`
argument where each returned it, or the one dtype all returned (bool for isnan); where
they say nothing (no case of that category ran), the case stays a refusal.
`build_fact_results` counts which. A failing kernel that is not the op's own (`cast`
inside an API, `maximum` inside var of complex) leaves the case a refusal and is listed
in `other_kernel_failures`. Paddle states no compute dtype.

A paddle Tensor has no `__iadd__`: `a += b` rebinds `a` to `a + b` (`inplace_identity`
counts that the object changes). An `out=` case's result is the dtype of the tensor the
call returns; the out tensor takes it and the values (`out_behaviour`), except in the
cases listed in `out_not_written`, where it is left as it was.
"""
import importlib.util
import itertools
import operator
import os
import re
import sys
import time
import warnings

os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("FLAGS_call_stack_level", "0")
warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_common_b as C  # noqa: E402


def _load_promotion_oracle():
    spec = importlib.util.spec_from_file_location(
        "promotion_paddle_oracle", os.path.join(HERE, "..", "promotion", "paddle_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


P = _load_promotion_oracle()
import numpy as np  # noqa: E402
import paddle  # noqa: E402

UNARY = {
    "negative": "neg", "positive": "positive", "absolute": "abs", "sqrt": "sqrt", "exp": "exp", "log": "log",
    "sin": "sin", "tanh": "tanh", "reciprocal": "reciprocal", "floor": "floor", "ceil": "ceil", "round": "round",
    "trunc": "trunc", "sign": "sign", "square": "square", "isnan": "isnan", "isfinite": "isfinite",
    "logical_not": "logical_not", "bitwise_not": "bitwise_not", "real": "real", "imag": "imag", "conj": "conj",
    "angle": "angle", "log1p": "log1p", "expm1": "expm1", "sigmoid": "sigmoid", "erf": "erf", "rsqrt": "rsqrt",
}
MISSING = {"exp2": "no paddle.exp2"}
REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "cumsum": "cumsum", "cumprod": "cumprod", "max": "max",
              "min": "min", "argmax": "argmax", "any": "any", "all": "all", "var": "var", "std": "std"}
WITH_DTYPE = ("sum", "prod", "mean")
# Python's augmented assignment: a paddle Tensor has no __iadd__, so `a += b` is `a = a + b`
INPLACE = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul, "divide": operator.itruediv}
OUT = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide"}
# kernels that run an op itself, beside the kernel named like the API
# (the Python-scalar paths of the arithmetic operators run `scale` and `div_scale`, as in
# the promotion oracle)
OWN_KERNELS = {"negative": {"scale"}, "positive": {"scale"}, "var": {"mean", "subtract", "square", "sum", "divide"},
               "std": {"mean", "subtract", "square", "sum", "divide", "sqrt"}, "add": {"scale"},
               "subtract": {"scale"}, "multiply": {"scale"}, "divide": {"div_scale"}}


def category(n):
    d = n.removeprefix("scalar:")
    if d == "bool":
        return "bool"
    if d.startswith(("u", "i")):
        return "integer"
    if d.startswith("c"):
        return "complex"
    return "floating"
KERNEL = re.compile(r"The kernel with key \(CPU, .*?\) of kernel `(\w+)` is not registered\. Selected wrong "
                    r"DataType `(\w+)`")


def call(op, fname, x):
    fn = getattr(paddle, fname)
    if op == "cumprod":
        return fn(x, dim=0)
    return fn(x)


def main(out_path):
    start = time.time()
    dtypes, probed = P.eager_dtypes()
    names = [P.DTYPES[d] for d in dtypes]
    pd_of = {P.DTYPES[d]: d for d in dtypes}
    promo = P.promo_name

    def t(n, shape=(2,)):
        return paddle.ones(list(shape), dtype="float32").astype(pd_of[n])

    tensor = [(n, t(n)) for n in names]
    zero_d = [("scalar:" + n, t(n, ())) for n in names]
    groups, pending, other_kernels, shape_errors = [], [], [], []

    def case_of(op, kind, operands, thunk, statics):
        """The case; a missing own kernel is queued for static inference (`statics`: the
        (dtype, shape) of each static input and the function building the op)."""
        try:
            c = C.case(operands, promo(thunk().dtype))
        except Exception as e:  # noqa: BLE001
            text = P.first_line(e)  # from Paddle's "(Kind)" marker on, without the source location
            c = C.case(operands, None, text)
            if P.is_shape_error(text):
                shape_errors.append([op, kind, operands, text])
            m = KERNEL.search(text)
            if m:
                if m.group(1) == UNARY.get(op, REDUCTIONS.get(op, op)) or m.group(1) in OWN_KERNELS.get(op, ()):
                    pending.append((c, op, kind, promo(m.group(2)), statics))
                else:
                    other_kernels.append([op, kind, operands, m.group(1), promo(m.group(2))])
        return c

    operands = tensor + zero_d + C.python_operands()
    for op, f in UNARY.items():
        cases = []
        for n, x in operands:
            statics = None if n.startswith("python:") else \
                ([(pd_of[n.removeprefix("scalar:")], () if n.startswith("scalar:") else (2,))],
                 lambda x, f=f, op=op: call(op, f, x))
            cases.append(case_of(op, "unary", [n], lambda: call(op, f, x), statics))
        groups.append(C.group(op, "unary", cases))
    for op, f in REDUCTIONS.items():
        cases = [case_of(op, "reduction", [n], lambda: call(op, f, x),
                         ([(pd_of[n], (2,))], lambda x, f=f, op=op: call(op, f, x))) for n, x in tensor]
        groups.append(C.group(op, "reduction", cases))
    for op in WITH_DTYPE:
        fn = getattr(paddle, op)
        cases = [case_of(op, "reduction_dtype", [l, r], lambda: fn(t(l), dtype=pd_of[r]),
                         ([(pd_of[l], (2,))], lambda x, fn=fn, r=r: fn(x, dtype=pd_of[r])))
                 for l, r in C.ordered_pairs(names)]
        groups.append(C.group(op, "reduction_dtype", cases))
    cases = [case_of("matmul", "binary", [l, r], lambda: paddle.matmul(t(l, (2, 2)), t(r, (2, 2))),
                     ([(pd_of[l], (2, 2)), (pd_of[r], (2, 2))], paddle.matmul)) for l, r in C.ordered_pairs(names)]
    groups.append(C.group("matmul", "binary", cases))
    subset = [n for n in C.SUBSET if n in names]
    pairs = [case_of("concatenate", "list", [l, r], lambda: paddle.concat([t(l), t(r)]),
                     ([(pd_of[l], (2,)), (pd_of[r], (2,))], lambda *xs: paddle.concat(list(xs))))
             for l, r in C.ordered_pairs(names)]
    triples = [case_of("concatenate", "list", list(x), lambda: paddle.concat([t(n) for n in x]),
                       ([(pd_of[n], (2,)) for n in x], lambda *xs: paddle.concat(list(xs))))
               for x in C.ordered_triples(subset)]
    groups.append(C.group("concatenate", "list", pairs + triples))
    identity = {}
    rhs = tensor + zero_d + C.python_operands()
    for op, meth in INPLACE.items():
        cases, same, other = [], 0, 0
        for ln, (rn, b) in itertools.product(names, rhs):
            def run():
                nonlocal same, other
                a = t(ln)
                r = meth(a, b)
                if r is a:
                    same += 1
                else:
                    other += 1
                return r
            cases.append(case_of(op, "inplace", [ln, rn], run, None))
        identity[op] = {"the same tensor": same, "a new tensor": other}
        groups.append(C.group(op, "inplace", cases))
    out_behaviour, out_not_written = {}, {}
    for op, f in OUT.items():
        fn = getattr(paddle, f)
        cases, seen = [], {}
        for x in C.ordered_triples(subset):
            def run():
                o = paddle.full([2], 7.0, dtype="float32").astype(pd_of[x[2]])
                r = fn(t(x[0]), paddle.full([2], 2.0, dtype="float32").astype(pd_of[x[1]]), out=o)
                written = o.dtype == r.dtype and bool((o.astype("float64") == r.astype("float64")).all()) \
                    if x[2] != "bool" else o.dtype == r.dtype
                key = ("returns a new tensor" if r is not o else "returns the out tensor") + \
                      ("; the out tensor takes the result (and its dtype)" if written else
                       "; the out tensor is left as it was")
                seen[key] = seen.get(key, 0) + 1
                if not written:
                    out_not_written.setdefault(op, []).append(list(x))
                return r
            cases.append(case_of(op, "out", list(x), run, None))
        out_behaviour[op] = seen
        groups.append(C.group(op, "out", cases))

    # the build facts: the output dtype static mode infers (nothing runs)
    how = {}
    # what the op's cases that ran say, per category of the first operand: "same" where
    # each returned its first operand's dtype, "second" where each returned its second
    # operand's (the dtype= argument), else the one dtype all returned, if any
    rule = {}
    for g in groups:
        by_cat = {}
        for c in g["cases"]:
            if not C.failed(c) and not any(o.startswith("python:") for o in c[0]):
                by_cat.setdefault(category(c[0][0]), []).append(c)
        for cat, ran in by_cat.items():
            first = [o.removeprefix("scalar:") for o in (ran[0][0])]
            if all(c[1] == c[0][0].removeprefix("scalar:") for c in ran):
                r = "same"
            elif g["kind"] == "reduction_dtype" and all(c[1] == c[0][1] for c in ran):
                r = "second"
            elif len({c[1] for c in ran}) == 1:
                r = ran[0][1]
            else:
                r = None
            rule[(g["op"], g["kind"], cat)] = r
            del first
    paddle.enable_static()
    for c, op, kind, named, statics in pending:
        result = None
        if kind == "binary" and c[0][0] != c[0][1] and not any(n in ("c64", "c128") for n in c[0]):
            # matmul of two real dtypes: no promotion; the kernel is picked by the second
            # operand's dtype and static InferMeta answers the first's, so neither names a
            # dtype the operation chose: the case stays a refusal
            continue
        if statics is not None:
            inputs, build = statics
            main_p, start_p = paddle.static.Program(), paddle.static.Program()
            try:
                with paddle.static.program_guard(main_p, start_p):
                    xs = [paddle.static.data(f"x{i}", list(s), d) for i, (d, s) in enumerate(inputs)]
                    result = promo(build(*xs).dtype)
                key = "static-mode InferMeta"
            except Exception:  # noqa: BLE001
                result = None
        r = rule.get((op, kind, category(c[0][0])))
        if result is None and kind in ("unary", "reduction", "reduction_dtype", "binary") and r is not None and \
                not (kind == "binary" and c[0][0] != c[0][1]):
            if r == "same":
                result, key = named, "the dtype the error names (the cases that ran keep their input's dtype)"
            elif r == "second":
                result, key = c[0][1], "the dtype= argument (the cases that ran return it)"
            else:
                result, key = r, "the one dtype every case that ran returns"
        if result is None and kind in ("inplace", "out"):
            # add, subtract, multiply, divide run in the dtype of their result, which `a`
            # is rebound to and the out= tensor takes
            result, key = named, "the dtype the error names (the op's own kernel computes in its result's dtype)"
        if result is not None:
            c[1] = result
            how.setdefault(f"{op} {kind}", {}).setdefault(key, 0)
            how[f"{op} {kind}"][key] += 1
    paddle.disable_static()

    functions = {op: f"paddle.{f}" for op, f in UNARY.items()}
    functions.update({op: f"paddle.{f}(x{', dim=0' if op == 'cumprod' else ''})" for op, f in REDUCTIONS.items()})
    functions.update({f"{op} dtype=": f"paddle.{op}(x, dtype=d)" for op in WITH_DTYPE})
    functions.update({"matmul": "paddle.matmul(a, b), a and b of shape [2, 2]", "concatenate": "paddle.concat([a, b, ...])",
                      **{f"{op} inplace": f"a {C.INPLACE[op]} b (no Tensor.__i{op[:3]}__: Python rebinds a to a {C.INPLACE[op][0]} b)"
                         for op in INPLACE},
                      **{f"{op} out": f"paddle.{f}(a, b, out=c)" for op, f in OUT.items()}})
    doc = {
        "framework": "paddle", "version": paddle.__version__, "numpy_version": np.__version__,
        "generated_by": C.GENERATED_BY + "paddle_oracle.py", "device": "cpu", "mode": "eager",
        "dtypes": names, "not_dtypes": probed, "subset": subset,
        "functions": functions, "missing_ops": MISSING, "kinds": {},
        "build_fact_results": how, "other_kernel_failures": other_kernels, "shape_errors": shape_errors,
        "inplace_identity": identity,
        "out_behaviour": out_behaviour,
        "out_not_written": out_not_written,
        "concatenate_fold": C.fold_of_two(pairs, triples),
        "groups": groups,
    }
    C.write(out_path, doc)
    print(f"paddle {paddle.__version__}: {C.count(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else C.DEFAULT_OUT.format("paddle"))
