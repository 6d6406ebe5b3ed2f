"""Dump what Triton does when a binary operation in a kernel meets two operands of
different dtypes to tests/data/promotion/triton.json.

    python tools/oracles/promotion/triton_oracle.py tests/data/promotion/triton.json

No GPU is needed: every case is a small @triton.jit kernel that Triton's own front end
(`ASTSource.make_ir`, the code generator and `TritonSemantic`, the same path as any
compile) lowers to Triton IR for a CUDA target (sm_90) built from the NVIDIA backend's
own options; nothing is compiled further or run. The kernel hands the operation's result
to `record`, a `@builtin` (the decorator every tl function has), which reads its dtype
while the IR is built.

Operands: `DTYPE` is `tl.load(X + tl.arange(0, 4))` from a pointer argument `*DTYPE`
(a block of 4), `scalar:DTYPE` a scalar kernel argument of that dtype (a 0-d tensor;
Triton's typed scalar), `python:KIND` the literal True, 3 or 2.5 written in the
expression (a constexpr, unwrapped to a Python number before the semantic sees it), on
either side of the operator (`x + 3`, `3 + x`, `3 < x`). A literal assigned to a
variable first (`y = 3; x + y`) is no Python scalar: the code generator's `visit_Assign`
makes it a typed scalar (`to_tensor`), `scalar:i32` here (`assigned_literal_probe`). A
Python int is typed by its value (`to_tensor_type`: int32 from -2**31 to 2**31-1, then
uint32, int64, uint64; a float is float32 within float32's range, else float64); 3 and
2.5, int32 and float32, are the ones swept (`python_int_types` lists what other values
become). Two Python scalars are plain Python (constexpr arithmetic), not swept. Triton
has no complex dtype.

Every op is the operator in kernel source (`x + y`, `x / y`, `x // y`, `x % y`, `x < y`,
`x & y`, ...) or the tl function (`tl.maximum(x, y)`, `tl.minimum(x, y)`,
`tl.where(tl.arange(0, 4) < 2, x, y)`). A refusal is the error the front end raised, the
`CompilationError`'s cause (Triton's own message), `[lhs, rhs, null, error]`. A case whose
result was made but whose IR then failed to verify is `[lhs, rhs, DTYPE, error]`, the
error being the IR verifier's (`build_failures` lists them): fp8e4b15 with itself (its IR
type is i8, which arith.addf and arith.cmpf refuse) and with fp64 (the NVIDIA backend's
`convert_custom_float8` upcasts fp8e4b15 to fp16 and goes on to fp32 only, so the cast to
fp64 gives an fp16 tensor, and an op whose left operand it is is typed fp16). There
DTYPE is the promoted one: `computation_type_impl`'s answer (logged by a wrapper that
calls through), bool for a comparison.

The NVIDIA backend's options admit fp8e5 and fp8e4b15 (and fp8e4nv from sm_89), AMD's
fp8e4nv, fp8e5, fp8e5b16 and fp8e4b8; `dtype.to_ir` refuses the others per target. The
sweep passes all five as `supported_fp8_dtypes`, so that every pair is typed by the
same front end; `target_cross_check` runs five ops again with sm_90's own options and
with AMD gfx942's, on the dtypes each admits, and compares them with the sweep.
"""
import contextlib
import importlib.util
import io
import itertools
import os
import sys
import tempfile
import time

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

from oracle_common import count_cases, drop_identical_ops, first_line, write  # noqa: E402

import triton  # noqa: E402
from triton._C.libtriton import ir  # noqa: E402
from triton.backends.amd.compiler import HIPBackend  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.backends.nvidia.compiler import CUDABackend  # noqa: E402
from triton.compiler.compiler import ASTSource  # noqa: E402
from triton.language.semantic import TritonSemantic  # noqa: E402

# Triton's dtypes: (signature name, str(tl dtype), promo's name). The fp8 formats:
# fp8e4nv is E4M3FN, fp8e5 E5M2, fp8e4b8 and fp8e5b16 AMD's FNUZ formats, fp8e4b15 the
# bias-15 E4M3 of its own (promo's f8e4m3b15).
DTYPES = [
    ("i1", "int1", "bool"), ("u8", "uint8", "u8"), ("u16", "uint16", "u16"), ("u32", "uint32", "u32"),
    ("u64", "uint64", "u64"), ("i8", "int8", "i8"), ("i16", "int16", "i16"), ("i32", "int32", "i32"),
    ("i64", "int64", "i64"), ("fp8e4b15", "fp8e4b15", "f8e4m3b15"), ("fp8e4nv", "fp8e4nv", "f8e4m3fn"),
    ("fp8e4b8", "fp8e4b8", "f8e4m3fnuz"), ("fp8e5", "fp8e5", "f8e5m2"), ("fp8e5b16", "fp8e5b16", "f8e5m2fnuz"),
    ("fp16", "fp16", "f16"), ("bf16", "bf16", "bf16"), ("fp32", "fp32", "f32"), ("fp64", "fp64", "f64"),
]
NAME = {tl_name: promo for _, tl_name, promo in DTYPES}
ALL_FP8 = ("fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16")
PYTHON = {"bool": "True", "int": "3", "float": "2.5"}
# promo's op -> the expression in the kernel
OPS = {
    "add": "{x} + {y}", "subtract": "{x} - {y}", "multiply": "{x} * {y}", "divide": "{x} / {y}",
    "floor_divide": "{x} // {y}", "remainder": "{x} % {y}", "maximum": "tl.maximum({x}, {y})",
    "minimum": "tl.minimum({x}, {y})", "equal": "{x} == {y}", "not_equal": "{x} != {y}", "less_than": "{x} < {y}",
    "less_equal": "{x} <= {y}", "greater_than": "{x} > {y}", "greater_equal": "{x} >= {y}",
    "bitwise_and": "{x} & {y}", "bitwise_or": "{x} | {y}", "bitwise_xor": "{x} ^ {y}",
    "where": "tl.where(tl.arange(0, 4) < 2, {x}, {y})",
}
# An operand form: how the kernel gets it. `t` a block loaded through a pointer, `s` a
# scalar argument, `bool`/`int`/`float` a Python literal, written in the expression
# itself: assigned to a variable (`y = 3`), it would be a typed scalar (the code
# generator's visit_Assign calls `to_tensor`, which types it by value).
FORMS = ["t", "s", *PYTHON]


def operand_source(form, arg):
    """The statement that makes operand `arg` (`x` from X, `y` from Y), and what the
    expression names it by."""
    if form == "t":
        return [f"    {arg.lower()} = tl.load({arg} + tl.arange(0, 4))"], arg.lower()
    if form == "s":
        return [], arg
    return [], PYTHON[form]


def kernel_module(path):
    """Writes one kernel per (op, lhs form, rhs form) to `path` and imports it."""
    lines = [
        "import triton", "import triton.language as tl", "from triton.language.core import builtin", "",
        "SEEN = []", "", "", "@builtin", "def record(v, _semantic=None):", "    SEEN.append(v.dtype)", "",
    ]
    for op, expr in OPS.items():
        for lf, rf in itertools.product(FORMS, FORMS):
            if lf in PYTHON and rf in PYTHON:
                continue
            (lstmt, x), (rstmt, y) = operand_source(lf, "X"), operand_source(rf, "Y")
            lines += ["", "@triton.jit", f"def k_{op}_{lf}_{rf}(X, Y):", *lstmt, *rstmt,
                      f"    record({expr.format(x=x, y=y)})", ""]
    for kind, literal in PYTHON.items():
        lines += ["", "@triton.jit", f"def k_assigned_{kind}(X, Y):", "    x = tl.load(X + tl.arange(0, 4))",
                  f"    y = {literal}", "    record(x + y)", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    spec = importlib.util.spec_from_file_location("triton_oracle_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPUTATION_TYPES = []
_computation_type_impl = TritonSemantic.computation_type_impl


def _logged_computation_type(self, *args, **kwargs):
    dtype = _computation_type_impl(self, *args, **kwargs)
    COMPUTATION_TYPES.append(dtype)
    return dtype


TritonSemantic.computation_type_impl = _logged_computation_type


@contextlib.contextmanager
def captured_stderr(into):
    """What the process writes to file descriptor 2 (MLIR's diagnostics) in the block,
    appended to the list `into`."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            into.append(tmp.read().decode(errors="replace"))


def verifier_error(text):
    """The IR verifier's first message (`error: 'arith.addf' op requires ...`)."""
    line = next((x for x in text.splitlines() if " error: " in x), "")
    return "IR verification failed: " + line.split(" error: ", 1)[1] if line else "IR verification failed"


class Frontend:
    """Triton's front end for one target: lowers a kernel to Triton IR."""

    def __init__(self, backend, target, **options):
        self.backend, self.target = backend, target
        self.options = backend.parse_options(options)
        self.codegen_fns = backend.get_codegen_implementation(self.options)
        self.module_map = backend.get_module_map()

    def result(self, kernels, fn, signature):
        """The dtype `record` saw, or raises the front end's error (its cause, Triton's
        message). Returns (dtype name, None) or (dtype name, verification error)."""
        ctx = ir.context()
        ir.load_dialects(ctx)
        self.backend.load_dialects(ctx)
        kernels.SEEN.clear()
        COMPUTATION_TYPES.clear()
        diagnostics = []
        try:
            with contextlib.redirect_stdout(io.StringIO()), captured_stderr(diagnostics):
                ASTSource(fn, signature).make_ir(self.target, self.options, self.codegen_fns, self.module_map, ctx)
        except Exception as e:  # noqa: BLE001
            if not kernels.SEEN:
                raise (e.__cause__ or e) from None
            seen = str(kernels.SEEN[-1])
            promoted = seen if seen == "int1" else str(COMPUTATION_TYPES[-1])
            return NAME[promoted], verifier_error(diagnostics[-1])
        return NAME[str(kernels.SEEN[-1])], None


def operands(dtypes):
    """Every operand: (name, form, signature type of its argument)."""
    ops = [(promo, "t", "*" + sig) for sig, _, promo in dtypes]
    ops += [("scalar:" + promo, "s", sig) for sig, _, promo in dtypes]
    ops += [("python:" + k, k, "i32") for k in PYTHON]
    return ops


def sweep_op(frontend, kernels, op, dtypes, build_failures):
    cases = []
    for (ln, lf, lsig), (rn, rf, rsig) in itertools.product(operands(dtypes), operands(dtypes)):
        if lf in PYTHON and rf in PYTHON:
            continue
        fn = getattr(kernels, f"k_{op}_{lf}_{rf}")
        try:
            dtype, failed = frontend.result(kernels, fn, {"X": lsig, "Y": rsig})
        except Exception as e:  # noqa: BLE001
            cases.append([ln, rn, None, first_line(e)])
            continue
        if failed is None:
            cases.append([ln, rn, dtype])
        else:
            cases.append([ln, rn, dtype, failed])
            build_failures.append([op, ln, rn, dtype, failed])
    return cases


def cross_check(kernels, groups):
    """The sweep's answers against two native targets' own options, on the dtypes each
    admits: (target, cases compared, cases that differ)."""
    found = {(g["op"], c[0], c[1]): c[2:] for g in groups for c in g["cases"]}
    native = [
        ("cuda sm_90", Frontend(CUDABackend(GPUTarget("cuda", 90, 32)), GPUTarget("cuda", 90, 32))),
        ("hip gfx942", Frontend(HIPBackend(GPUTarget("hip", "gfx942", 64)), GPUTarget("hip", "gfx942", 64))),
    ]
    report = []
    for label, frontend in native:
        admitted = [d for d in DTYPES if d[0] not in ALL_FP8 or d[0] in frontend.options.supported_fp8_dtypes]
        compared, differ = 0, []
        for op in ("add", "divide", "floor_divide", "bitwise_and", "less_than"):
            for c in sweep_op(frontend, kernels, op, admitted, []):
                compared += 1
                theirs = found[(op, c[0], c[1])]
                if (c[2], len(c) > 3) != (theirs[0], len(theirs) > 1):
                    differ.append([op, *c])
        report.append({"target": label, "fp8": sorted(frontend.options.supported_fp8_dtypes),
                       "ops": ["add", "divide", "floor_divide", "bitwise_and", "less_than"],
                       "cases_compared": compared, "cases_that_differ": differ})
    return report


def assigned_literal_probe(frontend, kernels, found):
    """`y = LITERAL; x + y` against `x + LITERAL`, for a block x of each dtype."""
    rows = []
    for sig, _, promo in DTYPES:
        for kind in PYTHON:
            try:
                fn = getattr(kernels, f"k_assigned_{kind}")
                assigned = frontend.result(kernels, fn, {"X": "*" + sig, "Y": "i32"})[0]
            except Exception as e:  # noqa: BLE001
                assigned = "error: " + first_line(e)
            inline = found[("add", promo, "python:" + kind)]
            if assigned != inline[0]:
                rows.append([promo, kind, assigned, inline[0] if inline[0] else "error: " + inline[1]])
    return {"expressions": ["y = LITERAL; x + y", "x + LITERAL"],
            "differences [x dtype, literal kind, assigned, inline]": rows}


def python_int_types():
    """What `to_tensor_type` makes of Python ints of each range (and bool, float)."""
    semantic = TritonSemantic(None)
    values = [True, 3, -3, 2**31 - 1, 2**31, 2**32, -2**31 - 1, 2**63, 2.5, 1e300]
    return {repr(v): NAME[str(semantic.to_tensor_type(v))] for v in values}


def main(out_path):
    start = time.time()
    frontend = Frontend(CUDABackend(GPUTarget("cuda", 90, 32)), GPUTarget("cuda", 90, 32),
                        supported_fp8_dtypes=ALL_FP8)
    groups, build_failures = [], []
    with tempfile.TemporaryDirectory() as tmp:
        kernels = kernel_module(os.path.join(tmp, "triton_oracle_kernels.py"))
        for op in OPS:
            t0 = time.time()
            cases = sweep_op(frontend, kernels, op, DTYPES, build_failures)
            groups.append({"options": {}, "op": op, "cases": cases})
            print(f"triton {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)
        checked = cross_check(kernels, groups)
        found = {(g["op"], c[0], c[1]): c[2:] for g in groups for c in g["cases"]}
        assigned = assigned_literal_probe(frontend, kernels, found)
    kept, same = drop_identical_ops(groups)
    doc = {
        "framework": "triton",
        "version": triton.__version__,
        "generated_by": "tools/oracles/promotion/triton_oracle.py",
        "device": "none: Triton IR for cuda sm_90 (front end only), supported_fp8_dtypes = all five",
        "dtypes": [promo for _, _, promo in DTYPES],
        "triton_names": {tl_name: promo for _, tl_name, promo in DTYPES},
        "expressions": OPS,
        "python_literals": PYTHON,
        "python_int_types": python_int_types(),
        "assigned_literal_probe": assigned,
        "target_cross_check": checked,
        "build_failures": build_failures,
        "ops_left_out_as_identical": same,
        "groups": kept,
    }
    write(out_path, doc)
    print(f"triton {triton.__version__}: {len(DTYPES)} dtypes, {count_cases(kept)} cases kept of "
          f"{count_cases(groups)}, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
