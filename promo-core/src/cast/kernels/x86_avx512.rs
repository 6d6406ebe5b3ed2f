//! The AVX-512 backend (F, BW, VL and VBMI): 16 lanes where they pay, and the
//! AVX2 bodies, which every AVX-512 CPU also runs, for the rest.
//!
//! | conversion | here |
//! | --- | --- |
//! | float8, float6 → f32 | four `vpermi2b` lookups of bytes 3 and 2 of the format's 256 results, 64 codes a step, widened by unpacks |
//! | f32 → float8 (the formats with NaN) | [`Rounding`] on 16 lanes, `vpmovdb` |
//! | f32 → bf16 | integer rounding on 16 lanes, `vpmovdw` |
//! | bf16 → f32 | `vpmovzxwd`, shift, NaN made quiet |
//! | f16 → f32 | `vcvtph2ps` on 16 lanes |
//! | the rest | the AVX2 bodies |
//!
//! Every store is 64 bytes, at a 64-byte boundary after the driver's head, and
//! non-temporal for outputs of `STREAM_FROM` bytes or more.

#![allow(clippy::missing_safety_doc)]

use super::backend::{Backend, Isa, STREAM_FROM};
use super::formats::{ByteTable, Int, Lanes, Rounding, Source, Target};
use super::x86_avx2::Avx2;
use crate::narrow::NonFinite;
use core::arch::x86_64::*;

/// The AVX-512 backend.
pub(crate) struct Avx512;

impl Isa for Avx512 {
    const BACKEND: Backend = Backend::Avx512;
    const ALIGN: usize = 64;

    unsafe fn to_minifloat<S: Lanes, T: Target>(
        src: &[u8],
        dst: &mut [u8],
        saturate: bool,
        fnuz_inf_is_nan: bool,
    ) -> usize {
        if matches!(S::SOURCE, Source::F32) && T::SPEC.bits() == 8 && T::SPEC.non_finite != NonFinite::None {
            let r = Rounding::new(&T::SPEC, saturate, fnuz_inf_is_nan);
            // SAFETY: the caller guarantees AVX-512 F and BW.
            return unsafe { f32_to_float8::<T>(src, dst, &r) };
        }
        // SAFETY: AVX-512 (the caller's guarantee) comes with AVX2 and F16C
        // (`Backend::Avx512.is_available()` checks both).
        unsafe { Avx2::to_minifloat::<S, T>(src, dst, saturate, fnuz_inf_is_nan) }
    }
    unsafe fn to_f16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::to_f16::<S>(src, dst) }
    }
    unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        if matches!(S::SOURCE, Source::F32) {
            // SAFETY: the caller guarantees AVX-512 F and BW.
            return unsafe { f32_to_bf16(src, dst) };
        }
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::to_bf16::<S>(src, dst) }
    }
    unsafe fn to_e8m0<S: Lanes, const MODE: u8>(src: &[u8], dst: &mut [u8], saturate: bool) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::to_e8m0::<S, MODE>(src, dst, saturate) }
    }
    unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::f64_to_f32(src, dst) }
    }
    unsafe fn f32_to_f64(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::f32_to_f64(src, dst) }
    }
    unsafe fn bytes_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
        let (b3, b2) = const { (&result_bytes(&S::F32, 3), &result_bytes(&S::F32, 2)) };
        // SAFETY: the caller guarantees AVX-512 F, BW and VBMI.
        unsafe { bytes_to_f32(src, dst, b3, b2) }
    }
    unsafe fn nibbles_to_f32(src: &[u8], dst: &mut [u8], t3: &[u8; 16], t2: &[u8; 16]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::nibbles_to_f32(src, dst, t3, t2) }
    }
    unsafe fn e8m0_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::e8m0_to_f32(src, dst) }
    }
    unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX-512 F and BW.
        unsafe { bf16_to_f32(src, dst) }
    }
    unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { f16_to_f32(src, dst) }
    }
    unsafe fn int_to_int<S: Int, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::int_to_int::<S, T>(src, dst) }
    }
    unsafe fn int_to_f32<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::int_to_f32::<S>(src, dst) }
    }
    unsafe fn int_to_f64<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::int_to_f64::<S>(src, dst) }
    }
    unsafe fn to_int<S: Lanes, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::to_int::<S, T>(src, dst) }
    }
}

// ---- shared ----------------------------------------------------------------------

/// Whether to write `dst` with non-temporal stores: large, and 64-byte aligned.
#[inline]
fn streams(dst: &[u8]) -> bool {
    dst.len() >= STREAM_FROM && (dst.as_ptr() as usize).is_multiple_of(64)
}

/// Stores 64 bytes at `out`, non-temporal when `stream`.
///
/// # Safety
/// 64 writable bytes at `out`, 64-byte aligned when `stream`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn put(out: *mut u8, v: __m512i, stream: bool) {
    // SAFETY: the caller guarantees 64 writable bytes, aligned for a streaming store.
    unsafe {
        if stream {
            _mm512_stream_si512(out as *mut __m512i, v)
        } else {
            _mm512_storeu_si512(out as *mut __m512i, v)
        }
    }
}

/// Asks for the cache line 2 KiB past `at` (a prefetch never faults).
#[inline(always)]
fn prefetch(at: *const u8) {
    // SAFETY: a prefetch reads nothing the program sees and never faults.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(2048) as *const i8) }
}

// ---- byte formats into f32: four 128-byte lookups ----------------------------------

/// Byte `k` of each of a byte format's 256 f32 results.
const fn result_bytes(table: &[u32; 256], k: u32) -> [u8; 256] {
    let mut out = [0; 256];
    let mut i = 0;
    while i < 256 {
        out[i] = (table[i] >> (8 * k)) as u8;
        i += 1;
    }
    out
}

/// The codes of a step in the order that puts the dword unpacks' outputs in
/// element order: byte `16L + 4q + j` of the permuted vector is code `16q + 4L + j`.
const UNPACK_ORDER: [u8; 64] = {
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (lane, q, j) = (i / 16, (i / 4) % 4, i % 4);
        out[i] = (16 * q + 4 * lane + j) as u8;
        i += 1;
    }
    out
};

/// One byte of the results of 64 codes: `vpermi2b` over the low and the high 128
/// entries of a 256-byte table, chosen by each code's top bit.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn lookup(codes: __m512i, high: __mmask64, t: &[__m512i; 4]) -> __m512i {
    let low = _mm512_permutex2var_epi8(t[0], codes, t[1]);
    let top = _mm512_permutex2var_epi8(t[2], codes, t[3]);
    _mm512_mask_blend_epi8(high, low, top)
}

/// Decodes whole steps of 64 codes of a byte format (float8, float6) through its
/// table of 256 results, whose low 16 bits are zero: bytes 3 and 2 of each result
/// looked up, then widened into place; returns how many it did.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn bytes_to_f32(src: &[u8], dst: &mut [u8], b3: &[u8; 256], b2: &[u8; 256]) -> usize {
    let steps = (src.len() / 64).min(dst.len() / 256);
    let stream = streams(dst);
    // SAFETY: each table is 256 readable bytes, four vectors; `loadu` takes any
    // alignment.
    let (t3, t2, order) = unsafe {
        let load = |t: &[u8; 256], k: usize| _mm512_loadu_si512(t.as_ptr().add(64 * k) as *const __m512i);
        (
            [load(b3, 0), load(b3, 1), load(b3, 2), load(b3, 3)],
            [load(b2, 0), load(b2, 1), load(b2, 2), load(b2, 3)],
            _mm512_loadu_si512(UNPACK_ORDER.as_ptr() as *const __m512i),
        )
    };
    let zero = _mm512_setzero_si512();
    for step in 0..steps {
        // SAFETY: step `step` (64 input bytes, 256 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // stores aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(64 * step);
            prefetch(at);
            let codes = _mm512_permutexvar_epi8(order, _mm512_loadu_si512(at as *const __m512i));
            let high = _mm512_movepi8_mask(codes);
            let (hi, lo) = (lookup(codes, high, &t3), lookup(codes, high, &t2));
            let (w0, w1) = (_mm512_unpacklo_epi8(lo, hi), _mm512_unpackhi_epi8(lo, hi));
            let out = dst.as_mut_ptr().add(256 * step);
            put(out, _mm512_unpacklo_epi16(zero, w0), stream);
            put(out.add(64), _mm512_unpackhi_epi16(zero, w0), stream);
            put(out.add(128), _mm512_unpacklo_epi16(zero, w1), stream);
            put(out.add(192), _mm512_unpackhi_epi16(zero, w1), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 64
}

// ---- f32 into float8 ---------------------------------------------------------------

/// [`Rounding`] in vectors.
struct Rounding16 {
    clamp: __m512,
    threshold: __m512i,
    magic: __m512i,
    shift: __m512i,
    nan_above: __m512i,
    mark_nan: bool,
}

impl Rounding16 {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(r: &Rounding) -> Rounding16 {
        Rounding16 {
            clamp: _mm512_castsi512_ps(_mm512_set1_epi32(r.clamp as i32)),
            threshold: _mm512_set1_epi32(r.threshold),
            magic: _mm512_set1_epi32(r.magic),
            shift: _mm512_set1_epi32(r.shift),
            nan_above: _mm512_set1_epi32(r.nan_above),
            mark_nan: r.mark_nan,
        }
    }
}

/// The code of each of 16 f32 lanes in a float8 format with NaN (`T`): the
/// magnitude rounded as [`Rounding`] says, limited to the format's NaN or
/// overflow, then the sign (which the FNUZ formats give no zero).
#[inline]
#[target_feature(enable = "avx512f")]
fn encode16<T: Target>(x: __m512i, r: &Rounding16) -> __m512i {
    let s = T::SPEC;
    let a = _mm512_and_si512(x, _mm512_set1_epi32(0x7fff_ffff));
    // `minps` gives its second operand for NaN: the clamp.
    let c = _mm512_min_ps(_mm512_castsi512_ps(a), r.clamp);
    let exp = _mm512_and_si512(_mm512_castps_si512(c), _mm512_set1_epi32(0x7f80_0000));
    let exp = _mm512_max_epi32(exp, r.threshold);
    let b = _mm512_add_epi32(exp, r.magic);
    let sum = _mm512_castps_si512(_mm512_add_ps(c, _mm512_castsi512_ps(b)));
    let significand = _mm512_sub_epi32(sum, b);
    let mut code = _mm512_add_epi32(
        significand,
        _mm512_srlv_epi32(_mm512_sub_epi32(exp, r.threshold), r.shift),
    );
    if r.mark_nan {
        let nan = _mm512_cmpgt_epi32_mask(a, r.nan_above);
        code = _mm512_mask_mov_epi32(code, nan, _mm512_set1_epi32(0xff));
    }
    let sign = _mm512_and_si512(_mm512_srli_epi32::<24>(x), _mm512_set1_epi32(0x80));
    match s.non_finite {
        NonFinite::NanNegativeZero => {
            // Past 0x7f: the overflow, NaN (0x80); zero has no sign.
            let u = _mm512_min_epu32(code, _mm512_set1_epi32(0x80));
            let nonzero = _mm512_test_epi32_mask(u, u);
            _mm512_mask_or_epi32(u, nonzero, u, sign)
        }
        // Past 0x7e (0x7f with saturation): the NaN of the sign, or ∞.
        NonFinite::Ieee => _mm512_or_si512(_mm512_min_epu32(code, _mm512_set1_epi32(s.nan.0 as i32)), sign),
        _ => _mm512_or_si512(_mm512_min_epu32(code, _mm512_set1_epi32(0x7f)), sign),
    }
}

/// Converts whole steps of 64 f32 inputs into a float8 format with NaN; returns
/// how many it converted.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn f32_to_float8<T: Target>(src: &[u8], dst: &mut [u8], r: &Rounding) -> usize {
    let steps = (src.len() / 256).min(dst.len() / 64);
    let stream = streams(dst);
    let r = Rounding16::new(r);
    for step in 0..steps {
        // SAFETY: step `step` (256 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(256 * step);
            prefetch(at);
            prefetch(at.add(128));
            let code = |k: usize| {
                let x = _mm512_loadu_si512(at.add(64 * k) as *const __m512i);
                _mm512_cvtepi32_epi8(encode16::<T>(x, &r))
            };
            let (c0, c1, c2, c3) = (code(0), code(1), code(2), code(3));
            let lo = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(c0), c1);
            let hi = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(c2), c3);
            let bytes = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            put(dst.as_mut_ptr().add(64 * step), bytes, stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 64
}

// ---- bf16 ---------------------------------------------------------------------------

/// Converts whole steps of 32 f32 inputs into bf16: the top 16 bits rounded to
/// nearest even by an integer add (a subnormal or an overflow to ±∞ comes out
/// right); NaN is `0x7fc0` with its sign. (`vcvtneps2bf16` flushes subnormal
/// inputs to zero and keeps NaN payloads, so it would need this fix-up anyway.)
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn f32_to_bf16(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / 128).min(dst.len() / 64);
    let stream = streams(dst);
    let round = |v: __m512i| {
        let a = _mm512_and_si512(v, _mm512_set1_epi32(0x7fff_ffff));
        let nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
        let quiet = _mm512_or_si512(_mm512_xor_si512(v, a), _mm512_set1_epi32(0x7fc0_0000));
        let v = _mm512_mask_mov_epi32(v, nan, quiet);
        let lowest = _mm512_and_si512(_mm512_srli_epi32::<16>(v), _mm512_set1_epi32(1));
        let v = _mm512_add_epi32(_mm512_add_epi32(v, _mm512_set1_epi32(0x7fff)), lowest);
        _mm512_cvtepi32_epi16(_mm512_srli_epi32::<16>(v))
    };
    for step in 0..steps {
        // SAFETY: step `step` (128 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(128 * step);
            prefetch(at);
            let lo = round(_mm512_loadu_si512(at as *const __m512i));
            let hi = round(_mm512_loadu_si512(at.add(64) as *const __m512i));
            let words = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            put(dst.as_mut_ptr().add(64 * step), words, stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 32
}

/// Converts whole steps of 16 bf16 inputs into f32: widened and shifted up
/// (exact); a NaN becomes the quiet NaN of its sign, as the scalar cast gives.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / 32).min(dst.len() / 64);
    let stream = streams(dst);
    for step in 0..steps {
        // SAFETY: step `step` (32 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; an unaligned load,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(32 * step);
            prefetch(at);
            let v = _mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(_mm256_loadu_si256(at as *const __m256i)));
            let a = _mm512_and_si512(v, _mm512_set1_epi32(0x7fff_ffff));
            let nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
            let quiet = _mm512_or_si512(_mm512_xor_si512(v, a), _mm512_set1_epi32(0x7fc0_0000));
            put(dst.as_mut_ptr().add(64 * step), _mm512_mask_mov_epi32(v, nan, quiet), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 16
}

// ---- f16 ----------------------------------------------------------------------------

/// Converts whole steps of 16 f16 inputs into f32 with `vcvtph2ps`, as the AVX2
/// body does eight.
#[target_feature(enable = "avx512f")]
unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / 32).min(dst.len() / 64);
    let stream = streams(dst);
    for step in 0..steps {
        // SAFETY: step `step` (32 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; an unaligned load,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(32 * step);
            prefetch(at);
            let h = _mm256_loadu_si256(at as *const __m256i);
            put(dst.as_mut_ptr().add(64 * step), _mm512_castps_si512(_mm512_cvtph_ps(h)), stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 16
}
