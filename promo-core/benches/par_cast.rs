//! Parallel cast speed (feature `rayon`), side by side in one run, for f32 →
//! f8e4m3fn, f32 → bf16 and f8e4m3fn → f32 on typed slices:
//!
//! - `par`: `par_cast_slice`, four chunks per thread of rayon's pool;
//! - `one_thread`: `cast_slice`, the same kernel on the calling thread;
//! - `par_memcpy`: `copy_from_slice` of the larger side's bytes split into the
//!   same chunks on the same pool (the memory-speed ceiling for that many threads);
//! - `memcpy`: the same copy on one thread;
//! - `threshold_one` / `threshold_par`: one thread against every thread of the
//!   pool (chunks as `par_cast_slice` makes them, whatever the size) from 4 Ki to
//!   4 Mi elements, to find where the pool starts to win (`PAR_MIN_ELEMENTS`).
//!
//! `PROMO_BENCH_N=4194304,67108864 cargo bench -p promo-core --features rayon
//! --bench par_cast` (element counts, comma-separated; those two by default;
//! `-- --sample-count 5 --sample-size 1` for 64 Mi). Elements per second.
//! `PROMO_BENCH_BACKEND=avx2` runs `par` and `one_thread` on that backend (each
//! chunk through a `Converter` made for it) instead of the fastest.

use divan::{black_box, Bencher};
use promo_core::cast::{
    cast_slice, par_cast_slice, Backend, CastOptions, CastSource, CastTarget, Converter, PAR_MIN_ELEMENTS,
};
use promo_core::narrow::f8e4m3fn;
use promo_core::{bf16, Element};
use rayon::prelude::*;

fn main() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let backend = backend().map_or_else(|| Backend::detect().to_string(), |b| b.to_string());
    eprintln!(
        "cpu: {cpu}; backend: {backend}; rayon threads: {}",
        rayon::current_num_threads()
    );
    divan::main();
}

/// The backend `PROMO_BENCH_BACKEND` names, if any.
fn backend() -> Option<Backend> {
    let name = std::env::var("PROMO_BENCH_BACKEND").ok()?;
    Some(
        Backend::available()
            .into_iter()
            .find(|b| b.name() == name)
            .unwrap_or_else(|| panic!("backend {name} is not available on this CPU")),
    )
}

/// `src` into `dst` on `backend`, on the pool in `per`-element chunks when `par`.
fn on_backend<S: Source + bytemuck::Pod, T: Element + CastTarget + bytemuck::Pod>(
    backend: Backend,
    src: &[S],
    dst: &mut [T],
    par: bool,
) {
    let c = Converter::with_backend(S::DTYPE, T::DTYPE, CastOptions::default(), backend).unwrap();
    let run = |s: &[S], d: &mut [T]| {
        c.convert_to_slice(bytemuck::cast_slice(s), bytemuck::cast_slice_mut(d))
            .unwrap();
    };
    if par && src.len() >= PAR_MIN_ELEMENTS {
        let per = per_chunk::<S, T>(src.len());
        src.par_chunks(per)
            .zip(dst.par_chunks_mut(per))
            .for_each(|(s, d)| run(s, d));
    } else {
        run(src, dst);
    }
}

/// The conversions timed.
const PAIRS: &[&str] = &["f32->f8e4m3fn", "f32->bf16", "f8e4m3fn->f32"];

/// Elements per conversion: `PROMO_BENCH_N` (comma-separated), 4 Mi and 64 Mi by default.
fn sizes() -> Vec<usize> {
    std::env::var("PROMO_BENCH_N")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![4 << 20, 64 << 20])
}

/// Every pair at every size: `from->to@n`.
fn cases() -> impl Iterator<Item = String> {
    sizes()
        .into_iter()
        .flat_map(|n| PAIRS.iter().map(move |p| format!("{p}@{n}")))
}

/// The sizes the threshold sweep runs: 4 Ki to 4 Mi elements, doubling.
fn sweep() -> impl Iterator<Item = String> {
    PAIRS
        .iter()
        .flat_map(|p| (12..=22).map(move |k| format!("{p}@{}", 1usize << k)))
}

/// A case's pair and element count.
fn parse(case: &str) -> (&str, usize) {
    let (pair, n) = case.split_once('@').unwrap();
    (pair, n.parse().unwrap())
}

/// Source values: mixed magnitudes, a multiplicative hash of the index as bits.
trait Source: Element + CastSource {
    fn nth(i: usize) -> Self;
}

impl Source for f32 {
    fn nth(i: usize) -> Self {
        f32::from_bits((i as u32).wrapping_mul(2_654_435_761))
    }
}

impl Source for f8e4m3fn {
    fn nth(i: usize) -> Self {
        f8e4m3fn::from_bits(((i as u32).wrapping_mul(2_654_435_761) >> 13) as u8)
    }
}

/// Runs `$run::<S, T>($($arg),*)` for the pair named `$pair`.
macro_rules! for_pair {
    ($pair:expr, $run:ident($($arg:expr),*)) => {
        match $pair {
            "f32->f8e4m3fn" => $run::<f32, f8e4m3fn>($($arg),*),
            "f32->bf16" => $run::<f32, bf16>($($arg),*),
            "f8e4m3fn->f32" => $run::<f8e4m3fn, f32>($($arg),*),
            p => unreachable!("no pair {p}"),
        }
    };
}

/// Elements per chunk as `par_cast_slice` cuts them: four chunks per thread, a
/// whole number of 64-byte lines of both sides.
fn per_chunk<S, T>(n: usize) -> usize {
    let unit = 64 / size_of::<S>().min(size_of::<T>());
    n.div_ceil(4 * rayon::current_num_threads())
        .next_multiple_of(unit)
        .max(unit)
}

/// Times `f(src, dst)` over `n` elements.
fn time<S: Source, T: Element + CastTarget + Default>(
    bencher: Bencher,
    n: usize,
    f: impl Fn(&[S], &mut [T]) + Sync,
) {
    let src: Vec<S> = (0..n).into_par_iter().map(S::nth).collect();
    let mut dst = vec![T::default(); n];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            f(black_box(&src), &mut dst);
            black_box(&dst);
        });
}

fn par_of<S: Source + bytemuck::Pod, T: Element + CastTarget + Default + bytemuck::Pod>(
    bencher: Bencher,
    n: usize,
) {
    let o = CastOptions::default();
    match backend() {
        Some(b) => time::<S, T>(bencher, n, |s, d| on_backend(b, s, d, true)),
        None => time::<S, T>(bencher, n, |s, d| par_cast_slice(s, d, &o).unwrap()),
    }
}

fn one_of<S: Source + bytemuck::Pod, T: Element + CastTarget + Default + bytemuck::Pod>(
    bencher: Bencher,
    n: usize,
) {
    let o = CastOptions::default();
    match backend() {
        Some(b) => time::<S, T>(bencher, n, |s, d| on_backend(b, s, d, false)),
        None => time::<S, T>(bencher, n, |s, d| cast_slice(s, d, &o).unwrap()),
    }
}

/// Every thread of the pool, whatever the size: `cast_slice` on each chunk.
fn forced_par_of<S: Source, T: Element + CastTarget + Default>(bencher: Bencher, n: usize) {
    let o = CastOptions::default();
    let per = per_chunk::<S, T>(n);
    time::<S, T>(bencher, n, |s, d| {
        s.par_chunks(per)
            .zip(d.par_chunks_mut(per))
            .for_each(|(s, d)| cast_slice(s, d, &o).unwrap())
    });
}

/// Copies the larger side's bytes, in `par_cast_slice`'s chunks on the pool when `par`.
fn memcpy_of<S: Source, T: Element + CastTarget + Default>(bencher: Bencher, n: usize, par: bool) {
    let width = size_of::<S>().max(size_of::<T>());
    let src = vec![1u8; n * width];
    let mut dst = vec![0u8; n * width];
    let chunk = per_chunk::<S, T>(n) * width;
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            if par {
                black_box(&src)
                    .par_chunks(chunk)
                    .zip(dst.par_chunks_mut(chunk))
                    .for_each(|(s, d)| d.copy_from_slice(s));
            } else {
                dst.copy_from_slice(black_box(&src));
            }
            black_box(&dst);
        });
}

/// `par_cast_slice` on rayon's pool.
#[divan::bench(args = cases())]
fn par(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, par_of(bencher, n));
}

/// `cast_slice`, one thread.
#[divan::bench(args = cases())]
fn one_thread(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, one_of(bencher, n));
}

/// `copy_from_slice` of the larger side's bytes, split as `par_cast_slice` splits.
#[divan::bench(args = cases())]
fn par_memcpy(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, memcpy_of(bencher, n, true));
}

/// `copy_from_slice` of the larger side's bytes, one thread.
#[divan::bench(args = cases())]
fn memcpy(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, memcpy_of(bencher, n, false));
}

/// The threshold sweep: one thread.
#[divan::bench(args = sweep())]
fn threshold_one(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, one_of(bencher, n));
}

/// The threshold sweep: every thread of the pool.
#[divan::bench(args = sweep())]
fn threshold_par(bencher: Bencher, case: &str) {
    let (pair, n) = parse(case);
    for_pair!(pair, forced_par_of(bencher, n));
}
