"""Checks every rule FINDINGS_torch_tensorflow_mlx_tinygrad_paddle.md states against the
data in tests/data/operations/ (torch, tensorflow, mlx, tinygrad, paddle) and, where a
rule refers to a framework's binary promotion, tests/data/promotion/. Standard library
only; run from the repository root:

    python3 tools/oracles/operations/verify_findings_b.py

Each rule prints PASS with the number of cases it covered, or FAIL with examples; the
exit status is the number of rules that failed. A rule names the cases it leaves out.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
OPS = os.path.join(ROOT, "tests", "data", "operations")
PROMO = os.path.join(ROOT, "tests", "data", "promotion")
FAILED = []


def load(path):
    with open(path) as f:
        return json.load(f)


def check(name, pairs):
    """`pairs`: [(case, expected, got)]; PASS when every expected equals got."""
    bad = [(c, e, g) for c, e, g in pairs if e != g]
    if bad:
        FAILED.append(name)
        print(f"FAIL {name}: {len(bad)} of {len(pairs)}")
        for c, e, g in bad[:8]:
            print(f"     {c[0]}: expected {e}, got {g}")
    else:
        print(f"PASS {name} ({len(pairs)} cases)")


def outcome(c):
    """(result, failed)"""
    return c[1], len(c) > 2 and c[2] is not None


def groups(doc, kind=None, op=None, options=None):
    return [g for g in doc["groups"] if (kind is None or g["kind"] == kind) and (op is None or g["op"] == op)
            and (options is None or g["options"] == options)]


def group(doc, op, kind, options=None):
    gs = groups(doc, kind, op, options)
    assert len(gs) == 1, (op, kind, options, len(gs))
    return gs[0]


def refused_sets(doc, kind, options=None, skip=()):
    """{op: set of tensor dtypes (DTYPE and scalar:DTYPE) it refuses}, leaving out `skip`."""
    out = {}
    for g in groups(doc, kind, options=options):
        out[g["op"]] = {base(c[0][0]) for c in g["cases"] if c[1] is None
                        and not c[0][0].startswith(("weak:", "python:")) and base(c[0][0]) not in skip}
    return out


def check_refusals(name, doc, kind, expected, options=None, skip=()):
    """`expected`: {op: set}; ops not named refuse nothing."""
    got = refused_sets(doc, kind, options, skip)
    check(name, [([op], sorted(expected.get(op, set())), sorted(got[op])) for op in got])


def check_folds(name, doc):
    folds = doc["concatenate_fold"]
    folds = folds.values() if "triples" not in folds else [folds]
    check(name, [(["concatenate"], f["triples"], f["equal_to_left_fold"]) for f in folds])


def base(name):
    return name.split(":", 1)[1] if name.startswith(("scalar:", "weak:")) else name


def promotion_table(framework, op, options=None):
    """{(lhs, rhs): (result, failed)} of a binary op in tests/data/promotion/."""
    doc = load(os.path.join(PROMO, framework + ".json"))
    out = {}
    for g in doc["groups"]:
        if g["op"] == op and (options is None or all(g["options"].get(k) == v for k, v in options.items())):
            for c in g["cases"]:
                out[(c[0], c[1])] = (c[2], len(c) > 3)
    return out


# ---------------------------------------------------------------- PyTorch

T_INTS = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"}
T_SHELLS = {f"u{i}" for i in range(1, 8)} | {f"i{i}" for i in range(1, 8)}
T_BITS = {"bits8", "bits16", "bits1x8", "bits2x4", "bits4x2"}
T_COMPLEX = {"c32": "f16", "bc32": "bf16", "c64": "f32", "c128": "f64"}
T_FLOATS = {"f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz", "f8e8m0"}


def opmath(d):
    """torch._prims_common.get_computation_dtype: half and bfloat16 compute in float32,
    the two 32-bit complex types in complex64, everything else in itself."""
    return {"f16": "f32", "bf16": "f32", "c32": "c64", "bc32": "c64"}.get(d, d)


def torch_kind_result(kind, d):
    """(result, compute) of an elementwise op of `kind` on one tensor of dtype d."""
    integral = d == "bool" or d in T_INTS
    if kind == "DEFAULT":
        return d, opmath(d)
    if kind == "INT_TO_FLOAT":
        r = "f32" if integral else d
        return r, opmath(r)
    if kind == "COMPLEX_TO_FLOAT":
        return T_COMPLEX.get(d, d), opmath(d)
    if kind == "BOOL_TO_LONG":
        r = "i64" if d == "bool" else d
        return r, opmath(r)
    if kind == "ALWAYS_BOOL":
        return "bool", opmath(d)
    raise ValueError(kind)


def torch_can_cast(src, dst):
    """c10::canCast: no complex to a non-complex, no floating to an integral, nothing but
    bool to bool."""
    if src in T_COMPLEX and dst not in T_COMPLEX:
        return False
    if (src in T_FLOATS or src in T_COMPLEX) and (dst in T_INTS or dst == "bool"):
        return False
    if src != "bool" and dst == "bool":
        return False
    return True


def verify_torch():
    doc = load(os.path.join(OPS, "torch.json"))
    kinds = doc["kinds"]
    pairs, compute, shells = [], [], []
    for g in groups(doc, "unary"):
        kind = kinds.get(g["op"], "")
        for c in g["cases"]:
            name = c[0][0]
            if name.startswith("python:"):
                continue
            d = base(name)
            if c[1] is None:
                continue
            if d in T_SHELLS:
                if not kind.startswith("none"):
                    shells.append((c, "bool" if kind == "ALWAYS_BOOL" else d, c[1]))
                continue
            if kind in ("DEFAULT", "INT_TO_FLOAT", "COMPLEX_TO_FLOAT", "BOOL_TO_LONG", "ALWAYS_BOOL"):
                r, comp = torch_kind_result(kind, d)
                if g["op"] == "angle" and d in T_COMPLEX:
                    r, comp = T_COMPLEX[d], None
                pairs.append((c, r, c[1]))
                if len(c) > 3:
                    compute.append((c, comp, c[3]["compute"]))
    check("torch unary: result by the op's ELEMENTWISE_TYPE_PROMOTION_KIND (angle of complex: its real dtype)", pairs)
    check("torch unary: compute dtype = opmath of the kind's compute (f16/bf16 -> f32, c32/bc32 -> c64)", compute)
    check("torch unary on shell dtypes u1..u7 i1..i7: no promotion (the input's dtype, bool for ALWAYS_BOOL); "
          "every one a build fact", [(c, (e, True), (g, len(c) > 2 and c[2] is not None)) for c, e, g in shells])
    # none-kind unary ops
    pairs = []
    for op, rule in (("positive", lambda d: d), ("conj", lambda d: d), ("real", lambda d: T_COMPLEX.get(d, d)),
                     ("imag", lambda d: T_COMPLEX.get(d))):
        for c in group(doc, op, "unary")["cases"]:
            if c[0][0].startswith("python:"):
                continue
            d = base(c[0][0])
            exp = None if (op == "positive" and d == "bool") else rule(d)
            pairs.append((c, exp, c[1]))
    check("torch positive/conj keep the dtype (positive refuses bool); real/imag give the complex's real dtype, "
          "real keeps a real input, imag refuses it", pairs)
    check("torch unary: Python scalars refused by every function",
          [(c, None, c[1]) for g in groups(doc, "unary") for c in g["cases"] if c[0][0].startswith("python:")])

    # reductions
    def red_rule(op, d):
        integral = d == "bool" or d in T_INTS
        if op in ("sum", "prod", "cumsum", "cumprod"):
            r = "i64" if integral else d
            return r, opmath(r)
        if op == "mean":
            return (d, opmath(d)) if not integral else (None, None)
        if op in ("max", "min"):
            return (d, opmath(d)) if d not in T_COMPLEX else (None, None)
        if op == "argmax":
            return ("i64", None) if d != "bool" and d not in T_COMPLEX else (None, None)
        if op in ("any", "all"):
            return ("u8" if d == "u8" else "bool"), None
        if op in ("var", "std"):
            return (T_COMPLEX.get(d, d), opmath(d)) if not integral else (None, None)

    pairs, compute = [], []
    for g in groups(doc, "reduction"):
        for c in g["cases"]:
            d = c[0][0]
            if d in T_SHELLS or d in T_BITS:
                continue
            r, comp = red_rule(g["op"], d)
            pairs.append((c, r, c[1]))
            if len(c) > 3 and comp is not None:
                compute.append((c, comp, c[3]["compute"]))
    check("torch reductions: sum/prod/cumsum/cumprod bool and integers -> i64; mean floating/complex only; "
          "max/min refuse complex; argmax -> i64 (refuses bool, complex); any/all -> bool, u8 -> u8; var/std "
          "COMPLEX_TO_FLOAT, floating/complex only", pairs)
    check("torch reductions: compute dtype = reduction_dtypes' computation dtype (opmath of the accumulation dtype)",
          compute)
    pairs = []
    for op in ("sum", "prod", "mean"):
        for c in group(doc, op, "reduction_dtype")["cases"]:
            a, d = c[0]
            if a in T_BITS or d in T_BITS or a in T_SHELLS or d in T_SHELLS:
                continue
            ok = op != "mean" or d in T_FLOATS or d in T_COMPLEX
            pairs.append((c, d if ok else None, c[1]))
    check("torch sum/prod(x, dtype=d) -> d for every pair (complex x to real d included); mean(x, dtype=d) -> d "
          "where d is floating or complex (any x), else refused", pairs)
    # matmul
    pairs = []
    for c in group(doc, "matmul", "binary")["cases"]:
        a, b = c[0]
        exp = a if a == b and a != "bool" and a not in T_BITS else None
        pairs.append((c, exp, c[1]))
    check("torch matmul: both operands of one dtype, which it returns; bool and bits refused", pairs)
    # concatenate: the promotion of torch.promote_types, folded
    promote = load(os.path.join(PROMO, "torch.json"))["promote_types"]
    pairs = []
    for c in group(doc, "concatenate", "list")["cases"]:
        names = c[0]
        if any(n in T_BITS or n in T_SHELLS for n in names):
            continue
        r = names[0]
        for n in names[1:]:
            r = promote.get(f"{r},{n}", "error")
            if r.startswith("error"):
                r = None
                break
        pairs.append((c, r, c[1]))
    check("torch cat: torch.promote_types of all operands (left fold; refused where it refuses)", pairs)
    fold = doc["concatenate_fold"]
    check("torch cat of three = left fold of the two-operand answers",
          [(["all"], fold["triples"], fold["equal_to_left_fold"])])
    # in-place and out=: canCast(result of the op, a / out)
    res = {}
    for op in ("add", "divide"):
        for c in group(doc, op, "compute")["cases"]:
            res[(op, tuple(c[0]))] = c[1]
    pairs = []
    for op in ("add", "multiply", "divide"):
        for c in group(doc, op, "inplace")["cases"]:
            a, b = c[0]
            r = res.get(("divide" if op == "divide" else "add", (a, b)))
            if r is None or a in T_SHELLS or b in T_SHELLS:
                continue
            pairs.append((c, a if torch_can_cast(r, a) else None, c[1]))
    for c in group(doc, "subtract", "inplace")["cases"]:
        a, b = c[0]
        r = res.get(("add", (a, b)))
        if r is None or a in T_SHELLS or b in T_SHELLS:
            continue
        ok = torch_can_cast(r, a) and "bool" not in (a, b, {"python:bool": "bool"}.get(b))
        pairs.append((c, a if ok else None, c[1]))
    check("torch a += b, -=, *=, /=: a's dtype where canCast(dtype of a op b, a), else refused; -= also refuses "
          "bool", pairs)
    pairs = []
    for op in ("add", "multiply", "divide"):
        for c in group(doc, op, "out")["cases"]:
            a, b, o = c[0]
            r = res.get(("divide" if op == "divide" else "add", (a, b)))
            if r is None:
                continue
            pairs.append((c, o if torch_can_cast(r, o) else None, c[1]))
    check("torch add/mul/div(a, b, out=c): c's dtype where canCast(dtype of a op b, c), else refused", pairs)
    pairs = []
    for c in group(doc, "sqrt", "out")["cases"]:
        a, o = c[0]
        r = "f32" if a == "bool" or a in T_INTS else a
        pairs.append((c, o if torch_can_cast(r, o) else None, c[1]))
    check("torch sqrt(a, out=c): c's dtype where canCast(sqrt's result dtype, c)", pairs)
    pairs = []
    for c in group(doc, "sum", "out")["cases"]:
        pairs.append((c, c[0][1], c[1]))
    check("torch sum(a, 0, out=c): always c's dtype (the out dtype becomes the accumulation dtype)", pairs)
    # compute groups: opmath
    pairs = []
    for g in groups(doc, "compute"):
        kind = kinds[g["op"]]
        for c in g["cases"]:
            if len(c) < 4:
                continue
            promoted = res.get(("add", tuple(c[0])))
            if kind == "NO_OPMATH":
                pairs.append((c, c[1], c[3]["compute"]))
            elif kind == "ALWAYS_BOOL":
                if promoted is not None:
                    pairs.append((c, opmath(promoted), c[3]["compute"]))
            elif g["op"] == "pow" and c[1] == "bool":
                continue  # bool ** bool: eager keeps bool where BOOL_TO_LONG says i64 (reference_vs_eager)
            else:
                pairs.append((c, opmath(c[1]), c[3]["compute"]))
    check("torch binary compute dtype: opmath of the result (of the promoted operands for ALWAYS_BOOL); "
          "NO_OPMATH (where) computes in the result", pairs)
    cplx = set(T_COMPLEX)
    skip = T_BITS | T_SHELLS
    check_refusals("torch unary refusals (tensor dtypes but shells and bits): negative/positive bool; sign, erf "
                   "complex; floor/ceil/round/trunc bool and complex; bitwise_not floating and complex; imag every "
                   "non-complex", doc, "unary",
                   {"negative": {"bool"}, "positive": {"bool"}, "sign": cplx, "erf": cplx,
                    **{op: cplx | {"bool"} for op in ("floor", "ceil", "round", "trunc")},
                    "bitwise_not": T_FLOATS | cplx, "imag": T_FLOATS | T_INTS | {"bool"}}, skip=skip)
    check_refusals("torch reduction refusals: mean/var/std bool and integers; max/min complex; argmax bool and "
                   "complex", doc, "reduction",
                   {"mean": T_INTS | {"bool"}, "var": T_INTS | {"bool"}, "std": T_INTS | {"bool"}, "max": cplx,
                    "min": cplx, "argmax": cplx | {"bool"}}, skip=skip)


# ---------------------------------------------------------------- TensorFlow

def verify_tensorflow():
    doc = load(os.path.join(OPS, "tensorflow.json"))
    real = {"c64": "f32", "c128": "f64"}
    for mode in ("all", "safe"):
        opt = {"dtype_conversion_mode": mode}
        pairs = []
        for g in groups(doc, "unary", options=opt):
            for c in g["cases"]:
                if c[1] is None:
                    continue
                n = c[0][0]
                weak = n.startswith(("weak:", "python:"))
                d = base(n) if not n.startswith("python:") else \
                    {"python:bool": "bool", "python:int": "i32", "python:float": "f32", "python:complex": "c128"}[n]
                if g["op"] in ("isnan", "isfinite", "logical_not"):
                    exp = "bool"
                elif g["op"] in ("absolute", "real", "imag", "angle"):
                    exp = real.get(d, d)
                else:
                    exp = d
                if weak and exp != "bool" and g["op"] != "bitwise_not":
                    exp = "weak:" + exp
                pairs.append((c, exp, c[1]))
        check(f"tensorflow [{mode}] unary: the input's dtype (complex -> real for abs/real/imag/angle, bool for "
              "isnan/isfinite/logical_not); weak or Python in -> weak out, but bitwise_not (strong)", pairs)
        pairs = []
        for g in groups(doc, "reduction", options=opt):
            for c in g["cases"]:
                if c[1] is None:
                    continue
                n = c[0][0]
                d = base(n)
                weak = n.startswith("weak:") and g["op"] not in ("cumsum", "cumprod", "argmax", "any", "all")
                exp = {"argmax": "i64", "any": "bool", "all": "bool"}.get(g["op"],
                                                                          real.get(d, d) if g["op"] in ("var", "std")
                                                                          else d)
                pairs.append((c, ("weak:" if weak and g["op"] not in ("argmax",) else "") + exp, c[1]))
        check(f"tensorflow [{mode}] reductions: no promotion (sum/mean of i8 stay i8), argmax -> i64, var/std of "
              "complex -> real; weak in -> weak out but cumsum/cumprod (strong)", pairs)
        add = promotion_table("tensorflow", "add", opt)
        div = promotion_table("tensorflow", "divide", opt)
        mul = promotion_table("tensorflow", "multiply", opt)
        sub = promotion_table("tensorflow", "subtract", opt)
        pairs = []
        # the operators, where they differ from the functions (`*` of bool is logical_and)
        prom = load(os.path.join(PROMO, "tensorflow.json"))
        operator = {(x["op"], x["lhs"], x["rhs"]): (x["operator"][0], len(x["operator"]) > 1)
                    for x in prom["operator_vs_function"][mode]}
        for op, table in (("add", add), ("subtract", sub), ("multiply", mul), ("divide", div)):
            for c in group(doc, op, "inplace", opt)["cases"]:
                t = operator.get((op, *c[0]), table.get(tuple(c[0])))
                if t is not None:
                    pairs.append((c, t, outcome(c)))
        check(f"tensorflow [{mode}] a += b (-=, *=, /=) rebinds a to a + b, the Python operator's result "
              "(tests/data/promotion/tensorflow.json: the function's, `*` of bool being logical_and)", pairs)
        pairs = []
        for op in ("assign_add", "assign_sub"):
            table = add if op == "assign_add" else sub
            for c in group(doc, op, "inplace", opt)["cases"]:
                t = table.get(tuple(c[0]))
                if t is None or (t[1] and t[0] is None):
                    if t is not None:
                        pairs.append((c, None, c[1]))
                    continue
                v = base(c[0][0])
                pairs.append((c, v if base(t[0] or "") == v else None, c[1]))
        check(f"tensorflow [{mode}] Variable.assign_add/assign_sub: take the value exactly where the promoted "
              "dtype of var + value is the variable's own (weak results count by their dtype)", pairs)
        pairs = []
        no_mm = {"bool", "i8", "i16", "f8e4m3fn", "f8e5m2", "i4", "u4"}
        for c in group(doc, "matmul", "binary", opt)["cases"]:
            t = add.get(tuple(c[0]))
            if t is None or t[0] is None:
                continue
            pairs.append((c, t[0] if t[0] not in no_mm else None, c[1]))
        check(f"tensorflow [{mode}] matmul: add's promotion, refused where that is bool, i8, i16, float8, int4, "
              "uint4 (where add runs)", pairs)
        f8, i4 = {"f8e4m3fn", "f8e5m2"}, {"i4", "u4"}
        uns = {"u8", "u16", "u32", "u64"}
        ints = uns | {"i8", "i16", "i32", "i64"}
        got = refused_sets(doc, "unary", opt)
        check(f"tensorflow [{mode}] unary: float8 refused by every op but imag and conj, int4/uint4 by every op "
              "but round, imag, conj; negative/abs/sign refuse bool and unsigned; logical_not takes only bool; "
              "bitwise_not refuses bool",
              [([op], (True, True), (f8 <= r if op not in ("imag", "conj") else not (f8 & r),
                                     i4 <= r if op not in ("round", "imag", "conj") else not (i4 & r)))
               for op, r in got.items()] +
              [([op], True, ({"bool"} | uns) <= got[op]) for op in ("negative", "absolute", "sign")] +
              [(["logical_not"], {"bool"}, set(doc["dtypes"]) - got["logical_not"]),
               (["bitwise_not"], True, "bool" in got["bitwise_not"])])
        got = refused_sets(doc, "reduction", opt)
        check(f"tensorflow [{mode}] reductions: bool refused by all but argmax/any/all; complex by max/min/argmax; "
              "integers by var/std; any/all take only bool",
              [([op], op not in ("argmax", "any", "all"), "bool" in r) for op, r in got.items()] +
              [([op], True, {"c64", "c128"} <= got[op]) for op in ("max", "min", "argmax")] +
              [([op], True, ints <= got[op]) for op in ("var", "std")] +
              [([op], {"bool"}, set(doc["dtypes"]) - got[op]) for op in ("any", "all")])
        pairs = []
        for c in group(doc, "concatenate", "list", opt)["cases"]:
            ds = {base(n) for n in c[0]}
            strong = [n for n in c[0] if not n.startswith("weak:")]
            exp = (base(c[0][0]) if not strong else strong[0]) if len(ds) == 1 else None
            if exp is not None and exp in ("i4", "u4", "f8e4m3fn", "f8e5m2") and len(c) > 2 and c[2]:
                pass  # same dtype, no CPU ConcatV2: a build fact with that dtype
            pairs.append((c, exp, c[1]))
        check(f"tensorflow [{mode}] concat: no promotion, one dtype only (a weak operand of that dtype is "
              "strengthened)", pairs)
    check_folds("tensorflow concat of three = left fold of two (both modes)", doc)


# ---------------------------------------------------------------- MLX

M_INTS = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"}


def verify_mlx():
    doc = load(os.path.join(OPS, "mlx.json"))
    pairs = []
    floaty = {"sqrt", "exp", "log", "sin", "tanh", "reciprocal", "log1p", "expm1", "sigmoid", "erf", "rsqrt"}
    py = {"python:bool": "bool", "python:int": "i32", "python:float": "f32", "python:complex": "c64"}
    for g in groups(doc, "unary"):
        for c in g["cases"]:
            if c[1] is None:
                continue
            d = py.get(c[0][0], base(c[0][0]))
            if g["op"] in floaty:
                exp = "f32" if d == "bool" or d in M_INTS else d
            elif g["op"] in ("isnan", "isfinite", "logical_not"):
                exp = "bool"
            elif g["op"] in ("absolute", "real", "imag"):
                exp = "f32" if d == "c64" else d
            else:
                exp = d
            pairs.append((c, exp, c[1]))
    check("mlx unary: float functions take bool and integers to f32; abs/real/imag of c64 -> f32 (imag of a "
          "real input runs); a Python scalar is bool/i32/f32/c64", pairs)
    pairs = []
    for g in groups(doc, "reduction"):
        for c in g["cases"]:
            d = c[0][0]
            if g["op"] in ("sum", "prod"):
                exp = {"bool": "i32", "i8": "i32", "i16": "i32", "u8": "u32", "u16": "u32"}.get(d, d)
            elif g["op"] == "cumsum":
                exp = "i32" if d == "bool" else d
            elif g["op"] in ("cumprod", "max", "min"):
                exp = d
            elif g["op"] == "argmax":
                exp = "u32"
            elif g["op"] in ("any", "all"):
                exp = "bool"
            else:  # mean var std
                exp = "f32" if d == "bool" or d in M_INTS else ("f32" if d == "c64" and g["op"] != "mean" else d)
            pairs.append((c, exp, c[1]))
    check("mlx reductions: sum/prod widen bool,i8,i16 -> i32 and u8,u16 -> u32; cumsum only bool -> i32; "
          "mean/var/std of bool and integers -> f32, var/std of c64 -> f32; argmax -> u32", pairs)
    pairs = []
    for op in ("cumsum", "cumprod"):
        for c in group(doc, op, "reduction_dtype")["cases"]:
            pairs.append((c, "i32" if op == "cumsum" and c[0][1] == "bool" else c[0][1], c[1]))
    check("mlx cumsum/cumprod(x, dtype=d) -> d, but cumsum(x, dtype=bool) -> i32", pairs)
    add = promotion_table("mlx", "add")
    div = promotion_table("mlx", "divide")
    pairs = []
    for op in ("add", "subtract", "multiply", "divide"):
        for c in group(doc, op, "inplace")["cases"]:
            t = (div if op == "divide" else add).get(tuple(c[0]))
            if t is None:
                continue
            if op == "divide" and (c[0][0] == "bool" or c[0][0] in M_INTS):
                t = (None, True)
            pairs.append((c, t, outcome(c)))
    check("mlx a += b (-=, *=): a takes the dtype of a + b in place (its dtype changes); a /= b refuses a bool "
          "or integer a, else takes a / b's dtype", pairs)
    pairs = []
    for c in group(doc, "matmul", "binary")["cases"]:
        t = add.get(tuple(c[0]))
        exp = t[0] if t[0] in ("f16", "bf16", "f32", "f64", "c64") else None
        pairs.append((c, exp, c[1]))
    check("mlx matmul: add's promotion, refused unless it is floating or complex", pairs)
    pairs = []
    for c in group(doc, "concatenate", "list")["cases"]:
        r = c[0][0]
        for n in c[0][1:]:
            r = add.get((r, n), (None, True))[0]
            if r is None:
                break
        pairs.append((c, r, c[1]))
    check("mlx concatenate: add's promotion, left fold", pairs)
    check_folds("mlx concatenate of three = left fold of two", doc)
    check_refusals("mlx unary refusals: negative bool; bitwise_not floating and complex; floor/ceil/trunc/expm1/"
                   "sigmoid/erf c64", doc, "unary",
                   {"negative": {"bool"}, "bitwise_not": {"f16", "bf16", "f32", "f64", "c64"},
                    **{op: {"c64"} for op in ("floor", "ceil", "trunc", "expm1", "sigmoid", "erf")}})
    check("mlx positive and trunc refuse every Python scalar",
          [(c, None, c[1]) for op in ("positive", "trunc") for c in group(doc, op, "unary")["cases"]
           if c[0][0].startswith("python:")])


# ---------------------------------------------------------------- tinygrad

G_INTS = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"}


def verify_tinygrad():
    doc = load(os.path.join(OPS, "tinygrad.json"))
    add = promotion_table("tinygrad", "add")
    div = promotion_table("tinygrad", "divide")
    acc = doc["sum_acc_dtype"]
    pairs = []
    for op in ("sum", "cumsum"):
        for c in group(doc, op, "reduction")["cases"]:
            d = c[0][0]
            if d.startswith("weak:"):
                continue
            exp = d if d in ("f16", "bf16") or d.startswith("f8") else acc[d]
            pairs.append((c, exp, c[1]))
    check("tinygrad sum/cumsum: sum_acc_dtype (bool,i8,i16 -> i32, u8,u16 -> u32; f16/bf16/fp8 accumulate in "
          "f32 and are cast back)", pairs)
    pairs = [(c, acc[c[0][0]], c[3]["compute"]) for op in ("sum", "mean", "var", "std")
             for c in group(doc, op, "reduction")["cases"] if len(c) > 3]
    check("tinygrad sum/mean/var/std compute dtype = sum_acc_dtype of the input", pairs)
    pairs = []
    for c in group(doc, "matmul", "binary")["cases"]:
        t = add.get(tuple(c[0]))
        pairs.append((c, t, outcome(c)))
    check("tinygrad matmul: add's promotion (least_upper_dtype)", pairs)
    pairs = []
    for c in group(doc, "concatenate", "list")["cases"]:
        r = c[0][0]
        for n in c[0][1:]:
            r = add.get((r, n), (None, True))[0]
        pairs.append((c, r, c[1]))
    check("tinygrad cat: add's promotion, left fold", pairs)
    check_folds("tinygrad cat of three = left fold of two", doc)
    pairs = []
    for op in ("add", "subtract", "multiply", "divide"):
        for c in group(doc, op, "inplace")["cases"]:
            a, b = c[0]
            t = (div if op == "divide" else add).get((a, b))
            if t is None:
                continue
            pairs.append((c, a if t[0] == a else None, c[1]))
    check("tinygrad a += b (-=, *=, /=): a.assign(a op b), allowed exactly where a op b has a's dtype", pairs)
    floaty = {"sqrt", "exp", "log", "sin", "reciprocal", "exp2", "erf", "rsqrt"}
    weak_floaty = {"tanh", "sigmoid", "round"}
    pairs = []
    for g in groups(doc, "unary"):
        for c in g["cases"]:
            n = c[0][0]
            d = base(n)
            integral = d == "bool" or d in G_INTS
            if n == "weak:i32":
                exp = "weak:f32" if g["op"] in floaty | weak_floaty else (
                    "bool" if g["op"] in ("isnan", "isfinite", "logical_not") else "weak:i32")
            elif n == "weak:f32":
                exp = None if g["op"] == "bitwise_not" else (
                    "bool" if g["op"] in ("isnan", "isfinite", "logical_not") else "weak:f32")
            elif g["op"] in floaty:
                exp = "f32" if integral else d
            elif g["op"] in weak_floaty:
                exp = "weak:f32" if integral else d
            elif g["op"] in ("floor", "ceil"):
                exp = "weak:i32" if d == "bool" else d
            elif g["op"] in ("isnan", "isfinite", "logical_not"):
                exp = "bool"
            elif g["op"] == "bitwise_not":
                exp = d if integral else None
            else:
                exp = d
            pairs.append((c, exp, c[1]))
    check("tinygrad unary: float functions take bool and integers to f32, but tanh/sigmoid/round give weak:f32 "
          "and floor/ceil of bool weak:i32; a weak int through a float function is weak:f32; bitwise_not "
          "refuses floats", pairs)
    pairs = []
    for g in groups(doc, "reduction"):
        for c in g["cases"]:
            n = c[0][0]
            d = base(n)
            integral = d == "bool" or d in G_INTS
            op = g["op"]
            if op in ("sum", "cumsum"):
                exp = {"weak:i32": "i32", "weak:f32": "f32"}.get(n) or (
                    d if d in ("f16", "bf16") or d.startswith("f8") else acc[d])
            elif op in ("prod", "max", "min"):
                exp = d
            elif op == "cumprod":
                exp = n
            elif op in ("mean", "var", "std"):
                exp = "f32" if integral or n == "weak:i32" else n
            elif op == "argmax":
                exp = "i32"
            else:
                exp = "bool"
            pairs.append((c, exp, c[1]))
    check("tinygrad reductions: sum/cumsum in sum_acc_dtype (weak in -> strong out); prod/max/min keep the "
          "dtype (weak -> strong), cumprod keeps it weak; mean/var/std of bool/integers -> f32 (a weak float stays "
          "weak); argmax -> i32; any/all -> bool", pairs)
    pairs = [(c, c[0][1], c[1]) for op in ("sum", "prod") for c in group(doc, op, "reduction_dtype")["cases"]]
    check("tinygrad sum/prod(dtype=d) -> d", pairs)


# ---------------------------------------------------------------- Paddle

def verify_paddle():
    doc = load(os.path.join(OPS, "paddle.json"))
    add = promotion_table("paddle", "add", {"mode": "eager"})
    table = {"subtract": promotion_table("paddle", "subtract", {"mode": "eager"}),
             "multiply": promotion_table("paddle", "multiply", {"mode": "eager"}),
             "divide": promotion_table("paddle", "divide", {"mode": "eager"}), "add": add}
    pairs = []
    for op in ("add", "subtract", "multiply", "divide"):
        for c in group(doc, op, "inplace")["cases"]:
            t = table[op].get(tuple(c[0]))
            if t is not None:
                pairs.append((c, t, outcome(c)))
    check("paddle a += b (-=, *=, /=): no Tensor.__iadd__, so a is rebound to a + b (the operator's promotion)",
          pairs)
    pairs, written = [], []
    not_written = {(op, tuple(x)) for op, xs in doc["out_not_written"].items() for x in xs}
    for op in ("add", "subtract", "multiply", "divide"):
        for c in group(doc, op, "out")["cases"]:
            t = table[op].get((c[0][0], c[0][1]))
            if t is not None:
                pairs.append((c, t, outcome(c)))
            if c[1] is not None and not (len(c) > 2 and c[2]):
                written.append((c, not (op == "multiply" and c[0][0] != c[0][1]),
                                (op, tuple(c[0])) not in not_written))
    check("paddle add/subtract/multiply/divide(a, b, out=c) return a + b etc. as without out= (no cast to c, no "
          "refusal)", pairs)
    check("paddle out=: the out tensor takes the result and its dtype, but multiply leaves it untouched where "
          "a and b differ in dtype", written)
    pairs = []
    for c in group(doc, "concatenate", "list")["cases"]:
        pairs.append((c, c[0][0] if len(set(c[0])) == 1 else None, c[1]))
    check("paddle concat: one dtype only, no promotion", pairs)
    check_folds("paddle concat of three = left fold of two", doc)
    cplx = {"c64", "c128"}
    every = set(doc["dtypes"])
    ints = {"u8", "i8", "i16", "i32", "i64"}
    floats = {"f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e5m2"}
    exp = {op: {"bool"} for op in ("positive", "absolute", "sqrt", "exp", "log", "sin", "tanh", "reciprocal",
                                   "floor", "ceil", "round", "trunc", "sign", "square", "isnan", "isfinite",
                                   "conj", "angle", "log1p", "expm1", "sigmoid", "erf", "rsqrt")}
    for op in ("floor", "ceil", "trunc", "erf", "rsqrt"):
        exp[op] = exp[op] | cplx
    exp["real"] = exp["imag"] = every - cplx
    exp["angle"] = exp["angle"] | ints
    exp["bitwise_not"] = floats | cplx
    check_refusals("paddle unary refusals: bool by all but negative/logical_not/bitwise_not; real/imag every "
                   "non-complex; angle integers; floor/ceil/trunc/erf/rsqrt complex; bitwise_not floating and "
                   "complex", doc, "unary", exp)
    exp = {op: {"bool"} for op in ("prod", "cumsum", "cumprod", "max", "min", "argmax", "var", "std")}
    for op in ("max", "min", "argmax", "var", "std"):
        exp[op] = exp[op] | cplx
    check_refusals("paddle reduction refusals: bool by prod/cumsum/cumprod/max/min/argmax/var/std; complex by "
                   "max/min/argmax/var/std", doc, "reduction", exp)
    pairs = []
    for c in group(doc, "matmul", "binary")["cases"]:
        a, b = c[0]
        if c[1] is None:
            continue
        if a == b:
            exp = "i32" if a == "i8" else a
        elif a in ("c64", "c128") or b in ("c64", "c128"):
            exp = add.get((a, b), (None,))[0]
        else:
            continue
        pairs.append((c, exp, c[1]))
    check("paddle matmul, where it runs or chose a dtype: one dtype gives it (int8 gives int32), a real and a "
          "complex operand give add's complex; other mixed pairs follow no promotion (FINDINGS)", pairs)
    pairs = []
    for op in ("sum", "prod", "mean"):
        for c in group(doc, op, "reduction_dtype")["cases"]:
            if c[1] is not None:
                pairs.append((c, c[0][1], c[1]))
    check("paddle sum/prod/mean(x, dtype=d) -> d wherever it runs or chose a dtype", pairs)
    floaty = {"sqrt", "exp", "log", "sin", "tanh", "reciprocal", "log1p", "expm1", "sigmoid", "erf", "rsqrt"}
    pairs = []
    for g in groups(doc, "unary"):
        for c in g["cases"]:
            if c[0][0].startswith("python:"):
                pairs.append((c, None, c[1]))
                continue
            if c[1] is None:
                continue
            d = base(c[0][0])
            if g["op"] in floaty:
                exp = "f32" if d.startswith(("u", "i")) else d
            elif g["op"] in ("isnan", "isfinite", "logical_not"):
                exp = "bool"
            elif g["op"] in ("absolute", "real", "imag", "angle"):
                exp = {"c64": "f32", "c128": "f64"}.get(d, d)
            else:
                exp = d
            pairs.append((c, exp, c[1]))
    check("paddle unary (where it runs or chose a dtype): float functions take integers to f32; abs/real/imag/"
          "angle of complex -> real; isnan/isfinite/logical_not -> bool; the rest keep the dtype; Python scalars "
          "refused", pairs)
    rule = {"sum": lambda d: "i64" if d in ("bool", "i32") else d, "prod": lambda d: d, "mean": lambda d: d,
            "cumsum": lambda d: "i64" if d.startswith(("u", "i")) else d, "cumprod": lambda d: d,
            "max": lambda d: d, "min": lambda d: d, "argmax": lambda d: "i64", "any": lambda d: "bool",
            "all": lambda d: "bool", "var": lambda d: d,
            "std": lambda d: "f32" if d.startswith(("u", "i")) else d}
    pairs = [(c, rule[g["op"]](c[0][0]), c[1]) for g in groups(doc, "reduction") for c in g["cases"] if c[1] is not None]
    check("paddle reductions (where they run or chose a dtype): sum takes bool and i32 to i64 and keeps u8/i8/i16; "
          "cumsum takes every integer to i64; mean, var, prod, cumprod, max, min keep the dtype (mean of bool is "
          "bool, var of i32 is i32); std of integers -> f32; argmax -> i64; any/all -> bool", pairs)


def main():
    for name, fn in (("torch", verify_torch), ("tensorflow", verify_tensorflow), ("mlx", verify_mlx),
                     ("tinygrad", verify_tinygrad), ("paddle", verify_paddle)):
        print(f"== {name}")
        fn()
    print(f"{len(FAILED)} rules failed" + (": " + "; ".join(FAILED) if FAILED else ""))
    sys.exit(len(FAILED))


if __name__ == "__main__":
    main()
