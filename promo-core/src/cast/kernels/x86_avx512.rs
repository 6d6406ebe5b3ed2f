//! The AVX-512 backend (F, BW, VL and VBMI): 16 lanes where they pay, and the
//! AVX2 bodies, which every AVX-512 CPU also runs, for the rest.
//!
//! | conversion | here |
//! | --- | --- |
//! | float8, float6 → f32 | four `vpermi2b` lookups of bytes 3 and 2 of the format's 256 results, 64 codes a step, widened by unpacks |
//! | f32, f16, bf16 → float8 (the formats with NaN) | [`Rounding`] on 16 lanes, four vectors packed with saturation |
//! | f32 → bf16 | `vcvtne2ps2bf16` on 32 lanes where the CPU has AVX512-BF16 (and DQ), a step with a NaN or a subnormal by integer rounding on 16 lanes, `vpmovdw`; that rounding everywhere without BF16 |
//! | bf16 → f32 | `vpmovzxwd`, shift, NaN made quiet |
//! | f16 → f32 | `vcvtph2ps` on 16 lanes |
//! | the rest | the AVX2 bodies |
//!
//! Every store is 64 bytes, at a 64-byte boundary after the driver's head, and
//! non-temporal for outputs of `STREAM_FROM` bytes or more.

#![allow(clippy::missing_safety_doc)]

use super::backend::{Backend, Isa, STREAM_FROM};
use super::formats::{ByteTable, Lanes, Rounding, Source, Target};
use super::x86_avx2::Avx2;
use crate::narrow::NonFinite;
use core::arch::x86_64::*;

/// The AVX-512 backend.
pub(crate) struct Avx512;

impl Isa for Avx512 {
    const BACKEND: Backend = Backend::Avx512;
    type Fallback = Avx2;
    const ALIGN: usize = 64;

    unsafe fn to_minifloat<S: Lanes, T: Target>(
        src: &[u8],
        dst: &mut [u8],
        saturate: bool,
        fnuz_inf_is_nan: bool,
    ) -> usize {
        let source = matches!(S::SOURCE, Source::F32 | Source::F16 | Source::BF16);
        if source && T::SPEC.bits() == 8 && T::SPEC.non_finite != NonFinite::None {
            let r = Rounding::new(&T::SPEC, saturate, fnuz_inf_is_nan);
            // SAFETY: the caller guarantees AVX-512 F and BW.
            return unsafe { to_float8::<S, T>(src, dst, &r) };
        }
        // SAFETY: AVX-512 (the caller's guarantee) comes with AVX2 and F16C
        // (`Backend::Avx512.is_available()` checks both).
        unsafe { Avx2::to_minifloat::<S, T>(src, dst, saturate, fnuz_inf_is_nan) }
    }
    unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        if matches!(S::SOURCE, Source::F32) {
            if std::is_x86_feature_detected!("avx512bf16") && std::is_x86_feature_detected!("avx512dq") {
                // SAFETY: the caller guarantees AVX-512 F and BW; DQ and BF16 were
                // just detected.
                return unsafe { f32_to_bf16_native(src, dst) };
            }
            // SAFETY: the caller guarantees AVX-512 F and BW.
            return unsafe { f32_to_bf16(src, dst) };
        }
        // SAFETY: AVX-512 comes with AVX2 and F16C (checked with it).
        unsafe { Avx2::to_bf16::<S>(src, dst) }
    }
    unsafe fn bytes_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
        let (b3, b2) = const { (&result_bytes(&S::F32, 3), &result_bytes(&S::F32, 2)) };
        // SAFETY: the caller guarantees AVX-512 F, BW and VBMI.
        unsafe { bytes_to_f32(src, dst, b3, b2) }
    }
    unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX-512 F and BW.
        unsafe { bf16_to_f32(src, dst) }
    }
    unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the caller guarantees AVX-512 F.
        unsafe { f16_to_f32(src, dst) }
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

/// The magnitude codes of 16 f32 lanes, one per i32 lane, as [`Rounding`] says:
/// `0..=max` for numbers, more (below 2^15) for the overflow and a marked NaN.
#[inline]
#[target_feature(enable = "avx512f")]
fn magnitude16(x: __m512i, r: &Rounding16) -> __m512i {
    let a = _mm512_and_si512(x, _mm512_set1_epi32(0x7fff_ffff));
    // `minps` gives its second operand for NaN: the clamp.
    let c = _mm512_min_ps(_mm512_castsi512_ps(a), r.clamp);
    let exp = _mm512_and_si512(_mm512_castps_si512(c), _mm512_set1_epi32(0x7f80_0000));
    let exp = _mm512_max_epi32(exp, r.threshold);
    let b = _mm512_add_epi32(exp, r.magic);
    let sum = _mm512_castps_si512(_mm512_add_ps(c, _mm512_castsi512_ps(b)));
    let code = _mm512_add_epi32(
        _mm512_sub_epi32(sum, b),
        _mm512_srlv_epi32(_mm512_sub_epi32(exp, r.threshold), r.shift),
    );
    if r.mark_nan {
        let nan = _mm512_cmpgt_epi32_mask(a, r.nan_above);
        _mm512_mask_mov_epi32(code, nan, _mm512_set1_epi32(0xff))
    } else {
        code
    }
}

/// `a | (b & c)`, bit by bit, in one `vpternlog`.
#[inline]
#[target_feature(enable = "avx512f")]
fn or_and(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xf8>(a, b, c)
}

/// The dword order that undoes two levels of 128-bit-lane packs of four vectors:
/// dword `4q + L` of the result is dword `4L + q` of the packs.
const PACK_ORDER: [i32; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// The 64 codes of four vectors of f32 inputs in a float8 format with NaN (`T`),
/// as bytes in element order: magnitudes by [`magnitude16`], packed with
/// saturation (signed: past 0x7f is 0x7f; unsigned for FNUZ), then the format's
/// NaN or overflow, then the sign (signed packs of the inputs keep it in bit 7),
/// which the FNUZ formats give no zero.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn encode64<T: Target>(x: [__m512i; 4], r: &Rounding16, order: __m512i) -> __m512i {
    let s = T::SPEC;
    let c = [
        magnitude16(x[0], r),
        magnitude16(x[1], r),
        magnitude16(x[2], r),
        magnitude16(x[3], r),
    ];
    let signs = _mm512_packs_epi16(_mm512_packs_epi32(x[0], x[1]), _mm512_packs_epi32(x[2], x[3]));
    let bit7 = _mm512_set1_epi8(0x80u8 as i8);
    let out = match s.non_finite {
        NonFinite::NanNegativeZero => {
            let u = _mm512_packus_epi16(_mm512_packus_epi32(c[0], c[1]), _mm512_packus_epi32(c[2], c[3]));
            let u = _mm512_min_epu8(u, bit7);
            let nonzero = _mm512_test_epi8_mask(u, u);
            _mm512_mask_mov_epi8(u, nonzero, or_and(u, signs, bit7))
        }
        NonFinite::Ieee => {
            let u = _mm512_packs_epi16(_mm512_packs_epi32(c[0], c[1]), _mm512_packs_epi32(c[2], c[3]));
            or_and(_mm512_min_epu8(u, _mm512_set1_epi8(s.nan.0 as i8)), signs, bit7)
        }
        _ => {
            let u = _mm512_packs_epi16(_mm512_packs_epi32(c[0], c[1]), _mm512_packs_epi32(c[2], c[3]));
            or_and(u, signs, bit7)
        }
    };
    _mm512_permutexvar_epi32(order, out)
}

/// 16 inputs of `S` (f32, f16 or bf16) at `at`, widened to f32 exactly.
///
/// # Safety
/// 16 readable elements at `at`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn load16<S: Lanes>(at: *const u8) -> __m512i {
    // SAFETY: the caller guarantees 16 readable elements; unaligned loads.
    unsafe {
        match S::SOURCE {
            Source::F16 => _mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256(at as *const __m256i))),
            Source::BF16 => {
                _mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(_mm256_loadu_si256(at as *const __m256i)))
            }
            _ => _mm512_loadu_si512(at as *const __m512i),
        }
    }
}

/// Converts whole steps of 64 inputs (f32, or f16 or bf16 widened exactly) into a
/// float8 format with NaN; returns how many it converted.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn to_float8<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], r: &Rounding) -> usize {
    let size = S::SOURCE.size();
    let steps = (src.len() / (64 * size)).min(dst.len() / 64);
    let stream = streams(dst);
    let r = Rounding16::new(r);
    // SAFETY: `PACK_ORDER` is 64 readable bytes.
    let order = unsafe { _mm512_loadu_si512(PACK_ORDER.as_ptr() as *const __m512i) };
    for step in 0..steps {
        // SAFETY: step `step` (64 inputs, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(64 * size * step);
            prefetch(at);
            prefetch(at.add(32 * size));
            let load = |k: usize| load16::<S>(at.add(16 * size * k));
            let bytes = encode64::<T>([load(0), load(1), load(2), load(3)], &r, order);
            put(dst.as_mut_ptr().add(64 * step), bytes, stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 64
}

// ---- bf16 ---------------------------------------------------------------------------

/// 16 f32 lanes rounded to bf16 by an integer add, ties to even (a subnormal or
/// an overflow to ±∞ comes out right); NaN is `0x7fc0` with its sign.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn bf16_by_add(v: __m512i) -> __m256i {
    let a = _mm512_and_si512(v, _mm512_set1_epi32(0x7fff_ffff));
    let nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
    let quiet = _mm512_or_si512(_mm512_xor_si512(v, a), _mm512_set1_epi32(0x7fc0_0000));
    let v = _mm512_mask_mov_epi32(v, nan, quiet);
    let lowest = _mm512_and_si512(_mm512_srli_epi32::<16>(v), _mm512_set1_epi32(1));
    let v = _mm512_add_epi32(_mm512_add_epi32(v, _mm512_set1_epi32(0x7fff)), lowest);
    _mm512_cvtepi32_epi16(_mm512_srli_epi32::<16>(v))
}

/// Converts whole steps of 32 f32 inputs into bf16 with [`bf16_by_add`]; returns
/// how many it converted.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn f32_to_bf16(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / 128).min(dst.len() / 64);
    let stream = streams(dst);
    for step in 0..steps {
        // SAFETY: step `step` (128 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(128 * step);
            prefetch(at);
            let lo = bf16_by_add(_mm512_loadu_si512(at as *const __m512i));
            let hi = bf16_by_add(_mm512_loadu_si512(at.add(64) as *const __m512i));
            let words = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
            put(dst.as_mut_ptr().add(64 * step), words, stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 32
}

/// [`f32_to_bf16`] with `vcvtne2ps2bf16` (AVX512-BF16), 32 lanes in one
/// instruction. It rounds to nearest even as the scalar cast does, but flushes
/// subnormal inputs to zero and keeps NaN payloads, so a step that holds either
/// (one `vfpclassps` per 16 lanes finds them) goes through [`bf16_by_add`].
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512bf16")]
unsafe fn f32_to_bf16_native(src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / 128).min(dst.len() / 64);
    let stream = streams(dst);
    // NaN (quiet 0x01, signalling 0x80) and subnormal (0x20) lanes.
    const SPECIAL: i32 = 0x01 | 0x20 | 0x80;
    for step in 0..steps {
        // SAFETY: step `step` (128 input bytes, 64 output bytes) lies inside both
        // slices, as `steps` counts only whole steps of each; unaligned loads,
        // the store aligned when `stream`.
        unsafe {
            let at = src.as_ptr().add(128 * step);
            prefetch(at);
            let lo = _mm512_loadu_si512(at as *const __m512i);
            let hi = _mm512_loadu_si512(at.add(64) as *const __m512i);
            let (flo, fhi) = (_mm512_castsi512_ps(lo), _mm512_castsi512_ps(hi));
            let special = _mm512_fpclass_ps_mask::<SPECIAL>(flo) | _mm512_fpclass_ps_mask::<SPECIAL>(fhi);
            let words = if special == 0 {
                bf16_pair(fhi, flo)
            } else {
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(bf16_by_add(lo)), bf16_by_add(hi))
            };
            put(dst.as_mut_ptr().add(64 * step), words, stream);
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 32
}

/// `vcvtne2ps2bf16`: the bf16 of `lo` in the low half, of `hi` in the high half.
#[inline]
#[target_feature(enable = "avx512f,avx512bf16")]
fn bf16_pair(hi: __m512, lo: __m512) -> __m512i {
    // SAFETY: `__m512bh` and `__m512i` are the same 64 bytes.
    unsafe { core::mem::transmute::<__m512bh, __m512i>(_mm512_cvtne2ps_pbh(hi, lo)) }
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
            put(
                dst.as_mut_ptr().add(64 * step),
                _mm512_mask_mov_epi32(v, nan, quiet),
                stream,
            );
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
            put(
                dst.as_mut_ptr().add(64 * step),
                _mm512_castps_si512(_mm512_cvtph_ps(h)),
                stream,
            );
        }
    }
    if stream {
        _mm_sfence();
    }
    steps * 16
}
