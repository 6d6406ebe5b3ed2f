"""promo.compute against NumPy's own ufuncs (with ml_dtypes' types) on the same
arrays, in one run; prints a Markdown report.

    python promo-py/bench/bench_compute.py [--repeats N] [--quick]

Each case is `a OP b` on 1-d contiguous arrays of N elements (16 Ki and 16 Mi),
the output preallocated in the result dtype (`out=` for both). Beside them in the
same run: NumPy's `f32 + f32` on as many elements, and `np.copyto` of the output's
bytes (a memcpy). Figures are the best of REPEATS timings, each of enough calls for
MIN_TIME seconds; Melem/s = N / seconds per call / 10^6. "promo ÷ numpy" is NumPy's
time over promo's (2.0 means promo takes half the time). Targets are reported as met
or not; nothing is asserted.
"""

import argparse
import os
import platform
import time

# promo.compute splits large arrays across rayon's threads; the report compares
# one thread with one thread (set before promo first computes).
os.environ.setdefault("RAYON_NUM_THREADS", "1")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

import promo  # noqa: E402

BF16 = ml_dtypes.bfloat16
F8 = ml_dtypes.float8_e4m3fn
CASES = [  # (name, op, ufunc, lhs dtype, rhs dtype, target: (what, factor))
    ("f8e4m3fn + f8e4m3fn", "add", np.add, F8, F8, ("ml_dtypes", 20.0)),
    ("bf16 + bf16", "add", np.add, BF16, BF16, ("ml_dtypes", 5.0)),
    ("f16 + f16", "add", np.add, np.float16, np.float16, ("NumPy", 10.0)),
    ("f32 + bf16", "add", np.add, np.float32, BF16, None),
    ("f16 * f32", "multiply", np.multiply, np.float16, np.float32, None),
    ("i8 + f16", "add", np.add, np.int8, np.float16, None),
]
SIZES = {"16 Ki": 16 * 1024, "16 Mi": 16 * 1024 * 1024}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def best_time(fn, repeats, min_time):
    """Best seconds per call of ``fn`` over ``repeats`` timings of at least ``min_time``."""
    fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-9)
    number = max(1, int(min_time / once))
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def inputs(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, n).astype(dtype)
    return (rng.standard_normal(n) * 4).astype(np.float32).astype(dtype)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="16 Ki only, shorter timings")
    args = parser.parse_args()
    min_time = 0.05 if args.quick else 0.2
    sizes = {"16 Ki": SIZES["16 Ki"]} if args.quick else SIZES
    print(
        f"CPU `{cpu_model()}`, promo backend `{promo.backend()}`, Python {platform.python_version()}, "
        f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}; one thread.\n"
    )
    print("| case | result | N | promo Melem/s | NumPy Melem/s | promo ÷ NumPy | promo ÷ NumPy f32 + f32 | promo ÷ memcpy | target |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, n in sizes.items():
        fa, fb = inputs(np.float32, n, 1), inputs(np.float32, n, 2)
        fo = np.empty(n, np.float32)
        f32_time = best_time(lambda: np.add(fa, fb, out=fo), args.repeats, min_time)
        for name, op, ufunc, lt, rt, target in CASES:
            a, b = inputs(lt, n, 3), inputs(rt, n, 4)
            want = ufunc(a[:4], b[:4])
            out = np.empty(n, want.dtype)
            got = promo.compute("numpy", op, a, b)
            same = np.array_equal(got.view(np.uint8), ufunc(a, b).view(np.uint8))
            numpy_time = best_time(lambda: ufunc(a, b, out=out), args.repeats, min_time)
            promo_time = best_time(lambda: promo.compute("numpy", op, a, b, out=out), args.repeats, min_time)
            src = np.empty(out.nbytes, np.uint8)
            dst = np.empty(out.nbytes, np.uint8)
            memcpy_time = best_time(lambda: np.copyto(dst, src), args.repeats, min_time)
            speedup = numpy_time / promo_time
            verdict = ""
            if target and label == "16 Mi":
                verdict = f"{target[1]:g}× {target[0]}: {'met' if speedup >= target[1] else 'missed'}"
            elif label == "16 Mi":
                verdict = f"≥ f32 + f32: {'met' if f32_time / promo_time >= 1.0 else 'missed'}"
            print(
                f"| {name} | {want.dtype} | {label} | {n / promo_time / 1e6:,.0f} | {n / numpy_time / 1e6:,.0f} | "
                f"{speedup:.1f} | {f32_time / promo_time:.2f} | {memcpy_time / promo_time:.2f} | {verdict} |"
                + ("" if same else " (bits differ from NumPy's!)")
            )


if __name__ == "__main__":
    main()
