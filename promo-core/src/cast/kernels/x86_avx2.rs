//! The AVX2 and F16C kernels: each converts whole blocks of a slice inside one
//! `#[target_feature]` function and returns how many elements it did; the caller
//! (`kernels`) finishes the tail. They compute exactly what the scalar cast
//! computes: the tests in `kernels` compare them with it on every input of every 8-
//! and 16-bit format and on edge, random and odd-length f32 inputs, and
//! `tests/cast_exhaustive.rs` checks every f32 input against the ONNX reference.

#![allow(clippy::missing_safety_doc)]

/// `[e(0), e(1), …]` for `k` in `0..4` or `0..8`, written out: a closure handed to
/// `array::from_fn` or `array::map` is not inlined into a `#[target_feature]`
/// function (it has features its caller lacks), which costs a call per vector.
macro_rules! array {
    (4, |$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
        ]
    };
    (8, |$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
            {
                let $k = 4;
                $e
            },
            {
                let $k = 5;
                $e
            },
            {
                let $k = 6;
                $e
            },
            {
                let $k = 7;
                $e
            },
        ]
    };
}

mod ints;
mod read;

use super::backend::{Backend, Isa, STREAM_FROM};
use super::formats::{ByteTable, Float8Tables, Int, Lanes, Rounding, Target};
use crate::narrow::NonFinite;
use core::arch::x86_64::*;
use read::Reader;

/// The AVX2 and F16C backend.
pub(crate) struct Avx2;

impl Isa for Avx2 {
    const BACKEND: Backend = Backend::Avx2;
    type Fallback = super::portable::Portable;

    unsafe fn to_minifloat<S: Lanes, T: Target>(
        src: &[u8],
        dst: &mut [u8],
        saturate: bool,
        fnuz_inf_is_nan: bool,
    ) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { to_minifloat::<S, T>(src, dst, saturate, fnuz_inf_is_nan) }
    }
    unsafe fn to_f16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { to_f16::<S>(src, dst) }
    }
    unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { to_bf16::<S>(src, dst) }
    }
    unsafe fn to_e8m0<S: Lanes, const MODE: u8>(src: &[u8], dst: &mut [u8], saturate: bool) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { to_e8m0::<S, MODE>(src, dst, saturate) }
    }
    unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { f64_to_f32(src, dst) }
    }
    unsafe fn f32_to_f64(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { f32_to_f64(src, dst) }
    }
    unsafe fn bytes_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
        // The nibble tables need a whole byte and the exponent's top three bits
        // in the high nibble (at least four exponent bits: not f8e3m4).
        if S::SPEC.bits() != 8 || S::SPEC.exp_bits < 4 {
            return 0;
        }
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { float8_to_f32(src, dst, const { &Float8Tables::new(&S::SPEC) }) }
    }
    unsafe fn nibbles_to_f32(src: &[u8], dst: &mut [u8], t3: &[u8; 16], t2: &[u8; 16]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { nibbles_to_f32(src, dst, t3, t2) }
    }
    unsafe fn e8m0_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { e8m0_to_f32(src, dst) }
    }
    unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { bf16_to_f32(src, dst) }
    }
    unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { f16_to_f32(src, dst) }
    }
    unsafe fn int_to_int<S: Int, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { ints::int_to_int::<S, T>(src, dst) }
    }
    unsafe fn int_to_f32<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { ints::to_f32::<S>(src, dst) }
    }
    unsafe fn int_to_f64<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { ints::to_f64::<S>(src, dst) }
    }
    unsafe fn to_int<S: Lanes, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { ints::to_int::<S, T>(src, dst) }
    }
}

// ---- encode: f32 into the narrow formats -------------------------------------

/// Elements per loop step.
const STEP: usize = 32;

/// How far ahead of the loads the large-buffer kernels prefetch, in bytes.
const AHEAD: usize = 2048;

/// Asks for the two cache lines `AHEAD` bytes past `at` (the address need not be
/// inside the slice: a prefetch never faults).
#[inline(always)]
fn prefetch(at: *const u8) {
    let ahead = at.wrapping_add(AHEAD);
    // SAFETY: a prefetch reads nothing the program sees and never faults.
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>(ahead as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64) as *const i8);
    }
}

/// [`prefetch`] for every 128 bytes of a block of `bytes` at `at` (a block of 32
/// elements of 8 bytes spans four pairs of cache lines).
#[inline(always)]
fn prefetch_block(at: *const u8, bytes: usize) {
    for k in 0..bytes.div_ceil(128) {
        prefetch(at.wrapping_add(128 * k));
    }
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

/// Undoes the interleaving of two levels of 128-bit-lane packs: the dwords of
/// `packs(packs(v0, v1), packs(v2, v3))` back in element order.
#[inline]
#[target_feature(enable = "avx2")]
fn unpack_order(bytes: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
}

/// Stores the low bytes of four vectors of i32 codes (each in 0..=255) as 32
/// bytes in element order.
///
/// # Safety
/// 32 writable bytes at `dst`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_bytes(v: [__m256i; 4], dst: *mut u8) {
    let bytes = _mm256_packus_epi16(_mm256_packus_epi32(v[0], v[1]), _mm256_packus_epi32(v[2], v[3]));
    // SAFETY: the caller guarantees 32 writable bytes; `storeu` takes any alignment.
    unsafe { _mm256_storeu_si256(dst as *mut __m256i, unpack_order(bytes)) }
}

/// [`Rounding`] in vectors.
struct Rounding8 {
    clamp: __m256,
    threshold: __m256i,
    magic: __m256i,
    shift: __m256i,
    nan_above: __m256i,
    mark_nan: bool,
}

impl Rounding8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(r: &Rounding) -> Rounding8 {
        Rounding8 {
            clamp: _mm256_castsi256_ps(_mm256_set1_epi32(r.clamp as i32)),
            threshold: _mm256_set1_epi32(r.threshold),
            magic: _mm256_set1_epi32(r.magic),
            shift: _mm256_set1_epi32(r.shift),
            nan_above: _mm256_set1_epi32(r.nan_above),
            mark_nan: r.mark_nan,
        }
    }
}

/// The magnitude codes of eight f32 lanes, one per i32 lane: `0..=max` for
/// numbers, more (below 2^15) for the overflow and a marked NaN.
#[inline]
#[target_feature(enable = "avx2")]
fn round8(x: __m256i, r: &Rounding8) -> __m256i {
    let a = _mm256_and_si256(x, _mm256_set1_epi32(0x7fff_ffff));
    // `minps` gives its second operand for NaN: the clamp.
    let c = _mm256_min_ps(_mm256_castsi256_ps(a), r.clamp);
    let exp = _mm256_and_si256(_mm256_castps_si256(c), _mm256_set1_epi32(0x7f80_0000));
    let exp = _mm256_max_epi32(exp, r.threshold);
    let b = _mm256_add_epi32(exp, r.magic);
    let sum = _mm256_castps_si256(_mm256_add_ps(c, _mm256_castsi256_ps(b)));
    let significand = _mm256_sub_epi32(sum, b);
    let code = _mm256_add_epi32(
        significand,
        _mm256_srlv_epi32(_mm256_sub_epi32(exp, r.threshold), r.shift),
    );
    if r.mark_nan {
        let nan = _mm256_cmpgt_epi32(a, r.nan_above);
        _mm256_or_si256(code, _mm256_srli_epi32::<24>(nan))
    } else {
        code
    }
}

/// The 32 codes of four vectors of f32 inputs, as bytes in element order (4-bit
/// codes in the low nibbles): magnitudes by [`round8`], packed with saturation,
/// then the sign and the format's NaN and overflow codes.
#[inline]
#[target_feature(enable = "avx2")]
fn encode32<T: Target>(x: [__m256i; 4], r: &Rounding8) -> __m256i {
    let s = T::SPEC;
    let c = [round8(x[0], r), round8(x[1], r), round8(x[2], r), round8(x[3], r)];
    // Signed packs keep each input's sign in bit 7 of its byte.
    let signs = _mm256_packs_epi16(_mm256_packs_epi32(x[0], x[1]), _mm256_packs_epi32(x[2], x[3]));
    let sign = _mm256_and_si256(signs, _mm256_set1_epi8(0x80u8 as i8));
    let out = match s.non_finite {
        NonFinite::NanNegativeZero => {
            // Codes past 0x7f are the overflow, NaN (0x80); zero has no sign.
            let u = _mm256_packus_epi16(_mm256_packus_epi32(c[0], c[1]), _mm256_packus_epi32(c[2], c[3]));
            let zero = _mm256_cmpeq_epi8(u, _mm256_setzero_si256());
            _mm256_or_si256(
                _mm256_min_epu8(u, _mm256_set1_epi8(0x80u8 as i8)),
                _mm256_andnot_si256(zero, sign),
            )
        }
        _ => {
            // Past 0x7e (0x7f with saturation): the NaN of the sign, or E5M2's ∞.
            let u = _mm256_packs_epi16(_mm256_packs_epi32(c[0], c[1]), _mm256_packs_epi32(c[2], c[3]));
            match s.non_finite {
                NonFinite::NanAllOnes => _mm256_or_si256(u, sign),
                NonFinite::Ieee => _mm256_or_si256(_mm256_min_epu8(u, _mm256_set1_epi8(s.nan.0 as i8)), sign),
                _ => {
                    // f4e2m1: the sign is bit 3; NaN is 0x8, −NaN 0x0.
                    let sign = _mm256_srli_epi16::<4>(sign);
                    let nan = _mm256_cmpgt_epi8(u, _mm256_set1_epi8(7));
                    let nan_code = _mm256_xor_si256(sign, _mm256_set1_epi8(s.nan.0 as i8));
                    _mm256_blendv_epi8(_mm256_or_si256(u, sign), nan_code, nan)
                }
            }
        }
    };
    unpack_order(out)
}

/// Converts whole steps of 32 inputs (f32, f16, bf16 or an integer, each widened
/// to f32: exactly, or an integer past 2^24 rounded to nearest, which the format's
/// overflow makes the same) into a float8 format or f4e2m1 (a large float8 output
/// with non-temporal stores); returns how many it converted.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_minifloat<S: Lanes, T: Target>(
    src: &[u8],
    dst: &mut [u8],
    saturate: bool,
    fnuz_inf_is_nan: bool,
) -> usize {
    let nibbles = T::SPEC.bits() == 4;
    let out_bytes = if nibbles { STEP / 2 } else { STEP };
    let in_bytes = Reader::<S>::BLOCK;
    let steps = (src.len() / in_bytes).min(dst.len() / out_bytes);
    let r = Rounding8::new(&Rounding::new(&T::SPEC, saturate, fnuz_inf_is_nan));
    let reader = Reader::<S>::new();
    let stream = !nibbles && streams(dst);
    for step in 0..steps {
        prefetch(src.as_ptr().wrapping_add(in_bytes * step));
        // SAFETY: `step < src.len() / in_bytes`: a whole step is readable.
        let x = unsafe { reader.f32s::<false>(src.as_ptr().add(in_bytes * step)) };
        let bytes = encode32::<T>(x, &r);
        let at = dst.as_mut_ptr().wrapping_add(out_bytes * step);
        if nibbles {
            // Two 4-bit codes per byte, element 0 in the low nibble.
            let pairs = _mm256_or_si256(bytes, _mm256_srli_epi16::<4>(bytes));
            let low = _mm256_and_si256(pairs, _mm256_set1_epi16(0xff));
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(low, low));
            // SAFETY: `step < dst.len() / 16`: 16 writable bytes.
            unsafe { _mm_storeu_si128(at as *mut __m128i, _mm256_castsi256_si128(packed)) }
        } else {
            // SAFETY: `step < dst.len() / 32`: 32 writable bytes, aligned when
            // `stream` (`dst` is, and each step writes 32 bytes).
            unsafe { put(at as *mut __m256i, bytes, stream) }
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * STEP
}

/// Converts whole steps of 32 f64 inputs into f32 with `vcvtpd2ps` (the
/// instruction the scalar cast's `as f32` compiles to), writing a large output
/// with non-temporal stores; returns how many it did.
#[target_feature(enable = "avx2")]
unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / (8 * STEP)).min(dst.len() / (4 * STEP));
    let stream = streams(dst);
    for step in 0..steps {
        let at = src.as_ptr().wrapping_add(8 * STEP * step) as *const f64;
        let out = dst.as_mut_ptr().wrapping_add(4 * STEP * step) as *mut __m256i;
        prefetch_block(at as *const u8, 8 * STEP);
        for k in 0..4 {
            // SAFETY: `step < src.len() / 256` and `step < dst.len() / 128`: 64
            // readable bytes at `8k` f64s in, 32 writable at `k` vectors out
            // (aligned when `stream`).
            unsafe {
                let lo = _mm256_cvtpd_ps(_mm256_loadu_pd(at.add(8 * k)));
                let hi = _mm256_cvtpd_ps(_mm256_loadu_pd(at.add(8 * k + 4)));
                put(out.add(k), _mm256_castps_si256(_mm256_set_m128(hi, lo)), stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * STEP
}

/// Converts whole steps of 32 f32 inputs into f64 with `vcvtps2pd` (writing a
/// large output with non-temporal stores). That instruction quiets a signalling
/// NaN; in a step that holds a NaN, the quiet bit of each signalling one is
/// cleared again, giving the scalar cast's bits (sign, all-ones exponent, payload
/// shifted up).
#[target_feature(enable = "avx2")]
unsafe fn f32_to_f64(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / (4 * STEP)).min(dst.len() / (8 * STEP));
    let stream = streams(dst);
    let quiet = _mm256_set1_epi64x(1 << 51);
    for step in 0..steps {
        let at = src.as_ptr().wrapping_add(4 * STEP * step);
        let out = dst.as_mut_ptr().wrapping_add(8 * STEP * step) as *mut __m256i;
        prefetch(at);
        // SAFETY: `step < src.len() / 128`: 128 readable bytes.
        let x = unsafe { load(at) };
        // Unordered compares of two vectors find a NaN in either.
        let f = array!(4, |k| _mm256_castsi256_ps(x[k]));
        let any = _mm256_castps_si256(_mm256_or_ps(
            _mm256_cmp_ps::<_CMP_UNORD_Q>(f[0], f[1]),
            _mm256_cmp_ps::<_CMP_UNORD_Q>(f[2], f[3]),
        ));
        let fix = _mm256_testz_si256(any, any) == 0;
        for k in 0..8 {
            // SAFETY: 16 readable bytes at `16k` (inside this step's 128) and 32
            // writable at vector `k` (inside this step's 256 output bytes),
            // aligned when `stream`.
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
                put(out.add(k), d, stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * STEP
}

/// Converts whole steps of 32 inputs (f32, or an integer widened to f32: exactly,
/// or past 2^24 rounded to nearest, which overflows to ±∞ all the same) into f16
/// with F16C (round to nearest even, overflow to ±∞); a
/// step that holds a NaN gets the scalar cast's NaN: the sign and the top ten
/// payload bits, made nonzero, with the quiet bit as it was (F16C sets it).
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_f16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let steps = (src.len() / in_bytes).min(dst.len() / (2 * STEP));
    let stream = streams(dst);
    let reader = Reader::<S>::new();
    for step in 0..steps {
        if stream {
            prefetch(src.as_ptr().wrapping_add(in_bytes * step));
        }
        // SAFETY: `step < src.len() / in_bytes`: a whole step is readable.
        let x = unsafe { reader.f32s::<false>(src.as_ptr().add(in_bytes * step)) };
        let mut h = array!(4, |k| _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(
            _mm256_castsi256_ps(x[k])
        ));
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
                let pack = |w: __m256i| {
                    _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(
                        w, w,
                    )))
                };
                let mask = _mm_packs_epi32(
                    _mm256_castsi256_si128(nan[k]),
                    _mm256_extracti128_si256::<1>(nan[k]),
                );
                h[k] = _mm_blendv_epi8(h[k], pack(exact), mask);
            }
        }
        let out = dst.as_mut_ptr().wrapping_add(2 * STEP * step) as *mut __m256i;
        // SAFETY: `step < dst.len() / 64`: 64 writable bytes, two vectors.
        unsafe {
            put(out, _mm256_set_m128i(h[1], h[0]), stream);
            put(out.add(1), _mm256_set_m128i(h[3], h[2]), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * STEP
}

/// Converts whole steps of 32 inputs (f32, or an integer widened to f32 exactly or
/// rounded to odd) into bf16: the top 16 bits rounded to nearest even by an
/// integer add (a subnormal or an overflow to ±∞ comes out right); NaN is `0x7fc0`
/// with its sign.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let steps = (src.len() / in_bytes).min(dst.len() / (2 * STEP));
    let stream = streams(dst);
    let reader = Reader::<S>::new();
    let round = |v: __m256i| {
        let a = _mm256_and_si256(v, _mm256_set1_epi32(0x7fff_ffff));
        let nan = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7f80_0000));
        let quiet = _mm256_or_si256(_mm256_xor_si256(v, a), _mm256_set1_epi32(0x7fc0_0000));
        let v = _mm256_blendv_epi8(v, quiet, nan);
        let lowest = _mm256_and_si256(_mm256_srli_epi32::<16>(v), _mm256_set1_epi32(1));
        let v = _mm256_add_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(0x7fff)), lowest);
        _mm256_srli_epi32::<16>(v)
    };
    for step in 0..steps {
        prefetch(src.as_ptr().wrapping_add(in_bytes * step));
        // SAFETY: `step < src.len() / in_bytes`: a whole step is readable.
        let x = unsafe { reader.f32s::<true>(src.as_ptr().add(in_bytes * step)) };
        let lo = _mm256_packus_epi32(round(x[0]), round(x[1]));
        let hi = _mm256_packus_epi32(round(x[2]), round(x[3]));
        let out = dst.as_mut_ptr().wrapping_add(2 * STEP * step) as *mut __m256i;
        // SAFETY: `step < dst.len() / 64`: 64 writable bytes, two vectors.
        unsafe {
            put(out, _mm256_permute4x64_epi64::<0b11_01_10_00>(lo), stream);
            put(out.add(1), _mm256_permute4x64_epi64::<0b11_01_10_00>(hi), stream);
        }
    }
    if stream {
        _mm_sfence();
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

/// Converts whole steps of 32 inputs (f32, or an integer widened to f32 exactly or
/// rounded to odd) into f8e8m0; returns how many it converted.
///
/// # Safety
/// The CPU must support AVX2 and F16C.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_e8m0<S: Lanes, const MODE: u8>(src: &[u8], dst: &mut [u8], saturate: bool) -> usize {
    let in_bytes = Reader::<S>::BLOCK;
    let steps = (src.len() / in_bytes).min(dst.len() / STEP);
    let reader = Reader::<S>::new();
    for step in 0..steps {
        let i = step * STEP;
        prefetch(src.as_ptr().wrapping_add(in_bytes * step));
        // SAFETY: `step < src.len() / in_bytes`: a whole step is readable.
        let x = unsafe { reader.f32s::<true>(src.as_ptr().add(in_bytes * step)) };
        let codes = [
            encode_e8m0::<MODE>(x[0], saturate),
            encode_e8m0::<MODE>(x[1], saturate),
            encode_e8m0::<MODE>(x[2], saturate),
            encode_e8m0::<MODE>(x[3], saturate),
        ];
        // SAFETY: `step < dst.len() / 32`: 32 writable bytes.
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

/// 32 f32 values whose low 16 bits are zero, in element order, given their bits
/// 31..24 (`b3`) and 23..16 (`b2`) as bytes in [`spread`] order.
#[inline]
#[target_feature(enable = "avx2")]
fn top16(b3: __m256i, b2: __m256i) -> [__m256i; 4] {
    let zero = _mm256_setzero_si256();
    let (lo, hi) = (_mm256_unpacklo_epi8(b2, b3), _mm256_unpackhi_epi8(b2, b3));
    [
        _mm256_unpacklo_epi16(zero, lo),
        _mm256_unpackhi_epi16(zero, lo),
        _mm256_unpacklo_epi16(zero, hi),
        _mm256_unpackhi_epi16(zero, hi),
    ]
}

/// Stores the four vectors of [`top16`]: 128 bytes at `dst`, with non-temporal
/// stores when `stream` (which skip reading the destination into the cache first:
/// for outputs larger than the cache).
///
/// # Safety
/// 128 writable bytes at `dst`, 32-byte aligned when `stream`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_top16(b3: __m256i, b2: __m256i, dst: *mut u8, stream: bool) {
    let out = dst as *mut __m256i;
    for (k, v) in top16(b3, b2).into_iter().enumerate() {
        // SAFETY: the caller guarantees 128 writable bytes (four vectors), aligned
        // when `stream`.
        unsafe { put(out.add(k), v, stream) }
    }
}

/// Stores `v` at `out`: non-temporal when `stream` (then `out` must be 32-byte
/// aligned), else an ordinary unaligned store.
///
/// # Safety
/// 32 writable bytes at `out`, aligned when `stream`.
#[inline(always)]
unsafe fn put(out: *mut __m256i, v: __m256i, stream: bool) {
    // SAFETY: the caller guarantees 32 writable bytes, aligned for a streaming store.
    unsafe {
        if stream {
            _mm256_stream_si256(out, v)
        } else {
            _mm256_storeu_si256(out, v)
        }
    }
}

/// A 16-entry byte table in both halves of a vector, for `vpshufb`.
#[inline]
#[target_feature(enable = "avx2")]
fn table16(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; `loadu` takes any alignment.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) })
}

/// The tables of [`Float8Tables`] in vectors.
struct Float8Vectors {
    a3: __m256i,
    b3: __m256i,
    b2: __m256i,
    s3: __m256i,
    s2: __m256i,
}

impl Float8Vectors {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(t: &Float8Tables) -> Self {
        Float8Vectors {
            a3: table16(&t.a3),
            b3: table16(&t.b3),
            b2: table16(&t.b2),
            s3: table16(&t.s3),
            s2: table16(&t.s2),
        }
    }
}

/// Bytes 3 and 2 of the f32 values of 32 float8 codes (in [`spread`] order) of the
/// format with `tables` (in vectors: `t`) and `specials`: two 16-entry lookups by
/// nibble for a normal code, two more for a subnormal one (the exponent field
/// zero), then the format's NaN and infinity.
#[inline]
#[target_feature(enable = "avx2")]
fn float8_top16(v: __m256i, t: &Float8Vectors, tables: &Float8Tables) -> (__m256i, __m256i) {
    let nibble = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(v, nibble);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
    let exp_field = _mm256_set1_epi8(tables.exp_field as i8);
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
                _mm256_and_si256(nan, _mm256_set1_epi8(tables.nan_flip.0 as i8)),
            ),
            _mm256_xor_si256(
                b2,
                _mm256_and_si256(nan, _mm256_set1_epi8(tables.nan_flip.1 as i8)),
            ),
        )
    };
    match tables.non_finite {
        // S.1111.111: the quiet NaN of its sign (bits flipped from the normal path's).
        NonFinite::NanAllOnes => {
            (b3, b2) = flip(_mm256_cmpeq_epi8(magnitude, _mm256_set1_epi8(0x7f)), b3, b2)
        }
        NonFinite::Ieee => {
            // All-ones exponent: ±infinity, or the quiet NaN of its sign.
            let top = _mm256_cmpeq_epi8(_mm256_and_si256(v, exp_field), exp_field);
            b3 = _mm256_or_si256(b3, _mm256_and_si256(top, _mm256_set1_epi8(0x7f)));
            let nan = _mm256_cmpgt_epi8(magnitude, exp_field);
            b2 = _mm256_blendv_epi8(b2, _mm256_set1_epi8(0xc0u8 as i8), nan);
        }
        // 0x80, the subnormal path's −0, is the only NaN.
        NonFinite::NanNegativeZero => {
            (b3, b2) = flip(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x80u8 as i8)), b3, b2)
        }
        // Every code is a number, 0x80 −0 among them.
        NonFinite::None => {}
    }
    (b3, b2)
}

/// Whether to write `dst` with non-temporal stores: large, and 32-byte aligned.
#[inline]
fn streams(dst: &[u8]) -> bool {
    dst.len() >= STREAM_FROM && (dst.as_ptr() as usize).is_multiple_of(32)
}

/// Decodes whole blocks of 32 float8 bytes, returning how many elements it did
/// (writing a large output with non-temporal stores).
#[target_feature(enable = "avx2")]
unsafe fn float8_to_f32(src: &[u8], dst: &mut [u8], tables: &Float8Tables) -> usize {
    let blocks = (src.len() / 32).min(dst.len() / 128);
    let stream = streams(dst);
    let t = Float8Vectors::new(tables);
    for b in 0..blocks {
        // SAFETY: block `b` (32 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access
        // (aligned when `stream`).
        unsafe {
            let v = spread(_mm256_loadu_si256(src.as_ptr().add(b * 32) as *const __m256i));
            let (b3, b2) = float8_top16(v, &t, tables);
            prefetch(src.as_ptr().add(b * 32));
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Bytes 3 and 2 of the f32 values of 32 f8e8m0 codes (in [`spread`] order):
/// 2^(code − 127) is the code shifted into the exponent field; code 0 (2^−127) is
/// the subnormal 0x0040_0000 and 0xff the quiet NaN.
#[inline]
#[target_feature(enable = "avx2")]
fn e8m0_top16(v: __m256i) -> (__m256i, __m256i) {
    let b3 = _mm256_and_si256(_mm256_srli_epi16::<1>(v), _mm256_set1_epi8(0x7f));
    let low = _mm256_and_si256(_mm256_slli_epi16::<7>(v), _mm256_set1_epi8(0x80u8 as i8));
    let edge = _mm256_or_si256(
        _mm256_cmpeq_epi8(v, _mm256_setzero_si256()),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(-1)),
    );
    (
        b3,
        _mm256_or_si256(low, _mm256_and_si256(edge, _mm256_set1_epi8(0x40))),
    )
}

/// Decodes whole blocks of 32 f8e8m0 codes (see [`e8m0_top16`]).
#[target_feature(enable = "avx2")]
unsafe fn e8m0_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 32).min(dst.len() / 128);
    let stream = streams(dst);
    for b in 0..blocks {
        // SAFETY: block `b` (32 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access
        // (aligned when `stream`).
        unsafe {
            prefetch(src.as_ptr().add(b * 32));
            let v = spread(_mm256_loadu_si256(src.as_ptr().add(b * 32) as *const __m256i));
            let (b3, b2) = e8m0_top16(v);
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Decodes whole blocks of 16 bytes of a nibble format (32 elements, low nibble
/// first) through 16-entry tables of its results' bytes 3 (`t3`) and 2 (`t2`),
/// writing a large output with non-temporal stores.
#[target_feature(enable = "avx2")]
unsafe fn nibbles_to_f32(src: &[u8], dst: &mut [u8], t3: &[u8; 16], t2: &[u8; 16]) -> usize {
    let blocks = (src.len() / 16).min(dst.len() / 128);
    let stream = streams(dst);
    let (t3, t2) = (table16(t3), table16(t2));
    let nibble = _mm_set1_epi8(0x0f);
    for b in 0..blocks {
        // SAFETY: block `b` (16 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access
        // (aligned when `stream`).
        unsafe {
            prefetch(src.as_ptr().add(b * 16));
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
            store_top16(b3, b2, dst.as_mut_ptr().add(b * 128), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Converts whole blocks of 32 bf16 values, put in the top halves of f32 lanes by
/// unpacking with zero; a block that holds a NaN has its NaNs made the quiet NaN of
/// their sign first. Returns how many elements it did.
#[target_feature(enable = "avx2")]
unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 64).min(dst.len() / 128);
    let stream = streams(dst);
    let zero = _mm256_setzero_si256();
    let magnitude = |h: __m256i| _mm256_and_si256(h, _mm256_set1_epi16(0x7fff));
    let is_nan = |h: __m256i| _mm256_cmpgt_epi16(magnitude(h), _mm256_set1_epi16(0x7f80));
    for b in 0..blocks {
        // SAFETY: block `b` (64 input bytes, 128 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; unaligned access.
        unsafe {
            prefetch(src.as_ptr().add(b * 64));
            let at = src.as_ptr().add(b * 64) as *const __m256i;
            let mut h = [_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1))];
            let nan = [is_nan(h[0]), is_nan(h[1])];
            let any = _mm256_or_si256(nan[0], nan[1]);
            if _mm256_testz_si256(any, any) == 0 {
                for k in 0..2 {
                    let quiet =
                        _mm256_or_si256(_mm256_xor_si256(h[k], magnitude(h[k])), _mm256_set1_epi16(0x7fc0));
                    h[k] = _mm256_blendv_epi8(h[k], quiet, nan[k]);
                }
            }
            let out = dst.as_mut_ptr().add(b * 128) as *mut __m256i;
            for (k, h) in h.into_iter().enumerate() {
                // Elements 0–3 and 8–11 in the low half, so the unpacks keep their order.
                let h = _mm256_permute4x64_epi64::<0b11_01_10_00>(h);
                put(out.add(2 * k), _mm256_unpacklo_epi16(zero, h), stream);
                put(out.add(2 * k + 1), _mm256_unpackhi_epi16(zero, h), stream);
            }
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 32
}

/// Converts whole blocks of 8 f16 values with `vcvtph2ps`, returning how many
/// elements it did.
#[target_feature(enable = "avx,f16c")]
unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let blocks = (src.len() / 16).min(dst.len() / 32);
    let stream = streams(dst);
    for b in 0..blocks {
        // SAFETY: block `b` (16 input bytes, 32 output bytes) lies inside both
        // slices, as `blocks` counts only whole blocks of each; the loads and
        // stores are unaligned.
        unsafe {
            prefetch(src.as_ptr().add(b * 16));
            let h = _mm_loadu_si128(src.as_ptr().add(b * 16) as *const __m128i);
            put(
                dst.as_mut_ptr().add(b * 32) as *mut __m256i,
                _mm256_castps_si256(_mm256_cvtph_ps(h)),
                stream,
            );
        }
    }
    if stream {
        _mm_sfence();
    }
    blocks * 8
}
