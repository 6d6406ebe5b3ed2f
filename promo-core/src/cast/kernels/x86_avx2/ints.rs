//! The blocks that do not go through f32 lanes: integers into each other (widened
//! by `vpmovsx` / `vpmovzx`, narrowed by masked unsigned packs that keep the low
//! bits), integers into f64, floats into integers with x86 `cvtt` semantics, and
//! f32 into f64.

use super::super::formats::{IntLayout, Lanes, Sink, Source, Target};
use super::super::x86::array;
use super::decode::Reader;
use super::lanes::{load4, low_halves, put, Block};
use core::arch::x86_64::*;
use core::marker::PhantomData;

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
/// integers of layout `s` to integers of `to` bytes: one vector.
///
/// # Safety
/// `32 / to × s.bytes` readable bytes at `at`; `to > s.bytes`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn widen(s: IntLayout, at: *const u8, to: usize) -> __m256i {
    // SAFETY: the caller guarantees the chunk's bytes are readable; each load reads
    // exactly them, at any alignment.
    let x = unsafe {
        match 32 / to * s.bytes {
            16 => _mm_loadu_si128(at as *const __m128i),
            8 => _mm_loadl_epi64(at as *const __m128i),
            _ => _mm_cvtsi32_si128((at as *const i32).read_unaligned()),
        }
    };
    let x = if s.bool {
        _mm_min_epu8(x, _mm_set1_epi8(1))
    } else {
        x
    };
    match (s.bytes, to, s.signed) {
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

/// All ones in the lanes of `bytes` bytes that are zero.
#[inline]
#[target_feature(enable = "avx2")]
fn is_zero(v: __m256i, bytes: usize) -> __m256i {
    let zero = _mm256_setzero_si256();
    match bytes {
        1 => _mm256_cmpeq_epi8(v, zero),
        2 => _mm256_cmpeq_epi16(v, zero),
        4 => _mm256_cmpeq_epi32(v, zero),
        _ => _mm256_cmpeq_epi64(v, zero),
    }
}

/// The layout of an integer source: a compile-time constant, so that a block's
/// vectors stay in registers (with a layout read at run time they went through the
/// stack, and f32 → i32 ran at half its speed).
const fn source_layout(s: Source) -> IntLayout {
    match s {
        Source::Int(layout) => layout,
        _ => panic!("not an integer source"),
    }
}

/// The layout of an integer target, as [`source_layout`].
const fn sink_layout(t: Sink) -> IntLayout {
    match t {
        Sink::Int(layout) => layout,
        _ => panic!("not an integer target"),
    }
}

/// 32 integers (or bools) of one layout into another: sign- or zero-extended, or
/// their low bytes kept; into bool, 1 where nonzero.
pub(crate) struct IntToInt<S, T>(PhantomData<(S, T)>);

impl<S: Lanes, T: Target> IntToInt<S, T> {
    /// The source's layout.
    const FROM: IntLayout = source_layout(S::SOURCE);
    /// The target's layout.
    const TO: IntLayout = sink_layout(T::SINK);
    /// The block.
    pub(crate) const NEW: Self = IntToInt(PhantomData);
}

impl<S: Lanes, T: Target> Block for IntToInt<S, T> {
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        (32 * Self::FROM.bytes, 32 * Self::TO.bytes)
    }

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn convert(&self, src: *const u8, dst: *mut u8, stream: bool) {
        let (from, to) = (Self::FROM.bytes, Self::TO.bytes);
        // SAFETY: the caller guarantees `32 * from` readable bytes at `src` and
        // `32 * to` writable at `dst`, aligned when `stream`.
        unsafe {
            if Self::TO.bool {
                // Zero lanes all ones, narrowed to bytes, plus one: 0 or 1.
                let v = vectors(src, from);
                let v = array!(8, |k| is_zero(v[k], from));
                let bytes = narrow(v, from, 1)[0];
                put(dst, _mm256_add_epi8(bytes, _mm256_set1_epi8(1)), stream);
            } else if to == from {
                // bool into i8 or u8.
                let v = _mm256_loadu_si256(src as *const __m256i);
                put(dst, _mm256_min_epu8(v, _mm256_set1_epi8(1)), stream);
            } else if to > from {
                for k in 0..to {
                    put(
                        dst.add(32 * k),
                        widen(Self::FROM, src.add(k * 32 / to * from), to),
                        stream,
                    );
                }
            } else {
                let v = narrow(vectors(src, from), from, to);
                for (k, v) in v.into_iter().enumerate().take(to) {
                    put(dst.add(32 * k), v, stream);
                }
            }
        }
    }
}

/// 32 elements read as f64 (an integer rounded once to nearest even, exact below
/// 2^53) and stored.
pub(crate) struct ToF64<S>(pub(crate) Reader<S>);

impl<S: Lanes> Block for ToF64<S> {
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        (Reader::<S>::BLOCK, 256)
    }

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn convert(&self, src: *const u8, dst: *mut u8, stream: bool) {
        // SAFETY: the caller guarantees the block's readable bytes and 256 writable,
        // aligned when `stream`.
        unsafe {
            let x = self.0.f64s(src);
            for (k, v) in x.into_iter().enumerate() {
                put(dst.add(32 * k), _mm256_castpd_si256(v), stream);
            }
        }
    }
}

/// Eight f32 as i32, as the scalar cast gives them: `cvttps2dq` (truncation;
/// `i32::MIN` out of range and for NaN); into u32, values at or above 2^31 have
/// 2^31 taken off first and put back in the bits; from f16 into u32 (through i64
/// in the scalar cast), ±∞ and NaN give 0.
#[inline]
#[target_feature(enable = "avx2")]
fn f32_to_i32(bits: __m256i, f16: bool, to: IntLayout) -> __m256i {
    let x = _mm256_castsi256_ps(bits);
    let mut v = _mm256_cvttps_epi32(x);
    if to.is_u32() {
        let two_31 = _mm256_set1_ps(2147483648.0);
        let high = _mm256_cmp_ps::<_CMP_GE_OQ>(x, two_31);
        let shifted = _mm256_xor_si256(
            _mm256_cvttps_epi32(_mm256_sub_ps(x, two_31)),
            _mm256_set1_epi32(i32::MIN),
        );
        v = _mm256_blendv_epi8(v, shifted, _mm256_castps_si256(high));
        if f16 {
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
fn f64_to_i32(x: __m256d, to: IntLayout) -> __m128i {
    if !to.is_u32() {
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
fn f64_to_i64(x: __m256d, to: IntLayout) -> __m256i {
    if to.signed {
        return cvtt64(x);
    }
    let two_63 = _mm256_set1_pd(9223372036854775808.0);
    let high = _mm256_cmp_pd::<_CMP_GE_OQ>(x, two_63);
    let y = _mm256_blendv_pd(x, _mm256_sub_pd(x, two_63), high);
    let flip = _mm256_and_si256(_mm256_castpd_si256(high), _mm256_set1_epi64x(i64::MIN));
    _mm256_xor_si256(cvtt64(y), flip)
}

/// 32 floats into an integer type, as the scalar cast gives them (see
/// [`FloatToInt`](crate::cast::FloatToInt)): every source but f64 is widened to
/// f32 exactly, and 64-bit targets go through f64.
pub(crate) struct ToInt<S, T> {
    reader: Reader<S>,
    target: PhantomData<T>,
}

impl<S: Lanes, T: Target> ToInt<S, T> {
    /// The target's layout.
    const TO: IntLayout = sink_layout(T::SINK);

    /// The block.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn new() -> Self {
        ToInt {
            reader: Reader::new(false),
            target: PhantomData,
        }
    }
}

impl<S: Lanes, T: Target> Block for ToInt<S, T> {
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        (Reader::<S>::BLOCK, 32 * Self::TO.bytes)
    }

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn convert(&self, src: *const u8, dst: *mut u8, stream: bool) {
        let to = Self::TO.bytes;
        // SAFETY: the caller guarantees the block's readable bytes at `src` and `32 * to`
        // writable at `dst`, aligned when `stream`.
        unsafe {
            let v = if to == 8 {
                let d = self.reader.f64s(src);
                array!(8, |k| f64_to_i64(d[k], Self::TO))
            } else {
                let i: [__m256i; 4] = if matches!(S::SOURCE, Source::F64) {
                    let d = self.reader.f64s(src);
                    array!(4, |k| {
                        _mm256_set_m128i(f64_to_i32(d[2 * k + 1], Self::TO), f64_to_i32(d[2 * k], Self::TO))
                    })
                } else {
                    let x = self.reader.f32s::<false>(src);
                    let f16 = matches!(S::SOURCE, Source::F16);
                    array!(4, |k| f32_to_i32(x[k], f16, Self::TO))
                };
                narrow([i[0], i[1], i[2], i[3], i[0], i[0], i[0], i[0]], 4, to)
            };
            for (k, v) in v.into_iter().enumerate().take(to) {
                put(dst.add(32 * k), v, stream);
            }
        }
    }
}

/// 32 f32 into f64 with `vcvtps2pd`. That instruction quiets a signalling NaN; in
/// a block that holds a NaN, the quiet bit of each signalling one is cleared
/// again, giving the scalar cast's bits (sign, all-ones exponent, payload shifted
/// up).
pub(crate) struct F32ToF64;

impl Block for F32ToF64 {
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        (128, 256)
    }

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn convert(&self, at: *const u8, dst: *mut u8, stream: bool) {
        let quiet = _mm256_set1_epi64x(1 << 51);
        // SAFETY: the caller guarantees 128 readable bytes.
        let x = unsafe { load4(at) };
        // Unordered compares of two vectors find a NaN in either.
        let f = array!(4, |k| _mm256_castsi256_ps(x[k]));
        let any = _mm256_castps_si256(_mm256_or_ps(
            _mm256_cmp_ps::<_CMP_UNORD_Q>(f[0], f[1]),
            _mm256_cmp_ps::<_CMP_UNORD_Q>(f[2], f[3]),
        ));
        let fix = _mm256_testz_si256(any, any) == 0;
        for k in 0..8 {
            // SAFETY: 16 readable bytes at `16k` (inside the block's 128) and 32
            // writable at `32k` (inside its 256 output bytes), aligned when `stream`.
            unsafe {
                let mut d = _mm256_castpd_si256(_mm256_cvtps_pd(_mm_loadu_ps(at.add(16 * k) as *const f32)));
                if fix {
                    // NaN lanes whose quiet bit (f32 bit 22) is clear, widened to 64 bits.
                    let (v, f) = (x[k / 2], f[k / 2]);
                    let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(f, f));
                    let signalling =
                        _mm256_andnot_si256(_mm256_srai_epi32::<31>(_mm256_slli_epi32::<9>(v)), nan);
                    let half = if k % 2 == 0 {
                        _mm256_castsi256_si128(signalling)
                    } else {
                        _mm256_extracti128_si256::<1>(signalling)
                    };
                    d = _mm256_andnot_si256(_mm256_and_si256(_mm256_cvtepi32_epi64(half), quiet), d);
                }
                put(dst.add(32 * k), d, stream);
            }
        }
    }
}
