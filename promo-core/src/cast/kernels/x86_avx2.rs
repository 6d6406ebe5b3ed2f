//! The AVX2 and F16C kernels: each converts whole blocks of a slice inside one
//! `#[target_feature]` function and returns how many elements it did; the caller
//! (`kernels`) finishes the tail. They compute exactly what the scalar cast
//! computes: the tests in `kernels` compare them with it on every input of every 8-
//! and 16-bit format and on edge, random and odd-length f32 inputs, and
//! `tests/cast_exhaustive.rs` checks every f32 input against the ONNX reference.

#![allow(clippy::missing_safety_doc)]

use super::{ByteTable, IntTarget, Target, FINITE, IEEE};
use crate::narrow::NonFinite;
use core::arch::x86_64::*;

// ---- encode: f32 into the narrow formats -------------------------------------

/// Elements per loop step.
const STEP: usize = 32;

/// The codes of eight f32 lanes in format `T`, one per i32 lane.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn encode<T: Target>(x: __m256i, saturate: bool) -> __m256i {
    let s = T::SPEC;
    let (m, bias) = (s.man_bits as i32, s.bias);
    // The format's codes, as constants of the instantiation.
    let max_code = const { T::SPEC.max_code() } as i32;
    let sign_bit = const { T::SPEC.sign_bit() } as i32;
    let inf_code = const {
        match T::SPEC.inf_code() {
            Some(code) => Some(code as i32),
            None => None,
        }
    };
    let shift = _mm_cvtsi32_si128(23 - m);
    let a = _mm256_and_si256(x, _mm256_set1_epi32(0x7fff_ffff));
    let negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), x);
    let sign = _mm256_and_si256(negative, _mm256_set1_epi32(sign_bit));

    // Normal result: round the significand in place, ties to even, rebias.
    let lowest = _mm256_and_si256(_mm256_srl_epi32(a, shift), _mm256_set1_epi32(1));
    let rounded = _mm256_add_epi32(
        _mm256_add_epi32(a, _mm256_set1_epi32((1 << (22 - m)) - 1)),
        lowest,
    );
    let normal = _mm256_sub_epi32(
        _mm256_srl_epi32(rounded, shift),
        _mm256_set1_epi32((127 - bias) << m),
    );
    // Subnormal result: the FPU rounds `a + magic`, whose last place is the
    // target's smallest subnormal 2^(1 - bias - m).
    let magic = _mm256_set1_epi32((128 - bias - m + 23) << 23);
    let sum = _mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(magic));
    let subnormal = _mm256_sub_epi32(_mm256_castps_si256(sum), magic);
    let is_subnormal = _mm256_cmpgt_epi32(_mm256_set1_epi32((128 - bias) << 23), a);
    let code = _mm256_blendv_epi8(normal, subnormal, is_subnormal);

    // Zero keeps its sign, except in the FNUZ formats (no −0).
    let sign = if s.non_finite == NonFinite::NanNegativeZero {
        _mm256_andnot_si256(_mm256_cmpeq_epi32(code, _mm256_setzero_si256()), sign)
    } else {
        sign
    };
    let mut out = _mm256_or_si256(code, sign);

    // Overflow (±∞ included: it rounds past every format's max).
    let max = _mm256_set1_epi32(max_code);
    let over = _mm256_cmpgt_epi32(code, max);
    let overflow = match (saturate, s.non_finite, inf_code) {
        (true, _, _) | (_, NonFinite::None, _) => _mm256_or_si256(max, sign),
        (false, _, Some(inf)) => _mm256_or_si256(_mm256_set1_epi32(inf), sign),
        (false, NonFinite::NanNegativeZero, _) => _mm256_set1_epi32(s.nan.0 as i32),
        (false, _, None) => _mm256_or_si256(_mm256_set1_epi32(s.nan.0 as i32), sign),
    };
    out = _mm256_blendv_epi8(out, overflow, over);

    // NaN.
    let is_nan = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7f80_0000));
    let nan = if T::NAN_PAYLOAD {
        // The payload's top bits, made nonzero, under an all-ones exponent.
        let payload = _mm256_srl_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0x7f_ffff)), shift);
        let payload = _mm256_max_epi32(payload, _mm256_set1_epi32(1));
        let inf = _mm256_set1_epi32(inf_code.unwrap_or(0));
        _mm256_or_si256(_mm256_or_si256(inf, payload), sign)
    } else {
        let (pos, neg) = (
            _mm256_set1_epi32(s.nan.0 as i32),
            _mm256_set1_epi32(s.nan.1 as i32),
        );
        _mm256_blendv_epi8(pos, neg, negative)
    };
    _mm256_blendv_epi8(out, nan, is_nan)
}

/// 32 f32 inputs at `src`.
///
/// # Safety
/// AVX2, and 128 readable bytes at `src`.
#[inline(always)]
unsafe fn load(src: *const u8) -> [__m256i; 4] {
    let at = src as *const __m256i;
    // SAFETY: the caller guarantees 128 readable bytes, four vectors; `loadu`
    // takes any alignment.
    unsafe {
        [
            _mm256_loadu_si256(at),
            _mm256_loadu_si256(at.add(1)),
            _mm256_loadu_si256(at.add(2)),
            _mm256_loadu_si256(at.add(3)),
        ]
    }
}

/// Stores the low bytes of four vectors of i32 codes (each in 0..=255) as 32
/// bytes in element order.
///
/// # Safety
/// AVX2, and 32 writable bytes at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_bytes(v: [__m256i; 4], dst: *mut u8) {
    let bytes = pack_bytes(v);
    // SAFETY: the caller guarantees 32 writable bytes; `storeu` takes any alignment.
    unsafe { _mm256_storeu_si256(dst as *mut __m256i, bytes) }
}

/// The low bytes of four vectors of i32 codes, in element order.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn pack_bytes(v: [__m256i; 4]) -> __m256i {
    // Per 128-bit half: [v0 v1] and [v2 v3] as u16, then all four as u8; the
    // halves interleave dword by dword, which the permutation undoes.
    let words01 = _mm256_packus_epi32(v[0], v[1]);
    let words23 = _mm256_packus_epi32(v[2], v[3]);
    let bytes = _mm256_packus_epi16(words01, words23);
    _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
}

/// Converts whole steps of 32 f32 inputs; returns how many it converted.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn f32_to<T: Target>(src: &[u8], dst: &mut [u8], count: usize, saturate: bool) -> usize {
    let bits = const { T::SPEC.bits() } as usize;
    let steps = count.min(src.len() / 4).min(dst.len() * 8 / bits) / STEP;
    for step in 0..steps {
        let i = step * STEP;
        // SAFETY: `i + 32 <= count <= src.len() / 4`, so 128 bytes are readable.
        let x = unsafe { load(src.as_ptr().add(4 * i)) };
        let codes = [
            encode::<T>(x[0], saturate),
            encode::<T>(x[1], saturate),
            encode::<T>(x[2], saturate),
            encode::<T>(x[3], saturate),
        ];
        match bits {
            8 => {
                // SAFETY: `i + 32 <= dst.len()`: 32 writable bytes.
                unsafe { store_bytes(codes, dst.as_mut_ptr().add(i)) }
            }
            16 => {
                // Per 128-bit half [v0 v1] as u16, then the halves put in order.
                for (k, pair) in [[codes[0], codes[1]], [codes[2], codes[3]]].iter().enumerate() {
                    let words = _mm256_packus_epi32(pair[0], pair[1]);
                    let words = _mm256_permute4x64_epi64::<0b11_01_10_00>(words);
                    // SAFETY: `2 * (i + 32) <= dst.len()`: 32 writable bytes at `2i + 32k`.
                    unsafe {
                        _mm256_storeu_si256(dst.as_mut_ptr().add(2 * i + 32 * k) as *mut __m256i, words)
                    }
                }
            }
            _ => {
                // Two 4-bit codes per byte, element 0 in the low nibble.
                let bytes = pack_bytes(codes);
                let pairs = _mm256_or_si256(bytes, _mm256_srli_epi16::<4>(bytes));
                let low = _mm256_and_si256(pairs, _mm256_set1_epi16(0xff));
                let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(low, low));
                // SAFETY: `(i + 32) / 2 <= dst.len()`: 16 writable bytes at `i / 2`.
                unsafe {
                    _mm_storeu_si128(
                        dst.as_mut_ptr().add(i / 2) as *mut __m128i,
                        _mm256_castsi256_si128(packed),
                    )
                }
            }
        }
    }
    steps * STEP
}

/// All ones in the lanes of `v` that are not zero.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn nonzero(v: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_cmpeq_epi32(v, _mm256_setzero_si256()),
        _mm256_set1_epi32(-1),
    )
}

/// f8e8m0 codes of eight f32 lanes (see [`crate::narrow::f8e8m0::from_f32`]);
/// `MODE` 0 up, 1 down, 2 nearest.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn encode_e8m0<const MODE: u8>(x: __m256i, saturate: bool) -> __m256i {
    let exp = _mm256_and_si256(_mm256_srli_epi32::<23>(x), _mm256_set1_epi32(0xff));
    let man = _mm256_and_si256(x, _mm256_set1_epi32(0x7f_ffff));
    let zero = _mm256_setzero_si256();
    let bump = match MODE {
        0 => nonzero(man),
        1 => zero,
        _ => {
            let half = nonzero(_mm256_and_si256(man, _mm256_set1_epi32(0x40_0000)));
            let below = nonzero(_mm256_and_si256(man, _mm256_set1_epi32(0x3f_ffff)));
            let normal = _mm256_cmpgt_epi32(exp, zero);
            _mm256_and_si256(half, _mm256_or_si256(below, normal))
        }
    };
    // `bump` is −1 where it applies.
    let code = _mm256_sub_epi32(exp, bump);
    let top = _mm256_set1_epi32(0xff);
    let bumped_out = _mm256_cmpeq_epi32(code, top);
    let capped = _mm256_blendv_epi8(
        code,
        _mm256_set1_epi32(if saturate { 0xfe } else { 0xff }),
        bumped_out,
    );
    _mm256_blendv_epi8(capped, top, _mm256_cmpeq_epi32(exp, top))
}

/// [`f32_to`] for f8e8m0.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn f32_to_e8m0<const MODE: u8>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    saturate: bool,
) -> usize {
    let steps = count.min(src.len() / 4).min(dst.len()) / STEP;
    for step in 0..steps {
        let i = step * STEP;
        // SAFETY: `i + 32 <= src.len() / 4`: 128 readable bytes.
        let x = unsafe { load(src.as_ptr().add(4 * i)) };
        let codes = [
            encode_e8m0::<MODE>(x[0], saturate),
            encode_e8m0::<MODE>(x[1], saturate),
            encode_e8m0::<MODE>(x[2], saturate),
            encode_e8m0::<MODE>(x[3], saturate),
        ];
        // SAFETY: `i + 32 <= dst.len()`: 32 writable bytes.
        unsafe { store_bytes(codes, dst.as_mut_ptr().add(i)) }
    }
    steps * STEP
}

// ---- decode: into f32 ---------------------------------------------------------

/// Puts the dwords of 32 loaded bytes in the order [`store_top16`] undoes: its
/// unpacks work inside 128-bit halves, so half 0 must hold elements 0–3, 8–11,
/// 16–19, 24–27 and half 1 the others.
#[inline]
#[target_feature(enable = "avx2")]
fn spread(v: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))
}

/// Stores 32 f32 values whose low 16 bits are zero, given their bits 31..24 (`b3`)
/// and 23..16 (`b2`) as bytes in [`spread`] order: 128 bytes at `dst`.
///
/// # Safety
/// 128 writable bytes at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_top16(b3: __m256i, b2: __m256i, dst: *mut u8) {
    let zero = _mm256_setzero_si256();
    let (lo, hi) = (_mm256_unpacklo_epi8(b2, b3), _mm256_unpackhi_epi8(b2, b3));
    let out = dst as *mut __m256i;
    // SAFETY: the caller guarantees 128 writable bytes, four vectors; `storeu`
    // takes any alignment.
    unsafe {
        _mm256_storeu_si256(out, _mm256_unpacklo_epi16(zero, lo));
        _mm256_storeu_si256(out.add(1), _mm256_unpackhi_epi16(zero, lo));
        _mm256_storeu_si256(out.add(2), _mm256_unpacklo_epi16(zero, hi));
        _mm256_storeu_si256(out.add(3), _mm256_unpackhi_epi16(zero, hi));
    }
}

/// A 16-entry byte table in both halves of a vector, for `vpshufb`.
#[inline]
#[target_feature(enable = "avx2")]
fn table16(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; `loadu` takes any alignment.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) })
}

/// The tables of [`Float8Tables`](super::Float8Tables) in vectors.
struct Float8Vectors {
    a3: __m256i,
    b3: __m256i,
    b2: __m256i,
    s3: __m256i,
    s2: __m256i,
}

/// Bytes 3 and 2 of the f32 values of 32 float8 codes (in [`spread`] order): two
/// 16-entry lookups by nibble for a normal code, two more for a subnormal one (the
/// exponent field zero), then the format's NaN and infinity.
#[inline]
#[target_feature(enable = "avx2")]
fn float8_top16<S: ByteTable>(v: __m256i, t: &Float8Vectors) -> (__m256i, __m256i) {
    let nibble = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(v, nibble);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
    let exp_field = _mm256_set1_epi8(S::TABLES.exp_field as i8);
    let subnormal = _mm256_cmpeq_epi8(_mm256_and_si256(v, exp_field), _mm256_setzero_si256());
    let low3 = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(t.b3, lo),
        _mm256_shuffle_epi8(t.s3, lo),
        subnormal,
    );
    let mut b3 = _mm256_add_epi8(_mm256_shuffle_epi8(t.a3, hi), low3);
    let mut b2 = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(t.b2, lo),
        _mm256_shuffle_epi8(t.s2, lo),
        subnormal,
    );
    let magnitude = _mm256_and_si256(v, _mm256_set1_epi8(0x7f));
    let flip = |nan: __m256i, b3: __m256i, b2: __m256i| {
        (
            _mm256_xor_si256(
                b3,
                _mm256_and_si256(nan, _mm256_set1_epi8(S::TABLES.nan_flip.0 as i8)),
            ),
            _mm256_xor_si256(
                b2,
                _mm256_and_si256(nan, _mm256_set1_epi8(S::TABLES.nan_flip.1 as i8)),
            ),
        )
    };
    match S::SPECIALS {
        // S.1111.111: the quiet NaN of its sign (bits flipped from the normal path's).
        FINITE => (b3, b2) = flip(_mm256_cmpeq_epi8(magnitude, _mm256_set1_epi8(0x7f)), b3, b2),
        IEEE => {
            // All-ones exponent: ±infinity, or the quiet NaN of its sign.
            let top = _mm256_cmpeq_epi8(_mm256_and_si256(v, exp_field), exp_field);
            b3 = _mm256_or_si256(b3, _mm256_and_si256(top, _mm256_set1_epi8(0x7f)));
            let nan = _mm256_cmpgt_epi8(magnitude, exp_field);
            b2 = _mm256_blendv_epi8(b2, _mm256_set1_epi8(0xc0u8 as i8), nan);
        }
        // 0x80, the subnormal path's −0, is the only NaN.
        _ => (b3, b2) = flip(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x80u8 as i8)), b3, b2),
    }
    (b3, b2)
}

/// Decodes whole blocks of 32 float8 bytes, returning how many elements it did.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn float8_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 32).min(dst.len() / 128);
    let t = &S::TABLES;
    let t = Float8Vectors {
        a3: table16(&t.a3),
        b3: table16(&t.b3),
        b2: table16(&t.b2),
        s3: table16(&t.s3),
        s2: table16(&t.s2),
    };
    for b in 0..blocks {
        // SAFETY: block `b` (32 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access.
        unsafe {
            let v = spread(_mm256_loadu_si256(src.as_ptr().add(b * 32) as *const __m256i));
            let (b3, b2) = float8_top16::<S>(v, &t);
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128));
        }
    }
    blocks * 32
}

/// Decodes whole blocks of 32 f8e8m0 codes: 2^(code − 127) is the code shifted into
/// the exponent field; code 0 (2^−127) is the subnormal 0x0040_0000 and 0xff the
/// quiet NaN.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn e8m0_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 32).min(dst.len() / 128);
    for b in 0..blocks {
        // SAFETY: block `b` (32 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access.
        unsafe {
            let v = spread(_mm256_loadu_si256(src.as_ptr().add(b * 32) as *const __m256i));
            let b3 = _mm256_and_si256(_mm256_srli_epi16::<1>(v), _mm256_set1_epi8(0x7f));
            let low = _mm256_and_si256(_mm256_slli_epi16::<7>(v), _mm256_set1_epi8(0x80u8 as i8));
            let edge = _mm256_or_si256(
                _mm256_cmpeq_epi8(v, _mm256_setzero_si256()),
                _mm256_cmpeq_epi8(v, _mm256_set1_epi8(-1)),
            );
            let b2 = _mm256_or_si256(low, _mm256_and_si256(edge, _mm256_set1_epi8(0x40)));
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128));
        }
    }
    blocks * 32
}

/// Decodes whole blocks of 16 bytes of a nibble format (32 elements, low nibble
/// first) through 16-entry tables of its results' bytes 3 (`t3`) and 2 (`t2`).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn nibbles_to_f32(src: &[u8], dst: &mut [u8], t3: &[u8; 16], t2: &[u8; 16]) -> usize {
    let blocks = (src.len() / 16).min(dst.len() / 128);
    let (t3, t2) = (table16(t3), table16(t2));
    let nibble = _mm_set1_epi8(0x0f);
    for b in 0..blocks {
        // SAFETY: block `b` (16 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access.
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(b * 16) as *const __m128i);
            let (lo, hi) = (
                _mm_and_si128(v, nibble),
                _mm_and_si128(_mm_srli_epi16::<4>(v), nibble),
            );
            let codes = spread(_mm256_set_m128i(
                _mm_unpackhi_epi8(lo, hi),
                _mm_unpacklo_epi8(lo, hi),
            ));
            let (b3, b2) = (_mm256_shuffle_epi8(t3, codes), _mm256_shuffle_epi8(t2, codes));
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128));
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

// ---- f32 into integers --------------------------------------------------------

/// Converts whole blocks of 8 elements, returning how many elements it did.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn f32_to_int<T: IntTarget>(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 32).min(dst.len() / (8 * T::BYTES));
    let two_31 = _mm256_set1_ps(2147483648.0);
    let sign = _mm256_set1_epi32(i32::MIN);
    // Bytes 0 (and 1) of each 32-bit lane, gathered at the bottom of each half.
    let (pick1, pick2) = (
        _mm256_setr_epi8(
            0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1,
            -1, -1, -1, -1, -1, -1,
        ),
        _mm256_setr_epi8(
            0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1,
            -1, -1, -1, -1, -1,
        ),
    );
    // The gathered bytes of the two halves side by side: dwords 0, 1 and 4, 5
    // for 16-bit outputs, dwords 0 and 4 for 8-bit ones.
    let (join2, join1) = (
        _mm256_setr_epi32(0, 1, 4, 5, 0, 0, 0, 0),
        _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0),
    );
    for b in 0..blocks {
        // SAFETY: block `b` of 32 source bytes lies inside `src` (b < src.len() / 32).
        let x = unsafe { _mm256_loadu_ps(src.as_ptr().add(b * 32).cast()) };
        let mut v = _mm256_cvttps_epi32(x);
        if T::U32 {
            let high = _mm256_cmp_ps::<_CMP_GE_OQ>(x, two_31);
            let shifted = _mm256_xor_si256(_mm256_cvttps_epi32(_mm256_sub_ps(x, two_31)), sign);
            v = _mm256_blendv_epi8(v, shifted, _mm256_castps_si256(high));
        }
        let out = dst.as_mut_ptr().wrapping_add(b * 8 * T::BYTES);
        match T::BYTES {
            // SAFETY: block `b` of 32 output bytes lies inside `dst` (b < dst.len() / 32).
            4 => unsafe { _mm256_storeu_si256(out.cast(), v) },
            2 => {
                let packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick2), join2);
                // SAFETY: block `b` of 16 output bytes lies inside `dst` (b < dst.len() / 16).
                unsafe { _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed)) }
            }
            _ => {
                let packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick1), join1);
                // SAFETY: block `b` of 8 output bytes lies inside `dst` (b < dst.len() / 8).
                unsafe { _mm_storel_epi64(out.cast(), _mm256_castsi256_si128(packed)) }
            }
        }
    }
    blocks * 8
}
