"""Dump what PyTorch does on CPU with the dtypes of operations of every arity: unary
functions, reductions (and their `dtype=`), matmul, cat, in-place operators and `out=`,
and the dtype it computes in where torch states it, to tests/data/operations/torch.json.

    /work/venvs/torch/bin/python tools/oracles/operations/torch_oracle.py  # writes tests/data/operations/torch.json

Dtypes and operands are those of tools/oracles/promotion/torch_oracle.py (imported
from there): 41 dtypes, `DTYPE` a tensor of shape [2] (shape [2, 2] for matmul),
`scalar:DTYPE` a zero-dim tensor, `python:KIND` True, 3, 2.5, 1+2j.

A failure is one of three things, as in the promotion oracle:
- a refusal of the operation, on every device: an explicit check (`mean(): could not
  infer output dtype`, `floor is not supported for complex inputs`, an argument that
  must be a Tensor, a cast refused by `canCast`), or a dtype *category* (bool, integer,
  floating, complex) that no device's kernel of the op takes: torch's own OpInfos
  (`torch.testing._internal.common_methods_invocations.op_db`, CPU, CUDA and every
  other device they list) name no dtype of that category for the op (`erf` of complex,
  `bitwise_not` of floats, `argmax` of bool); and, as in the promotion oracle, any
  operation that computes with a bits dtype. `[operands, null, error]`.
- a kernel this CPU build lacks (`"sqrt_vml_cpu" not implemented for 'Float8_e4m3fn'`)
  for a dtype of a category some device runs: `[operands, DTYPE, error]`, DTYPE being
  the result the operation chose, from torch's reference implementation
  (`torch._refs.<op>`, whose dtype logic is eager's, run on a meta tensor) where it
  agrees with every case of that op that ran, else the dtype the kernel error names
  (the shell dtypes uint1..int7, which `torch._prims_common` calls `Invalid dtype!`
  and TensorIterator does not promote). `build_fact_results` counts which.
- for the binary ops (in-place, `out=`, compute groups) the promotion oracle's
  `classify()` does the same with torch's promotion functions.

Compute dtypes: `torch._prims_common.elementwise_dtypes(*args, type_promotion_kind=K)`
with each op's own K, the one its `torch._refs` function passes (recorded by running
the reference once with a recorder around elementwise_dtypes / reduction_dtypes), and
`reduction_dtypes` as the reduction references call it (sum passes `dtype=int64` for
bool and integers). The fourth element of a case is `{"compute", "how"}`.
"""
import contextlib
import importlib.util
import itertools
import os
import re
import sys
import time
import types
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_common_b as C  # noqa: E402  (also puts tools/oracles/promotion on sys.path)

import torch  # noqa: E402
import torch._prims_common as pc  # noqa: E402
import torch._refs as R  # noqa: E402
import torch._meta_registrations as MR  # noqa: E402


def _load_promotion_oracle():
    spec = importlib.util.spec_from_file_location(
        "promotion_torch_oracle", os.path.join(HERE, "..", "promotion", "torch_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


P = _load_promotion_oracle()
name_of = P.name_of
first_line = C.first_line

# ---------------------------------------------------------------- the operations

UNARY = {
    # promo op: (what is called, function, torch._refs function or None, OpInfo name)
    "negative": ("torch.neg", torch.neg, R.neg, "neg"),
    "positive": ("torch.positive", torch.positive, R.positive, "positive"),
    "absolute": ("torch.abs", torch.abs, R.abs, "abs"),
    "sqrt": ("torch.sqrt", torch.sqrt, R.sqrt, "sqrt"),
    "exp": ("torch.exp", torch.exp, R.exp, "exp"),
    "log": ("torch.log", torch.log, R.log, "log"),
    "sin": ("torch.sin", torch.sin, R.sin, "sin"),
    "tanh": ("torch.tanh", torch.tanh, R.tanh, "tanh"),
    "reciprocal": ("torch.reciprocal", torch.reciprocal, R.reciprocal, "reciprocal"),
    "floor": ("torch.floor", torch.floor, R.floor, "floor"),
    "ceil": ("torch.ceil", torch.ceil, R.ceil, "ceil"),
    "round": ("torch.round", torch.round, R.round, "round"),
    "trunc": ("torch.trunc", torch.trunc, R.trunc, "trunc"),
    "sign": ("torch.sign", torch.sign, R.sign, "sign"),
    "square": ("torch.square", torch.square, R.square, "square"),
    "isnan": ("torch.isnan", torch.isnan, R.isnan, "isnan"),
    "isfinite": ("torch.isfinite", torch.isfinite, R.isfinite, "isfinite"),
    "logical_not": ("torch.logical_not", torch.logical_not, R.logical_not, "logical_not"),
    "bitwise_not": ("torch.bitwise_not", torch.bitwise_not, R.bitwise_not, "bitwise_not"),
    "real": ("torch.real", torch.real, R.real, "real"),
    "imag": ("torch.imag", torch.imag, R.imag, "imag"),
    "conj": ("torch.conj", torch.conj, R.conj, "conj"),
    # no torch._refs.angle: its meta function (torch._meta_registrations.meta_angle) states it
    "angle": ("torch.angle", torch.angle, None, "angle"),
    "exp2": ("torch.exp2", torch.exp2, R.exp2, "exp2"),
    "log1p": ("torch.log1p", torch.log1p, R.log1p, "log1p"),
    "expm1": ("torch.expm1", torch.expm1, R.expm1, "expm1"),
    "sigmoid": ("torch.sigmoid", torch.sigmoid, R.sigmoid, "sigmoid"),
    "erf": ("torch.erf", torch.erf, R.erf, "erf"),
    "rsqrt": ("torch.rsqrt", torch.rsqrt, R.rsqrt, "rsqrt"),
}
# What torch._refs says of the ops whose reference has no type_promotion_kind.
NO_KIND = {
    "positive": "none: returns its input; torch._refs.positive refuses bool",
    "real": "none: a complex input gives its real dtype (a view), any other input is returned as it is",
    "imag": "none: complex inputs only (torch._refs.imag checks is_complex_dtype), giving the real dtype",
    "conj": "none: returns the input's dtype (a lazily conjugated view of a complex input)",
    "angle": "INT_TO_FLOAT for a real input, the complex's real dtype for a complex one "
             "(torch._meta_registrations.meta_angle; no torch._refs.angle)",
    "argmax": "none: always int64 (torch._meta_registrations.argmax_argmin_meta; no torch._refs.argmax)",
    "any": "none: the input converted to bool, reduced; a uint8 input gives uint8 (torch._refs.any: "
           "'Preserves uint8 -- probably a legacy mask thing')",
    "all": "none: logical_not(any(logical_not(a))); a uint8 input gives uint8 (torch._refs.all)",
    "matmul": "none: no torch._refs.matmul; torch._decomp's matmul calls mm, whose meta function "
              "(meta_mm) requires both operands to have one dtype and returns it",
}
REDUCTIONS = {
    # promo op: (what is called, function(t), reference(t) or None, OpInfo (name, variant))
    "sum": ("torch.sum(t)", torch.sum, R.sum, ("sum", "")),
    "prod": ("torch.prod(t)", torch.prod, R.prod, ("prod", "")),
    "mean": ("torch.mean(t)", torch.mean, R.mean, ("mean", "")),
    "cumsum": ("torch.cumsum(t, 0)", lambda t: torch.cumsum(t, 0), lambda t: R.cumsum(t, 0), ("cumsum", "")),
    "cumprod": ("torch.cumprod(t, 0)", lambda t: torch.cumprod(t, 0), lambda t: R.cumprod(t, 0), ("cumprod", "")),
    "max": ("torch.max(t)", torch.max, R.amax, ("max", "reduction_no_dim")),
    "min": ("torch.min(t)", torch.min, R.amin, ("min", "reduction_no_dim")),
    "argmax": ("torch.argmax(t)", torch.argmax, None, ("argmax", "")),
    "any": ("torch.any(t)", torch.any, R.any, ("any", "")),
    "all": ("torch.all(t)", torch.all, R.all, ("all", "")),
    "var": ("torch.var(t)", torch.var, R.var, ("var", "")),
    "std": ("torch.std(t)", torch.std, R.std, ("std", "")),
}
REFERENCE_NAMES = {"max": "torch._refs.amax", "min": "torch._refs.amin", "cumsum": "torch._refs.cumsum(t, 0)",
                   "cumprod": "torch._refs.cumprod(t, 0)"}
WITH_DTYPE = {"sum": (torch.sum, R.sum), "prod": (torch.prod, R.prod), "mean": (torch.mean, R.mean)}
# The binary ops whose compute dtype is dumped: their function, and the reference
# whose type_promotion_kind they use.
BINARY_COMPUTE = {
    # one op of each kind the binary references use (the compute dtype is the kind's)
    "add": (torch.add, R.add, "torch._refs.add"),
    "divide": (torch.div, R.true_divide, "torch._refs.true_divide"),
    "pow": (torch.pow, R.pow, "torch._refs.pow"),
    "equal": (torch.eq, R.eq, "torch._refs.eq"),
    "where": (lambda a, b: torch.where(P.COND, a, b), lambda a, b: R.where(P.COND, a, b), "torch._refs.where"),
}
# The kinds of other binary references (not swept: their compute dtype is their kind's).
OTHER_BINARY_REFS = {"subtract": R.sub, "multiply": R.mul, "floor_divide": R.floor_divide, "remainder": R.remainder,
                     "maximum": R.maximum, "less_than": R.lt, "bitwise_and": R.bitwise_and,
                     "logical_and": R.logical_and, "atan2": R.atan2}
INPLACE = {"add": lambda a, b: a.__iadd__(b), "subtract": lambda a, b: a.__isub__(b),
           "multiply": lambda a, b: a.__imul__(b), "divide": lambda a, b: a.__itruediv__(b)}
OUT = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div}

# ---------------------------------------------------------------- torch's own statements


class Recorder:
    """Records each call of torch._prims_common.elementwise_dtypes and reduction_dtypes
    (and of the names modules imported them under) while active: (function, kind,
    compute dtype, result dtype)."""

    def __init__(self):
        self.calls = []

    @contextlib.contextmanager
    def active(self):
        originals = {}

        def wrap(fname, orig):
            def recorded(*args, **kwargs):
                out = orig(*args, **kwargs)
                kind = kwargs.get("type_promotion_kind", kwargs.get("output_dtype_kind"))
                if kind is None and fname == "reduction_dtypes":
                    kind = args[1]
                self.calls.append((fname, kind, out[0], out[1]))
                return out
            return recorded

        for mod in (pc, MR):
            for fname in ("elementwise_dtypes", "reduction_dtypes"):
                if hasattr(mod, fname):
                    originals[(mod, fname)] = getattr(mod, fname)
                    setattr(mod, fname, wrap(fname, getattr(mod, fname)))
        try:
            yield self
        finally:
            for (mod, fname), f in originals.items():
                setattr(mod, fname, f)


def stated(thunk, record="elementwise_dtypes"):
    """Runs `thunk` (a reference, on meta tensors) with a Recorder. Returns (its result
    dtype or None, error or None, the first recorded call of `record` or None). Only the
    first call is the reference's own: the meta functions of the eager ops a reference
    calls on meta tensors are references too (cumsum's mask `rg <= rg` is an ALWAYS_BOOL
    elementwise_dtypes call, any's `a.sum()` a reduction_dtypes one), so a reduction
    records reduction_dtypes only, and any, all and argmax record nothing."""
    rec = Recorder()
    with rec.active():
        try:
            out = thunk()
            res, err = out.dtype, None
        except Exception as e:  # noqa: BLE001
            res, err = None, first_line(e)
    calls = [c for c in rec.calls if c[0] == record]
    return res, err, (calls[0] if calls else None)


def kind_name(call):
    fname, kind = call[0], call[1]
    return kind.name if fname == "elementwise_dtypes" else f"{kind.name} (REDUCTION_OUTPUT_TYPE_KIND)"


def meta(x):
    """The meta-device twin of an operand (a Python scalar stays as it is)."""
    return torch.empty(x.shape, dtype=x.dtype, device="meta") if isinstance(x, torch.Tensor) else x


# ---------------------------------------------------------------- OpInfo categories

def category(d):
    if d == torch.bool:
        return "bool"
    if d.is_complex:
        return "complex"
    if d.is_floating_point:
        return "floating"
    return "integer"


def opinfo_categories():
    """{(OpInfo name, variant): sorted dtype names any device's OpInfo lists}, from
    torch's own tests (expecttest, which they import for their test cases only, is
    stubbed)."""
    if "expecttest" not in sys.modules:
        stub = types.ModuleType("expecttest")
        stub.TestCase = unittest.TestCase
        sys.modules["expecttest"] = stub
    from torch.testing._internal.common_methods_invocations import op_db
    out = {}
    for o in op_db:
        ds = set(o.dtypes)
        for v in o.dtypesIf.values():
            ds |= set(v)
        out[(o.name, o.variant_test_name)] = ds
    return out


NOT_IMPLEMENTED = re.compile(r'^(?:\w+: )?"(\w+)" not implemented for \'(\w+)\'')
# the CPU kernel of var and std says it its own way
UNSUPPORTED = re.compile(r"^(?:\w+: )?(\w+): Unsupported dtype (\w+)$")


def kernel_dtype(error):
    """(kernel, dtype) of a missing CPU kernel's error, or None."""
    m = NOT_IMPLEMENTED.match(error or "") or UNSUPPORTED.match(error or "")
    return (m.group(1), P.C10.get(m.group(2), m.group(2))) if m else None


SAME_DTYPE = re.compile(r"^(RuntimeError: expected m1 and m2 to have the same dtype), but got: .*$")


def shorter(c):
    """A case with mm's error cut before the operands' C++ type names."""
    if C.failed(c):
        c[2] = SAME_DTYPE.sub(r"\1", c[2])
    return c


# ---------------------------------------------------------------- sweeps

def single_input(ops, operands, opinfo, kind_of, kinds, complaints, facts, exceptions, how_result, make_operand):
    """Unary functions and reductions: one operand each."""
    groups = []
    for op, (_, fn, ref, info) in ops.items():
        key = info if isinstance(info, tuple) else (info, "")
        cats = {category(d) for d in opinfo[key]}
        cases, counts = [], {"ran": 0, "no_cpu_kernel": 0, "refused": 0}
        for name, value in operands:
            x = make_operand(value)
            c = C.attempt([name], lambda: name_of(fn(x).dtype))
            # what torch's reference says (on a meta tensor): result and compute dtype
            ref_res, ref_err, call = (None, "no reference", None)
            if isinstance(x, torch.Tensor):
                record = None if op in NO_KIND and op != "angle" else ("reduction_dtypes" if op in REDUCTIONS else "elementwise_dtypes")
                if ref is not None:
                    ref_res, ref_err, call = stated(lambda: ref(meta(x)), record)
                elif op == "angle":
                    ref_res, ref_err, call = stated(lambda: torch.angle(meta(x)), record)
                elif op == "argmax":
                    ref_res, ref_err, call = stated(lambda: torch.argmax(meta(x)), record)
            if call is not None:
                kinds.setdefault(op, kind_name(call))
                if kinds[op] != kind_name(call):
                    complaints.append(f"{op} {name}: kind {kind_name(call)}, not {kinds[op]}")
            extra = {"compute": name_of(call[2]), "how": call[0]} if call is not None else None
            if not C.failed(c):
                counts["ran"] += 1
                if ref_res is not None and name_of(ref_res) != c[1]:
                    exceptions.append({"op": op, "operand": name, "eager": c[1], "torch._refs": name_of(ref_res)})
                elif ref_res is None and isinstance(x, torch.Tensor) and (ref is not None or op in ("angle", "argmax")):
                    exceptions.append({"op": op, "operand": name, "eager": c[1], "torch._refs": "error: " + ref_err})
            else:
                k = kernel_dtype(c[2])
                d = getattr(x, "dtype", None)
                if k is not None and d is not None and d not in P.BITS and category(d) in cats:
                    if ref_res is not None:
                        c[1] = name_of(ref_res)
                        how_result.setdefault(op, {}).setdefault("torch._refs on a meta tensor", 0)
                        how_result[op]["torch._refs on a meta tensor"] += 1
                    else:
                        c[1] = kind_of(op, k[1])
                        how_result.setdefault(op, {}).setdefault("the dtype the kernel error names", 0)
                        how_result[op]["the dtype the kernel error names"] += 1
                    counts["no_cpu_kernel"] += 1
                else:
                    counts["refused"] += 1
            if extra is not None and c[1] is not None:
                c = C.case(c[0], c[1], c[2] if len(c) > 2 else None, extra)
            cases.append(c)
        facts[op] = counts
        groups.append(cases)
    return groups


def result_from_kernel(op, named):
    """The result of an op whose reference cannot answer (shell dtypes), from the dtype
    its kernel error names: TensorIterator does not promote the shell dtypes, so the op
    computes in its input's dtype; the result is that, or bool, or int64."""
    if op in ("isnan", "isfinite", "logical_not", "any", "all"):
        return "bool"
    if op == "argmax":
        return "i64"
    return named


def reduction_dtype_groups(dtype_names, types, exceptions, how_result):
    groups = []
    for op, (fn, ref) in WITH_DTYPE.items():
        cases = []
        for ln, rn in C.ordered_pairs(dtype_names):
            x, d = P.make(types[ln], (2,))[0], types[rn]
            c = C.attempt([ln, rn], lambda: name_of(fn(x, dtype=d).dtype))
            ref_res, ref_err, call = stated(lambda: ref(meta(x), dtype=d), "reduction_dtypes")
            extra = {"compute": name_of(call[2]), "how": call[0]} if call is not None else None
            if not C.failed(c):
                if ref_res is not None and name_of(ref_res) != c[1]:
                    exceptions.append({"op": op + " dtype=", "operand": [ln, rn], "eager": c[1],
                                       "torch._refs": name_of(ref_res)})
            else:
                k = kernel_dtype(c[2])
                bits = x.dtype in P.BITS or d in P.BITS
                if k is not None and not bits:
                    if ref_res is not None:
                        c[1] = name_of(ref_res)
                        how_result.setdefault(op + " dtype=", {}).setdefault("torch._refs on a meta tensor", 0)
                        how_result[op + " dtype="]["torch._refs on a meta tensor"] += 1
                    else:
                        c[1] = rn
                        how_result.setdefault(op + " dtype=", {}).setdefault("the dtype= argument", 0)
                        how_result[op + " dtype="]["the dtype= argument"] += 1
            if extra is not None and c[1] is not None:
                c = C.case(c[0], c[1], c[2] if len(c) > 2 else None, extra)
            cases.append(c)
        groups.append(C.group(op, "reduction_dtype", cases))
    return groups


def matmul_group(dtype_names, types, opinfo):
    cats = {category(d) for d in opinfo[("matmul", "")]}
    cases = []
    for ln, rn in C.ordered_pairs(dtype_names):
        a, b = P.make(types[ln], (2, 2))[0], P.make(types[rn], (2, 2))[0]
        c = C.attempt([ln, rn], lambda: name_of(torch.matmul(a, b).dtype))
        if C.failed(c):
            k = kernel_dtype(c[2])
            # one dtype for both (mm's own check comes first), a category some device runs
            if k is not None and ln == rn and a.dtype not in P.BITS and category(a.dtype) in cats:
                c[1] = ln
        cases.append(shorter(c))
    return C.group("matmul", "binary", cases)


def cat_group(dtype_names, subset, types, exceptions):
    """torch.cat of two tensors (every pair of dtypes) and of three (the subset)."""
    cases = []

    def one(names):
        ts = [P.make(types_by_promo[n], (2,))[0] for n in names]
        c = C.attempt(names, lambda: name_of(torch.cat(ts).dtype))
        ref_res, ref_err, call = stated(lambda: R.cat([meta(t) for t in ts]), None)
        if not C.failed(c):
            if ref_res is not None and name_of(ref_res) != c[1]:
                exceptions.append({"op": "concatenate", "operand": names, "eager": c[1], "torch._refs": name_of(ref_res)})
        else:
            k = kernel_dtype(c[2])
            if k is not None and not any(t.dtype in P.BITS for t in ts):
                c[1] = name_of(ref_res) if ref_res is not None else (names[0] if len(set(names)) == 1 else None)
        return c

    types_by_promo = {P.NAMES[n]: types[n] for n in types}
    pairs = [one(list(p)) for p in C.ordered_pairs(dtype_names)]
    triples = [one(list(t)) for t in C.ordered_triples(subset)]
    return C.group("concatenate", "list", pairs + triples), C.fold_of_two(pairs, triples)


def binary_classified(op, a, b, names, thunk, result_is):
    """A binary op's case, a missing CPU kernel classified by the promotion oracle's
    classify() (which computes the dtype torch's promotion chose); `result_is(common)`
    turns that into this form's result (the in-place or out dtype)."""
    c = C.attempt(names, thunk)
    if C.failed(c):
        pc4 = [names[0], names[1], None, c[2]]
        P.classify(op, a, b, pc4, {k: 0 for k in ("ran", "no_cpu_kernel", "refused_by_the_operation",
                                                 "refused_by_a_later_step", "refused")})
        c[2] = pc4[3]
        if pc4[2] is not None:
            c[1] = result_is(pc4[2])
    return c


def inplace_groups(tensor_ops, python_ops):
    groups = []
    for op, fn in INPLACE.items():
        cases = []
        for (ln, a0), (rn, b) in itertools.product(tensor_ops, tensor_ops + python_ops):
            a = P.make(a0.dtype, (2,))[0]  # a fresh left operand for each case

            def run():
                r = fn(a, b)
                assert r is a, "in-place did not return its left operand"
                return name_of(r.dtype)
            cases.append(binary_classified(op, a, b, [ln, rn], run, lambda common: ln))
        groups.append(C.group(op, "inplace", cases))
    return groups


def out_groups(subset, types_by_promo):
    groups = []
    for op, fn in OUT.items():
        cases = []
        for names in C.ordered_triples(subset):
            a, b, o = (P.make(types_by_promo[n], (2,))[0] for n in names)

            def run():
                r = fn(a, b, out=o)
                assert r is o
                return name_of(r.dtype)
            cases.append(binary_classified(op, a, b, list(names), run, lambda common: names[2]))
        groups.append(C.group(op, "out", cases))
    # a unary function and a reduction with out=, every (input, out) pair
    for op, fn in (("sqrt", torch.sqrt), ("sum", lambda a, out: torch.sum(a, 0, out=out))):
        cases = []
        for names in C.ordered_pairs(subset):
            a, o = (P.make(types_by_promo[n], (2,) if (op == "sqrt" or i == 0) else ())[0]
                    for i, n in enumerate(names))
            c = C.attempt(list(names), lambda: name_of(fn(a, out=o).dtype))
            # a missing CPU kernel (sum of uint16, sqrt of float8): the out dtype was chosen
            if C.failed(c) and kernel_dtype(c[2]) is not None:
                c[1] = names[1]
            cases.append(c)
        groups.append(C.group(op, "out", cases))
    return groups


def compute_groups(operands, kinds, complaints, differ):
    """Binary ops on every pair of operands (Python with Python left out): the eager
    result (classified as in the promotion oracle) and elementwise_dtypes with the op's
    own kind."""
    groups = []
    for op, (fn, ref, ref_name) in BINARY_COMPUTE.items():
        _, _, call = stated(lambda: ref(torch.ones(2, device="meta"), torch.ones(2, device="meta")))
        kind = call[1]
        kinds.setdefault(op, kind.name)
        cases = []
        for (ln, a), (rn, b) in itertools.product(operands, operands):
            if ln.startswith("python:") and rn.startswith("python:"):
                continue
            c = binary_classified(op, a, b, [ln, rn], lambda: name_of(fn(a, b).dtype), lambda common: common)
            try:
                comp, res = pc.elementwise_dtypes(a, b, type_promotion_kind=kind)
                extra = {"compute": name_of(comp), "how": "elementwise_dtypes"}
                if c[1] is not None and name_of(res) != c[1]:
                    differ.setdefault(op, []).append([[ln, rn], c[1], name_of(res)])
            except Exception:  # noqa: BLE001
                extra = None
            if extra is not None and c[1] is not None:
                c = C.case(c[0], c[1], c[2] if len(c) > 2 else None, extra)
            cases.append(c)
        groups.append(C.group(op, "compute", cases))
    return groups


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    every, order, types, operands, made_by = P.setup()
    names = [P.NAMES[n] for n in order]
    types_by_promo = {P.NAMES[n]: types[n] for n in order}
    subset = [n for n in C.SUBSET if n in types_by_promo]
    tensor_ops = [(n, v) for n, v in operands if not n.startswith(("scalar:", "python:"))]
    python_ops = [(n, v) for n, v in operands if n.startswith("python:")]
    opinfo = opinfo_categories()
    kinds, complaints, facts, exceptions, how_result = {}, [], {}, [], {}
    groups, timings = [], {}

    t0 = time.time()
    unary = single_input(UNARY, operands, opinfo, result_from_kernel, kinds, complaints, facts, exceptions,
                         how_result, lambda v: v)
    groups += [C.group(op, "unary", cases) for op, cases in zip(UNARY, unary)]
    timings["unary"] = time.time() - t0
    t0 = time.time()
    red = single_input(REDUCTIONS, tensor_ops, opinfo, result_from_kernel, kinds, complaints, facts, exceptions,
                       how_result, lambda v: v)
    groups += [C.group(op, "reduction", cases) for op, cases in zip(REDUCTIONS, red)]
    groups += reduction_dtype_groups(names, types_by_promo, exceptions, how_result)
    timings["reductions"] = time.time() - t0
    for op, text in NO_KIND.items():
        kinds.setdefault(op, text)
    kinds["concatenate"] = stated(lambda: R.cat([torch.ones(2, device="meta")] * 2))[2][1].name
    t0 = time.time()
    groups.append(matmul_group(names, types_by_promo, opinfo))
    timings["matmul"] = time.time() - t0
    t0 = time.time()
    g, fold = cat_group(names, subset, types, exceptions)
    groups.append(g)
    timings["concatenate"] = time.time() - t0
    t0 = time.time()
    groups += inplace_groups(tensor_ops, python_ops)
    timings["inplace"] = time.time() - t0
    t0 = time.time()
    groups += out_groups(subset, types_by_promo)
    timings["out"] = time.time() - t0
    t0 = time.time()
    compute_differ = {}
    groups += compute_groups([o for o in operands if not o[0].startswith("scalar:")], kinds, complaints,
                             compute_differ)
    timings["compute"] = time.time() - t0
    two = (torch.ones(2, device="meta"), torch.ones(2, device="meta"))
    for op, ref in OTHER_BINARY_REFS.items():
        kinds.setdefault(op, stated(lambda: ref(*two))[2][1].name)
    if complaints:
        sys.exit("inconsistent:\n" + "\n".join(complaints[:40]))

    functions = {op: v[0] for op, v in UNARY.items()}
    functions.update({op: v[0] for op, v in REDUCTIONS.items()})
    functions.update({f"{op} dtype=": f"torch.{op}(t, dtype=d)" for op in WITH_DTYPE})
    functions.update({"matmul": "torch.matmul(a, b), a and b of shape [2, 2]", "concatenate": "torch.cat([a, b, ...])",
                      **{f"{op} inplace": f"a {C.INPLACE[op]} b (a.__i{ {'add': 'add', 'subtract': 'sub', 'multiply': 'mul', 'divide': 'truediv'}[op]}__(b))"
                         for op in INPLACE},
                      **{f"{op} out": f"torch.{f.__name__}(a, b, out=c)" for op, f in OUT.items()},
                      "sqrt out": "torch.sqrt(a, out=c)", "sum out": "torch.sum(a, 0, out=c), c zero-dim",
                      **{f"{op} compute": f"{getattr(fn, '__name__', 'torch.where')}(a, b) and "
                                          f"elementwise_dtypes(a, b, type_promotion_kind=<{ref_name}'s>)"
                         for op, (fn, _, ref_name) in BINARY_COMPUTE.items()}})
    references = {op: (f"torch._refs.{v[2].__name__}" if v[2] is not None else None) for op, v in UNARY.items()}
    references.update({op: REFERENCE_NAMES.get(op, f"torch._refs.{v[2].__name__}" if v[2] else None)
                       for op, v in REDUCTIONS.items()})
    references["angle"] = "torch._meta_registrations.meta_angle"
    references["argmax"] = "torch._meta_registrations.argmax_argmin_meta"
    opinfo_used = {}
    for op, v in list(UNARY.items()) + list(REDUCTIONS.items()):
        key = v[3] if isinstance(v[3], tuple) else (v[3], "")
        opinfo_used[op] = {"opinfo": "/".join(x for x in key if x),
                           "categories": sorted({category(d) for d in opinfo[key]})}
    opinfo_used["matmul"] = {"opinfo": "matmul", "categories": sorted({category(d) for d in opinfo[("matmul", "")]})}
    doc = {
        "framework": "torch", "version": torch.__version__,
        "generated_by": C.GENERATED_BY + "torch_oracle.py", "device": "cpu",
        "default_dtype": name_of(torch.get_default_dtype()),
        "dtypes": names,
        "subset": subset,
        "functions": functions,
        "missing_ops": {},
        "kinds": kinds,
        "references": references,
        "opinfo_categories": opinfo_used,
        "case_kinds": facts,
        "build_fact_results": how_result,
        "reference_vs_eager": exceptions,
        "compute_groups_result_vs_elementwise_dtypes": {
            op: {"cases": len(v), "[operands, eager result, elementwise_dtypes result]": v}
            for op, v in compute_differ.items()},
        "concatenate_fold": fold,
        "made_by": made_by,
    }
    doc["groups"] = groups
    C.write(out_path, doc)
    print(f"torch {torch.__version__}: {C.count(groups)} cases, {time.time() - start:.1f}s "
          f"({', '.join(f'{k} {v:.0f}s' for k, v in timings.items())})", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else C.DEFAULT_OUT.format("torch"))
