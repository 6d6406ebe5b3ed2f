"""Dump what MLX (CPU) does with the dtypes of operations of every arity: unary
functions, reductions (and the `dtype=` of cumsum and cumprod, the only reductions that
have one), mx.matmul, mx.concatenate and `a += b` (-=, *=, /=), to
tests/data/operations/mlx.json.

    /work/venvs/mlx/bin/python tools/oracles/operations/mlx_oracle.py  # writes tests/data/operations/mlx.json

Operands are those of tools/oracles/promotion/mlx_oracle.py: `DTYPE` is
`mx.ones(2, dtype)` (shape [2, 2] for matmul), `scalar:DTYPE` `mx.ones((), dtype)`,
`python:KIND` True, 3, 2.5, 1+2j; every result is evaluated (`mx.eval`) on `mx.cpu`,
so a dtype the CPU build cannot compute fails there. MLX states no compute dtype. A
failure is kept as MLX's error (`[operands, null, error]`): MLX's CPU build has every
kernel its operations define, and none of its errors names a missing kernel.

`a += b` on an mlx array updates `a` in place: the array object stays the same
(`inplace_identity`) and takes the result's dtype, so `a` of int8 becomes float16
after `a += f16`; the case's result is `a`'s dtype afterwards.
"""
import itertools
import operator
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_common_b as C  # noqa: E402

import mlx.core as mx  # noqa: E402

NAMES = C.DTYPE_NAMES
DTYPES = ("bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64", "complex64")
UNARY = {
    "negative": "negative", "positive": "positive", "absolute": "abs", "sqrt": "sqrt", "exp": "exp", "log": "log",
    "sin": "sin", "tanh": "tanh", "reciprocal": "reciprocal", "floor": "floor", "ceil": "ceil", "round": "round",
    "trunc": "trunc", "sign": "sign", "square": "square", "isnan": "isnan", "isfinite": "isfinite",
    "logical_not": "logical_not", "bitwise_not": "bitwise_invert", "real": "real", "imag": "imag", "conj": "conj",
    "log1p": "log1p", "expm1": "expm1", "sigmoid": "sigmoid", "erf": "erf", "rsqrt": "rsqrt",
}
MISSING = {"angle": "no mx.angle", "exp2": "no mx.exp2",
           "sum dtype=": "mx.sum has no dtype argument", "prod dtype=": "mx.prod has no dtype argument",
           "mean dtype=": "mx.mean has no dtype argument", "out=": "no mx function has an out= argument"}
REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "cumsum": "cumsum", "cumprod": "cumprod", "max": "max",
              "min": "min", "argmax": "argmax", "any": "any", "all": "all", "var": "var", "std": "std"}
WITH_DTYPE = ("cumsum", "cumprod")
# Python's augmented assignment (operator.iadd: __iadd__ where the type has it)
INPLACE = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul, "divide": operator.itruediv}


def name_of(dtype):
    s = str(dtype).removeprefix("mlx.core.")
    return NAMES.get(s, s)


def attr(n):
    return mx.bool_ if n == "bool" else getattr(mx, n)


def evaluated(r):
    mx.eval(r)
    return name_of(r.dtype)


def main(out_path):
    start = time.time()
    mx.set_default_device(mx.cpu)
    names = [NAMES[n] for n in DTYPES]
    dt = {NAMES[n]: attr(n) for n in DTYPES}

    def vec(n, shape=(2,)):
        a = mx.ones(shape, dtype=dt[n])
        mx.eval(a)
        return a

    tensor = [(n, vec(n)) for n in names]
    zero_d = [("scalar:" + n, vec(n, ())) for n in names]
    operands = tensor + zero_d + C.python_operands()
    groups = []
    for op, f in UNARY.items():
        fn = getattr(mx, f)
        groups.append(C.group(op, "unary", [C.attempt([n], lambda: evaluated(fn(x))) for n, x in operands]))
    for op, f in REDUCTIONS.items():
        fn = getattr(mx, f)
        groups.append(C.group(op, "reduction", [C.attempt([n], lambda: evaluated(fn(x))) for n, x in tensor]))
    for op in WITH_DTYPE:
        fn = getattr(mx, op)
        cases = [C.attempt([l, r], lambda: evaluated(fn(vec(l), dtype=dt[r]))) for l, r in C.ordered_pairs(names)]
        groups.append(C.group(op, "reduction_dtype", cases))
    mats = {n: vec(n, (2, 2)) for n in names}
    groups.append(C.group("matmul", "binary", [C.attempt([l, r], lambda: evaluated(mx.matmul(mats[l], mats[r])))
                                                for l, r in C.ordered_pairs(names)]))
    subset = [n for n in C.SUBSET if n in names]
    pairs = [C.attempt([l, r], lambda: evaluated(mx.concatenate([vec(l), vec(r)]))) for l, r in C.ordered_pairs(names)]
    triples = [C.attempt(list(t), lambda: evaluated(mx.concatenate([vec(x) for x in t])))
               for t in C.ordered_triples(subset)]
    groups.append(C.group("concatenate", "list", pairs + triples))
    identity = {}
    rhs = tensor + zero_d + C.python_operands()
    for op, meth in INPLACE.items():
        cases, same, other = [], 0, 0
        for ln, rn in itertools.product(names, [n for n, _ in rhs]):
            a, b = vec(ln), dict(rhs)[rn]

            def run():
                r = meth(a, b)
                mx.eval(r)
                nonlocal same, other
                if r is a:
                    same += 1
                else:
                    other += 1
                return name_of(a.dtype) if r is a else name_of(r.dtype)
            cases.append(C.attempt([ln, rn], run))
        identity[op] = {"the same array": same, "a new array": other}
        groups.append(C.group(op, "inplace", cases))

    functions = {op: f"mx.{f}" for op, f in UNARY.items()}
    functions.update({op: f"mx.{f}(a)" for op, f in REDUCTIONS.items()})
    functions.update({f"{op} dtype=": f"mx.{op}(a, dtype=d)" for op in WITH_DTYPE})
    functions.update({"matmul": "mx.matmul(a, b), a and b of shape [2, 2]", "concatenate": "mx.concatenate([a, b, ...])",
                      **{f"{op} inplace": f"a {C.INPLACE[op]} b (array.__i{ {'add': 'add', 'subtract': 'sub', 'multiply': 'mul', 'divide': 'truediv'}[op]}__)" for op in INPLACE}})
    doc = {
        "framework": "mlx", "version": mx.__version__, "generated_by": C.GENERATED_BY + "mlx_oracle.py",
        "device": str(mx.default_device()), "dtypes": names, "subset": subset,
        "functions": functions, "missing_ops": MISSING, "kinds": {},
        "inplace_identity": identity,
        "concatenate_fold": C.fold_of_two(pairs, triples),
        "groups": groups,
    }
    C.write(out_path, doc)
    print(f"mlx {mx.__version__}: {C.count(groups)} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else C.DEFAULT_OUT.format("mlx"))
