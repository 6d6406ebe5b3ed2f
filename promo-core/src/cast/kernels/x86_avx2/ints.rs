//! Integers: into each other (widened by `vpmovsx` / `vpmovzx`, narrowed by
//! masked unsigned packs that keep the low bits), into f32 and f64, and floats
//! into them with x86 `cvtt` semantics. Each kernel converts blocks of 32 elements
//! and returns how many it did; a large output is written with non-temporal stores.

use super::super::formats::{Int, Lanes, Source};
use super::read::{low_halves, Reader};
use super::{prefetch_block, put, streams};
use core::arch::x86_64::*;

/// The first `to` vectors of `v`: 32 elements of `from` bytes each (in `from`
/// vectors) with their low `to` bytes kept, in element order.
#[inline]
#[target_feature(enable = "avx2")]
fn narrow(mut v: [__m256i; 8], from: usize, to: usize) -> [__m256i; 8] {
    let mut width = from;
    if width == 8 && to < 8 {
        // The even dwords of two vectors; lanes then back in order.
        for i in 0..4 {
            let (a, b) = (_mm256_castsi256_ps(v[2 * i]), _mm256_castsi256_ps(v[2 * i + 1]));
            let even = _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(a, b));
            v[i] = _mm256_permute4x64_epi64::<0b11_01_10_00>(even);
        }
        width = 4;
    }
    if width == 4 && to < 4 {
        let mask = _mm256_set1_epi32(0xffff);
        for i in 0..2 {
            let (a, b) = (
                _mm256_and_si256(v[2 * i], mask),
                _mm256_and_si256(v[2 * i + 1], mask),
            );
            v[i] = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
        }
        width = 2;
    }
    if width == 2 && to < 2 {
        let mask = _mm256_set1_epi16(0xff);
        let (a, b) = (_mm256_and_si256(v[0], mask), _mm256_and_si256(v[1], mask));
        v[0] = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
    }
    v
}

/// `count` (at most 8) vectors at `at`.
///
/// # Safety
/// `32 * count` readable bytes at `at`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn vectors(at: *const u8, count: usize) -> [__m256i; 8] {
    let mut v = [_mm256_setzero_si256(); 8];
    for (k, v) in v.iter_mut().enumerate().take(count) {
        // SAFETY: the caller guarantees `32 * count` readable bytes; `k < count`.
        *v = unsafe { _mm256_loadu_si256((at as *const __m256i).add(k)) };
    }
    v
}

/// The `32 / to × from` bytes at `at` (a 16-, 8- or 4-byte chunk) widened from
/// integers of `S` to integers of `to` bytes: one vector.
///
/// # Safety
/// `32 / to × S::BYTES` readable bytes at `at`; `to > S::BYTES`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen<S: Int>(at: *const u8, to: usize) -> __m256i {
    // SAFETY: the caller guarantees the chunk's bytes are readable; each load reads
    // exactly them, at any alignment.
    let x = unsafe {
        match 32 / to * S::BYTES {
            16 => _mm_loadu_si128(at as *const __m128i),
            8 => _mm_loadl_epi64(at as *const __m128i),
            _ => _mm_cvtsi32_si128((at as *const i32).read_unaligned()),
        }
    };
    let x = if S::BOOL {
        _mm_min_epu8(x, _mm_set1_epi8(1))
    } else {
        x
    };
    match (S::BYTES, to, S::SIGNED) {
        (1, 2, true) => _mm256_cvtepi8_epi16(x),
        (1, 2, false) => _mm256_cvtepu8_epi16(x),
        (1, 4, true) => _mm256_cvtepi8_epi32(x),
        (1, 4, false) => _mm256_cvtepu8_epi32(x),
        (1, _, true) => _mm256_cvtepi8_epi64(x),
        (1, _, false) => _mm256_cvtepu8_epi64(x),
        (2, 4, true) => _mm256_cvtepi16_epi32(x),
        (2, 4, false) => _mm256_cvtepu16_epi32(x),
        (2, _, true) => _mm256_cvtepi16_epi64(x),
        (2, _, false) => _mm256_cvtepu16_epi64(x),
        (_, _, true) => _mm256_cvtepi32_epi64(x),
        _ => _mm256_cvtepu32_epi64(x),
    }
}

/// All ones in the lanes of `S`'s width that are zero.
#[inline]
#[target_feature(enable = "avx2")]
fn is_zero<S: Int>(v: __m256i) -> __m256i {
    let zero = _mm256_setzero_si256();
    match S::BYTES {
        1 => _mm256_cmpeq_epi8(v, zero),
        2 => _mm256_cmpeq_epi16(v, zero),
        4 => _mm256_cmpeq_epi32(v, zero),
        _ => _mm256_cmpeq_epi64(v, zero),
    }
}

/// Converts whole blocks of 32 integers (or bools) of `S` into `T`: sign- or
/// zero-extended, or their low bytes kept; into bool, 1 where nonzero.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn int_to_int<S: Int, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
    let (from, to) = (S::BYTES, T::BYTES);
    let blocks = (src.len() / (32 * from)).min(dst.len() / (32 * to));
    let stream = streams(dst);
    for b in 0..blocks {
        let at = src.as_ptr().wrapping_add(32 * from * b);
        let out = dst.as_mut_ptr().wrapping_add(32 * to * b) as *mut __m256i;
        prefetch_block(at, 32 * from);
        // SAFETY: block `b` (`32 * from` bytes in, `32 * to` out) lies inside both
        // slices, as `blocks` counts only whole blocks of each; the loads take any
        // alignment, the stores too unless `stream` (then `dst` is aligned and so
        // is every block).
        unsafe {
            if T::BOOL {
                // Zero lanes all ones, narrowed to bytes, plus one: 0 or 1.
                let v = vectors(at, from);
                let v = array!(8, |k| is_zero::<S>(v[k]));
                let bytes = narrow(v, from, 1)[0];
                put(out, _mm256_add_epi8(bytes, _mm256_set1_epi8(1)), stream);
            } else if to == from {
                // bool into i8 or u8.
                let v = _mm256_loadu_si256(at as *const __m256i);
                put(out, _mm256_min_epu8(v, _mm256_set1_epi8(1)), stream);
            } else if to > from {
                for k in 0..to {
                    put(out.add(k), widen::<S>(at.add(k * 32 / to * from), to), stream);
                }
            } else {
                let v = narrow(vectors(at, from), from, to);
                for (k, v) in v.into_iter().enumerate().take(to) {
                    put(out.add(k), v, stream);
                }
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Converts whole blocks of 32 integers (or bools) into f32, rounded once to
/// nearest even.
#[target_feature(enable = "avx2,f16c")]
pub(super) unsafe fn to_f32<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let blocks = (src.len() / in_bytes).min(dst.len() / 128);
    let stream = streams(dst);
    let reader = Reader::<S>::new();
    for b in 0..blocks {
        let at = src.as_ptr().wrapping_add(in_bytes * b);
        let out = dst.as_mut_ptr().wrapping_add(128 * b) as *mut __m256i;
        prefetch_block(at, in_bytes);
        // SAFETY: block `b` (`in_bytes` in, 128 bytes out) lies inside both slices,
        // as `blocks` counts only whole blocks of each; the stores are aligned
        // when `stream`.
        unsafe {
            let x = reader.f32s::<false>(at);
            for (k, v) in x.into_iter().enumerate() {
                put(out.add(k), v, stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Converts whole blocks of 32 integers (or bools) into f64, rounded once to
/// nearest even (exact below 2^53).
#[target_feature(enable = "avx2,f16c")]
pub(super) unsafe fn to_f64<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let blocks = (src.len() / in_bytes).min(dst.len() / 256);
    let stream = streams(dst);
    let reader = Reader::<S>::new();
    for b in 0..blocks {
        let at = src.as_ptr().wrapping_add(in_bytes * b);
        let out = dst.as_mut_ptr().wrapping_add(256 * b) as *mut __m256i;
        prefetch_block(at, in_bytes);
        // SAFETY: block `b` (`in_bytes` in, 256 bytes out) lies inside both slices,
        // as `blocks` counts only whole blocks of each; the stores are aligned
        // when `stream`.
        unsafe {
            let x = reader.f64s(at);
            for (k, v) in x.into_iter().enumerate() {
                put(out.add(k), _mm256_castpd_si256(v), stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Eight f32 as i32, as the scalar cast gives them: `cvttps2dq` (truncation;
/// `i32::MIN` out of range and for NaN); into u32, values at or above 2^31 have
/// 2^31 taken off first and put back in the bits; from f16 into u32 (through i64
/// in the scalar cast), ±∞ and NaN give 0.
#[inline]
#[target_feature(enable = "avx2")]
fn f32_to_i32<S: Lanes, T: Int>(bits: __m256i) -> __m256i {
    let x = _mm256_castsi256_ps(bits);
    let mut v = _mm256_cvttps_epi32(x);
    if T::U32 {
        let two_31 = _mm256_set1_ps(2147483648.0);
        let high = _mm256_cmp_ps::<_CMP_GE_OQ>(x, two_31);
        let shifted = _mm256_xor_si256(
            _mm256_cvttps_epi32(_mm256_sub_ps(x, two_31)),
            _mm256_set1_epi32(i32::MIN),
        );
        v = _mm256_blendv_epi8(v, shifted, _mm256_castps_si256(high));
        if matches!(S::SOURCE, Source::F16) {
            let exp = _mm256_set1_epi32(0x7f80_0000);
            let non_finite = _mm256_cmpeq_epi32(_mm256_and_si256(bits, exp), exp);
            v = _mm256_andnot_si256(non_finite, v);
        }
    }
    v
}

/// Four f64 as i32 (`cvttpd2dq`), with [`f32_to_i32`]'s rule for u32.
#[inline]
#[target_feature(enable = "avx2")]
fn f64_to_i32<T: Int>(x: __m256d) -> __m128i {
    if !T::U32 {
        return _mm256_cvttpd_epi32(x);
    }
    let two_31 = _mm256_set1_pd(2147483648.0);
    let high = _mm256_cmp_pd::<_CMP_GE_OQ>(x, two_31);
    let y = _mm256_blendv_pd(x, _mm256_sub_pd(x, two_31), high);
    let flip = _mm_and_si128(low_halves(_mm256_castpd_si256(high)), _mm_set1_epi32(i32::MIN));
    _mm_xor_si128(_mm256_cvttpd_epi32(y), flip)
}

/// Four f64 as i64, as x86 `cvttsd2si` gives them: truncation, `i64::MIN` at or
/// past 2^63 in magnitude and for NaN. AVX2 has no such instruction: the
/// mantissa, its hidden bit set, is shifted by the exponent (shifts of 64 or more
/// give 0, so zero and the subnormals come out 0), then negated by the sign.
#[inline]
#[target_feature(enable = "avx2")]
fn cvtt64(x: __m256d) -> __m256i {
    let bits = _mm256_castpd_si256(x);
    let biased = _mm256_and_si256(_mm256_srli_epi64::<52>(bits), _mm256_set1_epi64x(0x7ff));
    let mantissa = _mm256_or_si256(
        _mm256_and_si256(bits, _mm256_set1_epi64x((1 << 52) - 1)),
        _mm256_set1_epi64x(1 << 52),
    );
    // 2^(biased − 1075) × mantissa: a left shift by biased − 1075, or a right
    // shift by 1075 − biased; the negative count of the other is huge, giving 0.
    let up = _mm256_sllv_epi64(mantissa, _mm256_sub_epi64(biased, _mm256_set1_epi64x(1075)));
    let down = _mm256_srlv_epi64(mantissa, _mm256_sub_epi64(_mm256_set1_epi64x(1075), biased));
    let magnitude = _mm256_or_si256(up, down);
    let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), bits);
    let v = _mm256_sub_epi64(_mm256_xor_si256(magnitude, negative), negative);
    let out = _mm256_cmpgt_epi64(biased, _mm256_set1_epi64x(1023 + 62));
    _mm256_blendv_epi8(v, _mm256_set1_epi64x(i64::MIN), out)
}

/// Four f64 as i64 or u64 (`T`), as the scalar cast gives them: [`cvtt64`]; into
/// u64, values at or above 2^63 have 2^63 taken off first and put back in the bits.
#[inline]
#[target_feature(enable = "avx2")]
fn f64_to_i64<T: Int>(x: __m256d) -> __m256i {
    if T::SIGNED {
        return cvtt64(x);
    }
    let two_63 = _mm256_set1_pd(9223372036854775808.0);
    let high = _mm256_cmp_pd::<_CMP_GE_OQ>(x, two_63);
    let y = _mm256_blendv_pd(x, _mm256_sub_pd(x, two_63), high);
    let flip = _mm256_and_si256(_mm256_castpd_si256(high), _mm256_set1_epi64x(i64::MIN));
    _mm256_xor_si256(cvtt64(y), flip)
}

/// Converts whole blocks of 32 floats into an integer type, as the scalar cast
/// gives them (see [`FloatToInt`](crate::cast::FloatToInt)): every source but
/// f64 is widened to f32 exactly, and 64-bit targets go through f64.
#[target_feature(enable = "avx2,f16c")]
pub(super) unsafe fn to_int<S: Lanes, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let to = T::BYTES;
    let blocks = (src.len() / in_bytes).min(dst.len() / (32 * to));
    let stream = streams(dst);
    let reader = Reader::<S>::new();
    for b in 0..blocks {
        let at = src.as_ptr().wrapping_add(in_bytes * b);
        let out = dst.as_mut_ptr().wrapping_add(32 * to * b) as *mut __m256i;
        prefetch_block(at, in_bytes);
        // SAFETY: block `b` (`in_bytes` in, `32 * to` bytes out) lies inside both
        // slices, as `blocks` counts only whole blocks of each; the stores are
        // aligned when `stream`.
        unsafe {
            let v = if to == 8 {
                let d = reader.f64s(at);
                array!(8, |k| f64_to_i64::<T>(d[k]))
            } else {
                let i: [__m256i; 4] = if matches!(S::SOURCE, Source::F64) {
                    let d = reader.f64s(at);
                    array!(4, |k| {
                        _mm256_set_m128i(f64_to_i32::<T>(d[2 * k + 1]), f64_to_i32::<T>(d[2 * k]))
                    })
                } else {
                    let x = reader.f32s::<false>(at);
                    array!(4, |k| f32_to_i32::<S, T>(x[k]))
                };
                narrow([i[0], i[1], i[2], i[3], i[0], i[0], i[0], i[0]], 4, to)
            };
            for (k, v) in v.into_iter().enumerate().take(to) {
                put(out.add(k), v, stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}
