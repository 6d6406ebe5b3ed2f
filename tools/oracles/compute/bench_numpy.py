"""Throughput of NumPy + ml_dtypes elementwise arithmetic, the baseline promo's fused
arithmetic benchmark compares with.

    python tools/oracles/compute/bench_numpy.py [--json FILE] [--quick]

Each case is one ufunc call `f(a, b, out=c)` on 1-d contiguous arrays of N elements
(N = 16 Ki and 16 Mi), the output preallocated in the result dtype; beside it the
same call without `out=` (allocating, as `a + b` does) and `np.copyto` of a buffer of
the output's bytes (a memcpy of the same size). Inputs are finite values from a
fixed-seed generator (no NaN or subnormal slow paths). Each figure is the best of
REPEATS timings, each timing running the call enough times for at least MIN_TIME
seconds; elements per second = N / (seconds per call). Everything runs in one
process, one thread (NumPy does not thread elementwise ufuncs).
"""
import argparse
import json
import os
import platform
import sys
import time

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compute_common as cc  # noqa: E402

BF16 = ml_dtypes.bfloat16
F8 = ml_dtypes.float8_e4m3fn
CASES = [  # (name, ufunc, lhs dtype, rhs dtype)
    ("f8e4m3fn + f8e4m3fn", np.add, F8, F8),
    ("bf16 + bf16", np.add, BF16, BF16),
    ("f16 + f16", np.add, np.float16, np.float16),
    ("f32 + bf16", np.add, np.float32, BF16),
    ("f16 * f32", np.multiply, np.float16, np.float32),
    ("i8 + f16", np.add, np.int8, np.float16),
    ("f32 + f32", np.add, np.float32, np.float32),
]
SIZES = [16 * 1024, 16 * 1024 * 1024]
REPEATS = 5
MIN_TIME = 0.2


def inputs(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, n).astype(dtype)
    return (rng.standard_normal(n) * 4).astype(np.float32).astype(dtype)


def best_seconds(fn, min_time):
    fn()
    reps = 1
    while True:
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        dt = time.perf_counter() - t
        if dt >= min_time:
            break
        reps *= 2 if dt == 0 else max(2, int(min_time / dt * 1.2))
    best = dt / reps
    for _ in range(REPEATS - 1):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true", help="MIN_TIME 0.02 s, 2 repeats (a smoke test)")
    args = ap.parse_args()
    global REPEATS, MIN_TIME
    if args.quick:
        REPEATS, MIN_TIME = 2, 0.02
    rows = []
    print(f"CPU: {cc.cpu_model()} ({os.cpu_count()} logical CPUs), Python {platform.python_version()}, "
          f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}")
    print(f"{'case':22} {'N':>9} {'result':>8} {'out= Melem/s':>13} {'alloc Melem/s':>14} "
          f"{'memcpy Melem/s':>15} {'x memcpy':>12} {'x f32+f32':>11}")
    for n in SIZES:
        ref = None
        for name, f, da, db in CASES:
            a, b = inputs(da, n, 1), inputs(db, n, 2)
            rdt = f.resolve_dtypes((a.dtype, b.dtype, None))[2]
            c = np.empty(n, rdt)
            with np.errstate(all="ignore"):
                t_out = best_seconds(lambda: f(a, b, out=c), MIN_TIME)
                t_alloc = best_seconds(lambda: f(a, b), MIN_TIME)
            src = np.empty(n * rdt.itemsize, np.uint8)
            src[:] = 1
            dst = np.empty_like(src)
            t_copy = best_seconds(lambda: np.copyto(dst, src), MIN_TIME)
            row = {"case": name, "n": n, "result": cc_name(rdt), "out_elem_per_s": n / t_out,
                   "alloc_elem_per_s": n / t_alloc, "memcpy_elem_per_s": n / t_copy,
                   "memcpy_bytes_per_elem": rdt.itemsize, "slowdown_vs_memcpy": t_out / t_copy}
            rows.append(row)
            if name == "f32 + f32":
                ref = t_out
        for row in rows:
            if row["n"] == n:
                row["slowdown_vs_f32_add"] = (n / row["out_elem_per_s"]) / ref
                print(f"{row['case']:22} {n:>9} {row['result']:>8} {row['out_elem_per_s'] / 1e6:>13.1f} "
                      f"{row['alloc_elem_per_s'] / 1e6:>14.1f} {row['memcpy_elem_per_s'] / 1e6:>15.1f} "
                      f"{row['slowdown_vs_memcpy']:>12.1f} {row['slowdown_vs_f32_add']:>11.1f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"cpu": cc.cpu_model(), "numpy": np.__version__, "ml_dtypes": ml_dtypes.__version__,
                       "python": platform.python_version(), "repeats": REPEATS, "min_time": MIN_TIME,
                       "rows": rows}, fh, indent=1)


def cc_name(dt):
    return {"float8_e4m3fn": "f8e4m3fn", "bfloat16": "bf16", "float16": "f16", "float32": "f32",
            "float64": "f64"}.get(dt.name, dt.name)


if __name__ == "__main__":
    main()
