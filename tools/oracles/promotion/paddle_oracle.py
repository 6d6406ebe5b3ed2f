"""Dump what PaddlePaddle really does when a binary API or operator meets two operands
of different dtypes, on CPU: every ordered pair of dtypes, tensors of rank 1, 0-d
tensors and Python scalars, every op the type-promotion document lists, in eager mode
and in static-graph mode. Writes tests/data/promotion/paddle.json.

    python tools/oracles/promotion/paddle_oracle.py tests/data/promotion/paddle.json

What is recorded (see README.md beside this file):
- tensor (`DTYPE`, shape [2]) and 0-d tensor (`scalar:DTYPE`) operands go through the
  binary API (`paddle.add(a, b)`, ...);
- a Python scalar operand (`python:KIND`) goes through the operator where Python has
  one (`a + 2.5`, `2.5 + a`), else through the API;
- a case is `[lhs, rhs, result]` when the call ran, `[lhs, rhs, null, error]` when
  it was refused before a dtype was chosen (a promotion refusal, "Type promotion only
  support ...", or an API's dtype check), and `[lhs, rhs, promoted, error]` when
  promotion chose `promoted` but the CPU build could not run it: eager mode's "The
  kernel with key (CPU, ..., float16) of kernel `add` is not registered. Selected
  wrong DataType `float16`" names the dtype the inputs were promoted to (the
  result's, but for comparisons and logical operations, which give bool), and in
  static mode the graph infers the result's when the program is built, before the
  executor fails (promotion is not kernel availability:
  a GPU build runs these);
- where the failing kernel is not the operation's own (`expand` broadcasting a 0-d
  operand before the operation runs, `abs` or `exp` inside a composite API such as
  l1_loss or logaddexp), the dtype it names says nothing of the operation's
  promotion: the case is `[lhs, rhs, null, error, "unknown_promotion"]`;
- static mode checks, while it builds the program, the dtype the inputs were
  promoted to against the dtypes this build has kernels for ("Check data type
  error for op: add, input: x, x.dtype: float16"): promotion chose that dtype, so
  the case is `[lhs, rhs, promoted, error]` like a kernel that is not registered
  (but for the `data` op's check: static-graph inputs cannot be float8_e5m2);
- errors about shapes (the loss functions reject some 0-d operands) are not dtype
  facts: they go to `shape_errors`, not into the cases;
- `operator_vs_api`: every case where the operator and the API disagree;
- `promote_fn`: Paddle's own promotion function (`core.get_promote_dtype_old_ir`) for
  every pair, separated from kernel coverage.
"""
import itertools
import json
import os
import re
import sys
import time
import warnings

os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("FLAGS_call_stack_level", "0")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
from paddle.base import core  # noqa: E402

paddle.set_device("cpu")

DTYPES = {
    "bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "c64", "complex128": "c128", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
    # Probed, not real: `uint16` makes a bfloat16 tensor, uint32/uint64 are refused.
    "uint16": "u16", "uint32": "u32", "uint64": "u64",
}
# numpy dtype Paddle's static executor feeds/fetches for each dtype
FEED_NUMPY = {"bfloat16": "uint16", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8"}


def where(a, b):
    return paddle.where(paddle.full([], True, dtype="bool"), a, b)


OPS = {
    # op name: (API(a, b), operator(a, b) or None)
    "add": (paddle.add, lambda a, b: a + b),
    "subtract": (paddle.subtract, lambda a, b: a - b),
    "multiply": (paddle.multiply, lambda a, b: a * b),
    "divide": (paddle.divide, lambda a, b: a / b),
    "floor_divide": (paddle.floor_divide, lambda a, b: a // b),
    "remainder": (paddle.remainder, lambda a, b: a % b),
    "pow": (paddle.pow, lambda a, b: a ** b),
    "maximum": (paddle.maximum, None),
    "minimum": (paddle.minimum, None),
    "fmax": (paddle.fmax, None),
    "fmin": (paddle.fmin, None),
    "equal": (paddle.equal, lambda a, b: a == b),
    "not_equal": (paddle.not_equal, lambda a, b: a != b),
    "less_than": (paddle.less_than, lambda a, b: a < b),
    "less_equal": (paddle.less_equal, lambda a, b: a <= b),
    "greater_than": (paddle.greater_than, lambda a, b: a > b),
    "greater_equal": (paddle.greater_equal, lambda a, b: a >= b),
    "bitwise_and": (paddle.bitwise_and, lambda a, b: a & b),
    "bitwise_or": (paddle.bitwise_or, lambda a, b: a | b),
    "bitwise_xor": (paddle.bitwise_xor, lambda a, b: a ^ b),
    "logical_and": (paddle.logical_and, None),
    "logical_or": (paddle.logical_or, None),
    "logical_xor": (paddle.logical_xor, None),
    "where": (where, None),
    "logaddexp": (paddle.logaddexp, None),
    "nextafter": (paddle.nextafter, None),
    "atan2": (paddle.atan2, None),
    # huber_loss has no public API of that name: smooth_l1_loss is the one that runs it
    "huber_loss": (lambda a, b: F.smooth_l1_loss(a, b, reduction="none"), None),
    "poisson_nll_loss": (lambda a, b: F.poisson_nll_loss(a, b, reduction="none"), None),
    "l1_loss": (lambda a, b: F.l1_loss(a, b, reduction="none"), None),
    "mse_loss": (lambda a, b: F.mse_loss(a, b, reduction="none"), None),
}
# Old-IR op types of the promotion function, per op (those Paddle lists for promotion).
OLD_IR = {
    "add": "elementwise_add", "subtract": "elementwise_sub", "multiply": "elementwise_mul",
    "divide": "elementwise_div", "floor_divide": "elementwise_floordiv", "remainder": "elementwise_mod",
    "pow": "elementwise_pow", "maximum": "elementwise_max", "minimum": "elementwise_min",
    "fmax": "elementwise_fmax", "fmin": "elementwise_fmin", "equal": "equal", "not_equal": "not_equal",
    "less_than": "less_than", "less_equal": "less_equal", "greater_than": "greater_than",
    "greater_equal": "greater_equal", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "where": "where", "huber_loss": "huber_loss", "nextafter": "nextafter",
    "atan2": "atan2",
}
PYTHON = {"bool": True, "int": 3, "float": 2.5, "complex": 1 + 2j}
RANKS = [(False, False), (True, False), (False, True), (True, True)]
MARKERS = ("(InvalidArgument)", "(Unimplemented)", "(NotFound)", "(Unavailable)", "(PreconditionNotMet)",
           "(InvalidType)", "(OutOfRange)", "(Fatal)", "(External)")


def first_line(e):
    """The error's first line, from Paddle's `(Kind) ...` marker on (what comes before it
    is a C++ or Python stack)."""
    text = str(e)
    for marker in MARKERS:
        i = text.find(marker)
        if i >= 0:
            text = text[i:]
            break
    else:
        text = type(e).__name__ + ": " + text.strip()
    line = text.strip().splitlines()[0] if text.strip() else type(e).__name__
    line = re.sub(r" \(at /paddle/[^)]*\)$", "", line.strip())  # the C++ source location
    return line[:240]


def is_shape_error(text):
    """A complaint about operand shapes or ranks only (the loss functions), not dtypes."""
    low = text.lower()
    if low.startswith(("attributeerror", "typeerror")):
        return False
    return ("shape" in low or "rank" in low or "broadcast" in low) and "dtype" not in low \
        and "data type" not in low and "datatype" not in low


def promo_name(dtype):
    s = str(dtype).replace("paddle.", "")
    return DTYPES.get(s, s)


def operand_name(dtype, rank0):
    return ("scalar:" if rank0 else "") + DTYPES[dtype]


class RunFailed(Exception):
    """A static program was built (its output dtype inferred) but failed to run."""

    def __init__(self, built, error):
        super().__init__(str(error))
        self.built, self.error = built, error


SELECTED = re.compile(r"Selected wrong DataType `(\w+)`")
# Operations whose result is bool whatever dtype their inputs were promoted to: the
# kernel named in a "not registered" error is the inputs' dtype, not the result's.
BOOL_RESULT = {"equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
               "logical_and", "logical_or", "logical_xor"}


CHECKED = re.compile(r"Check data type error for op: (\w+), (?:input: \w+, \w+\.)?dtype: (\w+)")
KERNEL = re.compile(r"of kernel `(\w+)` is not registered")
COMPARISONS = {"equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"}
# Kernels other than the API's own that run the operation itself on the promoted dtype:
# the Python-scalar paths of the arithmetic operators, and a reflected comparison
# (`3 < t` runs greater_than).
SCALAR_PATH_KERNELS = {"add": {"scale"}, "subtract": {"scale"}, "multiply": {"scale"},
                       "divide": {"div_scale"}, "pow": {"elementwise_pow"}}
# The fifth element of a case whose build failed in a kernel that is not the
# operation's own, before a promotion result could be seen.
UNKNOWN_PROMOTION = "unknown_promotion"


def own_kernels(op):
    """The kernels whose "not registered" error names the dtype `op` promoted to."""
    if op in COMPARISONS:
        return COMPARISONS
    return {op} | SCALAR_PATH_KERNELS.get(op, set())


class Recorder:
    def __init__(self):
        self.shape_errors = []

    def outcome(self, op, lhs, rhs, thunk):
        """`[lhs, rhs, result]`, `[lhs, rhs, None, error]` or `[lhs, rhs, promoted,
        error]` (see the module docs); None for a shape error."""
        try:
            return [lhs, rhs, promo_name(thunk())]
        except Exception as e:  # noqa: BLE001
            promoted = None
            if isinstance(e, RunFailed):
                promoted, e = e.built, e.error
            text = first_line(e)
            if is_shape_error(text):
                self.shape_errors.append([op, lhs, rhs, text])
                return None
            checked = CHECKED.search(text)
            if promoted is None and checked and checked.group(1) != "data":
                # Static mode checks the dtype the inputs were promoted to against the
                # dtypes this build has kernels for, while it builds the program.
                op_name = op.split()[-1]
                if checked.group(1) not in own_kernels(op_name):
                    return [lhs, rhs, None, text, UNKNOWN_PROMOTION]
                promoted = "bool" if op_name in BOOL_RESULT else promo_name(checked.group(2))
            selected = SELECTED.search(text)
            if promoted is None and selected and "is not registered" in text:
                op_name = op.split()[-1]
                kernel = KERNEL.search(text)
                if kernel is None or kernel.group(1) not in own_kernels(op_name):
                    # A kernel that runs before the operation's promotion (`expand`
                    # broadcasting a 0-d input) or inside a composite API (`abs` in
                    # l1_loss): the dtype it names is not the operation's promotion.
                    return [lhs, rhs, None, text, UNKNOWN_PROMOTION]
                promoted = "bool" if op_name in BOOL_RESULT else promo_name(selected.group(1))
            return [lhs, rhs, promoted, text]


# ---------------------------------------------------------------- eager

def eager_tensor(dtype, rank0):
    return paddle.ones([] if rank0 else [2], dtype="float32").astype(dtype)


def eager_dtypes():
    """Dtypes a tensor can really have: astype gives back the same dtype."""
    real, probed = [], {}
    for d in DTYPES:
        try:
            got = str(eager_tensor(d, False).dtype).replace("paddle.", "")
            if got == d:
                real.append(d)
            else:
                probed[d] = f"astype('{d}') gives a {got} tensor"
        except Exception as e:  # noqa: BLE001
            probed[d] = first_line(e)
    return real, probed


def eager_groups(dtypes, rec, diffs):
    groups = []
    for op, (api, operator) in OPS.items():
        t0 = time.time()
        cases = []
        for (l, r), (l0, r0) in itertools.product(itertools.product(dtypes, dtypes), RANKS):
            a, b = eager_tensor(l, l0), eager_tensor(r, r0)
            lhs, rhs = operand_name(l, l0), operand_name(r, r0)
            case = rec.outcome(op, lhs, rhs, lambda: api(a, b).dtype)
            if case:
                cases.append(case)
            if operator is not None:
                oc = Recorder().outcome(op, lhs, rhs, lambda: operator(a, b).dtype)
                if case and oc and case[2:] != oc[2:] and (case[2] or oc[2]):
                    diffs.append({"mode": "eager", "op": op, "lhs": lhs, "rhs": rhs, "api": case[2:], "operator": oc[2:]})
        api_refuses_python = 0
        for d, (kind, value), rank0 in itertools.product(dtypes, PYTHON.items(), (False, True)):
            t = eager_tensor(d, rank0)
            for tensor_left in (True, False):
                name = operand_name(d, rank0)
                lhs, rhs = (name, "python:" + kind) if tensor_left else ("python:" + kind, name)
                args = (t, value) if tensor_left else (value, t)
                if operator is None:
                    case = rec.outcome(op, lhs, rhs, lambda: api(*args).dtype)
                else:
                    api_case = Recorder().outcome(op, lhs, rhs, lambda: api(*args).dtype)
                    case = rec.outcome(op, lhs, rhs, lambda: operator(*args).dtype)
                    if api_case and case and api_case[2:] != case[2:] and (api_case[2] or case[2]):
                        if api_case[2] is None and "must be Tensor" in api_case[3]:
                            api_refuses_python += 1
                        else:
                            diffs.append({"mode": "eager", "op": op, "lhs": lhs, "rhs": rhs,
                                          "api": api_case[2:], "operator": case[2:]})
                if case:
                    cases.append(case)
        if api_refuses_python:
            diffs.append({"mode": "eager", "op": op, "summary":
                          f"the API refuses a Python scalar operand (\"must be Tensor\") in {api_refuses_python} "
                          "cases where the operator accepts it"})
        groups.append({"options": {"mode": "eager"}, "op": op, "cases": cases})
        print(f"eager {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)
    return groups


# ---------------------------------------------------------------- static

def static_groups(dtypes, rec, diffs):
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    numpy_names = {v: k for k, v in {"bool": "bool", "uint8": "u8", "int8": "i8", "int16": "i16",
                                     "int32": "i32", "int64": "i64", "float16": "f16", "float32": "f32",
                                     "float64": "f64", "complex64": "c64", "complex128": "c128"}.items()}
    mismatch = []

    def run(build, feeds):
        """Build a program from static.data inputs `feeds` [(dtype, rank0)], run it on
        CPU, return the output's dtype (as inferred when built; checked against what the
        executor hands back)."""
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            xs = [paddle.static.data(f"x{i}", [] if r0 else [2], d) for i, (d, r0) in enumerate(feeds)]
            out = build(*xs)
        built = promo_name(out.dtype)
        feed = {f"x{i}": np.ones([] if r0 else [2], dtype=FEED_NUMPY.get(d, d)) for i, (d, r0) in enumerate(feeds)}
        try:
            (res,) = exe.run(main, feed=feed, fetch_list=[out])
        except Exception as e:  # noqa: BLE001
            raise RunFailed(built, e) from e
        ran = numpy_names.get(np.asarray(res).dtype.name)
        if ran is not None and ran != built and built not in ("bf16", "f8e4m3fn", "f8e5m2"):
            mismatch.append([built, np.asarray(res).dtype.name])
        return built

    groups = []
    for op, (api, operator) in OPS.items():
        t0 = time.time()
        cases = []
        for (l, r), (l0, r0) in itertools.product(itertools.product(dtypes, dtypes), RANKS):
            lhs, rhs = operand_name(l, l0), operand_name(r, r0)
            case = rec.outcome("static " + op, lhs, rhs, lambda: run(api, [(l, l0), (r, r0)]))
            if case:
                cases.append(case)
            if operator is not None:
                oc = Recorder().outcome(op, lhs, rhs, lambda: run(operator, [(l, l0), (r, r0)]))
                if case and oc and case[2:] != oc[2:] and (case[2] or oc[2]):
                    diffs.append({"mode": "static", "op": op, "lhs": lhs, "rhs": rhs, "api": case[2:], "operator": oc[2:]})
        call = operator or api
        for d, (kind, value), rank0 in itertools.product(dtypes, PYTHON.items(), (False, True)):
            for tensor_left in (True, False):
                name = operand_name(d, rank0)
                lhs, rhs = (name, "python:" + kind) if tensor_left else ("python:" + kind, name)
                build = (lambda x: call(x, value)) if tensor_left else (lambda x: call(value, x))
                case = rec.outcome("static " + op, lhs, rhs, lambda: run(build, [(d, rank0)]))
                if case:
                    cases.append(case)
        groups.append({"options": {"mode": "static"}, "op": op, "cases": cases})
        print(f"static {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)
    paddle.disable_static()
    return groups, mismatch


# ---------------------------------------------------------------- promotion function

def promote_fn(dtypes):
    vt = core.VarDesc.VarType
    var = {"bool": vt.BOOL, "uint8": vt.UINT8, "int8": vt.INT8, "int16": vt.INT16, "int32": vt.INT32,
           "int64": vt.INT64, "float16": vt.FP16, "bfloat16": vt.BF16, "float32": vt.FP32, "float64": vt.FP64,
           "complex64": vt.COMPLEX64, "complex128": vt.COMPLEX128, "float8_e4m3fn": vt.FP8_E4M3FN,
           "float8_e5m2": vt.FP8_E5M2}
    by_op, need, errors = {}, {}, {}
    scalar_common = {}
    for op, old in OLD_IR.items():
        table = {}
        for l, r in itertools.product(dtypes, dtypes):
            key = f"{DTYPES[l]},{DTYPES[r]}"
            try:
                table[key] = promo_name(core.get_promote_dtype_old_ir(old, var[l], var[r]))
            except Exception as e:  # noqa: BLE001
                table[key] = None
                errors.setdefault(first_line(e).split(" But got")[0], 0)
                errors[first_line(e).split(" But got")[0]] += 1
            if op == "add":
                try:
                    need[key] = bool(core.need_type_promotion_old_ir(old, var[l], var[r]))
                except Exception as e:  # noqa: BLE001
                    need[key] = "error: " + first_line(e)
                scalar_common[key] = bool(core.is_common_dtype_for_scalar(var[l], var[r]))
        by_op[op] = table
    base = by_op["add"]
    differing = {op: {k: v for k, v in t.items() if v != base[k]} for op, t in by_op.items()}
    differing = {op: d for op, d in differing.items() if d}
    return base, differing, need, scalar_common, errors


def main(out_path):
    start = time.time()
    dtypes, probed = eager_dtypes()
    print(f"dtypes: {dtypes}; not real: {probed}", file=sys.stderr)
    rec, diffs = Recorder(), []
    groups = eager_groups(dtypes, rec, diffs)
    fn, fn_by_op, need, scalar_common, fn_errors = promote_fn(dtypes)
    if "--eager-only" not in sys.argv:
        sgroups, mismatch = static_groups(dtypes, rec, diffs)
        groups += sgroups
    else:
        mismatch = []
    doc = {
        "framework": "paddle",
        "version": paddle.__version__,
        "generated_by": "tools/oracles/promotion/paddle_oracle.py",
        "device": "cpu",
        "dtypes": [DTYPES[d] for d in dtypes],
        "not_dtypes": probed,
        "promote_fn": fn,
        "promote_fn_differs_by_op": fn_by_op,
        "promote_fn_errors": fn_errors,
        "need_type_promotion": need,
        "is_common_dtype_for_scalar": scalar_common,
        "operator_vs_api": diffs,
        "static_fetch_dtype_mismatch": mismatch,
        "shape_errors": rec.shape_errors,
        "groups": groups,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    n = sum(len(g["cases"]) for g in groups)
    print(f"paddle {paddle.__version__}: {n} cases, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
