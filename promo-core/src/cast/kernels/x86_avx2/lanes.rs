//! The AVX2 backend's floor: loads and stores of whole vectors, the orders packs and
//! unpacks leave bytes in, and 16-entry lookups. Everything above uses these;
//! nothing here uses anything above.

use super::super::backend::STREAM_FROM;
use core::arch::x86_64::*;

/// Elements in a block: every block function of this backend takes or gives 32.
pub(crate) const BLOCK: usize = 32;

/// 32 lanes of f32: the registers between a decode block and an encode block.
pub(crate) type F32x32 = [__m256; 4];

/// Whether to write `dst` with non-temporal stores: large, and 32-byte aligned.
#[inline]
pub(crate) fn streams(dst: &[u8]) -> bool {
    dst.len() >= STREAM_FROM && (dst.as_ptr() as usize).is_multiple_of(32)
}

/// Stores `v` at `out`: non-temporal when `stream` (then `out` must be 32-byte
/// aligned), else an ordinary unaligned store.
///
/// # Safety
/// 32 writable bytes at `out`, aligned when `stream`.
#[inline(always)]
pub(crate) unsafe fn put(out: *mut u8, v: __m256i, stream: bool) {
    // SAFETY: the caller guarantees 32 writable bytes, aligned for a streaming store.
    unsafe {
        if stream {
            _mm256_stream_si256(out as *mut __m256i, v)
        } else {
            _mm256_storeu_si256(out as *mut __m256i, v)
        }
    }
}

/// [`put`] of 16 bytes.
///
/// # Safety
/// 16 writable bytes at `out`, 16-byte aligned when `stream`.
#[inline(always)]
pub(crate) unsafe fn put16(out: *mut u8, v: __m128i, stream: bool) {
    // SAFETY: the caller guarantees 16 writable bytes, aligned for a streaming store.
    unsafe {
        if stream {
            _mm_stream_si128(out as *mut __m128i, v)
        } else {
            _mm_storeu_si128(out as *mut __m128i, v)
        }
    }
}

/// Four vectors at `src`.
///
/// # Safety
/// 128 readable bytes at `src`.
#[inline(always)]
pub(crate) unsafe fn load4(src: *const u8) -> [__m256i; 4] {
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

/// f32 lanes as their bits.
#[inline(always)]
pub(crate) fn bits(x: F32x32) -> [__m256i; 4] {
    // SAFETY: casts between vector types of one width are free and always allowed.
    unsafe {
        [
            _mm256_castps_si256(x[0]),
            _mm256_castps_si256(x[1]),
            _mm256_castps_si256(x[2]),
            _mm256_castps_si256(x[3]),
        ]
    }
}

/// Bits as f32 lanes.
#[inline(always)]
pub(crate) fn floats(x: [__m256i; 4]) -> F32x32 {
    // SAFETY: casts between vector types of one width are free and always allowed.
    unsafe {
        [
            _mm256_castsi256_ps(x[0]),
            _mm256_castsi256_ps(x[1]),
            _mm256_castsi256_ps(x[2]),
            _mm256_castsi256_ps(x[3]),
        ]
    }
}

/// Undoes the interleaving of two levels of 128-bit-lane packs: the dwords of
/// `packs(packs(v0, v1), packs(v2, v3))` back in element order.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn unpack_order(bytes: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
}

/// Puts the dwords of 32 loaded bytes in the order [`top16`] undoes: its unpacks
/// work inside 128-bit halves, so half 0 must hold elements 0–3, 8–11, 16–19,
/// 24–27 and half 1 the others.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn spread(v: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))
}

/// 32 f32 values whose low 16 bits are zero, in element order, given their bits
/// 31..24 (`b3`) and 23..16 (`b2`) as bytes in [`spread`] order.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn top16(b3: __m256i, b2: __m256i) -> [__m256i; 4] {
    let zero = _mm256_setzero_si256();
    let (lo, hi) = (_mm256_unpacklo_epi8(b2, b3), _mm256_unpackhi_epi8(b2, b3));
    [
        _mm256_unpacklo_epi16(zero, lo),
        _mm256_unpackhi_epi16(zero, lo),
        _mm256_unpacklo_epi16(zero, hi),
        _mm256_unpackhi_epi16(zero, hi),
    ]
}

/// A 16-entry byte table in both halves of a vector, for `vpshufb`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn table16(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes; `loadu` takes any alignment.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr() as *const __m128i) })
}

/// All ones in the lanes of `v` that are not zero.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn nonzero(v: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_cmpeq_epi32(v, _mm256_setzero_si256()),
        _mm256_set1_epi32(-1),
    )
}

/// The low 32 bits of each 64-bit lane of `m`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn low_halves(m: __m256i) -> __m128i {
    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        m,
        _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
    ))
}

/// A block of a conversion: 32 elements from some bytes into others ([`Block::sizes`]).
/// The backend's loop (`run`) drives any block.
pub(crate) trait Block {
    /// Bytes read and written per block.
    fn sizes(&self) -> (usize, usize);
    /// Converts the block at `src` into `dst`, with non-temporal stores when `stream`.
    ///
    /// # Safety
    /// AVX2 and F16C; [`Block::sizes`] readable bytes at `src` and writable at `dst`,
    /// 32-byte aligned when `stream`.
    unsafe fn convert(&self, src: *const u8, dst: *mut u8, stream: bool);
}

/// An encode block: 32 f32 lanes into 32 elements of a target.
pub(crate) trait Encode {
    /// Bytes written per block.
    const OUT: usize;
    /// Whether an integer source too wide for f32 should reach it rounded to odd
    /// (for targets of at most 22 bits whose overflow lies past 2^24: bf16,
    /// f8e8m0), else to nearest even.
    const ODD: bool = false;
    /// Writes the 32 lanes of `x`, converted, at `dst`.
    ///
    /// # Safety
    /// AVX2 and F16C; `OUT` writable bytes at `dst`, 32-byte aligned when `stream`.
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool);
}
