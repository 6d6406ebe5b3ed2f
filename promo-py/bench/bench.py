"""promo.cast against ml_dtypes' and numpy's astype, and promo.result_type against
np.result_type, on the same arrays in one run; prints a Markdown report.

    python promo-py/bench/bench.py [--repeats N] [--quick]

Medians of repeats; elements/s; the ratios promo/ml_dtypes and promo/numpy as
speed-ups (their time over promo's: 2.0x means promo takes half the time). Nothing
is asserted: the targets are reported as met or not.
"""

import argparse
import platform
import statistics
import time
import timeit

import ml_dtypes
import numpy as np

import promo

SIZES = {"16 Ki": 16 * 1024, "16 Mi": 16 * 1024 * 1024}
FORMATS = {
    "f8e4m3fn": ml_dtypes.float8_e4m3fn,
    "f8e5m2": ml_dtypes.float8_e5m2,
    "bf16": ml_dtypes.bfloat16,
    "f16": np.float16,
}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def median_time(fn, repeats, number):
    """Median seconds of one call of ``fn`` over ``repeats`` timings of ``number`` calls."""
    fn()  # warm up (page faults of the output, thread pool start)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def source(n, fmt, rng):
    """f32 values spread over the format's range (some beyond it, a few NaN)."""
    x = rng.standard_normal(n).astype(np.float32)
    scale = {"f8e4m3fn": 64.0, "f8e5m2": 4096.0, "bf16": 1e6, "f16": 1000.0}[fmt]
    x *= np.float32(scale)
    x[:: 997] = np.nan
    return x


def fmt_rate(n, t):
    r = n / t
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if r >= div:
            return f"{r / div:.2f} {unit}el/s"
    return f"{r:.0f} el/s"


def fmt_time(t):
    if t >= 1e-3:
        return f"{t * 1e3:.2f} ms"
    if t >= 1e-6:
        return f"{t * 1e6:.1f} µs"
    return f"{t * 1e9:.0f} ns"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="fewer repeats (3), for a smoke run")
    args = ap.parse_args()
    repeats = 3 if args.quick else args.repeats

    print(f"CPU: {cpu_model()}")
    print(f"promo.backend(): {promo.backend()}")
    print(f"promo {getattr(promo, '__version__', '?')}, numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"Python {platform.python_version()}")
    print(f"median of {repeats} repeats\n")

    rng = np.random.default_rng(0)
    rows = []
    results = {}
    for size_name, n in SIZES.items():
        number = max(1, (1 << 22) // n)  # calls per timing: ~4 Mi elements
        for fmt, t in FORMATS.items():
            src = source(n, fmt, rng)
            narrow = src.astype(t)
            for direction, x, target, name in (
                ("to", src, t, f"f32 -> {fmt}"),
                ("from", narrow, np.float32, f"{fmt} -> f32"),
            ):
                t_promo = median_time(lambda: promo.cast(x, target), repeats, number)
                # memcpy of the same bytes: a fresh copy of the larger side.
                big = max(x, promo.cast(x, target), key=lambda a: a.nbytes)
                t_copy = median_time(lambda: big.copy(), repeats, number)
                t_ml = median_time(lambda: x.astype(target), repeats, number)
                # numpy's own astype only where numpy has the type (f16); the ml_dtypes
                # column is then numpy's as well.
                t_np = t_ml if fmt == "f16" else None
                if fmt == "f16":
                    t_ml = None  # ml_dtypes has no f16 of its own
                results[(name, size_name)] = (t_promo, t_ml, t_np)
                rows.append((name, size_name, n, t_promo, t_copy, t_ml, t_np))

    print("## Casts\n")
    print("Ratios are speed-ups: the other's time over promo's (2.00x: promo takes half the time). "
          "`copy` is a fresh copy of the larger side's bytes (`array.copy()`): memcpy with the allocation.\n")
    print("| cast | elements | promo | promo rate | vs copy | ml_dtypes astype | ml_dtypes rate | numpy astype "
          "| promo/ml_dtypes | promo/numpy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, size_name, n, tp, tc, tm, tn in rows:
        ml_col = fmt_time(tm) if tm is not None else "—"
        ml_rate = fmt_rate(n, tm) if tm is not None else "—"
        ml_ratio = f"{tm / tp:.2f}x" if tm is not None else "—"
        np_col = fmt_time(tn) if tn is not None else "—"
        np_ratio = f"{tn / tp:.2f}x" if tn is not None else "—"
        print(f"| {name} | {size_name} | {fmt_time(tp)} | {fmt_rate(n, tp)} | {tc / tp:.2f}x | {ml_col} | {ml_rate} | {np_col} "
              f"| {ml_ratio} | {np_ratio} |")

    # result_type per call.
    calls = 200_000
    rt = [t / calls for t in timeit.repeat(lambda: promo.result_type("numpy", np.float32, np.int8),
                                           number=calls, repeat=repeats)]
    nrt = [t / calls for t in timeit.repeat(lambda: np.result_type(np.float32, np.int8),
                                            number=calls, repeat=repeats)]
    t_rt, t_rt_med = min(rt), statistics.median(rt)
    t_nrt, t_nrt_med = min(nrt), statistics.median(nrt)
    print("\n## Promotion, per call\n")
    print("| call | median | best |")
    print("|---|---:|---:|")
    print(f"| promo.result_type(\"numpy\", np.float32, np.int8) | {fmt_time(t_rt_med)} | {fmt_time(t_rt)} |")
    print(f"| np.result_type(np.float32, np.int8) | {fmt_time(t_nrt_med)} | {fmt_time(t_nrt)} |")
    print(f"\npromo/numpy: promo takes {t_rt_med / t_nrt_med:.2f}x numpy's time per call")

    print("\n## Targets\n")
    print("| target | measured | met |")
    print("|---|---:|:---:|")

    def target(label, measured, goal):
        print(f"| {label} | {measured:.2f}x (goal {goal:g}x) | {'yes' if measured >= goal else 'NO'} |")

    tp, tm, _ = results[("f32 -> f8e4m3fn", "16 Mi")]
    target("f32 -> f8e4m3fn vs ml_dtypes, 16 Mi", tm / tp, 20)
    for name in ("f32 -> bf16", "bf16 -> f32"):
        for size_name in SIZES:
            tp, tm, _ = results[(name, size_name)]
            target(f"{name} vs ml_dtypes, {size_name}", tm / tp, 2)
    for size_name in SIZES:
        tp, _, tn = results[("f32 -> f16", size_name)]
        target(f"f32 -> f16 vs numpy astype, {size_name}", tn / tp, 1)
    # promo time <= 2 x numpy time: numpy's time over promo's >= 0.5.
    target("result_type vs np.result_type (numpy time / promo time)", t_nrt_med / t_rt_med, 0.5)


if __name__ == "__main__":
    main()
