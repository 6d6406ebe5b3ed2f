//! Every fast kernel against the scalar cast: every input of every 8- and 16-bit
//! source, all 2^32 f32 inputs into the integers, edge, random and odd-length f32
//! inputs into the narrow formats; the SIMD kernels ([`Converter::new`]) and the
//! portable ones ([`Converter::portable`]) alike.

use crate::cast::{CastOptions, Converter};
use crate::narrow::RoundMode;
use crate::DType;
use proptest::prelude::*;

// ---- into f32 ------------------------------------------------------------------

/// The fast kernel's bytes equal the scalar kernel's on `src` for every length
/// up to `src`'s and at every starting offset below 5.
fn agree(from: DType, src: &[u8], elements: usize) {
    for fast in [
        Converter::new(from, DType::F32, CastOptions::default()).unwrap(),
        Converter::portable(from, DType::F32, CastOptions::default()).unwrap(),
    ] {
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
    let fast = Converter::new(DType::F32, to, options).unwrap();
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
                    saturate,
                    round_mode,
                    opset,
                });
            }
        }
    }
    out
}

const TARGETS: [DType; 8] = [
    DType::F8E4M3FN,
    DType::F8E4M3FNUZ,
    DType::F8E5M2,
    DType::F8E5M2FNUZ,
    DType::F4E2M1,
    DType::F8E8M0,
    DType::F16,
    DType::BF16,
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
    fn simd_matches_scalar_on_random_slices(values in prop::collection::vec(any::<u32>(), 0..300), t in 0..8usize, o in 0..12usize) {
        compare(TARGETS[t], all_options()[o], &values);
    }
}

// ---- f32 into the integers -----------------------------------------------------

/// Every f32 bit pattern into `to`: the fast kernel (AVX2 where present) and the
/// portable path against the scalar cast, in chunks on two threads.
fn exhaustive(to: DType) {
    let fast = Converter::new(DType::F32, to, CastOptions::default()).unwrap();
    let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
    let portable = Converter::portable(DType::F32, to, CastOptions::default()).unwrap();
    const CHUNK: u64 = 1 << 22;
    let check = |first: u64, step: u64| {
        let (mut src, mut a, mut b, mut p) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut start = first * CHUNK;
        while start < 1 << 32 {
            src.clear();
            src.extend((start..start + CHUNK).flat_map(|bits| (bits as u32).to_le_bytes()));
            a.clear();
            b.clear();
            fast.convert_into(&src, CHUNK as usize, &mut a);
            scalar.convert_into(&src, CHUNK as usize, &mut b);
            p.clear();
            portable.convert_into(&src, CHUNK as usize, &mut p);
            if a != b || p != b {
                let width = b.len() / CHUNK as usize;
                let i = (0..CHUNK as usize)
                    .find(|&i| {
                        a[i * width..][..width] != b[i * width..][..width]
                            || p[i * width..][..width] != b[i * width..][..width]
                    })
                    .unwrap();
                panic!(
                    "f32 {:#010x} into {to}: scalar {:?}, fast {:?}, portable {:?}",
                    start + i as u64,
                    &b[i * width..][..width],
                    &a[i * width..][..width],
                    &p[i * width..][..width]
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
        let fast = Converter::new(DType::F32, to, CastOptions::default()).unwrap();
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
    let fast = Converter::new(from, to, options).unwrap();
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
    // Past 32 MiB of output the decoders and the f16 / bf16 encoders store with
    // non-temporal stores after a few elements that align the destination.
    let n = (32 << 20) / 2 + 37;
    let bytes: Vec<u8> = (0..(n as u32 + 1) * 4)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_right(13) as u8)
        .collect();
    for (from, to, count) in [
        (DType::F8E4M3FN, DType::F32, n / 2),
        (DType::F8E8M0, DType::F32, n / 2),
        (DType::BF16, DType::F32, n / 2),
        (DType::F16, DType::F32, n / 2),
        (DType::F32, DType::F16, n),
        (DType::F32, DType::BF16, n),
    ] {
        let size = from.bits() as usize / 8;
        let fast = Converter::new(from, to, CastOptions::default()).unwrap();
        let portable = Converter::portable(from, to, CastOptions::default()).unwrap();
        for skip in [0, 1] {
            let src = &bytes[skip * size..(count + skip) * size];
            let (mut a, mut b) = (Vec::new(), Vec::new());
            fast.convert_into(src, count, &mut a);
            portable.convert_into(src, count, &mut b);
            assert!(a == b, "{from} -> {to}, skip {skip}");
        }
    }
}
