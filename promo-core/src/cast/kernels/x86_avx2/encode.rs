//! The encode blocks: 32 f32 lanes into a target's codes, each generic over the
//! target's format through the constants its `Spec` gives ([`Rounding`]). A fused
//! kernel rounds its result once with one of these.

use super::super::formats::{Rounding, Target};
use super::super::x86::array;
use super::lanes::{bits, nonzero, put, put16, unpack_order, Encode, F32x32};
use crate::narrow::{NonFinite, Spec};
use core::arch::x86_64::*;
use core::marker::PhantomData;

// ---- a narrow float (float8, float6, f4e2m1) by the FPU's rounding ----------------

/// 32 lanes into the narrow float `T` as [`Rounding`] says, its constants in
/// registers; `INF_IS_NAN` is the rounding's `inf_is_nan`, fixed at compile time
/// so that no block tests it.
pub(crate) struct ToNarrow<T, const INF_IS_NAN: bool = false> {
    clamp: __m256,
    threshold: __m256i,
    magic: __m256i,
    shift: __m256i,
    target: PhantomData<T>,
}

impl<T: Target, const INF_IS_NAN: bool> ToNarrow<T, INF_IS_NAN> {
    /// The format's constants.
    const SPEC: Spec = match T::SINK {
        super::super::formats::Sink::Float(spec) => spec,
        _ => panic!("not a narrow float"),
    };

    /// Whether some rounding of `T` marks ±∞ NaN (the FNUZ formats').
    pub(crate) const INF_MAY_BE_NAN: bool = matches!(Self::SPEC.non_finite, NonFinite::NanNegativeZero);

    /// The block for `r`, whose `inf_is_nan` is `INF_IS_NAN`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(r: &Rounding) -> Self {
        debug_assert_eq!(r.inf_is_nan, INF_IS_NAN);
        ToNarrow {
            clamp: _mm256_castsi256_ps(_mm256_set1_epi32(r.clamp as i32)),
            threshold: _mm256_set1_epi32(r.threshold),
            magic: _mm256_set1_epi32(r.magic),
            shift: _mm256_set1_epi32(r.shift),
            target: PhantomData,
        }
    }

    /// The magnitude codes of eight lanes, one per i32 lane: `0..=max` for
    /// numbers, above (below 2^15) for the overflow, negative for NaN.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round8(&self, x: __m256i) -> __m256i {
        let a = _mm256_and_si256(x, _mm256_set1_epi32(0x7fff_ffff));
        // `minps` gives its second operand when either is NaN: the NaN.
        let c = _mm256_min_ps(self.clamp, _mm256_castsi256_ps(a));
        let exp = _mm256_and_si256(_mm256_castps_si256(c), _mm256_set1_epi32(0x7f80_0000));
        let exp = _mm256_max_epi32(exp, self.threshold);
        let b = _mm256_add_epi32(exp, self.magic);
        let sum = _mm256_castps_si256(_mm256_add_ps(c, _mm256_castsi256_ps(b)));
        let code = _mm256_add_epi32(
            _mm256_sub_epi32(sum, b),
            _mm256_srlv_epi32(_mm256_sub_epi32(exp, self.threshold), self.shift),
        );
        if INF_IS_NAN {
            let inf = _mm256_cmpeq_epi32(a, _mm256_set1_epi32(0x7f80_0000));
            _mm256_or_si256(code, inf)
        } else {
            code
        }
    }

    /// The 32 codes of four vectors of f32 lanes, as bytes in element order (a
    /// 4-bit code in the low nibble): magnitudes by [`ToNarrow::round8`], packed
    /// with saturation, then the sign and the format's NaN and overflow codes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn codes(&self, x: F32x32) -> __m256i {
        let s = Self::SPEC;
        let x = bits(x);
        let c = array!(4, |k| self.round8(x[k]));
        // Signed packs keep each input's sign in bit 7 of its byte.
        let signs = _mm256_packs_epi16(_mm256_packs_epi32(x[0], x[1]), _mm256_packs_epi32(x[2], x[3]));
        let sign = _mm256_and_si256(signs, _mm256_set1_epi8(0x80u8 as i8));
        let out = match s.non_finite {
            NonFinite::NanNegativeZero => {
                // Past 0x7f (the overflow, and NaN: 0x8000 in 16 bits) is NaN, 0x80;
                // zero has no sign.
                let top = _mm256_set1_epi16(0x80);
                let w0 = _mm256_min_epu16(_mm256_packs_epi32(c[0], c[1]), top);
                let w1 = _mm256_min_epu16(_mm256_packs_epi32(c[2], c[3]), top);
                let u = _mm256_packus_epi16(w0, w1);
                let zero = _mm256_cmpeq_epi8(u, _mm256_setzero_si256());
                _mm256_or_si256(u, _mm256_andnot_si256(zero, sign))
            }
            _ => {
                // Numbers below 0x7f, the overflow 0x7f, NaN 0x80 (−128).
                let u = _mm256_packs_epi16(_mm256_packs_epi32(c[0], c[1]), _mm256_packs_epi32(c[2], c[3]));
                match s.non_finite {
                    // NaN (and the unsaturated overflow) S.1111.111.
                    NonFinite::NanAllOnes => {
                        _mm256_or_si256(_mm256_min_epu8(u, _mm256_set1_epi8(0x7f)), sign)
                    }
                    // ∞ is below the NaN code, which NaN takes.
                    NonFinite::Ieee => {
                        _mm256_or_si256(_mm256_min_epu8(u, _mm256_set1_epi8(s.nan.0 as i8)), sign)
                    }
                    _ => {
                        // No NaN: the sign is the format's top bit, NaN the code
                        // the reference gives it (the sign's other zero).
                        debug_assert!(s.nan.1 == s.nan.0 ^ s.sign_bit());
                        let sign = match s.bits() {
                            4 => _mm256_srli_epi16::<4>(sign),
                            6 => _mm256_srli_epi16::<2>(sign),
                            _ => sign,
                        };
                        let nan = _mm256_cmpgt_epi8(_mm256_setzero_si256(), u);
                        let nan_code = _mm256_xor_si256(sign, _mm256_set1_epi8(s.nan.0 as i8));
                        _mm256_blendv_epi8(_mm256_or_si256(u, sign), nan_code, nan)
                    }
                }
            }
        };
        unpack_order(out)
    }
}

impl<T: Target, const INF_IS_NAN: bool> Encode for ToNarrow<T, INF_IS_NAN> {
    const OUT: usize = if Self::SPEC.bits() == 4 { 16 } else { 32 };

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let bytes = self.codes(x);
        if Self::OUT == 16 {
            // Two 4-bit codes per byte, element 0 in the low nibble.
            let pairs = _mm256_or_si256(bytes, _mm256_srli_epi16::<4>(bytes));
            let low = _mm256_and_si256(pairs, _mm256_set1_epi16(0xff));
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(low, low));
            // SAFETY: the caller guarantees 16 writable bytes, aligned when `stream`.
            unsafe { put16(dst, _mm256_castsi256_si128(packed), stream) }
        } else {
            // SAFETY: the caller guarantees 32 writable bytes, aligned when `stream`.
            unsafe { put(dst, bytes, stream) }
        }
    }
}

// ---- f8e4m3b15 as Triton rounds it: through f16 toward zero ------------------------

/// 32 lanes into a format with f16's bias whose codes are the top bits of f16 codes,
/// as Triton converts (see `Spec::encode_triton`): `vcvtps2ph` toward zero, the f16
/// magnitude clamped below the largest code (NaN and ±∞ too), half a unit of the
/// dropped bits added, truncated; the sign kept.
pub(crate) struct ToTriton<T>(PhantomData<T>);

impl<T: Target> ToTriton<T> {
    /// The block.
    pub(crate) const NEW: Self = ToTriton(PhantomData);

    /// The codes of 16 lanes, one per 16-bit lane.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    fn codes16(lo: __m256, hi: __m256) -> __m256i {
        let spec = ToNarrow::<T>::SPEC;
        let shift = 10 - spec.man_bits;
        let h = _mm256_set_m128i(
            _mm256_cvtps_ph::<_MM_FROUND_TO_ZERO>(hi),
            _mm256_cvtps_ph::<_MM_FROUND_TO_ZERO>(lo),
        );
        let clamp = _mm256_set1_epi16(((spec.max_code() - 1) << shift) as i16);
        let magnitude = _mm256_min_epu16(_mm256_and_si256(h, _mm256_set1_epi16(0x7fff)), clamp);
        let rounded = _mm256_add_epi16(magnitude, _mm256_set1_epi16(1 << (shift - 1)));
        let code = _mm256_srl_epi16(rounded, _mm_cvtsi32_si128(shift as i32));
        let sign = _mm256_srli_epi16::<8>(_mm256_and_si256(h, _mm256_set1_epi16(0x8000u16 as i16)));
        _mm256_or_si256(code, sign)
    }
}

impl<T: Target> Encode for ToTriton<T> {
    const OUT: usize = 32;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let (a, b) = (Self::codes16(x[0], x[1]), Self::codes16(x[2], x[3]));
        let bytes = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
        // SAFETY: the caller guarantees 32 writable bytes, aligned when `stream`.
        unsafe { put(dst, bytes, stream) }
    }
}

// ---- f16 and bf16 ---------------------------------------------------------------------

/// 32 lanes into f16 with F16C (round to nearest even, overflow to ±∞); a block
/// that holds a NaN gets the scalar cast's NaN: the sign and the top ten payload
/// bits, made nonzero, with the quiet bit as it was (F16C sets it).
pub(crate) struct ToF16;

impl Encode for ToF16 {
    const OUT: usize = 64;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let mut h = array!(4, |k| _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(x[k]));
        let x = bits(x);
        let nan = array!(4, |k| {
            let a = _mm256_and_si256(x[k], _mm256_set1_epi32(0x7fff_ffff));
            _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7f80_0000))
        });
        let any = _mm256_or_si256(_mm256_or_si256(nan[0], nan[1]), _mm256_or_si256(nan[2], nan[3]));
        if _mm256_testz_si256(any, any) == 0 {
            for k in 0..4 {
                let v = x[k];
                let payload = _mm256_and_si256(_mm256_srli_epi32::<13>(v), _mm256_set1_epi32(0x3ff));
                let payload = _mm256_max_epi32(payload, _mm256_set1_epi32(1));
                let sign = _mm256_and_si256(_mm256_srli_epi32::<16>(v), _mm256_set1_epi32(0x8000));
                let exact = _mm256_or_si256(_mm256_or_si256(sign, payload), _mm256_set1_epi32(0x7c00));
                let exact = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(exact, exact));
                let mask = _mm_packs_epi32(
                    _mm256_castsi256_si128(nan[k]),
                    _mm256_extracti128_si256::<1>(nan[k]),
                );
                h[k] = _mm_blendv_epi8(h[k], _mm256_castsi256_si128(exact), mask);
            }
        }
        // SAFETY: the caller guarantees 64 writable bytes, aligned when `stream`.
        unsafe {
            put(dst, _mm256_set_m128i(h[1], h[0]), stream);
            put(dst.add(32), _mm256_set_m128i(h[3], h[2]), stream);
        }
    }
}

/// 32 lanes into bf16: the top 16 bits rounded to nearest even by an integer add
/// (a subnormal or an overflow to ±∞ comes out right); NaN is `0x7fc0` with its
/// sign.
pub(crate) struct ToBf16;

impl ToBf16 {
    /// Eight lanes rounded, the bf16 in the low half of each.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn round(v: __m256i) -> __m256i {
        let a = _mm256_and_si256(v, _mm256_set1_epi32(0x7fff_ffff));
        let nan = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7f80_0000));
        let quiet = _mm256_or_si256(_mm256_xor_si256(v, a), _mm256_set1_epi32(0x7fc0_0000));
        let v = _mm256_blendv_epi8(v, quiet, nan);
        let lowest = _mm256_and_si256(_mm256_srli_epi32::<16>(v), _mm256_set1_epi32(1));
        let v = _mm256_add_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(0x7fff)), lowest);
        _mm256_srli_epi32::<16>(v)
    }
}

impl Encode for ToBf16 {
    const OUT: usize = 64;
    const ODD: bool = true;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let x = bits(x);
        let lo = _mm256_packus_epi32(Self::round(x[0]), Self::round(x[1]));
        let hi = _mm256_packus_epi32(Self::round(x[2]), Self::round(x[3]));
        // SAFETY: the caller guarantees 64 writable bytes, aligned when `stream`.
        unsafe {
            put(dst, _mm256_permute4x64_epi64::<0b11_01_10_00>(lo), stream);
            put(dst.add(32), _mm256_permute4x64_epi64::<0b11_01_10_00>(hi), stream);
        }
    }
}

// ---- f8e8m0 -------------------------------------------------------------------------

/// 32 lanes into f8e8m0 (see [`crate::narrow::f8e8m0::from_f32`]); `MODE` 0 up,
/// 1 down, 2 nearest.
pub(crate) struct ToE8m0<const MODE: u8> {
    /// Whether an overflow gives 0xfe (else NaN, 0xff).
    pub(crate) saturate: bool,
}

impl<const MODE: u8> ToE8m0<MODE> {
    /// The codes of eight lanes, one per i32 lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn codes(&self, x: __m256i) -> __m256i {
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
            _mm256_set1_epi32(if self.saturate { 0xfe } else { 0xff }),
            bumped_out,
        );
        _mm256_blendv_epi8(capped, top, _mm256_cmpeq_epi32(exp, top))
    }
}

impl<const MODE: u8> Encode for ToE8m0<MODE> {
    const OUT: usize = 32;
    const ODD: bool = true;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let x = bits(x);
        let c = array!(4, |k| self.codes(x[k]));
        let bytes = _mm256_packus_epi16(_mm256_packus_epi32(c[0], c[1]), _mm256_packus_epi32(c[2], c[3]));
        // SAFETY: the caller guarantees 32 writable bytes, aligned when `stream`.
        unsafe { put(dst, unpack_order(bytes), stream) }
    }
}

// ---- f32 ----------------------------------------------------------------------------

/// 32 lanes stored as they are: what every decode into f32 ends with.
pub(crate) struct ToF32;

impl Encode for ToF32 {
    const OUT: usize = 128;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        let x = bits(x);
        // SAFETY: the caller guarantees 128 writable bytes, aligned when `stream`.
        unsafe {
            for (k, v) in x.into_iter().enumerate() {
                put(dst.add(32 * k), v, stream);
            }
        }
    }
}
