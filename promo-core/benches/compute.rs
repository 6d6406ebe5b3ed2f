//! `a OP b` speed, side by side in one run: promo's `Computation::apply` (NumPy's
//! semantics, the fused kernel where one applies, on the fastest backend or
//! `PROMO_BENCH_BACKEND`), the element loop a Rust user would write with `half`
//! (or the `float8` crate for float8), a plain `f32 + f32` loop over as many
//! elements, and `copy_from_slice` of the output's bytes (the memory-speed
//! ceiling for writing the result).
//!
//! `cargo bench -p promo-core --bench compute` prints, before divan's rows, a
//! summary at 16 Ki elements (in L2) and 16 Mi (DRAM): elements per second and
//! the ratio of each time to the others', with the CPU and the backend.
//! `PROMO_BENCH_N` sets the size of divan's rows (16 Ki by default).

use divan::{black_box, Bencher};
use half::{bf16, f16};
use promo_core::cast::Backend;
use promo_core::compute::Computation;
use promo_core::{rules, DType, Op};

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
    let available: Vec<_> = Backend::available().into_iter().map(Backend::name).collect();
    eprintln!("cpu: {cpu}; backends: {available:?}; promo runs on {}", backend());
    summary();
    divan::main();
}

/// The backend promo runs on: `PROMO_BENCH_BACKEND`, else the fastest.
fn backend() -> Backend {
    match std::env::var("PROMO_BENCH_BACKEND") {
        Ok(name) => Backend::available()
            .into_iter()
            .find(|b| b.name() == name)
            .unwrap_or_else(|| panic!("backend {name} is not available on this CPU")),
        Err(_) => Backend::detect(),
    }
}

/// Elements in divan's rows.
fn n() -> usize {
    std::env::var("PROMO_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16 << 10)
}

/// The cases: lhs, op, rhs, as NumPy (with ml_dtypes) computes them.
const CASES: &[(DType, Op, DType)] = &[
    (DType::F8E4M3FN, Op::Add, DType::F8E4M3FN),
    (DType::BF16, Op::Add, DType::BF16),
    (DType::F16, Op::Add, DType::F16),
    (DType::F32, Op::Add, DType::BF16),
    (DType::F16, Op::Multiply, DType::F32),
    (DType::I8, Op::Add, DType::F16),
];

/// `n` elements of `dtype` as bytes: moderate values (no NaN, so every loop does
/// the same work), from a fixed pattern.
fn operand(dtype: DType, n: usize, salt: u32) -> Vec<u8> {
    let value =
        |i: usize| (((i as u32).wrapping_mul(2654435761).wrapping_add(salt) >> 20) % 200) as f32 / 16.0 - 6.0;
    let mut out = Vec::with_capacity(n * 4);
    for i in 0..n {
        let v = value(i);
        match dtype {
            DType::F32 => out.extend_from_slice(&v.to_le_bytes()),
            DType::F16 => out.extend_from_slice(&f16::from_f32(v).to_le_bytes()),
            DType::BF16 => out.extend_from_slice(&bf16::from_f32(v).to_le_bytes()),
            DType::I8 => out.push((v * 8.0) as i8 as u8),
            _ => out.push(float8::F8E4M3::from_f32(v).to_bits()),
        }
    }
    out
}

/// The planned computation of a case on the benchmark's backend.
fn plan(lhs: DType, op: Op, rhs: DType) -> Computation {
    let numpy = &rules::numpy::TABLE;
    Computation::with_backend(numpy, &numpy.default_options(), op, lhs, rhs, backend())
        .expect("numpy computes it")
}

/// The element loop a Rust user would write for the case with `half` (or
/// `float8`), over the bytes as typed slices.
fn element_loop(lhs: DType, rhs: DType, a: &[u8], b: &[u8], out: &mut [u8]) {
    fn typed<T: bytemuck::Pod>(b: &[u8]) -> &[T] {
        bytemuck::cast_slice(b)
    }
    fn typed_mut<T: bytemuck::Pod>(b: &mut [u8]) -> &mut [T] {
        bytemuck::cast_slice_mut(b)
    }
    match (lhs, rhs) {
        (DType::BF16, DType::BF16) => {
            let (a, b, o) = (typed::<bf16>(a), typed::<bf16>(b), typed_mut::<bf16>(out));
            for i in 0..o.len() {
                o[i] = a[i] + b[i];
            }
        }
        (DType::F16, DType::F16) => {
            let (a, b, o) = (typed::<f16>(a), typed::<f16>(b), typed_mut::<f16>(out));
            for i in 0..o.len() {
                o[i] = a[i] + b[i];
            }
        }
        (DType::F32, DType::BF16) => {
            let (a, b, o) = (typed::<f32>(a), typed::<bf16>(b), typed_mut::<f32>(out));
            for i in 0..o.len() {
                o[i] = a[i] + b[i].to_f32();
            }
        }
        (DType::F16, DType::F32) => {
            let (a, b, o) = (typed::<f16>(a), typed::<f32>(b), typed_mut::<f32>(out));
            for i in 0..o.len() {
                o[i] = a[i].to_f32() * b[i];
            }
        }
        (DType::I8, DType::F16) => {
            let (a, b, o) = (typed::<i8>(a), typed::<f16>(b), typed_mut::<f16>(out));
            for i in 0..o.len() {
                o[i] = f16::from_f32(f32::from(a[i]) + b[i].to_f32());
            }
        }
        _ => {
            for i in 0..out.len() {
                let (x, y) = (float8::F8E4M3::from_bits(a[i]), float8::F8E4M3::from_bits(b[i]));
                out[i] = float8::F8E4M3::from_f32(x.to_f32() + y.to_f32()).to_bits();
            }
        }
    }
}

/// `a + b` over f32 slices: what NumPy's `f32 + f32` does.
fn f32_add(a: &[f32], b: &[f32], out: &mut [f32]) {
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = x + y;
    }
    black_box(out);
}

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

/// The summary table, at 16 Ki and 16 Mi elements.
fn summary() {
    println!("| case | result | elements | promo Melem/s | × memcpy | × f32 + f32 | half (or float8) Melem/s | promo ÷ half |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for n in [16usize << 10, 16 << 20] {
        let (fa, fb) = (vec![1.5f32; n], vec![2.25f32; n]);
        let mut fo = vec![0f32; n];
        let f32_time = seconds(|| f32_add(black_box(&fa), black_box(&fb), &mut fo));
        for &(lhs, op, rhs) in CASES {
            let c = plan(lhs, op, rhs);
            let (a, b) = (operand(lhs, n, 1), operand(rhs, n, 2));
            let bytes = n * c.result().bits() as usize / 8;
            let mut out = vec![0u8; bytes];
            let src = vec![7u8; bytes];
            let memcpy = seconds(|| out.copy_from_slice(black_box(&src)));
            let promo = seconds(|| {
                c.apply(black_box(&a), black_box(&b), &mut out, n).expect("apply");
            });
            let alternative = seconds(|| element_loop(lhs, rhs, black_box(&a), black_box(&b), &mut out));
            println!(
                "| {lhs} {} {rhs} | {} | {} | {:.0} | {:.2} | {:.2} | {:.0} | {:.1} |",
                op.aliases().first().copied().unwrap_or(op.name()),
                c.result(),
                if n < 1 << 20 {
                    "16 Ki".to_owned()
                } else {
                    "16 Mi".to_owned()
                },
                n as f64 / promo / 1e6,
                memcpy / promo,
                f32_time / promo,
                n as f64 / alternative / 1e6,
                alternative / promo,
            );
        }
    }
}

const ARGS: &[&str] = &[
    "f8e4m3fn+f8e4m3fn",
    "bf16+bf16",
    "f16+f16",
    "f32+bf16",
    "f16*f32",
    "i8+f16",
];

/// The case named `name` (an entry of [`ARGS`]).
fn case(name: &str) -> (DType, Op, DType) {
    CASES[ARGS.iter().position(|a| *a == name).expect("a case")]
}

#[divan::bench(args = ARGS)]
fn promo(bencher: Bencher, name: &str) {
    let (lhs, op, rhs) = case(name);
    let n = n();
    let c = plan(lhs, op, rhs);
    let (a, b) = (operand(lhs, n, 1), operand(rhs, n, 2));
    let mut out = vec![0u8; n * c.result().bits() as usize / 8];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| c.apply(black_box(&a), black_box(&b), &mut out, n));
}

#[divan::bench(args = ARGS)]
fn half_loop(bencher: Bencher, name: &str) {
    let (lhs, op, rhs) = case(name);
    let n = n();
    let c = plan(lhs, op, rhs);
    let (a, b) = (operand(lhs, n, 1), operand(rhs, n, 2));
    let mut out = vec![0u8; n * c.result().bits() as usize / 8];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| element_loop(lhs, rhs, black_box(&a), black_box(&b), &mut out));
}

#[divan::bench]
fn f32_plus_f32(bencher: Bencher) {
    let n = n();
    let (a, b) = (vec![1.5f32; n], vec![2.25f32; n]);
    let mut out = vec![0f32; n];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| f32_add(black_box(&a), black_box(&b), &mut out));
}
