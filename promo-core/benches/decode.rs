//! Into f32, side by side in one run: promo's buffer conversion (`Converter::new`,
//! the fast path, appending to a `Vec`; `convert_to_slice`, into a slice), its
//! scalar kernel, and what a user would otherwise write or use:
//! `half`'s slice conversion for f16 and bf16, a 256-entry table (16 for nibbles)
//! filled from promo's own scalar cast for the 8- and 4-bit formats, and `memcpy` of
//! the output bytes. Elements per second; mixed-magnitude input (every bit pattern).
//!
//! `cargo bench -p promo-core --bench decode`

use divan::{black_box, Bencher};
use half::slice::HalfFloatSliceExt;
use promo_core::cast::{convert_to_slice, CastOptions, Converter};
use promo_core::DType;

/// Elements per conversion: 16 Ki (in L2) by default, `PROMO_BENCH_N` to change.
fn n() -> usize {
    std::env::var("PROMO_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16 * 1024)
}

fn main() {
    divan::main();
}

const SOURCES: &[&str] = &[
    "f8e4m3fn",
    "f8e5m2",
    "f8e4m3fnuz",
    "f8e8m0",
    "f4e2m1",
    "f16",
    "bf16",
];

/// Source bytes holding `n` elements of `from`: a cycle through every bit pattern.
fn input(from: DType, n: usize) -> Vec<u8> {
    let bytes = (n * from.bits() as usize).div_ceil(8);
    (0..bytes)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).rotate_right(13) as u8)
        .collect()
}

fn run(bencher: Bencher, converter: Converter, from: DType) {
    let n = n();
    let src = input(from, n);
    let mut out = Vec::with_capacity(n * 4);
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            out.clear();
            converter.convert_into(black_box(&src), n, &mut out);
            black_box(&out);
        });
}

/// promo's conversion as `Converter::new` picks it.
#[divan::bench(args = SOURCES)]
fn promo(bencher: Bencher, from: &str) {
    let from: DType = from.parse().unwrap();
    run(
        bencher,
        Converter::new(from, DType::F32, CastOptions::default()).unwrap(),
        from,
    );
}

/// promo's conversion into a slice the caller owns (`convert_to_slice`: no output
/// zeroing, as the alternatives write into their own buffers).
#[divan::bench(args = SOURCES)]
fn promo_slice(bencher: Bencher, from: &str) {
    let from: DType = from.parse().unwrap();
    let n = n();
    let src = input(from, n);
    let mut out = vec![0u8; n * 4];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            convert_to_slice(
                from,
                DType::F32,
                black_box(&src),
                &mut out,
                &CastOptions::default(),
            )
            .unwrap();
            black_box(&out);
        });
}

/// promo's scalar kernel, the reference the fast paths are tested against.
#[divan::bench(args = SOURCES)]
fn promo_scalar(bencher: Bencher, from: &str) {
    let from: DType = from.parse().unwrap();
    run(
        bencher,
        Converter::scalar(from, DType::F32, CastOptions::default()).unwrap(),
        from,
    );
}

/// The alternative a user has today: `half`'s slice conversion for f16/bf16, a
/// plain table loop for the narrow formats.
#[divan::bench(args = SOURCES)]
fn alternative(bencher: Bencher, from: &str) {
    let dtype: DType = from.parse().unwrap();
    let n = n();
    let src = input(dtype, n);
    let mut out = vec![0f32; n];
    let scalar = Converter::scalar(dtype, DType::F32, CastOptions::default()).unwrap();
    let entries = if dtype.bits() == 4 { 16 } else { 256 };
    let mut table = vec![0f32; if dtype.bits() <= 8 { entries } else { 0 }];
    for (b, slot) in table.iter_mut().enumerate() {
        let mut bits = Vec::new();
        scalar.convert_into(&[b as u8], 1, &mut bits);
        *slot = f32::from_le_bytes([bits[0], bits[1], bits[2], bits[3]]);
    }
    let bencher = bencher.counter(divan::counter::ItemsCount::new(n));
    match dtype {
        DType::F16 => {
            let halves: Vec<half::f16> = src
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]))
                .collect();
            bencher.bench_local(|| black_box(&halves).convert_to_f32_slice(black_box(&mut out)));
        }
        DType::BF16 => {
            let halves: Vec<half::bf16> = src
                .chunks_exact(2)
                .map(|c| half::bf16::from_le_bytes([c[0], c[1]]))
                .collect();
            bencher.bench_local(|| black_box(&halves).convert_to_f32_slice(black_box(&mut out)));
        }
        _ if entries == 16 => bencher.bench_local(|| {
            for (s, d) in black_box(&src).iter().zip(out.chunks_exact_mut(2)) {
                d[0] = table[(s & 0xf) as usize];
                d[1] = table[(s >> 4) as usize];
            }
            black_box(&out);
        }),
        _ => bencher.bench_local(|| {
            for (s, d) in black_box(&src).iter().zip(out.iter_mut()) {
                *d = table[*s as usize];
            }
            black_box(&out);
        }),
    }
}

/// Copying as many bytes as the f32 output has: the memory-speed ceiling.
#[divan::bench]
fn memcpy_output_bytes(bencher: Bencher) {
    let n = n();
    let src = vec![1u8; n * 4];
    let mut dst = vec![0u8; n * 4];
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&dst);
        });
}
