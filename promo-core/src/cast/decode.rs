//! Narrow formats, f16 and bf16 into f32: the conversions every kernel that reads
//! quantised weights runs. Each is exact (f32 holds every value of these formats),
//! so each fast path is a different way to compute the scalar cast's bits:
//!
//! | source | kernel |
//! | --- | --- |
//! | a float8 format | with AVX2, 8 at a time by arithmetic (shift and rebias; subnormals converted and scaled); without, a 256-entry table of the scalar cast's results |
//! | a 4-bit format (f4e2m1, i4, u4), two per byte | a 16-entry table, two outputs per byte |
//! | bf16 | the 16 bits shifted into the top of an f32 (a NaN made the quiet NaN of its sign, as the scalar cast does), 8 at a time with AVX2 |
//! | f8e8m0 | the scalar cast (a shift of the exponent; faster than a table) |
//! | f16 | F16C's `vcvtph2ps` where the CPU has it, else the scalar cast |
//!
//! The tables are filled from the scalar cast itself on first use, so they agree
//! with it by construction; the tests compare every kernel with the scalar cast on
//! every input.

use super::buffer::{Kernel, Raw};
use super::values::{CastSource, CastTarget};
use super::CastOptions;
use crate::DType;
use std::sync::OnceLock;

/// A float8 format: decoded by arithmetic with AVX2, through a 256-entry table
/// without it.
pub(super) trait ByteTable: Raw + CastSource {
    /// Mantissa bits.
    const MANTISSA: u32;
    /// Exponent bias.
    const BIAS: i32;
    /// Where the format keeps its special values: [`FINITE`] (S.1111.111 is NaN),
    /// [`IEEE`] (all-ones exponent: ±inf, NaN) or [`FNUZ`] (0x80 is NaN, no −0).
    const SPECIALS: u8;
    /// The format's table, filled on first use.
    fn table() -> &'static OnceLock<[u32; 256]>;
}

/// [`ByteTable::SPECIALS`]: NaN is S.1111.111, no infinities (E4M3FN).
pub(super) const FINITE: u8 = 0;
/// [`ByteTable::SPECIALS`]: an all-ones exponent is ±inf or NaN (E5M2).
pub(super) const IEEE: u8 = 1;
/// [`ByteTable::SPECIALS`]: 0x80 is the only NaN, no −0 and no infinities.
pub(super) const FNUZ: u8 = 2;

/// A source format of two elements per byte, decoded through a 16-entry table.
pub(super) trait NibbleTable: Raw + CastSource {
    /// The format's table, filled on first use.
    fn table() -> &'static OnceLock<[u32; 16]>;
}

macro_rules! tables {
    (bytes: $($b:ty = $m:expr, $bias:expr, $sp:expr),*; nibbles: $($n:ty),*) => {
        $(impl ByteTable for $b {
            const MANTISSA: u32 = $m;
            const BIAS: i32 = $bias;
            const SPECIALS: u8 = $sp;
            fn table() -> &'static OnceLock<[u32; 256]> {
                static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
                &TABLE
            }
        })*
        $(impl NibbleTable for $n {
            fn table() -> &'static OnceLock<[u32; 16]> {
                static TABLE: OnceLock<[u32; 16]> = OnceLock::new();
                &TABLE
            }
        })*
    };
}

use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, i4, u4};
tables!(
    bytes: f8e4m3fn = 3, 7, FINITE, f8e4m3fnuz = 3, 8, FNUZ, f8e5m2 = 2, 15, IEEE, f8e5m2fnuz = 2, 16, FNUZ;
    nibbles: f4e2m1, i4, u4
);

/// The fast kernel into f32 from `from`, if there is one.
pub(super) fn to_f32_kernel(from: DType) -> Option<Kernel> {
    Some(match from {
        DType::F8E4M3FN => bytes_to_f32::<f8e4m3fn> as Kernel,
        DType::F8E4M3FNUZ => bytes_to_f32::<f8e4m3fnuz>,
        DType::F8E5M2 => bytes_to_f32::<f8e5m2>,
        DType::F8E5M2FNUZ => bytes_to_f32::<f8e5m2fnuz>,
        DType::F4E2M1 => nibbles_to_f32::<f4e2m1>,
        DType::I4 => nibbles_to_f32::<i4>,
        DType::U4 => nibbles_to_f32::<u4>,
        DType::BF16 => bf16_to_f32,
        DType::F16 => f16_to_f32,
        _ => return None,
    })
}

/// The scalar cast of one source element to f32, as bits.
fn scalar_bits<S: Raw + CastSource>(bytes: &[u8], i: usize) -> u32 {
    <f32 as CastTarget>::from_value(S::read(bytes, i).value(), &CastOptions::default()).to_bits()
}

/// `S` (one byte per element) into f32: 8 at a time by arithmetic with AVX2 where
/// the CPU has it (chosen once per call), else through its table one by one.
pub(super) fn bytes_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let table = S::table().get_or_init(|| std::array::from_fn(|b| scalar_bits::<S>(&[b as u8], 0)));
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above); the function stays inside
            // the slices it is given.
            done = unsafe { x86::float8_to_f32::<S>(&src[..count], &mut dst[..count * 4]) };
        }
    }
    bytes_to_f32_portable(table, &src[done..count], &mut dst[done * 4..count * 4]);
}

/// The table lookups one by one: the path every CPU has.
fn bytes_to_f32_portable(table: &[u32; 256], src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.iter().zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&table[*s as usize].to_le_bytes());
    }
}

/// `S` (two elements per byte, the first in the low nibble) into f32.
pub(super) fn nibbles_to_f32<S: NibbleTable>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let table = S::table().get_or_init(|| std::array::from_fn(|n| scalar_bits::<S>(&[n as u8], 0)));
    let pairs = count / 2;
    for (s, d) in src[..pairs].iter().zip(dst[..pairs * 8].chunks_exact_mut(8)) {
        d[..4].copy_from_slice(&table[(*s & 0xf) as usize].to_le_bytes());
        d[4..].copy_from_slice(&table[(*s >> 4) as usize].to_le_bytes());
    }
    if count % 2 == 1 {
        let last = table[(src[pairs] & 0xf) as usize];
        dst[pairs * 8..pairs * 8 + 4].copy_from_slice(&last.to_le_bytes());
    }
}

/// bf16 into f32: the bits, shifted up (exact); a NaN is the quiet NaN of its sign.
/// AVX2 where the CPU has it (chosen once per call), else [`bf16_to_f32_portable`].
pub(super) fn bf16_to_f32(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above); the function stays inside
            // the two slices it is given.
            done = unsafe { x86::bf16_to_f32(&src[..count * 2], &mut dst[..count * 4]) };
        }
    }
    bf16_to_f32_portable(&src[done * 2..], &mut dst[done * 4..], count - done, options);
}

/// [`bf16_to_f32`] without SIMD: the path every CPU has, tested on every input.
pub(super) fn bf16_to_f32_portable(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    for (s, d) in src[..count * 2]
        .chunks_exact(2)
        .zip(dst[..count * 4].chunks_exact_mut(4))
    {
        let h = u16::from_le_bytes([s[0], s[1]]) as u32;
        // A NaN becomes the quiet NaN of its sign, as the scalar cast gives.
        let bits = if h & 0x7fff > 0x7f80 {
            (h & 0x8000) << 16 | 0x7fc0_0000
        } else {
            h << 16
        };
        d.copy_from_slice(&bits.to_le_bytes());
    }
}

/// f16 into f32: F16C where the CPU has it (chosen once per call), else the scalar
/// cast.
pub(super) fn f16_to_f32(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("f16c") && std::is_x86_feature_detected!("avx") {
            // SAFETY: the CPU has F16C and AVX (checked just above); the function reads
            // `count * 2` bytes of `src` and writes `count * 4` of `dst`, which the
            // slicing below guarantees exist.
            done = unsafe { x86::f16_to_f32(&src[..count * 2], &mut dst[..count * 4]) };
        }
    }
    super::buffer::kernel::<half::f16, f32>(&src[done * 2..], &mut dst[done * 4..], count - done, options);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// The constants of one float8 format's decoding.
    struct Float8 {
        shift: __m256i,
        rebias: __m256i,
        scale: __m256,
        first_normal: __m256i,
        ieee_infinity: __m256i,
    }

    /// Decodes 8 float8 codes (one per 32-bit lane). A normal value is its bits
    /// shifted into place plus the change of bias; a subnormal (zero included) is
    /// its integer mantissa converted and scaled by 2^(1 − bias − mantissa bits),
    /// exact and on normal operands only; NaN is the quiet NaN of its sign and
    /// E5M2's infinities are f32's, as the scalar cast gives.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn decode8<S: super::ByteTable>(x: __m256i, f: &Float8) -> __m256i {
        let sign = _mm256_slli_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x80)), 24);
        let mag = _mm256_and_si256(x, _mm256_set1_epi32(0x7f));
        let normal = _mm256_add_epi32(_mm256_sllv_epi32(mag, f.shift), f.rebias);
        let subnormal = _mm256_castps_si256(_mm256_mul_ps(_mm256_cvtepi32_ps(mag), f.scale));
        let mut out = _mm256_blendv_epi8(normal, subnormal, _mm256_cmpgt_epi32(f.first_normal, mag));
        let nan = match S::SPECIALS {
            super::FINITE => _mm256_cmpeq_epi32(mag, _mm256_set1_epi32(0x7f)),
            super::IEEE => {
                let inf = _mm256_cmpeq_epi32(mag, f.ieee_infinity);
                out = _mm256_blendv_epi8(out, _mm256_set1_epi32(0x7f80_0000), inf);
                _mm256_cmpgt_epi32(mag, f.ieee_infinity)
            }
            _ => _mm256_cmpeq_epi32(x, _mm256_set1_epi32(0x80)),
        };
        _mm256_or_si256(_mm256_blendv_epi8(out, _mm256_set1_epi32(0x7fc0_0000), nan), sign)
    }

    /// Decodes whole blocks of 32 float8 bytes ([`decode8`] four times per block),
    /// returning how many elements it did.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn float8_to_f32<S: super::ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
        let blocks = (src.len() / 32).min(dst.len() / 128);
        let m = S::MANTISSA as i32;
        let f = Float8 {
            shift: _mm256_set1_epi32(23 - m),
            rebias: _mm256_set1_epi32((127 - S::BIAS) << 23),
            scale: _mm256_set1_ps(f32::from_bits(((128 - S::BIAS - m) as u32) << 23)),
            first_normal: _mm256_set1_epi32(1 << m),
            ieee_infinity: _mm256_set1_epi32(0x7f ^ ((1 << m) - 1)),
        };
        for b in 0..blocks {
            // SAFETY: block `b` (32 input bytes, 128 output bytes) lies inside both
            // slices, as `blocks` counts only whole blocks of each; unaligned access.
            unsafe {
                let v = _mm256_loadu_si256(src.as_ptr().add(b * 32) as *const __m256i);
                let (lo, hi) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
                let out = dst.as_mut_ptr().add(b * 128) as *mut __m256i;
                for (i, bytes) in [lo, _mm_srli_si128::<8>(lo), hi, _mm_srli_si128::<8>(hi)]
                    .into_iter()
                    .enumerate()
                {
                    _mm256_storeu_si256(out.add(i), decode8::<S>(_mm256_cvtepu8_epi32(bytes), &f));
                }
            }
        }
        blocks * 32
    }

    /// Converts whole blocks of 8 bf16 values (shifted up, NaNs made the quiet NaN
    /// of their sign), returning how many elements it did.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        let blocks = (src.len() / 16).min(dst.len() / 32);
        let magnitude = _mm256_set1_epi32(0x7fff_0000);
        let infinity = _mm256_set1_epi32(0x7f80_0000);
        let sign = _mm256_set1_epi32(i32::MIN);
        let quiet_nan = _mm256_set1_epi32(0x7fc0_0000);
        for b in 0..blocks {
            // SAFETY: block `b` (16 input bytes, 32 output bytes) lies inside both
            // slices, as `blocks` counts only whole blocks of each; unaligned access.
            unsafe {
                let h = _mm_loadu_si128(src.as_ptr().add(b * 16) as *const __m128i);
                let f = _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16);
                // |f| > infinity, as signed integers (both are non-negative).
                let nan = _mm256_cmpgt_epi32(_mm256_and_si256(f, magnitude), infinity);
                let canonical = _mm256_or_si256(_mm256_and_si256(f, sign), quiet_nan);
                let out = _mm256_blendv_epi8(f, canonical, nan);
                _mm256_storeu_si256(dst.as_mut_ptr().add(b * 32) as *mut __m256i, out);
            }
        }
        blocks * 8
    }

    /// Converts whole blocks of 8 f16 values with `vcvtph2ps`, returning how many
    /// elements it did.
    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        let blocks = (src.len() / 16).min(dst.len() / 32);
        for b in 0..blocks {
            // SAFETY: block `b` (16 input bytes, 32 output bytes) lies inside both
            // slices, as `blocks` counts only whole blocks of each; the loads and
            // stores are unaligned.
            unsafe {
                let h = _mm_loadu_si128(src.as_ptr().add(b * 16) as *const __m128i);
                _mm256_storeu_ps(dst.as_mut_ptr().add(b * 32) as *mut f32, _mm256_cvtph_ps(h));
            }
        }
        blocks * 8
    }
}

#[cfg(test)]
mod tests {
    use crate::cast::{CastOptions, Converter};
    use crate::DType;

    /// The fast kernel's bytes equal the scalar kernel's on `src` for every length
    /// up to `src`'s and at every starting offset below 5.
    fn agree(from: DType, src: &[u8], elements: usize) {
        let fast = Converter::new(from, DType::F32, CastOptions::default()).unwrap();
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
        // The portable lookup, which a CPU without AVX2 runs, on every byte.
        let table = std::array::from_fn(|b| (b as u32).wrapping_mul(0x0101_0101));
        let mut out = vec![0u8; 256 * 4];
        super::bytes_to_f32_portable(&table, &bytes, &mut out);
        assert!(out
            .chunks(4)
            .enumerate()
            .all(|(b, o)| o == table[b].to_le_bytes()));
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
        // The portable bf16 path, which a CPU without AVX2 runs, on every input.
        let mut portable = vec![0u8; 65536 * 4];
        super::bf16_to_f32_portable(&words, &mut portable, 65536, &CastOptions::default());
        let mut scalar = Vec::new();
        Converter::scalar(DType::BF16, DType::F32, CastOptions::default())
            .unwrap()
            .convert_into(&words, 65536, &mut scalar);
        assert!(
            portable == scalar,
            "portable bf16 decode differs from the scalar cast"
        );
    }
}
