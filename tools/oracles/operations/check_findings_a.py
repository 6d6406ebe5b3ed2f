"""Checks the rules stated in FINDINGS_numpy_jax_array_api_keras.md against the data
in tests/data/operations/{numpy,array_api,jax,keras}.json: each rule is written here
as a function that predicts a case's outcome, and every case is compared with it.

    /work/venvs/numpy/bin/python tools/oracles/operations/check_findings_a.py

It needs numpy and ml_dtypes (NumPy's rules are stated in NumPy's own terms:
`ufunc.types`, `np.can_cast`, `np.promote_types`, `np.result_type`), and reads the
promotion data (tests/data/promotion/*.json) where a rule says "as the binary op".
Prints, per rule, how many cases it covers and every case it gets wrong; exits with
status 1 if any case is wrong.
"""
import json
import os
import sys

import ml_dtypes
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(REPO, "tests", "data")
sys.path.insert(0, os.path.join(HERE, "..", "promotion"))
from oracle_common import DTYPE_NAMES  # noqa: E402

FAILED = []


def load(path):
    with open(os.path.join(DATA, path)) as f:
        return json.load(f)


def outcome(case):
    """(result, refused) of a case; a result with an error (a build fact) counts as
    that result."""
    return case[1], case[1] is None


def check(title, cases, predict, show=12):
    """Compares each case with `predict(case)`, which gives a result name, None for a
    refusal, or the string "skip" for a case the rule does not cover."""
    n, bad = 0, []
    for c in cases:
        p = predict(c)
        if p == "skip":
            continue
        n += 1
        if p != c[1]:
            bad.append((c[0], c[1] if c[1] is not None else "refused", p if p is not None else "refused"))
    status = "ok" if not bad else f"{len(bad)} WRONG"
    print(f"  {title}: {n} cases, {status}")
    for b in bad[:show]:
        print(f"      {b[0]}: data {b[1]}, rule {b[2]}")
    if bad:
        FAILED.append(title)
    return n


def compute_of(case):
    """The `compute` of a case, or None."""
    for x in case[3:]:
        if isinstance(x, dict) and "compute" in x:
            return x["compute"]
    return None


def check_compute(title, cases, predict):
    """Like check, for the compute dtype: `predict(case)` gives the compute dtype the
    rule says is recorded (None: none recorded)."""
    n, bad = 0, []
    for c in cases:
        if c[1] is None:
            continue
        n += 1
        p = predict(c)
        if p != compute_of(c):
            bad.append((c[0], compute_of(c), p))
    print(f"  compute, {title}: {n} cases, {'ok' if not bad else f'{len(bad)} WRONG'}")
    for b in bad[:12]:
        print(f"      {b[0]}: data {b[1]}, rule {b[2]}")
    if bad:
        FAILED.append("compute " + title)


def groups(doc, kind=None, op=None, **options):
    for g in doc["groups"]:
        if kind is not None and g["kind"] != kind:
            continue
        if op is not None and g["op"] != op:
            continue
        if any(g["options"].get(k) != v for k, v in options.items()):
            continue
        yield g


def cases_of(doc, kind=None, op=None, **options):
    return [c for g in groups(doc, kind, op, **options) for c in g["cases"]]


# ---------------------------------------------------------------- NumPy
def numpy_dtypes():
    out = {DTYPE_NAMES[n]: np.dtype(n) for n in ("bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
                                                  "int32", "int64", "float16", "float32", "float64", "complex64",
                                                  "complex128")}
    for attr in dir(ml_dtypes):
        t = getattr(ml_dtypes, attr)
        if isinstance(t, type) and attr in DTYPE_NAMES:
            out[DTYPE_NAMES[attr]] = np.dtype(t)
    return out


NP = numpy_dtypes()
NP_NAME = {v: k for k, v in NP.items()}
ML_FLOATS = ("bf16", "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0", "f4e2m1", "f8e4m3", "f8e3m4",
             "f8e4m3b11fnuz", "f6e2m3fn", "f6e3m2fn")
ML_INTS = ("i4", "u4", "u2", "i2", "i1", "u1")
ML_COMPLEX = ("c32", "bc32")
NUMPY_INTS = ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64")
# a Python scalar alone is NumPy's default of its kind
PY_ALONE = {"python:bool": "bool", "python:int": "i64", "python:float": "f64", "python:complex": "c128"}


def np_name(dt):
    dt = np.dtype(dt)
    return NP_NAME.get(dt, dt.name)


def linear_search(ufunc, names):
    """NumPy's loop search: the output of the first loop of `ufunc.types` every input
    casts to safely, or None."""
    for sig in ufunc.types:
        ins, out = sig.split("->")
        if "O" in ins or "m" in ins or "M" in ins or "g" in ins or "G" in ins:
            continue
        if all(np.can_cast(NP[n], np.dtype(c), "safe") for n, c in zip(names, ins)):
            return np_name(out[0])
    return None


UFUNCS = {"negative": np.negative, "positive": np.positive, "absolute": np.absolute, "sqrt": np.sqrt, "exp": np.exp,
          "log": np.log, "sin": np.sin, "tanh": np.tanh, "reciprocal": np.reciprocal, "floor": np.floor,
          "ceil": np.ceil, "trunc": np.trunc, "sign": np.sign, "square": np.square, "isnan": np.isnan,
          "isfinite": np.isfinite, "logical_not": np.logical_not, "bitwise_not": np.invert, "conj": np.conjugate,
          "exp2": np.exp2, "log1p": np.log1p, "expm1": np.expm1}
REAL_OF = {"c64": "f32", "c128": "f64", "c32": "f16", "bc32": "bf16"}
PREDICATES = ("isnan", "isfinite", "logical_not")


def numpy_unary(op, x):
    """The stated rule for unary op `op` on operand name `x`."""
    x0, x = x, PY_ALONE.get(x, x.removeprefix("scalar:"))
    if op in ("real", "imag"):
        # np.real/np.imag return `.real`/`.imag`: a Python scalar's own (a Python
        # int or float), an array's (complex64/128 -> the real dtype; ml_dtypes'
        # complex32/bcomplex32 keep their dtype)
        if x0.startswith("python:"):
            return {"python:bool": "python:int", "python:int": "python:int", "python:float": "python:float",
                    "python:complex": "python:float"}[x0]
        return REAL_OF[x] if x in ("c64", "c128") else x
    if op == "round":
        # np.round: integers come back as they are, bool and ml_dtypes' integers go
        # through np.rint's loops (first safe loop: f16), floats and complex keep
        if x in NUMPY_INTS:
            return x
        return linear_search(np.rint, [x]) if x == "bool" or x in ML_INTS else x
    if op == "angle":
        # np.angle: complex -> its real dtype (not c32/bc32: refused), bool -> f64,
        # everything else as np.arctan2(0, x)'s first safe loop
        if x in ("c64", "c128"):
            return REAL_OF[x]
        if x in ML_COMPLEX:
            return None
        if x == "bool":
            return "f64"
        return x if x in ML_FLOATS else linear_search(np.arctan2, [x, x])
    if x in ML_FLOATS or x in ML_COMPLEX:
        # ml_dtypes registers T -> T loops (predicates -> bool, absolute of its
        # complex -> the real part's dtype) for every unary ufunc here but invert,
        # and none for floor, ceil, trunc of its complex types
        if op in PREDICATES:
            return "bool"
        if op == "bitwise_not":
            return None
        if x in ML_COMPLEX and op in ("floor", "ceil", "trunc"):
            return None
        if op == "absolute" and x in ML_COMPLEX:
            return REAL_OF[x]
        return x
    if op in ("negative", "positive", "sign") and x == "bool":
        return None  # their type resolvers refuse bool (negative by name: "The numpy boolean negative ...")
    return linear_search(UFUNCS[op], [x])


def numpy_reduction(op, x):
    x = PY_ALONE.get(x, x.removeprefix("scalar:"))
    numpy_int = x == "bool" or x in NUMPY_INTS
    if op in ("sum", "prod", "cumsum", "cumprod"):
        if numpy_int:
            return "u64" if x.startswith("u") else "i64"
        return x
    if op == "mean":
        return "f64" if numpy_int else x
    if op in ("var", "std"):
        return "f64" if numpy_int else REAL_OF.get(x, x) if x in ("c64", "c128") else x
    if op in ("max", "min"):
        return linear_search(np.maximum, [x, x]) if x in ML_INTS else x
    if op == "argmax":
        return None if x in ML_COMPLEX else "i64"
    if op in ("any", "all"):
        return "bool"
    raise KeyError(op)


def check_numpy():
    print("numpy")
    doc = load("operations/numpy.json")
    promo = load("promotion/numpy.json")
    binary = {(g["op"], c[0], c[1]): c[2] for g in promo["groups"] for c in g["cases"]}
    for op in [g["op"] for g in groups(doc, "unary")]:
        check(f"unary {op}", cases_of(doc, "unary", op), lambda c, op=op: numpy_unary(op, c[0][0]))
    for op in [g["op"] for g in groups(doc, "reduction")]:
        check(f"reduction {op}", cases_of(doc, "reduction", op), lambda c, op=op: numpy_reduction(op, c[0][0]))

    def with_dtype(c):
        # the dtype= argument, but where input and argument are two different
        # ml_dtypes types (no cast between them)
        x, d = c[0]
        ml = ML_FLOATS + ML_INTS + ML_COMPLEX
        return None if x in ml and d in ml and x != d else d
    for op in ("sum", "prod", "mean"):
        check(f"reduction_dtype {op}", cases_of(doc, "reduction_dtype", op), with_dtype)

    def matmul(c):
        a, b = c[0]
        if ":" in a or ":" in b:
            return None  # matmul refuses 0-d arrays and Python scalars
        return linear_search(np.matmul, [a, b])
    check("matmul (first safe loop of np.matmul.types)", cases_of(doc, "binary", "matmul"), matmul)

    def concat(c):
        if any(":" in n for n in c[0]):
            return None
        try:
            return np_name(np.result_type(*[NP[n] for n in c[0]]))
        except Exception:  # noqa: BLE001
            return None
    check("concatenate = np.result_type of all the operands at once", cases_of(doc, "list", "concatenate"), concat)

    def category(n):
        return {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}[NP[n].kind]

    def by_category(c):
        # NumPy's own dtypes: promote in descending category order (complex,
        # floating, integer, bool), whatever the operands' positions
        if any(":" in n or n not in NUMPY_INTS + ("bool", "f16", "f32", "f64", "c64", "c128") for n in c[0]):
            return "skip"
        order = sorted(c[0], key=lambda n: -category(n))
        r = order[0]
        for n in order[1:]:
            r = np_name(np.promote_types(NP[r], NP[n]))
        return r
    check("concatenate of NumPy's own dtypes = promote_types in descending category order",
          cases_of(doc, "list", "concatenate"), by_category)
    fold = doc["concatenate_three_vs_left_fold"]
    builtin = [d for d in fold["differing [operands, three-operand result, left fold]"] if "bf16" not in d[0]]
    print(f"  three-operand concatenate differs from the left fold in {fold['differ']} of {fold['triples']} triples "
          f"({len(builtin)} without bf16: {[d[0] for d in builtin]})")

    def inplace(c, op):
        a, b = c[0]
        loop = binary[(op, a, b)]
        if loop is None:
            return None
        if (a, b) in (("u2", "u4"), ("i2", "i4"), ("i1", "i4"), ("i1", "i2"), ("u1", "u4"), ("u1", "u2")) \
                and op != "divide":
            return a  # the loop of (a, b) does not cast back: the search goes on to the i8 loop, which does
        return a if np.can_cast(NP[loop], NP[a], "same_kind") else None
    for op in ("add", "subtract", "multiply", "divide"):
        check(f"inplace {op} (a op= b: the loop of a op b, cast same_kind to a)", cases_of(doc, "inplace", op),
              lambda c, op=op: inplace(c, op))

    def out(c, op):
        a, b, o = c[0]
        loop = binary[(op, a, b)]
        return None if loop is None else (o if np.can_cast(NP[loop], NP[o], "same_kind") else None)
    for op in ("add", "subtract", "multiply", "divide"):
        check(f"out {op} (the loop of a op b, cast same_kind to out)", cases_of(doc, "out", op),
              lambda c, op=op: out(c, op))

    # compute dtypes: f16 sum, prod and mean accumulate in f32; nothing else among the
    # reductions; a op= b and out= run the loop of a op b (the ml ints' six exceptions
    # the i8 loop)
    for g in groups(doc, "reduction"):
        check_compute(f"reduction {g['op']}", g["cases"],
                      lambda c, op=g["op"]: "f32" if op in ("sum", "prod", "mean") and c[0][0] == "f16" else None)
    for g in groups(doc, "reduction_dtype"):
        check_compute(f"reduction_dtype {g['op']}", g["cases"], lambda c: None)

    def loop_compute(c, op):
        a, b = c[0][:2]
        loop = binary[(op, a, b)]
        if g["kind"] == "inplace" and op != "divide" and (a, b) in (("u2", "u4"), ("i2", "i4"), ("i1", "i4"),
                                                                  ("i1", "i2"), ("u1", "u4"), ("u1", "u2")):
            loop = "i8"
        return loop if loop != c[1] else None
    for g in list(groups(doc, "inplace")) + list(groups(doc, "out")):
        check_compute(f"{g['kind']} {g['op']} (the loop of a op b)", g["cases"],
                      lambda c, op=g["op"]: loop_compute(c, op))


# ---------------------------------------------------------------- Array API
AA_INTS = ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64")
AA_REAL_FLOATS = ("f32", "f64")
AA_COMPLEX = ("c64", "c128")
AA_NUMERIC = AA_INTS + AA_REAL_FLOATS + AA_COMPLEX
AA_CATEGORY = {  # the dtypes each function takes (the standard's category checks)
    "numeric": AA_NUMERIC, "real numeric": AA_INTS + AA_REAL_FLOATS, "floating": AA_REAL_FLOATS + AA_COMPLEX,
    "real floating": AA_REAL_FLOATS, "bool": ("bool",), "integer or bool": ("bool",) + AA_INTS,
    "complex": AA_COMPLEX, "any": ("bool",) + AA_NUMERIC,
}
AA_UNARY = {
    "negative": "numeric", "positive": "numeric", "absolute": "numeric", "round": "numeric", "sign": "numeric",
    "square": "numeric", "conj": "numeric", "real": "numeric", "isnan": "numeric", "isfinite": "numeric",
    "sqrt": "floating", "exp": "floating", "log": "floating", "sin": "floating", "tanh": "floating",
    "reciprocal": "floating", "log1p": "floating", "expm1": "floating",
    "floor": "real numeric", "ceil": "real numeric", "trunc": "real numeric",
    "logical_not": "bool", "bitwise_not": "integer or bool", "imag": "complex",
}


def aa_unary(op, x):
    x = x.removeprefix("scalar:")
    if x.startswith("python:") or x not in AA_CATEGORY[AA_UNARY[op]]:
        return None
    if op in ("isnan", "isfinite"):
        return "bool"
    if op in ("absolute", "real", "imag") and x in AA_COMPLEX:
        return REAL_OF[x]
    return x


def aa_reduction(op, x, version):
    scalar = x.startswith("scalar:")
    x = x.removeprefix("scalar:")
    if x.startswith("python:"):
        return None
    if op in ("sum", "prod", "cumsum", "cumprod"):
        if x not in AA_NUMERIC or (op == "cumprod" and scalar):
            return None  # cumulative_prod also refuses 0-d arrays ("Only ndim >= 1 arrays")
        if x in AA_INTS:
            return "u64" if x.startswith("u") else "i64"  # the default integer dtype of the signedness
        if version in ("2021.12", "2022.12") and op in ("sum", "prod"):
            return {"f32": "f64", "c64": "c128"}.get(x, x)  # the default floating dtype of the kind
        return x
    if op == "mean":
        return x if x in (AA_REAL_FLOATS if version < "2024.12" else AA_REAL_FLOATS + AA_COMPLEX) else None
    if op in ("var", "std"):
        return x if x in AA_REAL_FLOATS else None
    if op in ("max", "min"):
        return x if x in AA_INTS + AA_REAL_FLOATS else None
    if op == "argmax":
        return "i64" if x in AA_INTS + AA_REAL_FLOATS else None
    if op in ("any", "all"):
        return "bool"
    raise KeyError(op)


def check_array_api():
    print("array_api")
    doc = load("operations/array_api.json")
    rt = {(c[0], c[1]): c[2] for c in load("promotion/functions/array_api.json")["groups"][0]["cases"]}
    promo = load("promotion/array_api.json")
    binary = {(g["op"], c[0], c[1]): c[2] for g in promo["groups"] for c in g["cases"]}
    for version in doc["api_versions"]:
        v = {"api_version": version}
        print(f" api_version {version}")
        for g in groups(doc, "unary", **v):
            check(f"unary {g['op']}", g["cases"], lambda c, op=g["op"]: aa_unary(op, c[0][0]))
        for g in groups(doc, "reduction", **v):
            check(f"reduction {g['op']}", g["cases"], lambda c, op=g["op"]: aa_reduction(op, c[0][0], version))
        for g in groups(doc, "reduction_dtype", **v):
            check(f"reduction_dtype {g['op']} (the dtype= argument; numeric input)", g["cases"],
                  lambda c: c[0][1] if c[0][0] in AA_NUMERIC else None)

        def matmul(c):
            a, b = c[0]
            if ":" in a or ":" in b or a == "bool" or b == "bool":
                return None
            return np_name(np.promote_types(NP[a], NP[b]))
        check("xp.matmul = np.promote_types (numeric only; mixed kinds not refused)",
              cases_of(doc, "binary", "matmul", **v), matmul)
        ops = doc["matmul_operator_vs_function"][version]["[operands, xp.matmul, a @ b]"]
        check("a @ b = result_type (refuses mixed kinds) where it differs from xp.matmul",
              [[c[0], c[2][0]] for c in ops], lambda c: rt[tuple(c[0])])

        def concat(c):
            if any(":" in n for n in c[0]):
                return None
            r = c[0][0]
            for n in c[0][1:]:
                r = rt[(r, n)] if r is not None else None
            return r
        check("concat = result_type of all", cases_of(doc, "list", "concatenate", **v), concat)

        def inplace(c, op):
            a, b = c[0]
            if b.startswith("python:") and version < "2024.12":
                # the functions refused Python scalars before 2024.12; the operators
                # follow the 2024.12 scalar rules in every version
                pass
            r = binary[(op, a, b)]
            return a if r == a else None
        for op in ("add", "subtract", "multiply", "divide"):
            check(f"inplace {op} (a op= b when a op b has a's dtype)", cases_of(doc, "inplace", op, **v),
                  lambda c, op=op: inplace(c, op))


# ---------------------------------------------------------------- Keras
K_NARROW = {"u64": "u32", "i64": "i32", "f64": "f32", "c128": "c64"}
K_PY_TENSOR = {"python:bool": "bool", "python:int": "i32", "python:float": "f32", "python:complex": "c64"}
K_INTS = ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64")
K_F8 = ("f8e4m3fn", "f8e5m2")
K_COMPLEX = ("c64", "c128")
# ops whose numpy-backend function hands the tensor to NumPy as it is
K_NUMPY_AS_IS = ("negative", "sign", "absolute", "reciprocal", "conj", "round", "real", "imag", "isnan", "isfinite",
                 "logical_not", "max", "min", "any", "all")
K_FLOAT_OPS = ("sqrt", "exp", "log", "sin", "tanh", "exp2", "log1p", "expm1", "mean", "var", "floor", "ceil",
               "angle", "std")


def k_tensor(x):
    """What convert_to_tensor makes of an operand: 64-bit narrowed to 32, Python
    scalars to bool/i32/f32/c64."""
    x = x.removeprefix("scalar:")
    return K_PY_TENSOR.get(x) or K_NARROW.get(x, x)


def keras_unary(op, x0):
    x = x0.removeprefix("scalar:")
    if op in K_NUMPY_AS_IS:
        if op in ("real", "imag") and x.startswith("python:"):
            # NumPy's Python int or float, made an array
            return {"python:int": "i64", "python:float": "f64"}[numpy_unary(op, x)]
        return numpy_unary(op, x) if op not in ("max", "min", "any", "all") else numpy_reduction(op, x)
    t = k_tensor(x)
    if t in K_F8 and op not in ("sum", "argmax"):
        return None  # "There is no implicit conversions from float8 dtypes to others."
    if op in K_FLOAT_OPS:
        if op in ("floor", "ceil") and t in K_COMPLEX:
            return None
        r = "f32" if t == "bool" or t in K_INTS else t
        return REAL_OF.get(r, r) if op in ("angle", "std") and r in K_COMPLEX else r
    if op in ("trunc", "bitwise_not"):
        ok = ("bool",) + K_INTS + (("f16", "bf16", "f32") if op == "trunc" else ())
        return t if t in ok else None
    if op == "square":
        return "i32" if t == "bool" else t
    if op in ("erf", "rsqrt"):
        return None if op == "rsqrt" and x.startswith("python:") else t
    if op == "sigmoid":
        return None if t == "bool" else numpy_unary("exp", t)
    if op == "sum":
        if x.startswith("python:"):
            return None
        return {"bool": "i32", "i8": "i32", "i16": "i32", "u8": "u32", "u16": "u32"}.get(x, x)
    if op == "prod":
        return {"bool": "i32", "i8": "i32", "i16": "i32", "u8": "u32", "u16": "u32"}.get(t, t)
    if op in ("cumsum", "cumprod"):
        return None if x.startswith("python:") else ("i32" if t == "bool" else t)
    if op == "argmax":
        return None if t in K_F8 else "i32"
    raise KeyError(op)


def check_keras():
    print("keras")
    doc = load("operations/keras.json")
    rt = {(c[0], c[1]): c[2] for c in load("promotion/functions/keras.json")["groups"][0]["cases"]}
    add = {(c[0], c[1]): c[2] for g in load("promotion/keras.json")["groups"] if g["op"] == "add" for c in g["cases"]}
    for kind in ("unary", "reduction"):
        for g in groups(doc, kind):
            check(f"{kind} {g['op']}", g["cases"], lambda c, op=g["op"]: keras_unary(op, c[0][0]))
    ml = ML_FLOATS + ML_INTS + ML_COMPLEX
    check("reduction_dtype prod (the dtype= argument; float8 input refused, and two ml_dtypes types)",
          cases_of(doc, "reduction_dtype", "prod"),
          lambda c: None if c[0][0] in K_F8 or (c[0][0] in ml and c[0][1] in ml and c[0][0] != c[0][1]) else c[0][1])

    def matmul(c):
        a, b = c[0]
        if ":" in a or ":" in b:
            return None
        return "i32" if (a, b) == ("i8", "i8") else add[(a, b)]
    check("matmul = keras.ops.add's dtype, but i8 @ i8 -> i32", cases_of(doc, "binary", "matmul"), matmul)

    def concat(c):
        if any(":" in n for n in c[0]):
            return None
        kinds = sorted(set(c[0]))
        if len(kinds) == 1:
            return kinds[0]
        r = kinds[0]
        for n in kinds[1:]:
            r = rt[(r, n)] if r is not None else None
        return r
    check("concatenate: one dtype -> itself, else keras.backend.result_type of the set", cases_of(doc, "list",
          "concatenate"), concat)
    check("slice_update: a's dtype (tensor b), Python b refused", cases_of(doc, "inplace", "slice_update"),
          lambda c: None if c[0][1].startswith("python:") else c[0][0])

    ints = ("bool",) + K_INTS

    def keras_compute(op, c):
        x = c[0][0]
        t = k_tensor(x)
        if op == "sum" and x in ("bool", "u8", "u16", "u32", "i8", "i16", "i32"):
            return "u64" if x.startswith("u") else "i64"   # np.sum's own widening, cast back
        if op == "mean" and (t in ints or x == "f16"):
            return "f64" if t in ints else "f32"           # np.mean: f64 for integers, f32 for f16
        if op == "var" and t in ("f16", "bf16"):
            return "f32"                                   # np.var(dtype=result_type(x, float32))
        if op == "erf" and t in ints + ("f16", "bf16"):
            return "f64"                                   # scipy.special.erf
        if op == "rsqrt" and t in ints:
            return numpy_unary("sqrt", t)                  # np.sqrt's loop, cast back
        return None
    for kind in ("unary", "reduction"):
        for g in groups(doc, kind):
            check_compute(f"{kind} {g['op']}", g["cases"], lambda c, op=g["op"]: keras_compute(op, c))
    check_compute("matmul (bf16 with bool, an integer or bf16: NumPy's f32 loop)", cases_of(doc, "binary", "matmul"),
                  lambda c: "f32" if c[1] == "bf16" else None)


# ---------------------------------------------------------------- JAX
J_UINTS = ("u8", "u16", "u32", "u64")
J_SINTS = ("i8", "i16", "i32", "i64")
J_ML_INTS = ("i4", "u4", "u2", "i2", "i1", "u1")
J_FLOATS = ("f16", "bf16", "f32", "f64") + ML_FLOATS[1:]
J_COMPLEX = ("c64", "c128")
# jnp's `to_inexact` table: the floating dtype an integer or bool is computed in by
# the inexact functions (canonicalized: f64 is f32 with x64 off); int2, uint2, int1,
# uint1 have none, and the primitive then refuses them ("sqrt does not accept dtype
# int2")
J_TO_INEXACT = {"bool": "f32", "i4": "f32", "u4": "f32", "u8": "f32", "i8": "f32", "u16": "f32", "i16": "f32",
                "u32": "f32", "i32": "f32", "u64": "f64", "i64": "f64"}
J_INEXACT_OPS = ("sqrt", "exp", "log", "sin", "tanh", "reciprocal", "exp2", "log1p", "expm1", "erf")
J_KEEP_OPS = ("negative", "positive", "absolute", "floor", "ceil", "round", "trunc", "sign", "square", "bitwise_not",
              "real", "imag", "conj", "sigmoid", "rsqrt")


class JaxSetting:
    def __init__(self, options, held):
        self.x64 = options["jax_enable_x64"]
        self.strict = options["jax_numpy_dtype_promotion"] == "strict"
        self.held = held
        self.int, self.float, self.complex = ("i64", "f64", "c128") if self.x64 else ("i32", "f32", "c64")

    def canon(self, d):
        return d if self.x64 else {"u64": "u32", "i64": "i32", "f64": "f32", "c128": "c64"}.get(d, d)

    def operand(self, name):
        """(held dtype, weak, rank 0) of an operand; a Python int/float/complex is a
        weak array of the default dtype of its kind, a Python bool a bool array."""
        if name.startswith("python:"):
            kind = name[7:]
            return ({"bool": "bool", "int": self.int, "float": self.float, "complex": self.complex}[kind],
                    kind != "bool", True)
        weak = name.startswith("weak:")
        scalar = weak or name.startswith("scalar:")
        return self.held[name.split(":")[-1]], weak, scalar


def jax_real_of(s, x):
    return s.canon({"c64": "f32", "c128": "f64"}[x])


def jax_unary(s, op, name):
    x, weak, rank0 = s.operand(name)
    complex_ = x in J_COMPLEX
    if op in J_INEXACT_OPS:
        if op == "erf" and complex_:
            return None
        if x in J_FLOATS or complex_:
            r = x
        elif x in J_TO_INEXACT:
            r = s.canon(J_TO_INEXACT[x])
        else:
            return None
        # a weak operand gives a weak result, but a weak bool (it became a strong float)
        return ("weak:" + r) if weak and x != "bool" else r
    if op == "angle":
        if complex_:
            r = jax_real_of(s, x)
            return ("weak:" + r) if weak else r
        # a real operand: floats keep their dtype on shape-[2] arrays; rank 0 (and
        # every weak one), integers and bool give the default float, strong
        return x if x in J_FLOATS and not rank0 else s.float
    if op in ("isnan", "isfinite", "logical_not"):
        if not weak:
            return "bool"
        if op == "isnan":
            return "weak:bool"
        if op == "isfinite":
            return "weak:bool" if x in J_FLOATS or complex_ else "bool"
        return "weak:bool" if x in ("bool", s.int, s.float, s.complex) else "bool"
    if op in ("negative", "sign", "round") and x == "bool":
        return None
    if op in ("sigmoid", "rsqrt") and not (x in J_FLOATS or complex_):
        return None
    if op in ("floor", "ceil", "trunc") and complex_:
        return None
    if op == "bitwise_not" and not (x == "bool" or x in J_UINTS + J_SINTS + J_ML_INTS):
        return None
    if op == "absolute" and x in ("i4", "i2"):
        return None  # "abs does not accept dtype int4"
    r = x
    if op in ("absolute", "real", "imag") and complex_:
        r = jax_real_of(s, x)
    elif op == "absolute" and x == "i1":
        r = "i8"
    elif op == "square" and x == "bool":
        return "i32"  # strong, whatever the setting
    elif op == "trunc" and weak and s.strict and x in J_FLOATS:
        r = s.float  # strict: trunc of a weak float is the weak default float
    return ("weak:" + r) if weak else r


def jax_reduction(s, op, name):
    x, weak, rank0 = s.operand(name)   # every reduction's result is strong
    if op in ("any", "all"):
        return "bool"
    if op == "argmax":
        return None if x in J_COMPLEX else s.int
    if op in ("max", "min"):
        return x
    if op in ("sum", "prod"):
        if x in ("i4", "u4", "u2", "i2", "i1", "u1"):
            return None  # "Invalid integer data type 'V'."
        if x == "bool" or x in J_SINTS:
            return s.int if x in ("bool", "i8", "i16", "i32") else x
        if x in J_UINTS:
            return s.canon("u64") if x in ("u8", "u16", "u32") else x
        return x
    if op in ("cumsum", "cumprod"):
        return s.int if x == "bool" else x
    if op == "mean":
        if x in ("u2", "i2", "i1", "u1"):
            return x  # no float conversion for them: the sum and the division stay in the dtype
        return s.canon(J_TO_INEXACT[x]) if x in J_TO_INEXACT else x
    if op in ("var", "std"):
        if x in ("u2", "i2", "i1", "u1"):
            return None
        if x in J_COMPLEX:
            return jax_real_of(s, x)
        return s.canon(J_TO_INEXACT[x]) if x in J_TO_INEXACT else x
    raise KeyError(op)


def jax_at(s, k, binary, op, a, b):
    """(result, promoted dtype where it is not a's) of a.at[:].add(b) / .set(b)."""
    held = s.held[a]
    if a in J_UINTS + J_SINTS and b in ("python:int", "python:bool"):
        return held, None  # a Python int (bool too) in range becomes an array of a's dtype
    promoted = binary[(k, "add", a, b)]
    if promoted is None:
        return None, None
    promoted = promoted.removeprefix("weak:")
    if op == "at_add" and promoted == "bool":
        return None, None  # "add does not accept dtype bool"
    return held, (promoted if promoted != held else None)


def check_jax():
    print("jax")
    doc = load("operations/jax.json")
    promo = load("promotion/jax.json")
    binary = {}
    for g in promo["groups"]:
        k = (g["options"]["jax_enable_x64"], g["options"]["jax_numpy_dtype_promotion"])
        for c in g["cases"]:
            binary[(k, g["op"], c[0], c[1])] = c[2]
    for key, held in doc["held_dtype"].items():
        x64 = "jax_enable_x64=true" in key
        mode = key.split("jax_numpy_dtype_promotion=")[1]
        opts = {"jax_enable_x64": x64, "jax_numpy_dtype_promotion": mode}
        s = JaxSetting(opts, held)
        k = (x64, mode)
        print(f" {key}")
        for g in groups(doc, "unary", **opts):
            check(f"unary {g['op']}", g["cases"], lambda c, op=g["op"]: jax_unary(s, op, c[0][0]))
        for g in groups(doc, "reduction", **opts):
            check(f"reduction {g['op']}", g["cases"], lambda c, op=g["op"]: jax_reduction(s, op, c[0][0]))
        for g in groups(doc, "reduction_dtype", **opts):
            check(f"reduction_dtype {g['op']} (the dtype= argument, canonicalized; mean refuses bool)", g["cases"],
                  lambda c, op=g["op"]: None if op == "mean" and c[0][1] == "bool" else s.held[c[0][1]])

        def as_binary(c, op="add"):
            if any(n.startswith(("scalar:", "python:", "weak:")) for n in c[0]):
                return None
            r = c[0][0]
            for n in c[0][1:]:
                r = binary[(k, op, r, n)] if r is not None else None
            return r

        def matmul(c):
            if tuple(c[0]) in (("bool", "i1"), ("i1", "bool")) and mode == "standard":
                return None  # promotion gives i1, dot_general refuses (bool, int1)
            return as_binary(c)
        check("matmul = add's promotion", cases_of(doc, "binary", "matmul", **opts), matmul)
        check("concatenate = add's promotion, folded (0-d and weak operands refused)",
              cases_of(doc, "list", "concatenate", **opts), as_binary)
        for g in groups(doc, "reduction", **opts):
            check_compute(f"reduction {g['op']} (f16, bf16 -> f32)", g["cases"],
                          lambda c, op=g["op"]: "f32" if op in ("sum", "prod", "mean", "var", "std")
                          and s.operand(c[0][0])[0] in ("f16", "bf16") else None)
        for g in groups(doc, "unary", **opts):
            check_compute(f"unary {g['op']}", g["cases"],
                          lambda c, op=g["op"]: jax_real_of(s, s.operand(c[0][0])[0])
                          if op == "round" and s.operand(c[0][0])[0] in J_COMPLEX else None)
        for kind in ("reduction_dtype", "binary"):
            for g in groups(doc, kind, **opts):
                check_compute(f"{kind} {g['op']} (none)", g["cases"], lambda c: None)
        for g in groups(doc, "inplace", **opts):
            op = g["op"]
            if op in ("add", "subtract", "multiply", "divide"):
                check(f"inplace {op} (a op= b rebinds a to a op b)", g["cases"],
                      lambda c, op=op: binary[(k, op, c[0][0], c[0][1])])
            else:
                check(f"inplace {op} (a's dtype where a + b promotes, else refused)", g["cases"],
                      lambda c, op=op: jax_at(s, k, binary, op, *c[0])[0])
                check(f"inplace {op}: FutureWarning where b's dtype is not a's after promotion", g["cases"],
                      lambda c, op=op: "skip" if c[1] is None else
                      (c[1] if bool(jax_at(s, k, binary, op, *c[0])[1]) == bool(len(c) > 3 and isinstance(c[3], dict)
                                                                            and "warning" in c[3]) else "warning?"))
                check(f"inplace {op}: computes in the promoted dtype", g["cases"],
                      lambda c, op=op: "skip" if c[1] is None else
                      (c[1] if jax_at(s, k, binary, op, *c[0])[1] == (c[3].get("compute") if len(c) > 3 and
                                                                       isinstance(c[3], dict) else None)
                       else "compute?"))


def main():
    check_numpy()
    check_array_api()
    check_keras()
    check_jax()
    if FAILED:
        print(f"{len(FAILED)} rules have wrong cases: {FAILED}")
        sys.exit(1)
    print("every rule holds")


if __name__ == "__main__":
    main()
