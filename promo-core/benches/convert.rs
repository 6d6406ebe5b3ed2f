//! Buffer conversion speed: elements per second for f32 into each narrow format,
//! beside `memcpy` of the same input bytes in the same run.
//! `cargo bench -p promo-core --bench convert`.

use divan::{black_box, Bencher};
use promo_core::cast::{CastOptions, Converter};
use promo_core::DType;

const N: usize = 1 << 20;

fn main() {
    divan::main();
}

fn input() -> Vec<u8> {
    // A spread of f32 bit patterns: every 4096th, covering all exponents and NaNs.
    (0..N as u32)
        .flat_map(|i| i.wrapping_mul(4096).wrapping_add(i).to_le_bytes())
        .collect()
}

/// Copying the input bytes: the baseline the conversions are compared with.
#[divan::bench]
fn memcpy_f32_input(bencher: Bencher) {
    let src = input();
    let mut dst = vec![0u8; src.len()];
    bencher
        .counter(divan::counter::ItemsCount::new(N))
        .bench_local(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&dst);
        });
}

#[divan::bench(args = ["f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f4e2m1", "f8e8m0", "f16", "bf16", "i8", "f64"])]
fn f32_to(bencher: Bencher, to: &str) {
    let to: DType = to.parse().unwrap();
    let converter = Converter::new(DType::F32, to, CastOptions::default()).unwrap();
    let src = input();
    let mut out = Vec::with_capacity(N * 8);
    bencher
        .counter(divan::counter::ItemsCount::new(N))
        .bench_local(|| {
            out.clear();
            converter.convert_into(black_box(&src), N, &mut out);
            black_box(&out);
        });
}
