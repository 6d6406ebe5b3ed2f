//! Cast speed, side by side in one run: promo's conversion into a slice the caller
//! owns (`convert_to_slice`, fast paths chosen as `Converter::new` picks them),
//! `copy_from_slice` of the larger side's bytes (the memory-speed ceiling), what a
//! user would otherwise use (`half`'s slice conversion where it has one, a 256- or
//! 16-entry table loop for the narrow formats into f32, a clamp + `to_int_unchecked`
//! loop for f32 into i32), a plain `as` loop over typed slices where Rust has the
//! cast (its results differ from promo's only for floats out of an integer's range
//! and NaN, which `as` saturates) and promo's scalar kernel. Elements per second;
//! mixed-magnitude input (a cycle through every bit pattern).
//!
//! `PROMO_BENCH_N=16384 cargo bench -p promo-core --bench cast` (elements per
//! conversion; 16 Ki by default, in L2; 4 Mi and 64 Mi reach DRAM).
//! `PROMO_BENCH_BACKEND=avx2` runs the `promo` rows on that backend (the fastest
//! the CPU has by default), so one CPU measures each of its backends.
//!
//! memcpy is glibc's. Where glibc copies with `rep movsb` and the machine runs that
//! slowly (the AMD EPYC VMs promo is developed on: 64 KiB in 22 µs, 3 GB/s, against
//! 1.5 µs by vector moves), every ratio to memcpy flatters promo; there, run with
//! `GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=1000000000`, which makes glibc
//! copy with vector moves at every size. The summary prints memcpy's own rate.
//!
//! Before divan's rows, a summary measured in the same run: for each conversion
//! with a target, promo's elements per second and its ratio to the memcpy of the
//! same bytes and to the best alternative (`half`'s slice conversion, a table or
//! plain loop, else promo's scalar kernel), with the CPU and the backend.

use divan::{black_box, Bencher};
use half::slice::HalfFloatSliceExt;
use promo_core::cast::{Backend, CastOptions, Converter};
use promo_core::DType;

fn main() {
    // Which machine and which backend ran, for the record beside the figures.
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let available: Vec<_> = Backend::available().into_iter().map(Backend::name).collect();
    eprintln!(
        "cpu: {cpu}; backends: {available:?}; `promo` rows run on {}; {} elements",
        backend(),
        n()
    );
    summary(&cpu);
    divan::main();
}

/// The backend the `promo` rows run on: `PROMO_BENCH_BACKEND`, else the fastest.
fn backend() -> Backend {
    match std::env::var("PROMO_BENCH_BACKEND") {
        Ok(name) => Backend::available()
            .into_iter()
            .find(|b| b.name() == name)
            .unwrap_or_else(|| panic!("backend {name} is not available on this CPU")),
        Err(_) => Backend::detect(),
    }
}

/// The conversions the summary measures.
const SUMMARY: &[&str] = &[
    "f32->f8e4m3fn",
    "f32->f8e5m2",
    "f32->f8e4m3fnuz",
    "f32->f8e4m3b15",
    "f32->f6e2m3fn",
    "f32->f4e2m1",
    "f8e4m3fn->f32",
    "f4e2m1->f32",
    "f32->f16",
    "f32->bf16",
    "f32->i32",
    "f16->f32",
    "bf16->f32",
];

/// Seconds per call of `f`: the best of five batches, each about 50 ms or one call.
fn seconds(mut f: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    f();
    let once = start.elapsed().as_secs_f64().max(1e-9);
    let reps = ((0.05 / once) as usize).clamp(1, 1 << 20);
    (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            for _ in 0..reps {
                f();
            }
            start.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// promo against the memcpy of the same bytes and the best alternative, in this run.
fn summary(cpu: &str) {
    let n = n();
    let backend = backend();
    eprintln!("summary: {cpu}, backend {backend}, {n} elements, one thread");
    eprintln!("| conversion | promo el/s | memcpy el/s | x memcpy | alternative | x alternative |");
    eprintln!("| --- | --- | --- | --- | --- | --- |");
    for p in SUMMARY {
        let (from, to) = pair(p);
        let src = input(from, n);
        let mut out = vec![0u8; bytes(to, n)];
        let converter = Converter::with_backend(from, to, CastOptions::default(), backend).unwrap();
        let promo = seconds(|| {
            converter.convert_to_slice(black_box(&src), &mut out).unwrap();
            black_box(&out);
        });
        let size = bytes(from, n).max(bytes(to, n));
        let (a, mut b) = (vec![1u8; size], vec![0u8; size]);
        let memcpy = seconds(|| {
            b.copy_from_slice(black_box(&a));
            black_box(&b);
        });
        let (name, alternative) = alternative_seconds(from, to, &src, n);
        eprintln!(
            "| {p} | {:.3e} | {:.3e} | {:.2} | {name} | {:.2} |",
            n as f64 / promo,
            n as f64 / memcpy,
            memcpy / promo,
            alternative / promo
        );
    }
}

/// The best alternative to promo for `from` into `to` and its seconds per call.
fn alternative_seconds(from: DType, to: DType, src: &[u8], n: usize) -> (&'static str, f64) {
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    match (from, to) {
        (DType::F32, DType::F16) => {
            let x = f32s(src);
            let mut out = vec![half::f16::ZERO; n];
            (
                "half",
                seconds(|| black_box(&mut out).convert_from_f32_slice(black_box(&x))),
            )
        }
        (DType::F32, DType::BF16) => {
            let x = f32s(src);
            let mut out = vec![half::bf16::ZERO; n];
            (
                "half",
                seconds(|| black_box(&mut out).convert_from_f32_slice(black_box(&x))),
            )
        }
        (DType::F16, DType::F32) => {
            let h: Vec<half::f16> = src
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]))
                .collect();
            let mut out = vec![0f32; n];
            (
                "half",
                seconds(|| black_box(&h).convert_to_f32_slice(black_box(&mut out))),
            )
        }
        (DType::BF16, DType::F32) => {
            let h: Vec<half::bf16> = src
                .chunks_exact(2)
                .map(|c| half::bf16::from_le_bytes([c[0], c[1]]))
                .collect();
            let mut out = vec![0f32; n];
            (
                "half",
                seconds(|| black_box(&h).convert_to_f32_slice(black_box(&mut out))),
            )
        }
        (DType::F32, DType::I32) => {
            let x = f32s(src);
            let mut out = vec![0i32; n];
            let t = seconds(|| {
                for (d, &x) in out.iter_mut().zip(black_box(&x)) {
                    *d = x as i32;
                }
                black_box(&out);
            });
            ("`as` loop", t)
        }
        (_, DType::F32) => {
            // A table of the scalar cast's results, looked up one element at a time.
            let scalar = Converter::scalar(from, DType::F32, CastOptions::default()).unwrap();
            let nibbles = from.bits() == 4;
            let table: Vec<f32> = (0..if nibbles { 16 } else { 256 })
                .map(|b: usize| {
                    let mut bits = Vec::new();
                    scalar.convert_into(&[b as u8], 1, &mut bits);
                    f32::from_le_bytes([bits[0], bits[1], bits[2], bits[3]])
                })
                .collect();
            let mut out = vec![0f32; n];
            let t = if nibbles {
                seconds(|| {
                    for (s, d) in black_box(src).iter().zip(out.chunks_exact_mut(2)) {
                        d[0] = table[(s & 0xf) as usize];
                        d[1] = table[(s >> 4) as usize];
                    }
                    black_box(&out);
                })
            } else {
                seconds(|| {
                    for (s, d) in black_box(src).iter().zip(out.iter_mut()) {
                        *d = table[*s as usize];
                    }
                    black_box(&out);
                })
            };
            ("table loop", t)
        }
        _ => {
            let scalar = Converter::scalar(from, to, CastOptions::default()).unwrap();
            let mut out = vec![0u8; bytes(to, n)];
            (
                "promo scalar",
                seconds(|| {
                    scalar.convert_to_slice(black_box(src), &mut out).unwrap();
                    black_box(&out);
                }),
            )
        }
    }
}

/// Elements per conversion: `PROMO_BENCH_N`, 16 Ki by default.
fn n() -> usize {
    std::env::var("PROMO_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16 * 1024)
}

/// Bytes holding `n` elements of `d`.
fn bytes(d: DType, n: usize) -> usize {
    // The storage width a buffer uses (a float6 takes a byte), as a converter into
    // `d` reports it.
    let bits = Converter::new(DType::F32, d, CastOptions::default())
        .map(|c| c.to_bits())
        .unwrap_or(d.bits() as usize);
    (n * bits).div_ceil(8)
}

/// Source bytes holding `n` elements of `from`: for f32 a spread over every
/// bit pattern (a multiplicative hash of the index), else a hash of the index.
fn input(from: DType, n: usize) -> Vec<u8> {
    if from == DType::F32 {
        return (0..n as u32)
            .flat_map(|i| i.wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
    }
    (0..bytes(from, n))
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).rotate_right(13) as u8)
        .collect()
}

/// The conversions timed: `from->to`.
const PAIRS: &[&str] = &[
    "f8e4m3fn->f32",
    "f8e5m2->f32",
    "f8e4m3fnuz->f32",
    "f8e5m2fnuz->f32",
    "f8e8m0->f32",
    "f4e2m1->f32",
    "f16->f32",
    "bf16->f32",
    "f32->f8e4m3fn",
    "f32->f8e5m2",
    "f32->f8e4m3fnuz",
    "f32->f8e5m2fnuz",
    "f32->f4e2m1",
    "f32->f8e8m0",
    "f32->f16",
    "f32->bf16",
    "f16->f8e4m3fn",
    "bf16->f8e4m3fn",
    "f32->i8",
    "f32->i32",
    "f32->u32",
    "f32->i64",
    "f32->u64",
    "f64->i32",
    "f64->i64",
    "f16->i32",
    "bf16->i32",
    "f8e4m3fn->i32",
    "f32->f64",
    "f64->f32",
    "i8->i32",
    "u8->u16",
    "i16->i32",
    "i32->i64",
    "i64->i32",
    "i32->i8",
    "i64->u8",
    "i32->bool",
    "u8->f32",
    "i16->f32",
    "i32->f32",
    "u32->f32",
    "i64->f32",
    "i32->f64",
    "i64->f64",
    "u64->f64",
    "i8->f16",
    "i32->f16",
    "i32->bf16",
    "i32->f8e4m3fn",
];

fn pair(p: &str) -> (DType, DType) {
    let (a, b) = p.split_once("->").unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

/// promo into a slice the caller owns, on [`backend`].
#[divan::bench(args = PAIRS)]
fn promo(bencher: Bencher, p: &str) {
    let (from, to) = pair(p);
    let n = n();
    let src = input(from, n);
    let mut out = vec![0u8; bytes(to, n)];
    let converter = Converter::with_backend(from, to, CastOptions::default(), backend()).unwrap();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            converter.convert_to_slice(black_box(&src), &mut out).unwrap();
            black_box(&out);
        });
}

/// The conversions whose kernels differ between backends, on each backend by name.
const ON_BACKEND: &[&str] = &[
    "avx2 f8e4m3fn->f32",
    "avx512 f8e4m3fn->f32",
    "avx2 f8e5m2->f32",
    "avx512 f8e5m2->f32",
    "avx2 f8e3m4->f32",
    "avx512 f8e3m4->f32",
    "avx2 f32->f8e4m3fn",
    "avx512 f32->f8e4m3fn",
    "avx2 f32->f8e5m2",
    "avx512 f32->f8e5m2",
    "avx2 f32->f8e4m3fnuz",
    "avx512 f32->f8e4m3fnuz",
    "avx2 f32->bf16",
    "avx512 f32->bf16",
    "avx2 bf16->f32",
    "avx512 bf16->f32",
    "avx2 f16->f32",
    "avx512 f16->f32",
];

/// promo on a named backend (skipped where the CPU lacks it), into a slice.
#[divan::bench(args = ON_BACKEND)]
fn on_backend(bencher: Bencher, p: &str) {
    let (name, p) = p.split_once(' ').unwrap();
    let Some(backend) = Backend::available().into_iter().find(|b| b.name() == name) else {
        return;
    };
    let (from, to) = pair(p);
    let n = n();
    let src = input(from, n);
    let mut out = vec![0u8; bytes(to, n)];
    let converter = Converter::with_backend(from, to, CastOptions::default(), backend).unwrap();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            converter.convert_to_slice(black_box(&src), &mut out).unwrap();
            black_box(&out);
        });
}

/// `copy_from_slice` of as many bytes as the larger side of the conversion has.
#[divan::bench(args = PAIRS)]
fn memcpy(bencher: Bencher, p: &str) {
    let (from, to) = pair(p);
    let n = n();
    let size = bytes(from, n).max(bytes(to, n));
    let src = vec![1u8; size];
    let mut dst = vec![0u8; size];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&dst);
        });
}

/// Reading the source and nothing else (a sum of its 8-byte words): the floor for any
/// conversion that reads every source byte once, which at 64 Mi shows whether a
/// conversion is bound by reading or by writing.
#[divan::bench(args = PAIRS)]
fn read_only(bencher: Bencher, p: &str) {
    let (from, _) = pair(p);
    let n = n();
    let src = input(from, n);
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            let words = black_box(&src).chunks_exact(8);
            let sum = words
                .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
                .fold(0u64, u64::wrapping_add);
            black_box(sum);
        });
}

/// promo's scalar kernel, the reference the fast paths are tested against.
#[divan::bench(args = PAIRS)]
fn scalar(bencher: Bencher, p: &str) {
    let (from, to) = pair(p);
    let n = n();
    let src = input(from, n);
    let converter = Converter::scalar(from, to, CastOptions::default()).unwrap();
    let mut out = Vec::with_capacity(bytes(to, n));
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            out.clear();
            converter.convert_into(black_box(&src), n, &mut out);
            black_box(&out);
        });
}

/// What a user has today: `half`'s slice conversions for f16 and bf16, a table loop
/// for 8- and 4-bit formats into f32, a clamp + `to_int_unchecked` loop for f32
/// into i32 (the same results as promo's).
#[divan::bench(args = [
    "f8e4m3fn->f32", "f8e5m2->f32", "f4e2m1->f32", "f16->f32", "bf16->f32",
    "f32->f16", "f32->bf16", "f32->i32",
])]
fn alternative(bencher: Bencher, p: &str) {
    let (from, to) = pair(p);
    let n = n();
    let src = input(from, n);
    let bencher = bencher.counter(divan::counter::ItemsCount::new(n));
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    match (from, to) {
        (DType::F16, DType::F32) => {
            let h: Vec<half::f16> = src
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]))
                .collect();
            let mut out = vec![0f32; n];
            bencher.bench_local(|| black_box(&h).convert_to_f32_slice(black_box(&mut out)));
        }
        (DType::BF16, DType::F32) => {
            let h: Vec<half::bf16> = src
                .chunks_exact(2)
                .map(|c| half::bf16::from_le_bytes([c[0], c[1]]))
                .collect();
            let mut out = vec![0f32; n];
            bencher.bench_local(|| black_box(&h).convert_to_f32_slice(black_box(&mut out)));
        }
        (DType::F32, DType::F16) => {
            let x = f32s(&src);
            let mut out = vec![half::f16::ZERO; n];
            bencher.bench_local(|| black_box(&mut out).convert_from_f32_slice(black_box(&x)));
        }
        (DType::F32, DType::BF16) => {
            let x = f32s(&src);
            let mut out = vec![half::bf16::ZERO; n];
            bencher.bench_local(|| black_box(&mut out).convert_from_f32_slice(black_box(&x)));
        }
        (DType::F32, DType::I32) => {
            let x = f32s(&src);
            let mut out = vec![0i32; n];
            bencher.bench_local(|| {
                for (d, &x) in out.iter_mut().zip(black_box(&x)) {
                    *d = if (-2147483648.0..2147483648.0).contains(&x) {
                        // SAFETY: x is finite and inside i32's range (checked just above).
                        unsafe { x.to_int_unchecked::<i32>() }
                    } else {
                        i32::MIN
                    };
                }
                black_box(&out);
            });
        }
        _ => {
            // A table of the scalar cast's results, looked up one element at a time.
            let scalar = Converter::scalar(from, DType::F32, CastOptions::default()).unwrap();
            let nibbles = from.bits() == 4;
            let table: Vec<f32> = (0..if nibbles { 16 } else { 256 })
                .map(|b: usize| {
                    let mut bits = Vec::new();
                    scalar.convert_into(&[b as u8], 1, &mut bits);
                    f32::from_le_bytes([bits[0], bits[1], bits[2], bits[3]])
                })
                .collect();
            let mut out = vec![0f32; n];
            if nibbles {
                bencher.bench_local(|| {
                    for (s, d) in black_box(&src).iter().zip(out.chunks_exact_mut(2)) {
                        d[0] = table[(s & 0xf) as usize];
                        d[1] = table[(s >> 4) as usize];
                    }
                    black_box(&out);
                });
            } else {
                bencher.bench_local(|| {
                    for (s, d) in black_box(&src).iter().zip(out.iter_mut()) {
                        *d = table[*s as usize];
                    }
                    black_box(&out);
                });
            }
        }
    }
}

/// A plain loop over typed slices, `*d = x as T` (or the nearest thing Rust has:
/// `f16::to_f32` first, `x != 0` into bool, `bf16::from_f32(x as f32)`).
#[divan::bench(args = [
    "f32->i8", "f32->i32", "f32->u32", "f32->i64", "f32->u64", "f64->i32", "f64->i64",
    "f16->i32", "bf16->i32", "f32->f64", "f64->f32", "i8->i32", "u8->u16", "i16->i32",
    "i32->i64", "i64->i32", "i32->i8", "i64->u8", "i32->bool", "u8->f32", "i16->f32",
    "i32->f32", "u32->f32", "i64->f32", "i32->f64", "i64->f64", "u64->f64", "i8->f16",
    "i32->f16", "i32->bf16",
])]
fn as_loop(bencher: Bencher, p: &str) {
    use half::{bf16, f16};
    let (from, _) = pair(p);
    let n = n();
    let src = input(from, n);
    let bencher = bencher.counter(divan::counter::ItemsCount::new(n));
    /// Times `f` over the elements of `src` read as `S`.
    fn run<S: bytemuck::Pod, T: Copy + Default>(bencher: Bencher, src: &[u8], f: impl Fn(S) -> T) {
        let x: Vec<S> = src
            .chunks_exact(size_of::<S>())
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let mut out = vec![T::default(); x.len()];
        bencher.bench_local(|| {
            for (d, &x) in out.iter_mut().zip(black_box(&x)) {
                *d = f(x);
            }
            black_box(&out);
        });
    }
    macro_rules! loops {
        ($($name:literal: $s:ty => $t:ty = |$x:ident| $e:expr;)*) => {
            match p {
                $($name => run::<$s, $t>(bencher, &src, |$x: $s| -> $t { $e }),)*
                _ => unreachable!("no `as` loop for {p}"),
            }
        };
    }
    loops! {
        "f32->i8": f32 => i8 = |x| x as i8;
        "f32->i32": f32 => i32 = |x| x as i32;
        "f32->u32": f32 => u32 = |x| x as u32;
        "f32->i64": f32 => i64 = |x| x as i64;
        "f32->u64": f32 => u64 = |x| x as u64;
        "f64->i32": f64 => i32 = |x| x as i32;
        "f64->i64": f64 => i64 = |x| x as i64;
        "f16->i32": f16 => i32 = |x| x.to_f32() as i32;
        "bf16->i32": bf16 => i32 = |x| x.to_f32() as i32;
        "f32->f64": f32 => f64 = |x| x as f64;
        "f64->f32": f64 => f32 = |x| x as f32;
        "i8->i32": i8 => i32 = |x| x as i32;
        "u8->u16": u8 => u16 = |x| x as u16;
        "i16->i32": i16 => i32 = |x| x as i32;
        "i32->i64": i32 => i64 = |x| x as i64;
        "i64->i32": i64 => i32 = |x| x as i32;
        "i32->i8": i32 => i8 = |x| x as i8;
        "i64->u8": i64 => u8 = |x| x as u8;
        "i32->bool": i32 => u8 = |x| (x != 0) as u8;
        "u8->f32": u8 => f32 = |x| x as f32;
        "i16->f32": i16 => f32 = |x| x as f32;
        "i32->f32": i32 => f32 = |x| x as f32;
        "u32->f32": u32 => f32 = |x| x as f32;
        "i64->f32": i64 => f32 = |x| x as f32;
        "i32->f64": i32 => f64 = |x| x as f64;
        "i64->f64": i64 => f64 = |x| x as f64;
        "u64->f64": u64 => f64 = |x| x as f64;
        "i8->f16": i8 => f16 = |x| f16::from_f32(x as f32);
        "i32->f16": i32 => f16 = |x| f16::from_f32(x as f32);
        "i32->bf16": i32 => bf16 = |x| bf16::from_f32(x as f32);
    }
}
