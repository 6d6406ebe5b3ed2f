//! Every fast kernel against the scalar cast, on every backend this CPU has
//! ([`Backend::available`]: the portable one always, AVX2 and AVX-512 where the CPU
//! runs them). The conversions are not listed here: they are every pair of the
//! dtypes a buffer conversion takes ([`CASTABLE`], the element table), so a format
//! added to the table is tested on every backend without a line here.
//!
//! - Whole buffers: every code of each source of 16 bits or fewer, edges and random
//!   values of the wider ones, under every option that changes the target's bits.
//! - Windows: every fast kernel at four source offsets, three destination offsets
//!   and every length across the aligning head, the blocks and the tail, up to
//!   lengths whose output the unit tests write with streaming stores
//!   ([`STREAM_FROM`](super::backend::STREAM_FROM) is 4 KiB here).
//! - All 2^32 f32 inputs into every integer target with a fast kernel.

use crate::cast::buffer::CASTABLE;
use crate::cast::scalar::bytes_for;
use crate::cast::{element_size, Backend, CastOptions, ConvertError, Converter};
use crate::narrow::RoundMode;
use crate::DType;
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

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
        self.compare(src, count, &out[start..], &mut Vec::new());
    }

    /// Converts `count` elements of `src` into `out`, which holds exactly them, on
    /// every backend; `mine` holds the other backends' bytes (a caller that converts
    /// many chunks passes the same one, and nothing is zeroed per chunk).
    fn convert_to(&self, src: &[u8], count: usize, out: &mut [u8], mine: &mut Vec<u8>) {
        self.0[0].convert_to(src, count, out);
        self.compare(src, count, out, mine);
    }

    /// Checks that every backend but the first converts `src` into `first`'s bytes.
    fn compare(&self, src: &[u8], count: usize, first: &[u8], mine: &mut Vec<u8>) {
        mine.resize(first.len(), 0);
        for other in &self.0[1..] {
            other.convert_to(src, count, mine);
            if mine[..] != first[..] {
                let i = mine.iter().zip(first).position(|(a, b)| a != b);
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

// ---- what every conversion is tested on --------------------------------------

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

/// `values` as little-endian bytes of `bytes` bytes each.
fn le(values: &[u64], bytes: usize) -> Vec<u8> {
    values
        .iter()
        .flat_map(|v| v.to_le_bytes()[..bytes].to_vec())
        .collect()
}

/// The inputs every conversion from `from` is tested on, as buffer bytes, and their
/// count: every code of a source of 16 bits or fewer (every byte of a packed
/// one); edges and random values of the wider ones.
fn inputs_of(from: DType) -> (Vec<u8>, usize) {
    let bits = element_size(from).unwrap();
    let src: Vec<u8> = match (from, bits) {
        (_, 1..=8) => (0..=255u8).collect(),
        (_, 16) => (0..=u16::MAX).flat_map(u16::to_le_bytes).collect(),
        (DType::F32, _) => inputs(1, 20_000).iter().flat_map(|v| v.to_le_bytes()).collect(),
        (DType::F64, _) => {
            // f32 edges widened, their midpoints and neighbours (ties into f32),
            // then the f64 edges of the integer targets.
            let mut wide: Vec<u64> = Vec::new();
            for v in inputs(7, 2_000) {
                let x = (f32::from_bits(v) as f64).to_bits();
                wide.extend([x, x ^ 1 << 28, x | 1 << 28, (x | 1 << 28) + 1, (x | 1 << 28) - 1]);
            }
            wide.extend(wide_floats(10_000));
            le(&wide, 8)
        }
        (_, bits) => le(&wide_integers(20_000), bits / 8),
    };
    let count = src.len() * 8 / bits;
    (src, count)
}

/// The option sets that change `to`'s bits: `saturate` and the opset for the
/// narrow floats, `round_mode` too for f8e8m0; none for the others.
fn options_for(to: DType) -> Vec<CastOptions> {
    if to.is_float() && to.bits() <= 8 {
        all_options()
    } else {
        vec![CastOptions::default()]
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

/// Element `i` of a buffer of `bits`-bit elements (packed ones low bits first).
fn element(buf: &[u8], bits: usize, i: usize) -> u64 {
    if bits < 8 {
        let per = 8 / bits;
        (buf[i / per] >> (bits * (i % per))) as u64 & ((1 << bits) - 1)
    } else {
        let size = bits / 8;
        buf[i * size..][..size]
            .iter()
            .rev()
            .fold(0, |acc, &b| acc << 8 | b as u64)
    }
}

/// Every pair of castable dtypes (a dtype with itself is a copy), split in two
/// halves that the tests run on two threads.
fn every_pair(half: usize) -> impl Iterator<Item = (DType, DType)> {
    CASTABLE
        .iter()
        .flat_map(|&from| CASTABLE.iter().map(move |&to| (from, to)))
        .filter(|(from, to)| from != to)
        .enumerate()
        .filter(move |(i, _)| i % 2 == half)
        .map(|(_, pair)| pair)
}

/// Runs `check` on every pair, on both cores.
fn on_every_pair(check: impl Fn(DType, DType) + Sync) {
    std::thread::scope(|s| {
        s.spawn(|| every_pair(0).for_each(|(from, to)| check(from, to)));
        every_pair(1).for_each(|(from, to)| check(from, to));
    });
}

/// The fast converters of `from` into `to` with `options`: one per backend this
/// CPU has on which the pair has a kernel other than the scalar one.
fn fast_converters(from: DType, to: DType, options: CastOptions) -> Vec<Converter> {
    Backend::available()
        .into_iter()
        .map(|b| Converter::with_backend(from, to, options, b).unwrap())
        .filter(|c| !c.is_scalar(from, to))
        .collect()
}

/// A buffer of `len` bytes whose start is 64-byte aligned, plus `offset`.
struct Aligned(Vec<u8>);

impl Aligned {
    fn new(len: usize) -> Self {
        Aligned(vec![0; len + 128])
    }

    fn at(&mut self, offset: usize, len: usize) -> &mut [u8] {
        let skip = self.0.as_ptr().align_offset(64) + offset;
        &mut self.0[skip..skip + len]
    }
}

/// Checks that `out` holds elements `first..first + count` of `reference`, and
/// that the unused high bits of a packed output's last byte are zero.
#[track_caller]
fn same_elements(
    out: &[u8],
    reference: &[u8],
    first: usize,
    count: usize,
    bits: usize,
    what: &dyn Fn() -> String,
) {
    for i in 0..count {
        let (got, want) = (element(out, bits, i), element(reference, bits, first + i));
        if got != want {
            panic!("{}: element {i}: {got:#x}, scalar {want:#x}", what());
        }
    }
    let used = count * bits % 8;
    if used != 0 {
        assert_eq!(out[out.len() - 1] >> used, 0, "{}: padding bits", what());
    }
}

#[test]
fn every_conversion_is_the_scalar_cast_on_every_backend() {
    let checked = AtomicUsize::new(0);
    on_every_pair(|from, to| {
        let (src, n) = inputs_of(from);
        let (from_bits, to_bits) = (element_size(from).unwrap(), element_size(to).unwrap());
        for options in options_for(to) {
            let mut reference = Vec::new();
            Converter::scalar(from, to, options)
                .unwrap()
                .convert_into(&src, n, &mut reference);
            for fast in fast_converters(from, to, options) {
                // From the first element into an aligned output, and from the
                // second byte's first element into an output one byte off.
                for (skip, dst_offset) in [(0, 0), (1, 1)] {
                    let first = skip * 8 / from_bits.min(8);
                    let count = n - first;
                    let mut dst = Aligned::new(bytes_for(to_bits, count));
                    let out = dst.at(dst_offset, bytes_for(to_bits, count));
                    let start = skip * from_bits.max(8) / 8;
                    fast.convert_to(&src[start..], count, out);
                    same_elements(out, &reference, first, count, to_bits, &|| {
                        format!(
                            "{from} -> {to} on {} {options:?}, from element {first}",
                            fast.backend()
                        )
                    });
                    checked.fetch_add(count, Ordering::Relaxed);
                }
            }
        }
    });
    eprintln!(
        "{} dtypes, {} pairs, on {:?}: {} elements compared",
        CASTABLE.len(),
        CASTABLE.len() * (CASTABLE.len() - 1),
        Backend::available(),
        checked.into_inner()
    );
}

/// The lengths every window takes: each across the heads (up to 63 elements) and
/// the first blocks (up to 64 elements), then longer ones past the streaming
/// threshold.
fn window_lengths() -> impl Iterator<Item = usize> {
    (0..=160).chain((161..=420).step_by(11)).chain([1100, 4200, 5000])
}

#[test]
fn every_fast_kernel_is_the_scalar_cast_at_every_offset_and_length() {
    // (pairs with a fast kernel, (pair, options, backend) kernels, windows)
    let counts = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];
    on_every_pair(|from, to| {
        let mut any = false;
        let (all, n) = inputs_of(from);
        let (from_bits, to_bits) = (element_size(from).unwrap(), element_size(to).unwrap());
        let from_bytes = from_bits.max(8) / 8;
        // 5,200 elements drawn across the inputs, so that every window holds edges.
        let count = 5_200usize;
        let src: Vec<u8> = if from_bits < 8 {
            (0..count * from_bits / 8)
                .map(|i| all[i * 97 % all.len()])
                .collect()
        } else {
            (0..count)
                .flat_map(|i| all[(i * 7919 % n) * from_bytes..][..from_bytes].to_vec())
                .collect()
        };
        for options in options_for(to) {
            let fast = fast_converters(from, to, options);
            if fast.is_empty() {
                continue;
            }
            any = true;
            counts[1].fetch_add(fast.len(), Ordering::Relaxed);
            let mut reference = Vec::new();
            Converter::scalar(from, to, options)
                .unwrap()
                .convert_into(&src, count, &mut reference);
            let to_bytes = to_bits.max(8) / 8;
            let mut dst = Aligned::new(bytes_for(to_bits, count) + 64);
            for c in &fast {
                for skip in 0..4 {
                    let first = skip * 8 / from_bits.min(8);
                    for dst_offset in [0, to_bytes, 3 * to_bytes + 1] {
                        for len in window_lengths().filter(|&l| l <= count - first) {
                            let out = dst.at(dst_offset, bytes_for(to_bits, len));
                            c.convert_to(&src[skip * from_bytes..], len, out);
                            counts[2].fetch_add(1, Ordering::Relaxed);
                            same_elements(out, &reference, first, len, to_bits, &|| {
                                format!(
                                    "{from} -> {to} on {} {options:?}: {len} elements from {first}, output offset {dst_offset}",
                                    c.backend()
                                )
                            });
                        }
                    }
                }
            }
        }
        counts[0].fetch_add(usize::from(any), Ordering::Relaxed);
    });
    let [pairs, kernels, windows] = counts.map(AtomicUsize::into_inner);
    eprintln!(
        "{pairs} pairs with a fast kernel, {kernels} kernels (pair, options, backend), {windows} windows (4 source offsets x 3 output offsets x {} lengths each)",
        window_lengths().count()
    );
}

// ---- f32 into the narrow formats and the integers ------------------------------

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
            let bits = element_size(to).unwrap();
            for i in 0..n {
                assert_eq!(
                    element(&a, bits, i),
                    element(&b, bits, i),
                    "{to} {options:?} input {:#010x}",
                    values[skip + i]
                );
            }
            assert_eq!(a, b, "{to} {options:?}");
        }
    }
}

/// The float targets of f32: every castable float but f32.
fn float_targets() -> Vec<DType> {
    CASTABLE
        .iter()
        .copied()
        .filter(|d| d.is_float() && *d != DType::F32)
        .collect()
}

proptest! {
    #[test]
    fn simd_matches_scalar_on_random_slices(values in prop::collection::vec(any::<u32>(), 0..300), t in 0..64usize, o in 0..12usize) {
        let targets = float_targets();
        compare(targets[t % targets.len()], all_options()[o], &values);
    }
}

/// Every f32 bit pattern into each of `targets`: every backend against the scalar
/// cast, in chunks on two threads. Each chunk of bit patterns is written once and
/// converted into every target.
fn exhaustive(targets: &[DType]) {
    let converters: Vec<(DType, Every, Converter)> = targets
        .iter()
        .map(|&to| {
            let fast = every(DType::F32, to, CastOptions::default()).unwrap();
            let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
            (to, fast, scalar)
        })
        .collect();
    const CHUNK: u64 = 1 << 22;
    let check = |first: u64, step: u64| {
        let (mut src, mut a, mut b, mut mine) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut start = first * CHUNK;
        while start < 1 << 32 {
            src.clear();
            src.extend((start..start + CHUNK).flat_map(|bits| (bits as u32).to_le_bytes()));
            for (to, fast, scalar) in &converters {
                // The buffers keep their pages from chunk to chunk: nothing is zeroed.
                let len = CHUNK as usize * scalar.to_bits() / 8;
                a.resize(len, 0);
                b.resize(len, 0);
                fast.convert_to(&src, CHUNK as usize, &mut a[..len], &mut mine);
                scalar.convert_to(&src, CHUNK as usize, &mut b[..len]);
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
fn every_f32_into_every_integer_of_32_bits_or_fewer_with_a_fast_kernel_is_the_scalar_cast() {
    let integers: Vec<DType> = CASTABLE
        .iter()
        .copied()
        .filter(|&to| {
            (to.is_integer() || to.is_bool())
                && to.bits() <= 32
                && !fast_converters(DType::F32, to, CastOptions::default()).is_empty()
        })
        .collect();
    assert!(integers.contains(&DType::I32), "{integers:?}");
    exhaustive(&integers);
}

#[test]
fn a_byte_format_narrower_than_its_byte_reads_the_low_bits_only() {
    // A 6-bit code lies in the low bits of its byte (as ml_dtypes stores it); the
    // high bits, which no conversion writes, are not part of the value, on every
    // backend: a byte decodes as its code does.
    let narrow: Vec<DType> = CASTABLE
        .iter()
        .copied()
        .filter(|&d| element_size(d) == Some(8) && d.bits() < 8)
        .collect();
    assert!(narrow.contains(&DType::F6E2M3FN) && narrow.contains(&DType::F6E3M2FN));
    let bytes: Vec<u8> = (0..=255).collect();
    for from in narrow {
        let mask = (1u8 << from.bits()) - 1;
        let codes: Vec<u8> = bytes.iter().map(|b| b & mask).collect();
        for to in [DType::F32, DType::F64, DType::F16, DType::I32] {
            for backend in Backend::available() {
                let c = Converter::with_backend(from, to, CastOptions::default(), backend).unwrap();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                c.convert_into(&bytes, 256, &mut a);
                c.convert_into(&codes, 256, &mut b);
                assert_eq!(a, b, "{from} -> {to} on {backend}");
            }
        }
    }
}
