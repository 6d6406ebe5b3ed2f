"""Dump what PyTorch really does on CPU when a binary function or operator meets two
operands of different dtypes, to tests/data/promotion/torch.json.

    python tools/oracles/promotion/torch_oracle.py tests/data/promotion/torch.json

Operands: `DTYPE` is `torch.ones(2, dtype=...)` (a dimensioned tensor), `scalar:DTYPE`
is `torch.ones((), dtype=...)` (a zero-dim tensor; `torch.zeros` where `ones` has no
fill kernel, as for the shell dtypes uint1..uint7 and int1..int7), `python:KIND` the
literal True, 3, 2.5 or 1+2j. Two tensors go through the function (`torch.add(a, b)`);
a Python scalar with a tensor goes through the Python operator where Python has one
(`t + 2.5`, `2.5 + t`), else through the function (`torch.maximum(t, 2.5)`, which
refuses it); two Python scalars go through the function (`torch.add(True, True)`,
`torch.remainder(3, 3)`, which refuses them). The result is the returned tensor's
dtype.

A failure is one of three things:
- The operation refuses the pair, on every device: its promotion refuses the dtypes
  (`Promotion for Float8 Types is not supported`), a check of its own does
  (`maximum not implemented for complex tensors` in the meta function of maximum,
  subtraction of bool), or it is not defined for the dtype its operands promote to,
  no device having a kernel for it (`OPERATION_REFUSES`): ordering complex numbers,
  bitwise operations on floats and complex, floor division, remainder and atan2 of
  complex, nextafter off the real floats, logaddexp of bool and integers, huber_loss
  of complex, mse_loss off the real floats. The case is `[lhs, rhs, null, error]`.
- The CPU build has no kernel for a dtype (`"add_stub" not implemented for 'UInt16'`,
  `"copy_" not implemented for 'UInt1'` converting a shell tensor): a fact of the build.
  The case is `[lhs, rhs, DTYPE, error]`, DTYPE being what the operation would have
  given: `promoted()` computes it with torch's own promotion functions
  (`torch.result_type`, `torch.promote_types`, `torch.can_cast`), step by step as the
  operation is built (`3 / t` is `t.reciprocal() * 3`, `l1_loss` is `|a - b|`,
  `poisson_nll_loss` is `exp(a) - b * a`). Where a later step's promotion refuses, the
  case stays a refusal. `promoted()` is checked against every case that ran: the
  script stops if it disagrees with one.
- Anything else (an argument of the wrong type, a cast back to the input's dtype that
  torch refuses) is a refusal, as the error says.

Side information: `torch.promote_types` and `torch.result_type` for every pair, what
differs between the function and the operator, how many cases of each kind each op has,
and the dtypes left out, with why.
"""
import itertools
import re
import sys
import time
import warnings

import torch
import torch.nn.functional as F

from oracle_common import count_cases, drop_identical_ops, dtype_names, first_line, python_operands, sweep, write

SHELLS = [f"uint{i}" for i in range(1, 8)] + [f"int{i}" for i in range(1, 8)]
BITS_NAMES = ["bits8", "bits16", "bits1x8", "bits2x4", "bits4x2"]
NAMES = dtype_names(
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
    "bfloat16", "float32", "float64", "complex32", "bcomplex32", "complex64", "complex128",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", *SHELLS,
    *BITS_NAMES,
)
# c10's ScalarType names, as kernel errors print them
C10 = {"Bool": "bool", "Byte": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64", "Char": "i8",
       "Short": "i16", "Int": "i32", "Long": "i64", "Half": "f16", "BFloat16": "bf16", "Float": "f32",
       "Double": "f64", "ComplexHalf": "c32", "BComplex32": "bc32", "ComplexFloat": "c64",
       "ComplexDouble": "c128", "Float8_e4m3fn": "f8e4m3fn", "Float8_e4m3fnuz": "f8e4m3fnuz",
       "Float8_e5m2": "f8e5m2", "Float8_e5m2fnuz": "f8e5m2fnuz", "Float8_e8m0fnu": "f8e8m0",
       **{f"UInt{i}": NAMES[f"uint{i}"] for i in range(1, 8)}, **{f"Int{i}": NAMES[f"int{i}"] for i in range(1, 8)},
       "Bits8": "bits8", "Bits16": "bits16", "Bits1x8": "bits1x8", "Bits2x4": "bits2x4", "Bits4x2": "bits4x2"}
NOT_IMPLEMENTED = re.compile(r'^(?:\w+: )?"(\w+)" not implemented for \'(\w+)\'')
# The CPU kernels that compute each op in the dtype promotion chose: where one of these
# is missing, the dtype it names must be the one `promoted()` says the op computes in
# (a check of promoted(); a missing kernel of another name, `reciprocal_cpu` when
# `2.5 / t` inverts `t` first, `exp_vml_cpu` inside poisson_nll_loss, `copy_`, is a
# build fact all the same).
OWN_KERNELS = {
    "add": {"add_stub"}, "subtract": {"add_stub"}, "multiply": {"mul_cpu", "mul_cpu_reduced_float"},
    "divide": {"div_cpu", "div_cpu_reduced_float"},
    "floor_divide": {"div_floor_cpu", "div_floor_cpu_reduced_float"}, "remainder": {"remainder_cpu"},
    "pow": {"pow"}, "maximum": {"maximum_cpu"}, "minimum": {"minimum_cpu"}, "fmax": {"fmax_cpu"},
    "fmin": {"fmin_cpu"},
    # a Python scalar on the left is compared by the reflected operator (3 < t is t > 3)
    "equal": {"eq_cpu"}, "not_equal": {"ne_cpu"}, "less_than": {"lt_cpu", "gt_cpu"},
    "less_equal": {"le_cpu", "ge_cpu"}, "greater_than": {"gt_cpu", "lt_cpu"},
    "greater_equal": {"ge_cpu", "le_cpu"},
    "bitwise_and": {"bitwise_and_cpu"}, "bitwise_or": {"bitwise_or_cpu"}, "bitwise_xor": {"bitwise_xor_cpu"},
    "logical_and": {"logical_and_cpu"}, "logical_or": {"logical_or_cpu"}, "logical_xor": {"logical_xor_cpu"},
    "logaddexp": {"logaddexp_cpu"}, "nextafter": {"nextafter_cpu"}, "atan2": {"atan2_cpu"},
    "huber_loss": {"huber_cpu"}, "mse_loss": {"mse_cpu"},
    # where, l1_loss ((a - b).abs()) and poisson_nll_loss are composite: none
}
BOOL_RESULT = {"equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
               "logical_and", "logical_or", "logical_xor"}
ORDERING = ("less_than", "less_equal", "greater_than", "greater_equal")
# What an operation is not defined for, on any device and build, beyond its promotion
# and the checks that raise their own errors: by the dtype the operation computes in
# (`promoted()`), the families below. For each, neither the CPU nor the CUDA kernel
# dispatches the dtype (the dispatch macros named; XPU's bitwise kernels and MPS's
# mse_loss check where named), and the OpInfos of torch's own tests
# (torch.testing._internal.common_methods_invocations) declare none of them for any
# device, MPS's own lists included. `maximum`, `minimum`, `fmax`, `fmin` say so themselves, in their meta
# functions (TORCH_CHECK_TYPE "maximum not implemented for complex tensors"), before
# any kernel. What one build lacks and another has stays a build fact: bool and
# complex32 `pow`, bool `floor_divide` and `remainder` (MPS runs them), complex32
# `logaddexp` (CUDA), `huber_loss` on integers (MPS), and every float8, uint16..uint64
# and shell kernel.
def _real_float(d):
    return d.is_floating_point


def _bool_or_integer(d):
    return not d.is_floating_point and not d.is_complex


def _complex(d):
    return d.is_complex


ORDERING_COMPLEX = (_complex, "complex: ordering complex numbers is not defined: lt_cpu and CUDA's compare_cuda "
                              "dispatch AT_DISPATCH_ALL_TYPES_AND3(kBool, kBFloat16, kHalf); OpInfo lt, le, gt, ge: "
                              "all_types_and(bool, bfloat16, float16)")
BITWISE = (lambda d: d.is_floating_point or d.is_complex,
           "float or complex: bitwise operations take bool and integers only: bitwise_and_kernel (CPU) and "
           "bitwise_and_kernel_cuda dispatch bool and AT_DISPATCH_INTEGRAL_TYPES, XPU the same; OpInfo: "
           "integral_types_and(bool)")
FLOOR_COMPLEX = (_complex, "complex: floor division and remainder round toward minus infinity, which complex "
                           "numbers have no order for: div_floor_kernel and remainder_kernel (CPU, CUDA) dispatch "
                           "the integral types and AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16); OpInfo: "
                           "all_types_and(float16, bfloat16), with bool on MPS")
OPERATION_REFUSES = {
    **{op: ORDERING_COMPLEX for op in ORDERING},  # a tuple: a set's order varies from run to run
    **{op: BITWISE for op in ("bitwise_and", "bitwise_or", "bitwise_xor")},
    "floor_divide": FLOOR_COMPLEX, "remainder": FLOOR_COMPLEX,
    "atan2": (_complex, "complex: atan2_kernel (CPU) and atan2_kernel_cuda dispatch "
                        "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf) after promoting integers to float; OpInfo: "
                        "all_types_and(bool, bfloat16, float16)"),
    "nextafter": (lambda d: not _real_float(d),
                  "bool, integer or complex: the next representable floating-point value: nextafter_kernel (CPU) "
                  "and nextafter_kernel_cuda dispatch AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf); OpInfo: "
                  "floating_types_and(bfloat16, float16)"),
    "logaddexp": (_bool_or_integer,
                  "bool or integer: logaddexp_kernel (CPU) and logaddexp_kernel_cuda dispatch floating and "
                  "complex types only; OpInfo: floating_and_complex_types_and(bfloat16, float16, complex32 on "
                  "CUDA)"),
    "huber_loss": (_complex, "complex: huber_kernel (CPU) and huber_kernel_cuda dispatch "
                             "AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf); OpInfo: floating_types_and(float16, "
                             "bfloat16), on MPS also bool and integers, complex on no device"),
    "mse_loss": (lambda d: not _real_float(d),
                 "bool, integer or complex: mse_kernel (CPU) and mse_kernel_cuda dispatch "
                 "AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16), mse_loss_out_mps checks \"only defined for "
                 "floating types\"; OpInfo: floating_types_and(float16, bfloat16)"),
}
BITS = {getattr(torch, n) for n in BITS_NAMES}
# The bits dtypes are uninterpreted bits: no kernel of an arithmetic, comparison,
# logical or fill operation takes them on any device, and none converts them to another
# dtype. Only copying does (and `t ** True`, which copies t): copy_ (CPU,
# and CUDA's copy_kernel_cuda and XPU's through AT_DISPATCH_BIT_TYPES, between one bits
# dtype only), cat (cat_cuda's AT_DISPATCH_BIT_TYPES), and `torch.where` between two
# tensors of one bits dtype, which picks elements. CUDA's eq and ne
# (compare_eq_ne_cuda) dispatch AT_ALL_TYPES_AND_COMPLEX, the barebones unsigned and
# float8 types, no bits; fill_ (which `where(c, t, 3)` needs) none either.
BITS_REFUSED = ("bits: the dtype is uninterpreted bits, which only copy_ (within one bits dtype), cat and "
                "where between two tensors of one bits dtype take; no kernel of this operation dispatches "
                "AT_DISPATCH_BIT_TYPES on any device, and CUDA's copy_ refuses to convert bits to another dtype")
COND = torch.tensor(True)

OPS = {
    # op: (function(a, b), Python operator or None)
    "add": (torch.add, lambda a, b: a + b),
    "subtract": (torch.sub, lambda a, b: a - b),
    "multiply": (torch.mul, lambda a, b: a * b),
    "divide": (torch.div, lambda a, b: a / b),
    "floor_divide": (torch.floor_divide, lambda a, b: a // b),
    "remainder": (torch.remainder, lambda a, b: a % b),
    "pow": (torch.pow, lambda a, b: a ** b),
    "maximum": (torch.maximum, None), "minimum": (torch.minimum, None),
    "fmax": (torch.fmax, None), "fmin": (torch.fmin, None),
    "equal": (torch.eq, lambda a, b: a == b), "not_equal": (torch.ne, lambda a, b: a != b),
    "less_than": (torch.lt, lambda a, b: a < b), "less_equal": (torch.le, lambda a, b: a <= b),
    "greater_than": (torch.gt, lambda a, b: a > b), "greater_equal": (torch.ge, lambda a, b: a >= b),
    "bitwise_and": (torch.bitwise_and, lambda a, b: a & b),
    "bitwise_or": (torch.bitwise_or, lambda a, b: a | b),
    "bitwise_xor": (torch.bitwise_xor, lambda a, b: a ^ b),
    "logical_and": (torch.logical_and, None), "logical_or": (torch.logical_or, None),
    "logical_xor": (torch.logical_xor, None),
    "where": (lambda a, b: torch.where(COND, a, b), None),
    "logaddexp": (torch.logaddexp, None), "nextafter": (torch.nextafter, None), "atan2": (torch.atan2, None),
    "huber_loss": (lambda a, b: F.huber_loss(a, b, reduction="none"), None),
    "poisson_nll_loss": (lambda a, b: F.poisson_nll_loss(a, b, reduction="none"), None),
    "l1_loss": (lambda a, b: F.l1_loss(a, b, reduction="none"), None),
    "mse_loss": (lambda a, b: F.mse_loss(a, b, reduction="none"), None),
}
FUNCTION_NAMES = {
    "add": "torch.add", "subtract": "torch.sub", "multiply": "torch.mul", "divide": "torch.div",
    "floor_divide": "torch.floor_divide", "remainder": "torch.remainder", "pow": "torch.pow",
    "maximum": "torch.maximum", "minimum": "torch.minimum", "fmax": "torch.fmax", "fmin": "torch.fmin",
    "equal": "torch.eq", "not_equal": "torch.ne", "less_than": "torch.lt", "less_equal": "torch.le",
    "greater_than": "torch.gt", "greater_equal": "torch.ge", "bitwise_and": "torch.bitwise_and",
    "bitwise_or": "torch.bitwise_or", "bitwise_xor": "torch.bitwise_xor", "logical_and": "torch.logical_and",
    "logical_or": "torch.logical_or", "logical_xor": "torch.logical_xor",
    "where": "torch.where(torch.tensor(True), a, b)", "logaddexp": "torch.logaddexp",
    "nextafter": "torch.nextafter", "atan2": "torch.atan2",
    "huber_loss": "F.huber_loss(a, b, reduction='none')",
    "poisson_nll_loss": "F.poisson_nll_loss(a, b, reduction='none')",
    "l1_loss": "F.l1_loss(a, b, reduction='none')", "mse_loss": "F.mse_loss(a, b, reduction='none')",
}
# How promoted() builds each composite, from torch's source.
COMPOSITES = {
    "divide": "a Python scalar x over a tensor t: `t.reciprocal() * x` (Tensor.__rtruediv__); "
              "reciprocal, like true division, computes bool and the integers (not the shell dtypes) in the "
              "default dtype",
    "l1_loss": "broadcast, then `(a - b).abs()` (the complex's real counterpart)",
    "poisson_nll_loss": "`exp(a) - b * a` (log_input=True), each step promoted by rank; exp computes "
                        "bool and the integers in the default dtype",
    "huber_loss": "broadcast, computed in torch.promote_types(a, b), cast back to a's dtype "
                  "(torch.can_cast must allow it)",
    "mse_loss": "broadcast, computed and returned in torch.promote_types(a, b)",
}


def name_of(dtype):
    s = str(dtype).replace("torch.", "")
    return NAMES.get(s, s)


def all_dtypes():
    """Every distinct torch.dtype, by its canonical torch name."""
    out = {}
    for attr in dir(torch):
        d = getattr(torch, attr)
        if isinstance(d, torch.dtype):
            out.setdefault(str(d).replace("torch.", ""), d)
    return out


def make(dtype, shape):
    try:
        return torch.ones(shape, dtype=dtype), "ones"
    except Exception:  # noqa: BLE001
        return torch.zeros(shape, dtype=dtype), "zeros"


def is_py(x):
    return isinstance(x, (bool, int, float, complex))


# c10's isIntegralType(t, /*includeBool=*/true): the dtypes TensorIterator's
# promote_integer_inputs_to_float turns into the default dtype (the shell dtypes are
# not among them: `u1 / u1` is computed, and fails, in u1).
INTEGRAL = {torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint16,
            torch.uint32, torch.uint64}


def float_of(dtype):
    """The dtype a unary floating op (reciprocal, exp) or true division computes a
    dtype in: the default dtype for bool and the integers, else the dtype itself."""
    return torch.get_default_dtype() if dtype in INTEGRAL else dtype


def check_sub(a, b):
    """torch.sub's own check (BinaryOps.cpp, sub_check): no bool operand."""
    if a == torch.bool or b == torch.bool:
        raise NotImplementedError("Subtraction, the `-` operator, with a bool tensor is not supported.")


def shaped(dtype, shape):
    """An uninitialised tensor: its dtype and rank are what torch.result_type reads."""
    return torch.empty(shape, dtype=dtype)


def promoted(op, a, b):
    """(the dtype `op` computes in, the dtype of its result), by torch's own promotion
    functions applied as the op is built (COMPOSITES); raises what torch raises where
    they refuse."""
    rt = torch.result_type
    if op in ("huber_loss", "mse_loss", "l1_loss"):
        common = torch.promote_types(a.dtype, b.dtype)
        if op == "huber_loss":
            if not torch.can_cast(common, a.dtype):
                raise RuntimeError(f"result type {common} can't be cast to the desired output type {a.dtype}")
            return common, a.dtype
        if op == "l1_loss":
            check_sub(a.dtype, b.dtype)
            return common, common if common in BITS else common.to_real()
        return common, common
    if op == "poisson_nll_loss":
        e = shaped(float_of(a.dtype), a.shape)
        product = shaped(rt(b, a), torch.broadcast_shapes(a.shape, b.shape))
        check_sub(e.dtype, product.dtype)
        out = rt(e, product)
        return out, out
    if op == "divide" and is_py(a) and not is_py(b):
        out = rt(shaped(float_of(b.dtype), b.shape), a)
        return out, out
    common = rt(a, b)
    if op in ("divide", "atan2"):
        return float_of(common), float_of(common)
    if op in BOOL_RESULT:
        return common, torch.bool
    return common, common


def classify(op, a, b, case, counts):
    """Rewrites a failed case whose error is a missing CPU kernel (module docstring);
    counts each kind in `counts`. Returns a complaint if promoted() disagrees with the
    dtype an own kernel named, else None."""
    m = NOT_IMPLEMENTED.match(case[3])
    if not m:
        counts["refused"] += 1
        return None
    try:
        common, result = promoted(op, a, b)
    except Exception as e:  # noqa: BLE001
        case[3] += f" (and a later step's promotion refuses: {first_line(e, 200)})"
        counts["refused_by_a_later_step"] += 1
        return None
    if refuses(op, common) or refuses_bits(op, a, b, common):
        counts["refused_by_the_operation"] += 1
        return None
    if m.group(1) in OWN_KERNELS.get(op, ()) and C10.get(m.group(2)) != name_of(common):
        return f"{op} {case[0]} {case[1]}: the kernel names {m.group(2)}, promoted() says {common}"
    case[2] = name_of(result)
    counts["no_cpu_kernel"] += 1
    return None


def refuses(op, common):
    """Whether the operation is not defined for the dtype it computes in, on any device
    (OPERATION_REFUSES)."""
    return op in OPERATION_REFUSES and OPERATION_REFUSES[op][0](common)


def refuses_bits(op, a, b, common):
    """Whether the operation computes in a bits dtype or converts one to another dtype,
    which no device does (BITS_REFUSED): all but `where` between two tensors of one
    bits dtype and `t ** True`, which copy."""
    bits = [x.dtype for x in (a, b) if not is_py(x) and x.dtype in BITS]
    if common not in BITS and not bits:
        return False
    same_tensors = not is_py(a) and not is_py(b) and a.dtype == b.dtype
    # `t ** True` copies t on every device (pow_Tensor_Scalar_out: an exponent of 1)
    copies = (op == "where" and same_tensors) or (op == "pow" and b is True and bits)
    return not copies


def check_ran(op, a, b, case):
    """A complaint if promoted() disagrees with a case that ran, or the case computes in
    a dtype OPERATION_REFUSES says no device takes, else None."""
    try:
        common, result = promoted(op, a, b)
    except Exception as e:  # noqa: BLE001
        return f"{op} {case[0]} {case[1]}: ran to {case[2]}, promoted() refuses: {first_line(e)}"
    if refuses(op, common) or refuses_bits(op, a, b, common):
        return f"{op} {case[0]} {case[1]}: ran to {case[2]} in {common}, which OPERATION_REFUSES says no device takes"
    if name_of(result) != case[2]:
        return f"{op} {case[0]} {case[1]}: ran to {case[2]}, promoted() says {name_of(result)}"
    return None


def setup():
    """The dtypes and operands. Returns (every torch.dtype by name, dtype names swept
    in order, torch.dtype by name, operands, how each dtype's tensors were made)."""
    every = all_dtypes()
    order = [n for n in NAMES if n in every]
    types = {n: every[n] for n in order}
    made_by = {}
    tensor, zero_d = [], []
    for n in order:
        t, how = make(types[n], (2,))
        s, _ = make(types[n], ())
        made_by[NAMES[n]] = how
        tensor.append((NAMES[n], t))
        zero_d.append(("scalar:" + NAMES[n], s))
    return every, order, types, tensor + zero_d + python_operands(), made_by


def header(script, order):
    """The keys every torch data file begins with."""
    return {"framework": "torch", "version": torch.__version__, "generated_by": f"tools/oracles/promotion/{script}",
            "device": "cpu", "default_dtype": name_of(torch.get_default_dtype()),
            "dtypes": [NAMES[n] for n in order]}


def main(out_path):
    start = time.time()
    warnings.simplefilter("ignore")
    every, order, types, operands, made_by = setup()
    by_name = dict(operands)
    not_dtypes, excluded = {}, {}
    for n, d in sorted(every.items()):
        if n in NAMES:
            continue
        probe = {}
        try:
            t = torch.zeros(2, dtype=d)
            made = "torch.zeros works"
        except Exception as e:  # noqa: BLE001
            t, made = None, "torch.zeros: " + first_line(e)
        for what, fn in (("ones", lambda: torch.ones(2, dtype=d)), ("+ f32", lambda: t + torch.ones(2)),
                         ("+ 3", lambda: t + 3), ("+ itself", lambda: t + t)):
            try:
                probe[what] = name_of(fn().dtype)
            except Exception as e:  # noqa: BLE001
                probe[what] = "error: " + first_line(e, 160)
        not_dtypes[n] = {"why": "left out of the sweep: a packed or quantized dtype with no promo dtype; "
                                "torch.promote_types pairs it with nothing but itself (see "
                                "promote_types_of_left_out_dtypes) and no elementwise CPU kernel computes in it",
                         "made": made, "probe": probe}
        for m in order:
            for key, (a, b) in ((f"{n},{NAMES[m]}", (d, types[m])), (f"{NAMES[m]},{n}", (types[m], d))):
                try:
                    excluded[key] = name_of(torch.promote_types(a, b))
                except Exception as e:  # noqa: BLE001
                    excluded[key] = "error: " + first_line(e, 160)

    groups, diffs, refusals, all_warnings, kinds, complaints = [], [], {}, {}, {}, []
    for op, (fn, operator) in OPS.items():
        t0 = time.time()

        def run(a, b):
            f = operator if (operator is not None and is_py(a) != is_py(b)) else fn
            return name_of(f(a, b).dtype)

        cases, seen = sweep(operands, run, python_pairs=True)
        counts = {"ran": 0, "no_cpu_kernel": 0, "refused_by_the_operation": 0, "refused_by_a_later_step": 0,
                  "refused": 0}
        for c in cases:
            a, b = by_name[c[0]], by_name[c[1]]
            if len(c) == 3:
                counts["ran"] += 1
                complaint = check_ran(op, a, b, c)
            else:
                complaint = classify(op, a, b, c, counts)
            if complaint:
                complaints.append(complaint)
        kinds[op] = counts
        if seen:
            all_warnings[op] = seen
        groups.append({"options": {}, "op": op, "cases": cases})
        # the function with a Python scalar and a tensor, where the operator was used
        if operator is not None:
            index = {(c[0], c[1]): c[2:] for c in cases}
            fc, _ = sweep(operands, lambda a, b: name_of(fn(a, b).dtype),
                          keep=lambda ln, rn: ln.startswith("python:") != rn.startswith("python:"))
            for c in fc:
                if len(c) > 3:
                    classify(op, by_name[c[0]], by_name[c[1]], c, {k: 0 for k in counts})
                via_op = index[(c[0], c[1])]
                if c[2] is None and via_op[0] is not None and any(
                        m in c[3] for m in ("must be Tensor", "invalid combination of arguments", "has no attribute")):
                    key = f"{op}: function refuses a Python scalar on the {'left' if c[0].startswith('python:') else 'right'}"
                    refusals[key] = refusals.get(key, 0) + 1
                elif (c[2], len(c) > 3) != (via_op[0], len(via_op) > 1):
                    diffs.append({"op": op, "lhs": c[0], "rhs": c[1], "function": c[2:], "operator": via_op})
        print(f"torch {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)
    if complaints:
        sys.exit("promoted() disagrees with torch:\n" + "\n".join(complaints[:40]))

    promote_types, result_type = {}, {}
    for l, r in itertools.product(order, order):
        try:
            promote_types[f"{NAMES[l]},{NAMES[r]}"] = name_of(torch.promote_types(types[l], types[r]))
        except Exception as e:  # noqa: BLE001
            promote_types[f"{NAMES[l]},{NAMES[r]}"] = "error: " + first_line(e)
    for (ln, a), (rn, b) in itertools.product(operands, operands):
        try:
            result_type[f"{ln},{rn}"] = name_of(torch.result_type(a, b))
        except Exception as e:  # noqa: BLE001
            result_type[f"{ln},{rn}"] = "error: " + first_line(e)

    doc = {
        **header("torch_oracle.py", order),
        "made_by": made_by,
        "not_dtypes": not_dtypes,
        "functions": FUNCTION_NAMES,
        "python_scalar_through": "with a tensor, the Python operator where the op has one "
                                 "(+ - * / // % ** == != < <= > >= & | ^), else the function; "
                                 "two Python scalars, the function",
        "composites": COMPOSITES,
        "operation_refuses": {op: why for op, (_, why) in OPERATION_REFUSES.items()},
        "operation_refuses_bits": BITS_REFUSED,
        "case_kinds": kinds,
        "promote_types": promote_types,
        "result_type": result_type,
        "promote_types_of_left_out_dtypes": excluded,
        "function_refuses_python_scalar": refusals,
        "operator_vs_function": diffs,
        "warnings": all_warnings,
    }
    doc["groups"], doc["ops_left_out_as_identical"] = drop_identical_ops(groups)
    write(out_path, doc)
    print(f"torch {torch.__version__}: {len(order)} dtypes, {count_cases(doc['groups'])} cases kept of "
          f"{count_cases(groups)}, "
          f"{time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
