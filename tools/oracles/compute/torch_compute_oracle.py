"""PyTorch (CPU) elementwise arithmetic, bit for bit: every op of compute_common.OPS
over every ordered pair of torch's real element types, and each type with each Python
scalar on either side.

    python tools/oracles/compute/torch_compute_oracle.py tests/data/compute

writes torch.json and torch.bin.gz there (README.md has the layout). Two tensors go
through the function (`torch.add`, `torch.sub`, `torch.mul`, `torch.div` (true
division), `torch.maximum`, `torch.minimum`, `torch.eq`, `torch.ne`, `torch.lt`,
`torch.le`, `torch.gt`, `torch.ge`); a Python scalar goes through the Python operator
(`t * 0.1`, `0.1 - t`, `t < 3`: `__rsub__` and friends on the left), and through
`torch.maximum` / `torch.minimum`, which refuse it. Tensors are 1-d, made by viewing
the input codes (`torch.from_numpy(uint array).view(dtype)`), contiguous, one thread
(`torch.set_num_threads(1)`). Shell dtypes (uint1..7, int1..7) and float4_e2m1fn_x2
have no kernels and are not swept.
"""
import os
import platform
import sys
import time
import warnings

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

TT = {
    "bool": torch.bool, "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32, "u64": torch.uint64,
    "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
    "f8e4m3fn": torch.float8_e4m3fn, "f8e4m3fnuz": torch.float8_e4m3fnuz, "f8e5m2": torch.float8_e5m2,
    "f8e5m2fnuz": torch.float8_e5m2fnuz, "f8e8m0": torch.float8_e8m0fnu,
}
NAME = {v: k for k, v in TT.items()}
SIGNED_VIEW = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
NPU = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
FUNC = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div,
    "maximum": torch.maximum, "minimum": torch.minimum, "equal": torch.eq, "not_equal": torch.ne,
    "less": torch.lt, "less_equal": torch.le, "greater": torch.gt, "greater_equal": torch.ge,
}
OPERATOR = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
    "divide": lambda a, b: a / b, "maximum": torch.maximum, "minimum": torch.minimum,
    "equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less": lambda a, b: a < b,
    "less_equal": lambda a, b: a <= b, "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b,
}
TYPES = list(TT)


def tensor(t, codes):
    u = np.array(codes, dtype=NPU[cc.nbytes(t)])
    x = torch.from_numpy(u.view(np.int8 if cc.nbytes(t) == 1 else u.dtype.str.replace("u", "i")))
    return x.view(TT[t]) if t != "bool" else x.view(torch.uint8).view(torch.bool)


def output(r):
    t = NAME[r.dtype]
    r = r.contiguous()
    if r.dtype == torch.bool:
        raw = r.view(torch.uint8).numpy()
    else:
        raw = r.view(SIGNED_VIEW[r.element_size()]).numpy().view(NPU[r.element_size()])
    return t, raw.astype(np.dtype(NPU[cc.nbytes(t)]).newbyteorder("<")).tobytes()



def main(out_dir):
    t0 = time.time()
    torch.set_num_threads(1)
    scalars = cc.scalar_values()

    def run_pair(op, lhs, rhs, a, b):
        return output(FUNC[op](tensor(lhs, a), tensor(rhs, b)))

    def run_scalar(op, t, codes, si, left):
        x = tensor(t, codes)
        s = scalars[si]
        return output(OPERATOR[op](s, x) if left else OPERATOR[op](x, s))

    rec = cc.Recorder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.sweep(TYPES, run_pair, run_scalar, rec)
    probe = cc.minmax_probe(TYPES, run_pair)
    header = {
        "framework": "torch", "setting": {"device": "cpu", "num_threads": 1},
        "version": {"torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
                    "cpu_capability": torch.backends.cpu.get_cpu_capability()},
        "machine": {"cpu": cc.cpu_model(), "arch": platform.machine()},
        "minmax_probe": probe,
        "generated_by": "tools/oracles/compute/torch_compute_oracle.py",
        "types": TYPES,
    }
    raw, gz = rec.write(out_dir, "torch", header)
    print(f"torch: {len(rec.cases)} cases, {raw} bytes ({gz} gzipped), {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
