//! Every fast kernel against the scalar cast: every input of every 8- and 16-bit
//! source, all 2^32 f32 inputs into the integers of 32 bits or fewer, edge, random
//! and odd-length inputs of the wider sources; on every backend this CPU has
//! ([`Backend::available`]: the portable one always, AVX2 and AVX-512 where the
//! CPU runs them), each checked against the others and the scalar kernel.

use crate::cast::{Backend, CastOptions, ConvertError, Converter};
use crate::narrow::RoundMode;
use crate::DType;
use proptest::prelude::*;

/// One conversion on every backend this CPU has.
struct Every(Vec<Converter>, String);

/// The conversion from `from` to `to` on every backend this CPU has.
fn every(from: DType, to: DType, options: CastOptions) -> Result<Every, ConvertError> {
    let all = Backend::available()
        .into_iter()
        .map(|b| Converter::with_backend(from, to, options, b))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Every(all, format!("{from} into {to} with {options:?}")))
}

impl Every {
    /// Appends the conversion of `count` elements of `src` to `out`, after checking
    /// that every backend gives the same bytes.
    fn convert_into(&self, src: &[u8], count: usize, out: &mut Vec<u8>) {
        let start = out.len();
        self.0[0].convert_into(src, count, out);
        for other in &self.0[1..] {
            let mut mine = Vec::new();
            other.convert_into(src, count, &mut mine);
            if mine[..] != out[start..] {
                let i = mine.iter().zip(&out[start..]).position(|(a, b)| a != b);
                panic!(
                    "{}: {} and {} differ (output byte {i:?} of {}, {} elements)",
                    self.1,
                    other.backend(),
                    self.0[0].backend(),
                    mine.len(),
                    count
                );
            }
        }
    }
}

#[test]
fn every_backend_the_cpu_has_is_tested() {
    let names: Vec<_> = Backend::available().into_iter().map(Backend::name).collect();
    assert_eq!(names[0], "portable");
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("f16c");
        assert_eq!(names.contains(&"avx2"), avx2);
        let avx512 =
            avx2 && std::is_x86_feature_detected!("avx512vbmi") && std::is_x86_feature_detected!("avx512bw");
        assert_eq!(names.contains(&"avx512"), avx512);
    }
    eprintln!("backends tested here: {names:?}");
    // The kernel each picks for f32 into f8e4m3fn runs on that backend.
    for b in Backend::available() {
        let c = Converter::with_backend(DType::F32, DType::F8E4M3FN, CastOptions::default(), b).unwrap();
        assert_eq!(c.backend(), b);
    }
}

// ---- into f32 ------------------------------------------------------------------

/// The fast kernel's bytes equal the scalar kernel's on `src` for every length
/// up to `src`'s and at every starting offset below 5.
fn agree(from: DType, src: &[u8], elements: usize) {
    {
        let fast = every(from, DType::F32, CastOptions::default()).unwrap();
        let scalar = Converter::scalar(from, DType::F32, CastOptions::default()).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        fast.convert_into(src, elements, &mut a);
        scalar.convert_into(src, elements, &mut b);
        assert_eq!(a.len(), elements * 4, "{from}");
        for (i, (x, y)) in a.chunks(4).zip(b.chunks(4)).enumerate() {
            assert_eq!(x, y, "{from} element {i}");
        }
        let bytes_per = (from.bits() as usize).max(8) / 8;
        for offset in 0..5usize {
            for len in [0usize, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100] {
                let start = offset * bytes_per;
                let n = len.min(elements.saturating_sub(offset * 8 / from.bits().min(8) as usize));
                let (mut a, mut b) = (Vec::new(), Vec::new());
                fast.convert_into(&src[start..], n, &mut a);
                scalar.convert_into(&src[start..], n, &mut b);
                assert_eq!(a, b, "{from} offset {offset} length {len}");
            }
        }
    }
}

#[test]
fn every_byte_of_every_8_and_4_bit_format_decodes_as_the_scalar_cast() {
    let bytes: Vec<u8> = (0..=255u8).collect();
    for from in [
        DType::F8E4M3FN,
        DType::F8E4M3FNUZ,
        DType::F8E5M2,
        DType::F8E5M2FNUZ,
        DType::F8E8M0,
        DType::F8E4M3,
        DType::F8E3M4,
        DType::F8E4M3B11FNUZ,
        DType::F6E2M3FN,
        DType::F6E3M2FN,
    ] {
        agree(from, &bytes, 256);
    }
    // Both nibbles of every byte, and an odd count (the last byte's low nibble).
    for from in [DType::F4E2M1, DType::I4, DType::U4] {
        agree(from, &bytes, 512);
        agree(from, &bytes, 511);
    }
}

#[test]
fn every_f16_and_bf16_decodes_as_the_scalar_cast() {
    let words: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    agree(DType::F16, &words, 65536);
    agree(DType::BF16, &words, 65536);
}

// ---- f32 into the narrow formats -----------------------------------------------

/// Interesting f32 bit patterns around every binade edge, plus `n` random ones.
fn inputs(seed: u64, n: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for e in 0..=255u32 {
        for m in [
            0, 1, 2, 0x3f_ffff, 0x40_0000, 0x40_0001, 0x7f_fffe, 0x7f_ffff, 0x10_0000, 0x08_0000,
        ] {
            for sign in [0, 0x8000_0000] {
                out.push(sign | e << 23 | m);
                // Ties and their neighbours for every mantissa width up to 10.
                for k in 13..23 {
                    let tie = sign | e << 23 | (m & !((1 << k) - 1)) | (1 << (k - 1));
                    out.extend([tie, tie.wrapping_add(1), tie.wrapping_sub(1)]);
                }
            }
        }
    }
    let mut state = seed;
    for _ in 0..n {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.push((state >> 32) as u32);
    }
    out
}

/// The SIMD kernel against the scalar one on `values`, from offset 0 and from an
/// odd offset (so that the scalar tail and odd lengths are exercised).
fn compare(to: DType, options: CastOptions, values: &[u32]) {
    let fast = every(DType::F32, to, options).unwrap();
    let reference = Converter::scalar(DType::F32, to, options).unwrap();
    for skip in [0, 3.min(values.len())] {
        let src: Vec<u8> = values[skip..].iter().flat_map(|v| v.to_le_bytes()).collect();
        let n = values.len() - skip;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        fast.convert_into(&src, n, &mut a);
        reference.convert_into(&src, n, &mut b);
        if a != b {
            let size = to.bits() as usize;
            for i in 0..n {
                let get = |v: &[u8]| match size {
                    4 => (v[i / 2] >> (4 * (i % 2))) & 0xf,
                    8 => v[i],
                    _ => v[2 * i] ^ v[2 * i + 1],
                };
                assert_eq!(
                    get(&a),
                    get(&b),
                    "{to} {options:?} input {:#010x}",
                    values[skip + i]
                );
            }
            assert_eq!(a, b, "{to} {options:?}");
        }
    }
}

fn all_options() -> Vec<CastOptions> {
    let mut out = Vec::new();
    for saturate in [true, false] {
        for round_mode in [RoundMode::Up, RoundMode::Down, RoundMode::Nearest] {
            for opset in [23, crate::cast::NEWEST_OPSET] {
                out.push(CastOptions {
                    saturate: Some(saturate),
                    round_mode,
                    opset,
                });
            }
        }
    }
    out
}

const TARGETS: [DType; 11] = [
    DType::F8E4M3FN,
    DType::F8E4M3FNUZ,
    DType::F8E5M2,
    DType::F8E5M2FNUZ,
    DType::F4E2M1,
    DType::F8E8M0,
    DType::F16,
    DType::BF16,
    DType::F8E4M3,
    DType::F8E3M4,
    DType::F8E4M3B11FNUZ,
];

#[test]
fn simd_matches_scalar_on_edges() {
    let values = inputs(1, 100_000);
    for to in TARGETS {
        for options in all_options() {
            compare(to, options, &values);
        }
    }
}

proptest! {
    #[test]
    fn simd_matches_scalar_on_random_slices(values in prop::collection::vec(any::<u32>(), 0..300), t in 0..TARGETS.len(), o in 0..12usize) {
        compare(TARGETS[t], all_options()[o], &values);
    }
}

// ---- f32 into the integers -----------------------------------------------------

/// Every f32 bit pattern into `to`: every backend against the scalar cast, in
/// chunks on two threads.
fn exhaustive(to: DType) {
    let fast = every(DType::F32, to, CastOptions::default()).unwrap();
    let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
    const CHUNK: u64 = 1 << 22;
    let check = |first: u64, step: u64| {
        let (mut src, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
        let mut start = first * CHUNK;
        while start < 1 << 32 {
            src.clear();
            src.extend((start..start + CHUNK).flat_map(|bits| (bits as u32).to_le_bytes()));
            a.clear();
            b.clear();
            fast.convert_into(&src, CHUNK as usize, &mut a);
            scalar.convert_into(&src, CHUNK as usize, &mut b);
            if a != b {
                let width = b.len() / CHUNK as usize;
                let i = (0..CHUNK as usize)
                    .find(|&i| a[i * width..][..width] != b[i * width..][..width])
                    .unwrap();
                panic!(
                    "f32 {:#010x} into {to}: scalar {:?}, fast {:?}",
                    start + i as u64,
                    &b[i * width..][..width],
                    &a[i * width..][..width],
                );
            }
            start += step * CHUNK;
        }
    };
    std::thread::scope(|s| {
        s.spawn(|| check(0, 2));
        check(1, 2);
    });
}

#[test]
fn every_f32_into_every_integer_of_32_bits_or_fewer_is_the_scalar_cast() {
    for to in [
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
    ] {
        exhaustive(to);
    }
}

#[test]
fn odd_lengths_and_offsets_agree() {
    let values = [
        0.0f32,
        -0.0,
        1.5,
        -1.5,
        255.9,
        256.0,
        -129.0,
        65535.0,
        2147483520.0,
        2147483648.0,
        4294967040.0,
        4294967296.0,
        -2147483648.0,
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-40,
        -3.7e9,
    ];
    let src: Vec<u8> = values
        .iter()
        .cycle()
        .take(101)
        .flat_map(|x| x.to_le_bytes())
        .collect();
    for to in [
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
    ] {
        let fast = every(DType::F32, to, CastOptions::default()).unwrap();
        let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
        for offset in 0..4 {
            for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 33, 97] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                fast.convert_into(&src[offset * 4..], len, &mut a);
                scalar.convert_into(&src[offset * 4..], len, &mut b);
                assert_eq!(a, b, "{to} offset {offset} length {len}");
            }
        }
    }
}

// ---- f16, bf16 and f64 in, f64 out ---------------------------------------------

/// `fast` and `scalar` agree on `src` (`n` elements), from offset 0 and 3.
fn same_bytes(from: DType, to: DType, options: CastOptions, src: &[u8], n: usize) {
    let fast = every(from, to, options).unwrap();
    let scalar = Converter::scalar(from, to, options).unwrap();
    let size = from.bits() as usize / 8;
    for skip in [0, 3.min(n)] {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        fast.convert_into(&src[skip * size..], n - skip, &mut a);
        scalar.convert_into(&src[skip * size..], n - skip, &mut b);
        if a != b {
            let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap();
            panic!(
                "{from} -> {to} {options:?}, skip {skip}: output byte {i}: {:#x} != {:#x}",
                a[i], b[i]
            );
        }
    }
}

#[test]
fn every_f16_and_bf16_into_every_narrow_format_is_the_scalar_cast() {
    let words: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    for from in [DType::F16, DType::BF16] {
        for to in [
            DType::F8E4M3FN,
            DType::F8E4M3FNUZ,
            DType::F8E5M2,
            DType::F8E5M2FNUZ,
            DType::F4E2M1,
            DType::F8E4M3,
            DType::F8E3M4,
            DType::F8E4M3B11FNUZ,
        ] {
            for options in all_options()
                .into_iter()
                .filter(|o| o.round_mode == RoundMode::Up)
            {
                same_bytes(from, to, options, &words, 65536);
            }
        }
    }
}

#[test]
fn f64_and_f32_both_ways_are_the_scalar_cast() {
    // f32 edges (signalling NaNs among them) and random bit patterns, into f64.
    let values = inputs(7, 20_000);
    let src: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    same_bytes(DType::F32, DType::F64, CastOptions::default(), &src, values.len());
    // f64: those values widened, their midpoints and neighbours (ties into f32),
    // and random bit patterns.
    let mut wide: Vec<u64> = Vec::new();
    let mut state = 3u64;
    for &v in &values {
        let x = (f32::from_bits(v) as f64).to_bits();
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        wide.extend([
            x,
            x ^ 1 << 28,
            x | 1 << 28,
            (x | 1 << 28) + 1,
            (x | 1 << 28) - 1,
            state,
        ]);
    }
    let src: Vec<u8> = wide.iter().flat_map(|v| v.to_le_bytes()).collect();
    same_bytes(DType::F64, DType::F32, CastOptions::default(), &src, wide.len());
}

proptest! {
    #[test]
    fn odd_lengths_of_f16_bf16_and_f64_agree(words in prop::collection::vec(any::<u64>(), 0..100), t in 0..5usize) {
        let src: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        let targets = [DType::F8E4M3FN, DType::F8E4M3FNUZ, DType::F8E5M2, DType::F8E5M2FNUZ, DType::F4E2M1];
        same_bytes(DType::F16, targets[t], CastOptions::default(), &src, words.len() * 4);
        same_bytes(DType::BF16, targets[t], CastOptions::default(), &src, words.len() * 4);
        same_bytes(DType::F64, DType::F32, CastOptions::default(), &src, words.len());
        same_bytes(DType::F32, DType::F64, CastOptions::default(), &src, words.len() * 2);
    }
}

#[test]
fn outputs_large_enough_for_streaming_stores_agree() {
    // Past 32 MiB of output the SIMD kernels store with non-temporal stores after a
    // few elements that align the destination.
    let n = (32 << 20) / 2 + 37;
    // Enough for 2n f32 inputs (32 MiB of float8 out) and one to skip.
    let bytes: Vec<u8> = (0..(2 * n as u32 + 1) * 4)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_right(13) as u8)
        .collect();
    for (from, to, count) in [
        (DType::F8E4M3FN, DType::F32, n / 2),
        (DType::F8E8M0, DType::F32, n / 2),
        (DType::F4E2M1, DType::F32, n / 2),
        (DType::BF16, DType::F32, n / 2),
        (DType::F16, DType::F32, n / 2),
        (DType::F32, DType::F16, n),
        (DType::F32, DType::BF16, n),
        (DType::F32, DType::F64, n / 4),
        (DType::F64, DType::F32, n / 4),
        (DType::F32, DType::I32, n / 2),
        (DType::F32, DType::U32, n / 2),
        (DType::F64, DType::I64, n / 4),
        (DType::I8, DType::I32, n / 2),
        (DType::I64, DType::I8, n / 4),
        (DType::U32, DType::F64, n / 4),
        (DType::I16, DType::F32, n / 2),
        (DType::F32, DType::F8E4M3FN, 2 * n),
        (DType::F16, DType::F8E5M2, 2 * n),
    ] {
        let size = (from.bits() as usize).max(8) / 8;
        let fast = every(from, to, CastOptions::default()).unwrap();
        let scalar = Converter::scalar(from, to, CastOptions::default()).unwrap();
        for skip in [0, 1] {
            let src = &bytes[skip * size..];
            let (mut a, mut b) = (Vec::new(), Vec::new());
            fast.convert_into(src, count, &mut a);
            scalar.convert_into(src, count, &mut b);
            assert_eq!(a.len(), b.len(), "{from} -> {to}");
            assert!(a == b, "{from} -> {to}, skip {skip}");
        }
    }
}

// ---- integers, and floats into integers ------------------------------------------

/// The integer dtypes, bool first.
const INTEGERS: [DType; 9] = [
    DType::Bool,
    DType::I8,
    DType::U8,
    DType::I16,
    DType::U16,
    DType::I32,
    DType::U32,
    DType::I64,
    DType::U64,
];

/// The floats an integer converts into.
const FLOATS: [DType; 10] = [
    DType::F16,
    DType::BF16,
    DType::F32,
    DType::F64,
    DType::F8E4M3FN,
    DType::F8E4M3FNUZ,
    DType::F8E5M2,
    DType::F8E5M2FNUZ,
    DType::F4E2M1,
    DType::F8E8M0,
];

/// The option sets that matter for `to`: `saturate` for float8, `round_mode` for
/// f8e8m0, none otherwise.
fn options_for(to: DType) -> Vec<CastOptions> {
    let o = CastOptions::default();
    match to {
        DType::F8E8M0 => [RoundMode::Up, RoundMode::Down, RoundMode::Nearest]
            .into_iter()
            .flat_map(|round_mode| {
                [true, false].map(|saturate| CastOptions {
                    saturate: Some(saturate),
                    round_mode,
                    ..o
                })
            })
            .collect(),
        t if t.bits() == 8 && t.is_float() => vec![
            o,
            CastOptions {
                saturate: Some(false),
                ..o
            },
            CastOptions { opset: 23, ..o },
        ],
        _ => vec![o],
    }
}

/// The fast and the portable kernel against the scalar one on the `n` elements of
/// `src`: the whole slice from elements 0 and 3, and short slices of every length
/// up to 70 from elements 0 to 4 (the tails and the aligning heads).
fn agrees_with_scalar(from: DType, to: DType, src: &[u8], n: usize) {
    let size = from.bits() as usize / 8;
    for options in options_for(to) {
        let scalar = Converter::scalar(from, to, options).unwrap();
        {
            let fast = every(from, to, options).unwrap();
            let check = |skip: usize, len: usize| {
                let src = &src[skip * size..(skip + len) * size];
                let (mut a, mut b) = (Vec::new(), Vec::new());
                fast.convert_into(src, len, &mut a);
                scalar.convert_into(src, len, &mut b);
                if a != b {
                    let width = (to.bits() as usize).max(8) / 8;
                    let i = (0..len)
                        .find(|&i| a[i * width..][..width] != b[i * width..][..width])
                        .unwrap_or(0);
                    panic!(
                        "{from} -> {to} {options:?}: input {:02x?}: fast {:02x?}, scalar {:02x?}",
                        &src[i * size..][..size],
                        &a[i * width..][..width],
                        &b[i * width..][..width]
                    );
                }
            };
            for skip in [0, 3.min(n)] {
                check(skip, n - skip);
            }
            for skip in 0..5.min(n) {
                for len in 0..70.min(n - skip) {
                    check(skip, len);
                }
            }
        }
    }
}

/// `values` as little-endian bytes of `bytes` bytes each.
fn le(values: &[u64], bytes: usize) -> Vec<u8> {
    values
        .iter()
        .flat_map(|v| v.to_le_bytes()[..bytes].to_vec())
        .collect()
}

#[test]
fn every_8_and_16_bit_integer_into_every_integer_and_float_is_the_scalar_cast() {
    for from in [DType::Bool, DType::I8, DType::U8, DType::I16, DType::U16] {
        let bytes = from.bits() as usize / 8;
        let codes: Vec<u64> = (0..1u64 << from.bits()).collect();
        let src = le(&codes, bytes);
        for to in INTEGERS.into_iter().chain(FLOATS) {
            if to != from {
                agrees_with_scalar(from, to, &src, codes.len());
            }
        }
    }
}

/// 64-bit patterns that probe every rounding and width: each power of two, with
/// and without the bits just below the places where f64 (53 bits), f32 (24), bf16
/// (8), f16 (11) and the float8 formats round, ties among them, ± small offsets;
/// then `random` values of random widths.
fn wide_integers(random: usize) -> Vec<u64> {
    let mut out = Vec::new();
    for k in 0..64u32 {
        let top = 1u64 << k;
        for p in [2u32, 3, 4, 5, 8, 9, 11, 12, 24, 25, 26, 53, 54, 55] {
            let (half, rest) = match k.checked_sub(p) {
                Some(s) => (1u64 << s, (1u64 << s) - 1),
                None => (0, 0),
            };
            for v in [
                top,
                top | half,
                top | rest,
                top | half | rest,
                top | half | 1,
                top | (half >> 1),
            ] {
                for d in [0u64, 1, 2, u64::MAX] {
                    let v = v.wrapping_add(d);
                    out.extend([v, v.wrapping_neg(), v | half << 1]);
                }
            }
        }
    }
    let mut state = 11u64;
    for _ in 0..random {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = state ^ state.rotate_left(29);
        out.push(x >> (state % 64));
        out.push((x >> (state % 64)).wrapping_neg());
    }
    out
}

#[test]
fn wide_integers_into_every_integer_and_float_are_the_scalar_cast() {
    let values = wide_integers(20_000);
    for from in [DType::I32, DType::U32, DType::I64, DType::U64] {
        let src = le(&values, from.bits() as usize / 8);
        for to in INTEGERS.into_iter().chain(FLOATS) {
            if to != from {
                agrees_with_scalar(from, to, &src, values.len());
            }
        }
    }
}

#[test]
fn every_8_and_16_bit_float_into_every_integer_is_the_scalar_cast() {
    for from in [
        DType::F16,
        DType::BF16,
        DType::F8E4M3FN,
        DType::F8E4M3FNUZ,
        DType::F8E5M2,
        DType::F8E5M2FNUZ,
        DType::F8E8M0,
    ] {
        let codes: Vec<u64> = (0..1u64 << from.bits()).collect();
        let src = le(&codes, from.bits() as usize / 8);
        for to in INTEGERS {
            agrees_with_scalar(from, to, &src, codes.len());
        }
    }
}

/// f64 bit patterns around every binade edge an integer target has (2^0 to 2^65),
/// with halves, signs and the specials, then `random` random ones and random
/// values of every magnitude.
fn wide_floats(random: usize) -> Vec<u64> {
    let mut out = vec![
        0,
        1,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
    ];
    for e in 0..70i64 {
        let x = 2f64.powi(e as i32);
        for v in [
            x,
            x + 0.5,
            x - 0.5,
            x * 1.5,
            x + 1.0,
            x - 1.0,
            x * (1.0 - f64::EPSILON),
            x * (1.0 + f64::EPSILON),
        ] {
            for v in [v, -v, v + 2f64.powi(-1), v - 2f64.powi(-1)] {
                out.push(v.to_bits());
            }
        }
    }
    let mut state = 5u64;
    for _ in 0..random {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.push(state);
        let magnitude = (state >> 11) as f64 / (1u64 << 53) as f64 * 2f64.powi((state % 140) as i32 - 70);
        out.push(
            if state & 1 << 10 != 0 {
                -magnitude
            } else {
                magnitude
            }
            .to_bits(),
        );
    }
    // Each one's sign flipped as well (the other sign of the specials).
    let flipped: Vec<u64> = out.iter().map(|v| v ^ 1 << 63).collect();
    out.extend(flipped);
    out
}

#[test]
fn f32_and_f64_into_every_integer_are_the_scalar_cast() {
    let wide = wide_floats(20_000);
    let src = le(&wide, 8);
    for to in INTEGERS {
        agrees_with_scalar(DType::F64, to, &src, wide.len());
    }
    // The same values narrowed to f32 (where they fit), and f32 edges.
    let mut narrow: Vec<u64> = wide
        .iter()
        .map(|&v| (f64::from_bits(v) as f32).to_bits() as u64)
        .collect();
    narrow.extend(inputs(9, 20_000).into_iter().map(u64::from));
    let src = le(&narrow, 4);
    for to in [DType::I64, DType::U64, DType::Bool] {
        agrees_with_scalar(DType::F32, to, &src, narrow.len());
    }
}

proptest! {
    #[test]
    fn odd_lengths_of_integers_agree(words in prop::collection::vec(any::<u64>(), 0..80), f in 0..9usize, t in 0..19usize) {
        let (from, to) = (INTEGERS[f], INTEGERS.into_iter().chain(FLOATS).nth(t).unwrap());
        let src: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
        let n = src.len() / (from.bits() as usize / 8);
        if from != to {
            for options in options_for(to) {
                let fast = every(from, to, options).unwrap();
                let scalar = Converter::scalar(from, to, options).unwrap();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                fast.convert_into(&src, n, &mut a);
                scalar.convert_into(&src, n, &mut b);
                prop_assert_eq!(a, b, "{} -> {}", from, to);
            }
        }
    }
}
