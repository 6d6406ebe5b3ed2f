//! The AVX-512 backend (F, BW, VL and VBMI): blocks of 64 elements where 16 lanes
//! pay, and the AVX2 backend's blocks, which every AVX-512 CPU also runs, for the
//! rest.
//!
//! | conversion | here |
//! | --- | --- |
//! | float8, float6, f4e2m1 → f32 | `vpermi2b` lookups of bytes 3 and 2 of the format's results, 64 codes a block, widened by unpacks |
//! | f32, f16, bf16 → float8 (the formats with NaN) | [`Rounding`] on 16 lanes, four vectors packed with saturation |
//! | f32 → bf16 | `vcvtne2ps2bf16` on 32 lanes where the CPU has AVX512-BF16 (and DQ), a block with a NaN or a subnormal by integer rounding on 16 lanes, `vpmovdw`; that rounding everywhere without BF16 |
//! | bf16 → f32 | `vpmovzxwd`, shift, NaN made quiet |
//! | f16 → f32 | `vcvtph2ps` on 16 lanes |
//! | the rest | the AVX2 blocks |
//!
//! As in the AVX2 backend, a decode block gives f32 lanes (here `[__m512; 4]`),
//! an encode block takes them, and one loop ([`run`]) drives every block: each
//! store is 64 bytes, at a 64-byte boundary after the driver's head, and
//! non-temporal for outputs of `STREAM_FROM` bytes or more.

use super::backend::{Backend, Isa, Plan, STREAM_FROM};
use super::formats::{Lanes, Rounding, Sink, Source, Target};
use super::x86::{array, prefetch, PREFETCH_FROM};
use super::x86_avx2::{self, Body};
use crate::narrow::NonFinite;
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// The AVX-512 backend.
pub(crate) struct Avx512;

impl Isa for Avx512 {
    const BACKEND: Backend = Backend::Avx512;
    const ALIGN: usize = 64;

    unsafe fn body<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize {
        // SAFETY: the caller guarantees AVX-512 F, BW and VBMI, which come with
        // AVX2 and F16C (`Backend::Avx512.is_available()` checks both).
        unsafe { (Bodies::<S, T>::BODY)(src, dst, plan) }
    }
}

/// Whether the backend has a block for `s` into `t`: its own, or the AVX2 backend's.
pub(crate) const fn has(s: Source, t: Sink) -> bool {
    own(s, t) || x86_avx2::has(s, t)
}

/// Whether the backend has a 64-element block of its own for `s` into `t`.
const fn own(s: Source, t: Sink) -> bool {
    match t {
        Sink::F32 => matches!(
            s,
            Source::Byte { .. } | Source::Nibble(_) | Source::BF16 | Source::F16
        ),
        Sink::Float(spec) if spec.bits() == 8 => {
            matches!(s, Source::F32 | Source::F16 | Source::BF16)
                && !matches!(spec.non_finite, NonFinite::None)
        }
        // bf16.
        Sink::Float(spec) if spec.bits() == 16 && spec.man_bits == 7 => matches!(s, Source::F32),
        _ => false,
    }
}

/// The body of `S` into `T`, chosen at compile time: the backend's own, or the AVX2
/// backend's.
struct Bodies<S, T>(PhantomData<(S, T)>);

impl<S: Lanes, T: Target> Bodies<S, T> {
    const BODY: Body = match T::SINK {
        _ if !own(S::SOURCE, T::SINK) => x86_avx2::Bodies::<S, T>::BODY,
        Sink::F32 => to_f32::<S>,
        Sink::Float(spec) if spec.bits() == 16 => to_bf16,
        Sink::Float(_) => to_float8::<S, T>,
        _ => x86_avx2::Bodies::<S, T>::BODY,
    };
}

// SAFETY (each `run` below): the bodies run with AVX-512 F, BW and VBMI, as `run`
// needs.

/// Decoded into f32 lanes, stored.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn to_f32<S: Lanes>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&Through(Reader::<S>::new(), ToF32), src, dst) }
}

/// f32 into bf16: `vcvtne2ps2bf16` where the CPU has it, else integer rounding.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn to_bf16(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    if std::is_x86_feature_detected!("avx512bf16") && std::is_x86_feature_detected!("avx512dq") {
        // SAFETY: DQ and BF16 were just detected.
        return unsafe { f32_to_bf16_native(src, dst) };
    }
    unsafe { run(&Through(Reader::<f32>::new(), ToBf16), src, dst) }
}

/// Through f32 lanes into a float8 format with NaN.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn to_float8<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize {
    let Sink::Float(spec) = T::SINK else { return 0 };
    let r = Rounding::new(&spec, plan.saturate, plan.fnuz_inf_is_nan);
    unsafe { run(&Through(Reader::<S>::new(), ToFloat8::<T>::new(&r)), src, dst) }
}

// ---- the loop ----------------------------------------------------------------------

/// Elements in a block.
const BLOCK: usize = 64;

/// 64 lanes of f32: the registers between a decode block and an encode block.
pub(crate) type F32x64 = [__m512; 4];

/// A decode block: 64 elements of a source into f32 lanes.
pub(crate) trait Decode {
    /// Bytes read per block.
    const IN: usize;
    /// The lanes of the block at `src`.
    ///
    /// # Safety
    /// AVX-512 F, BW and VBMI; `IN` readable bytes at `src`.
    unsafe fn decode(&self, src: *const u8) -> F32x64;
}

/// An encode block: 64 f32 lanes into a target.
pub(crate) trait Encode {
    /// Bytes written per block.
    const OUT: usize;
    /// Writes the lanes of `x`, converted, at `dst`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `OUT` writable bytes at `dst`, 64-byte aligned when `stream`.
    unsafe fn encode(&self, x: F32x64, dst: *mut u8, stream: bool);
}

/// A decode block and an encode block, nothing in memory between.
struct Through<D, E>(D, E);

/// Whether to write `dst` with non-temporal stores: large, and 64-byte aligned.
#[inline]
fn streams(dst: &[u8]) -> bool {
    dst.len() >= STREAM_FROM && (dst.as_ptr() as usize).is_multiple_of(64)
}

/// The loop: whole blocks from the start of `src` into the start of `dst`, a large
/// input prefetched, a large output written with non-temporal stores (then
/// fenced); returns how many elements it converted.
///
/// # Safety
/// AVX-512 F, BW and VBMI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn run<D: Decode, E: Encode>(block: &Through<D, E>, src: &[u8], dst: &mut [u8]) -> usize {
    let steps = (src.len() / D::IN).min(dst.len() / E::OUT);
    // One loop for each kind of store, so that no block tests which it makes.
    // SAFETY: as `blocks` needs: `steps` whole blocks fit both buffers, and
    // `streams` said `dst` is aligned for the streaming loop.
    unsafe {
        if streams(dst) {
            blocks::<D, E, true>(block, src, dst, steps);
            _mm_sfence();
        } else {
            blocks::<D, E, false>(block, src, dst, steps);
        }
    }
    steps * BLOCK
}

/// `steps` blocks from the start of `src` into the start of `dst`, stored with
/// non-temporal stores when `STREAM`.
///
/// # Safety
/// AVX-512 F, BW and VBMI; `steps` whole blocks lie inside `src` and `dst`; `dst`
/// is 64-byte aligned when `STREAM`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn blocks<D: Decode, E: Encode, const STREAM: bool>(
    block: &Through<D, E>,
    src: &[u8],
    dst: &mut [u8],
    steps: usize,
) {
    let (stream, far) = (STREAM, src.len() >= PREFETCH_FROM);
    for step in 0..steps {
        let at = src.as_ptr().wrapping_add(D::IN * step);
        if far {
            prefetch(at, D::IN);
        }
        // SAFETY: `step < steps`: the block's `IN` bytes lie inside `src` and its
        // `OUT` inside `dst`; `dst` is 64-byte aligned when `stream`, and so is
        // every block of it (`OUT` is a multiple of 64).
        unsafe {
            block
                .1
                .encode(block.0.decode(at), dst.as_mut_ptr().add(E::OUT * step), stream)
        }
    }
}

/// Stores 64 bytes at `out`, non-temporal when `stream`.
///
/// # Safety
/// 64 writable bytes at `out`, 64-byte aligned when `stream`.
#[inline(always)]
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

// ---- decode: any source of this backend into f32 lanes -----------------------------

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

/// Byte `k` of each of a nibble format's 16 f32 results, for codes 0..=255 (a code
/// is below 16).
const fn nibble_bytes(table: &[u32; 16], k: u32) -> [u8; 256] {
    let mut out = [0; 256];
    let mut i = 0;
    while i < 256 {
        out[i] = (table[i % 16] >> (8 * k)) as u8;
        i += 1;
    }
    out
}

/// The codes of a block in the order that puts the dword unpacks' outputs in
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

/// Reads 64 elements of `S`: f32, f16, bf16, or codes looked up in tables of their
/// results' bytes 3 and 2 (a byte format's 256, a nibble format's 16), whose low 16
/// bits are zero.
pub(crate) struct Reader<S> {
    t3: [__m512i; 4],
    t2: [__m512i; 4],
    order: __m512i,
    source: PhantomData<S>,
}

impl<S: Lanes> Reader<S> {
    /// The tables of `S`'s results, in registers.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn new() -> Self {
        let (b3, b2): (&[u8; 256], &[u8; 256]) = const {
            match S::SOURCE {
                Source::Byte { f32, .. } => (&result_bytes(f32, 3), &result_bytes(f32, 2)),
                Source::Nibble(f32) => (&nibble_bytes(f32, 3), &nibble_bytes(f32, 2)),
                _ => (&[0; 256], &[0; 256]),
            }
        };
        // SAFETY: each table is 256 readable bytes, four vectors, and UNPACK_ORDER
        // 64; `loadu` takes any alignment.
        unsafe {
            let load = |t: &[u8; 256], k: usize| _mm512_loadu_si512(t.as_ptr().add(64 * k) as *const __m512i);
            Reader {
                t3: [load(b3, 0), load(b3, 1), load(b3, 2), load(b3, 3)],
                t2: [load(b2, 0), load(b2, 1), load(b2, 2), load(b2, 3)],
                order: _mm512_loadu_si512(UNPACK_ORDER.as_ptr() as *const __m512i),
                source: PhantomData,
            }
        }
    }

    /// One byte of the results of 64 codes: `vpermi2b` over the low and the high
    /// 128 entries of a 256-byte table, chosen by each code's top bit.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn lookup(codes: __m512i, high: __mmask64, t: &[__m512i; 4]) -> __m512i {
        let low = _mm512_permutex2var_epi8(t[0], codes, t[1]);
        let top = _mm512_permutex2var_epi8(t[2], codes, t[3]);
        _mm512_mask_blend_epi8(high, low, top)
    }

    /// The f32 lanes of 64 codes in element order.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn table_lanes(&self, codes: __m512i) -> [__m512i; 4] {
        let codes = _mm512_permutexvar_epi8(self.order, codes);
        let high = _mm512_movepi8_mask(codes);
        let (hi, lo) = (
            Self::lookup(codes, high, &self.t3),
            Self::lookup(codes, high, &self.t2),
        );
        let (w0, w1) = (_mm512_unpacklo_epi8(lo, hi), _mm512_unpackhi_epi8(lo, hi));
        let zero = _mm512_setzero_si512();
        [
            _mm512_unpacklo_epi16(zero, w0),
            _mm512_unpackhi_epi16(zero, w0),
            _mm512_unpacklo_epi16(zero, w1),
            _mm512_unpackhi_epi16(zero, w1),
        ]
    }
}

impl<S: Lanes> Decode for Reader<S> {
    const IN: usize = 8 * S::SOURCE.bits();

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    unsafe fn decode(&self, at: *const u8) -> F32x64 {
        // SAFETY (every load): the caller guarantees `IN` readable bytes, which is
        // what each source's loads read; `loadu` takes any alignment.
        let v: [__m512i; 4] = match S::SOURCE {
            Source::F32 => array!(4, |k| unsafe {
                _mm512_loadu_si512(at.add(64 * k) as *const __m512i)
            }),
            Source::F16 => array!(4, |k| _mm512_castps_si512(_mm512_cvtph_ps(unsafe {
                _mm256_loadu_si256(at.add(32 * k) as *const __m256i)
            }))),
            Source::BF16 => array!(4, |k| {
                let h = unsafe { _mm256_loadu_si256(at.add(32 * k) as *const __m256i) };
                let v = _mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h));
                // A NaN becomes the quiet NaN of its sign, as the scalar cast gives.
                let a = _mm512_and_si512(v, _mm512_set1_epi32(0x7fff_ffff));
                let nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
                let quiet = _mm512_or_si512(_mm512_xor_si512(v, a), _mm512_set1_epi32(0x7fc0_0000));
                _mm512_mask_mov_epi32(v, nan, quiet)
            }),
            Source::Byte { .. } => self.table_lanes(unsafe { _mm512_loadu_si512(at as *const __m512i) }),
            Source::Nibble(_) => {
                // Each byte in a word, its high nibble moved to the word's high byte:
                // the 64 codes in element order.
                let w = _mm512_cvtepu8_epi16(unsafe { _mm256_loadu_si256(at as *const __m256i) });
                let codes = _mm512_or_si512(
                    _mm512_and_si512(w, _mm512_set1_epi16(0x0f)),
                    _mm512_and_si512(_mm512_slli_epi16::<4>(w), _mm512_set1_epi16(0x0f00)),
                );
                self.table_lanes(codes)
            }
            _ => [_mm512_setzero_si512(); 4],
        };
        array!(4, |k| _mm512_castsi512_ps(v[k]))
    }
}

// ---- encode: f32 lanes into f32, float8, bf16 ---------------------------------------

/// 64 lanes stored as they are.
struct ToF32;

impl Encode for ToF32 {
    const OUT: usize = 256;

    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn encode(&self, x: F32x64, dst: *mut u8, stream: bool) {
        for (k, v) in x.into_iter().enumerate() {
            // SAFETY: the caller guarantees 256 writable bytes, aligned when `stream`.
            unsafe { put(dst.add(64 * k), _mm512_castps_si512(v), stream) }
        }
    }
}

/// 64 lanes into a float8 format with NaN, as [`Rounding`] says, its constants in
/// registers.
pub(crate) struct ToFloat8<T> {
    clamp: __m512,
    threshold: __m512i,
    magic: __m512i,
    shift: __m512i,
    inf_is_nan: bool,
    order: __m512i,
    target: PhantomData<T>,
}

/// The dword order that undoes two levels of 128-bit-lane packs of four vectors:
/// dword `4q + L` of the result is dword `4L + q` of the packs.
const PACK_ORDER: [i32; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// `a | (b & c)`, bit by bit, in one `vpternlog`.
#[inline]
#[target_feature(enable = "avx512f")]
fn or_and(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xf8>(a, b, c)
}

impl<T: Target> ToFloat8<T> {
    /// The block for `r`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(r: &Rounding) -> Self {
        ToFloat8 {
            clamp: _mm512_castsi512_ps(_mm512_set1_epi32(r.clamp as i32)),
            threshold: _mm512_set1_epi32(r.threshold),
            magic: _mm512_set1_epi32(r.magic),
            shift: _mm512_set1_epi32(r.shift),
            inf_is_nan: r.inf_is_nan,
            // SAFETY: `PACK_ORDER` is 64 readable bytes.
            order: unsafe { _mm512_loadu_si512(PACK_ORDER.as_ptr() as *const __m512i) },
            target: PhantomData,
        }
    }

    /// The magnitude codes of 16 lanes, one per i32 lane: `0..=max` for numbers,
    /// above (below 2^15) for the overflow, negative for NaN.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn round16(&self, x: __m512i) -> __m512i {
        let a = _mm512_and_si512(x, _mm512_set1_epi32(0x7fff_ffff));
        // `minps` gives its second operand when either is NaN: the NaN.
        let c = _mm512_min_ps(self.clamp, _mm512_castsi512_ps(a));
        let exp = _mm512_and_si512(_mm512_castps_si512(c), _mm512_set1_epi32(0x7f80_0000));
        let exp = _mm512_max_epi32(exp, self.threshold);
        let b = _mm512_add_epi32(exp, self.magic);
        let sum = _mm512_castps_si512(_mm512_add_ps(c, _mm512_castsi512_ps(b)));
        let code = _mm512_add_epi32(
            _mm512_sub_epi32(sum, b),
            _mm512_srlv_epi32(_mm512_sub_epi32(exp, self.threshold), self.shift),
        );
        if self.inf_is_nan {
            let inf = _mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
            _mm512_mask_mov_epi32(code, inf, _mm512_set1_epi32(-1))
        } else {
            code
        }
    }
}

impl<T: Target> Encode for ToFloat8<T> {
    const OUT: usize = 64;

    /// Magnitudes by [`ToFloat8::round16`], packed with signed saturation, then
    /// the format's NaN or overflow, then the sign (signed packs of the inputs keep
    /// it in bit 7), which the FNUZ formats give no zero.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn encode(&self, x: F32x64, dst: *mut u8, stream: bool) {
        let Sink::Float(s) = T::SINK else { return };
        let x = array!(4, |k| _mm512_castps_si512(x[k]));
        let c = array!(4, |k| self.round16(x[k]));
        let signs = _mm512_packs_epi16(_mm512_packs_epi32(x[0], x[1]), _mm512_packs_epi32(x[2], x[3]));
        let bit7 = _mm512_set1_epi8(0x80u8 as i8);
        let out = match s.non_finite {
            NonFinite::NanNegativeZero => {
                let top = _mm512_set1_epi16(0x80);
                let w0 = _mm512_min_epu16(_mm512_packs_epi32(c[0], c[1]), top);
                let w1 = _mm512_min_epu16(_mm512_packs_epi32(c[2], c[3]), top);
                let u = _mm512_packus_epi16(w0, w1);
                let nonzero = _mm512_test_epi8_mask(u, u);
                _mm512_mask_mov_epi8(u, nonzero, or_and(u, signs, bit7))
            }
            NonFinite::Ieee => {
                let u = _mm512_packs_epi16(_mm512_packs_epi32(c[0], c[1]), _mm512_packs_epi32(c[2], c[3]));
                or_and(_mm512_min_epu8(u, _mm512_set1_epi8(s.nan.0 as i8)), signs, bit7)
            }
            _ => {
                let u = _mm512_packs_epi16(_mm512_packs_epi32(c[0], c[1]), _mm512_packs_epi32(c[2], c[3]));
                or_and(_mm512_min_epu8(u, _mm512_set1_epi8(0x7f)), signs, bit7)
            }
        };
        // SAFETY: the caller guarantees 64 writable bytes, aligned when `stream`.
        unsafe { put(dst, _mm512_permutexvar_epi32(self.order, out), stream) }
    }
}

/// 64 lanes into bf16: rounded by an integer add, ties to even (a subnormal or an
/// overflow to ±∞ comes out right); NaN is `0x7fc0` with its sign.
struct ToBf16;

impl ToBf16 {
    /// 16 lanes rounded, narrowed to 16 bits.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn round(v: __m512i) -> __m256i {
        let a = _mm512_and_si512(v, _mm512_set1_epi32(0x7fff_ffff));
        let nan = _mm512_cmpgt_epi32_mask(a, _mm512_set1_epi32(0x7f80_0000));
        let quiet = _mm512_or_si512(_mm512_xor_si512(v, a), _mm512_set1_epi32(0x7fc0_0000));
        let v = _mm512_mask_mov_epi32(v, nan, quiet);
        let lowest = _mm512_and_si512(_mm512_srli_epi32::<16>(v), _mm512_set1_epi32(1));
        let v = _mm512_add_epi32(_mm512_add_epi32(v, _mm512_set1_epi32(0x7fff)), lowest);
        _mm512_cvtepi32_epi16(_mm512_srli_epi32::<16>(v))
    }
}

impl Encode for ToBf16 {
    const OUT: usize = 128;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn encode(&self, x: F32x64, dst: *mut u8, stream: bool) {
        let h = array!(4, |k| Self::round(_mm512_castps_si512(x[k])));
        // SAFETY: the caller guarantees 128 writable bytes, aligned when `stream`.
        unsafe {
            put(
                dst,
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(h[0]), h[1]),
                stream,
            );
            put(
                dst.add(64),
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(h[2]), h[3]),
                stream,
            );
        }
    }
}

/// f32 into bf16 with `vcvtne2ps2bf16` (AVX512-BF16), 32 lanes in one
/// instruction. It rounds to nearest even as the scalar cast does, but flushes
/// subnormal inputs to zero and keeps NaN payloads, so a half-block that holds
/// either (one `vfpclassps` per 16 lanes finds them) goes through [`ToBf16`].
struct ToBf16Native;

impl Encode for ToBf16Native {
    const OUT: usize = 128;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512bf16")]
    unsafe fn encode(&self, x: F32x64, dst: *mut u8, stream: bool) {
        // NaN (quiet 0x01, signalling 0x80) and subnormal (0x20) lanes.
        const SPECIAL: i32 = 0x01 | 0x20 | 0x80;
        for half in 0..2 {
            let (lo, hi) = (x[2 * half], x[2 * half + 1]);
            let special = _mm512_fpclass_ps_mask::<SPECIAL>(lo) | _mm512_fpclass_ps_mask::<SPECIAL>(hi);
            let words = if special == 0 {
                // SAFETY: `__m512bh` and `__m512i` are the same 64 bytes.
                unsafe { core::mem::transmute::<__m512bh, __m512i>(_mm512_cvtne2ps_pbh(hi, lo)) }
            } else {
                let (lo, hi) = (
                    ToBf16::round(_mm512_castps_si512(lo)),
                    ToBf16::round(_mm512_castps_si512(hi)),
                );
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
            };
            // SAFETY: the caller guarantees 128 writable bytes, aligned when `stream`.
            unsafe { put(dst.add(64 * half), words, stream) }
        }
    }
}

/// f32 into bf16 by [`ToBf16Native`].
///
/// # Safety
/// AVX-512 F, BW, VBMI, DQ and BF16.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512dq,avx512bf16")]
unsafe fn f32_to_bf16_native(src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: the caller's guarantee.
    unsafe { run(&Through(Reader::<f32>::new(), ToBf16Native), src, dst) }
}
