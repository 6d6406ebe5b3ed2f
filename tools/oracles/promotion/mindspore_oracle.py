"""Dump what MindSpore (PYNATIVE mode, CPU) does when a binary operation meets two
operands of different dtypes to tests/data/promotion/mindspore.json.

    python tools/oracles/promotion/mindspore_oracle.py tests/data/promotion/mindspore.json
    python tools/oracles/promotion/mindspore_oracle.py --ops add,divide,equal,less_than OUT.json

Everything runs in PYNATIVE mode on the CPU with `pynative_synchronize=True`: each
operation runs before the call returns, so its error is raised by that call (without it
an error surfaces at some later call, and the data would depend on the order of the
sweep).

Operands: `DTYPE` is `ops.ones(2, dtype)`, `scalar:DTYPE` is `ops.ones((), dtype)`,
`python:KIND` the literal True, 3 or 2.5, on either side (a Python complex is left
out: `ops.add`'s signature takes none, `Failed calling Add with "Add()(input=Tensor,
other=<class 'complex'>)"`, whatever the tensor). Every op is its function in
`mindspore.ops` (`ops.add`; with `--ops`, `ops.div`, `ops.equal`, `ops.less`), and the
result is read back (`asnumpy`); the result is the output's dtype. The Python operator (`a + b`, ...) is swept too
(`operator_vs_function` lists where it answers otherwise). Each op is swept by
children of this script, one process after another; a pair that crashes its process is
recorded as such and the next child goes on after it.
"""
import json
import os
import subprocess
import sys
import time

import mindspore as ms
from mindspore import ops

from oracle_common import OPERATORS, count_cases, drop_identical_ops, first_line, is_python, write

# MindSpore's dtype names (str(dtype)) -> promo's.
NAMES = {
    "Bool": "bool", "UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64", "Int8": "i8",
    "Int16": "i16", "Int32": "i32", "Int64": "i64", "Float16": "f16", "BFloat16": "bf16", "Float32": "f32",
    "Float64": "f64", "Complex64": "c64", "Complex128": "c128",
}
DTYPES = [ms.bool_, ms.uint8, ms.uint16, ms.uint32, ms.uint64, ms.int8, ms.int16, ms.int32, ms.int64,
          ms.float16, ms.bfloat16, ms.float32, ms.float64, ms.complex64, ms.complex128]
PYTHON = {"bool": True, "int": 3, "float": 2.5}
OPS = {"add": ("add", "+"), "divide": ("div", "/"), "equal": ("equal", "=="), "less_than": ("less", "<")}
# What the data holds: `ops.add` only. `--ops add,divide,equal,less_than` sweeps the others
# the same way (mindspore_findings.md); they are not in the rule file yet, since most of
# their refusals on this CPU are missing kernels, and the data cannot yet give the dtype
# each of those would have promoted to.
DEFAULT_OPS = ["add"]


def name_of(dtype):
    return NAMES.get(str(dtype), str(dtype))


def evaluated(r):
    r.asnumpy()
    return name_of(r.dtype)


def operands():
    tensor = [(name_of(d), ops.ones(2, d)) for d in DTYPES]
    zero_d = [("scalar:" + name_of(d), ops.ones((), d)) for d in DTYPES]
    return tensor + zero_d + [("python:" + k, v) for k, v in PYTHON.items()]


def pairs(swept):
    """The ordered pairs of operands swept, Python with Python left out."""
    return [(l, r) for l in swept for r in swept if not (is_python(l[0]) and is_python(r[0]))]


def child(op, how, skip, part):
    """Sweeps `op` (its function, or its operator if `how` is "operator") from pair
    `skip` on, appending each case to `part` as a line of JSON as soon as it is known,
    so a pair that crashes the process loses no case before it."""
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU", pynative_synchronize=True)
    fname, sym = OPS[op]
    fn = getattr(ops, fname) if how == "function" else OPERATORS[sym]
    with open(part, "a") as f:
        for (ln, a), (rn, b) in pairs(operands())[skip:]:
            try:
                case = [ln, rn, evaluated(fn(a, b))]
            except Exception as e:  # noqa: BLE001
                case = [ln, rn, None, first_line(e)]
            f.write(json.dumps(case) + "\n")
            f.flush()


def swept_in_children(out_path, op, how):
    """The cases of `op`, swept by children of this script; a pair that kills its child
    (MindSpore 2.10.0's CPU build crashes on some, e.g. `ops.mul` of f16 with a 0-d bf16)
    is a case with the signal as its error, and the next child goes on after it."""
    part = f"{out_path}.{op}.{how}.part"
    if os.path.exists(part):
        os.remove(part)
    names = [(l[0], r[0]) for l, r in pairs(operands())]
    cases = []
    while len(cases) < len(names):
        rc = subprocess.run([sys.executable, __file__, "--child", op, how, str(len(cases)), part],
                            env={**os.environ, "PYTHONHASHSEED": "0", "GLOG_v": "3"}).returncode
        with open(part) as f:
            cases = [json.loads(line) for line in f]
        if rc != 0 and len(cases) < len(names):
            l, r = names[len(cases)]
            cases.append([l, r, None, f"crashed: the process died (exit status {rc})"])
            with open(part, "a") as f:
                f.write(json.dumps(cases[-1]) + "\n")
    os.remove(part)
    return cases


def main(out_path, chosen):
    start = time.time()
    groups, diffs = [], []
    for op in chosen:
        sym = OPS[op][1]
        t0 = time.time()
        cases = swept_in_children(out_path, op, "function")
        groups.append({"options": {}, "op": op, "cases": cases})
        index = {(c[0], c[1]): c for c in cases}
        opc = swept_in_children(out_path, op, "operator")
        for c in opc:
            f = index[(c[0], c[1])]
            if (c[2], len(c) > 3) != (f[2], len(f) > 3):
                diffs.append({"op": op, "operator": sym, "lhs": c[0], "rhs": c[1], "function": f[2:],
                              "with_operator": c[2:]})
        print(f"mindspore {op}: {len(cases)} cases, {time.time() - t0:.1f}s", file=sys.stderr)

    kept, same = drop_identical_ops(groups)
    doc = {
        "framework": "mindspore",
        "version": ms.__version__,
        "generated_by": "tools/oracles/promotion/mindspore_oracle.py",
        "device": "CPU, PYNATIVE_MODE, pynative_synchronize",
        "dtypes": [name_of(d) for d in DTYPES],
        "functions": {op: f"mindspore.ops.{OPS[op][0]}" for op in chosen},
        "operator_vs_function": diffs,
        "ops_left_out_as_identical": same,
        "groups": kept,
    }
    write(out_path, doc)
    print(f"mindspore {ms.__version__}: {len(DTYPES)} dtypes, {count_cases(kept)} cases kept of "
          f"{count_cases(groups)}, {time.time() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "--ops":
        main(sys.argv[3], sys.argv[2].split(","))
    else:
        main(sys.argv[1], DEFAULT_OPS)
