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

#[divan::bench(args = ["f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f4e2m1", "f8e8m0", "f16", "bf16", "i8", "i32", "u32", "f64"])]
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

/// The alternatives for f32 into i32, in the same run: Rust's saturating `as` (not
/// the same results out of range: 2^31 gives i32::MAX, NaN 0), and a clamp to the
/// range then `to_int_unchecked` with `cvtt`'s out-of-range value (the same results
/// as promo's).
#[divan::bench(args = ["as_loop", "clamp_unchecked"])]
fn f32_to_i32_alternative(bencher: Bencher, how: &str) {
    let src: Vec<f32> = input()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut dst = vec![0i32; N];
    let clamp = how == "clamp_unchecked";
    bencher
        .counter(divan::counter::ItemsCount::new(N))
        .bench_local(|| {
            if clamp {
                for (d, &x) in dst.iter_mut().zip(black_box(&src)) {
                    *d = if (-2147483648.0..2147483648.0).contains(&x) {
                        // SAFETY: x is finite and inside i32's range (checked just above).
                        unsafe { x.to_int_unchecked::<i32>() }
                    } else {
                        i32::MIN
                    };
                }
            } else {
                for (d, &x) in dst.iter_mut().zip(black_box(&src)) {
                    *d = x as i32;
                }
            }
            black_box(&dst);
        });
}

/// promo into a buffer allocated once (`convert_to_slice`), as the alternatives
/// above write theirs: the fair comparison for f32 into i32.
#[divan::bench]
fn f32_to_i32_promo_slice(bencher: Bencher) {
    let src = input();
    let mut dst = vec![0u8; N * 4];
    bencher
        .counter(divan::counter::ItemsCount::new(N))
        .bench_local(|| {
            promo_core::cast::convert_to_slice(
                DType::F32,
                DType::I32,
                black_box(&src),
                &mut dst,
                &CastOptions::default(),
            )
            .unwrap();
            black_box(&dst);
        });
}
