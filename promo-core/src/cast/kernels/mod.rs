//! The fast kernels, and the one place that picks them.
//!
//! [`find`] chooses, once per [`Converter`](super::Converter) (so once per slice
//! call), a kernel that computes exactly what the scalar cast computes, faster:
//!
//! | conversion | AVX2 / F16C ([`x86_avx2`]) | every CPU ([`portable`]) |
//! | --- | --- | --- |
//! | f32 → float8, f4e2m1, f8e8m0, f16, bf16 | arithmetic on 8 lanes, 32 elements a step | the scalar cast |
//! | float8 → f32 | arithmetic on 8 lanes | a 256-entry table of the scalar cast's results |
//! | f4e2m1, i4, u4 → f32 | — | a 16-entry table, two outputs per byte |
//! | bf16 → f32 | shift, NaN made quiet | the same, one at a time |
//! | f16 → f32 | `vcvtph2ps` | the scalar cast |
//! | f32 → i8, u8, i16, u16, i32, u32 | `vcvttps2dq`, narrowed by a shuffle | the same steps in f32, one at a time |
//!
//! Each SIMD kernel runs its whole loop inside one `#[target_feature]` function and
//! returns how many elements it did; the rest of the slice goes through the
//! portable path. The instruction set is read from the CPU ([`Isa::detect`]);
//! [`Isa::Portable`] gives the kernels every CPU runs, which the same tests check.

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;

use super::buffer::{bytes_for, kernel, Kernel};
use super::options::CastOptions;
use super::raw::Raw;
use super::values::{CastSource, CastTarget};
use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, format, i4, u4, RoundMode, Spec};
use crate::DType;
use half::{bf16, f16};
use std::sync::OnceLock;

/// The instruction set the fast kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Isa {
    /// Tables and plain loops: every CPU.
    Portable,
    /// x86-64 with AVX2 and F16C.
    Avx2,
}

impl Isa {
    /// The best the CPU has (the standard library caches the answer).
    #[inline]
    pub(crate) fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("f16c") {
                return Isa::Avx2;
            }
        }
        Isa::Portable
    }
}

/// The fast kernel for `from` into `to` on `isa`, if there is one.
pub(crate) fn find(from: DType, to: DType, isa: Isa) -> Option<Kernel> {
    match isa {
        Isa::Avx2 => find_in::<true>(from, to),
        Isa::Portable => find_in::<false>(from, to),
    }
}

/// [`find`] with the SIMD kernels (`SIMD`) or without.
fn find_in<const SIMD: bool>(from: DType, to: DType) -> Option<Kernel> {
    use DType as D;
    Some(match (from, to) {
        (D::F32, D::F8E4M3FN) if SIMD => encode::<f8e4m3fn, SIMD>,
        (D::F32, D::F8E4M3FNUZ) if SIMD => encode::<f8e4m3fnuz, SIMD>,
        (D::F32, D::F8E5M2) if SIMD => encode::<f8e5m2, SIMD>,
        (D::F32, D::F8E5M2FNUZ) if SIMD => encode::<f8e5m2fnuz, SIMD>,
        (D::F32, D::F4E2M1) if SIMD => encode::<f4e2m1, SIMD>,
        (D::F32, D::F16) if SIMD => encode::<f16, SIMD>,
        (D::F32, D::BF16) if SIMD => encode::<bf16, SIMD>,
        (D::F32, D::F8E8M0) if SIMD => encode_e8m0::<SIMD>,
        (D::F32, D::F64) if SIMD => f32_to_f64::<SIMD>,
        (D::F64, D::F32) if SIMD => f64_to_f32::<SIMD>,
        (D::F16, D::F8E4M3FN) if SIMD => narrow_half::<f16, f8e4m3fn, SIMD>,
        (D::F16, D::F8E4M3FNUZ) if SIMD => narrow_half::<f16, f8e4m3fnuz, SIMD>,
        (D::F16, D::F8E5M2) if SIMD => narrow_half::<f16, f8e5m2, SIMD>,
        (D::F16, D::F8E5M2FNUZ) if SIMD => narrow_half::<f16, f8e5m2fnuz, SIMD>,
        (D::F16, D::F4E2M1) if SIMD => narrow_half::<f16, f4e2m1, SIMD>,
        (D::BF16, D::F8E4M3FN) if SIMD => narrow_half::<bf16, f8e4m3fn, SIMD>,
        (D::BF16, D::F8E4M3FNUZ) if SIMD => narrow_half::<bf16, f8e4m3fnuz, SIMD>,
        (D::BF16, D::F8E5M2) if SIMD => narrow_half::<bf16, f8e5m2, SIMD>,
        (D::BF16, D::F8E5M2FNUZ) if SIMD => narrow_half::<bf16, f8e5m2fnuz, SIMD>,
        (D::BF16, D::F4E2M1) if SIMD => narrow_half::<bf16, f4e2m1, SIMD>,
        (D::F32, D::I8) => f32_to_int::<i8, SIMD>,
        (D::F32, D::U8) => f32_to_int::<u8, SIMD>,
        (D::F32, D::I16) => f32_to_int::<i16, SIMD>,
        (D::F32, D::U16) => f32_to_int::<u16, SIMD>,
        (D::F32, D::I32) => f32_to_int::<i32, SIMD>,
        (D::F32, D::U32) => f32_to_int::<u32, SIMD>,
        (D::F8E4M3FN, D::F32) => bytes_to_f32::<f8e4m3fn, SIMD>,
        (D::F8E4M3FNUZ, D::F32) => bytes_to_f32::<f8e4m3fnuz, SIMD>,
        (D::F8E5M2, D::F32) => bytes_to_f32::<f8e5m2, SIMD>,
        (D::F8E5M2FNUZ, D::F32) => bytes_to_f32::<f8e5m2fnuz, SIMD>,
        (D::F4E2M1, D::F32) => nibbles_to_f32::<f4e2m1, SIMD>,
        (D::I4, D::F32) => nibbles_to_f32::<i4, SIMD>,
        (D::U4, D::F32) => nibbles_to_f32::<u4, SIMD>,
        (D::F8E8M0, D::F32) if SIMD => e8m0_to_f32::<SIMD>,
        (D::BF16, D::F32) => bf16_to_f32::<SIMD>,
        (D::F16, D::F32) if SIMD => f16_to_f32::<SIMD>,
        _ => return None,
    })
}

// ---- the formats the kernels know ----------------------------------------------

/// A target the f32 kernels encode into.
pub(super) trait Target: Raw + CastTarget {
    /// The format.
    const SPEC: Spec;
    /// Whether `saturate` applies (float 8); f4e2m1 always saturates, f16 and bf16
    /// never do.
    const SATURATE: Option<bool>;
}

macro_rules! targets {
    ($($t:ty => $spec:expr, $saturate:expr;)*) => {$(
        impl Target for $t {
            const SPEC: Spec = $spec;
            const SATURATE: Option<bool> = $saturate;
        }
    )*};
}

targets! {
    f8e4m3fn => format::E4M3FN_SPEC, None;
    f8e4m3fnuz => format::E4M3FNUZ_SPEC, None;
    f8e5m2 => format::E5M2_SPEC, None;
    f8e5m2fnuz => format::E5M2FNUZ_SPEC, None;
    f4e2m1 => format::E2M1_SPEC, Some(true);
    f16 => format::F16_SPEC, Some(false);
    bf16 => format::BF16_SPEC, Some(false);
}

/// A float8 format: decoded by nibble lookups with AVX2, through a 256-entry table
/// without it.
pub(super) trait ByteTable: Raw + CastSource {
    /// Where the format keeps its special values: [`FINITE`] (S.1111.111 is NaN),
    /// [`IEEE`] (all-ones exponent: ±inf, NaN) or [`FNUZ`] (0x80 is NaN, no −0).
    const SPECIALS: u8;
    /// The nibble tables of its decoding.
    const TABLES: Float8Tables;
    /// The format's 256-entry table, filled on first use.
    fn table() -> &'static OnceLock<[u32; 256]>;
}

/// A float8 format's decoding as 16-entry tables, one lookup per nibble. Every
/// float8 value has an f32 whose low 16 bits are zero; for a code with high nibble
/// `h` and low nibble `l`, bits 31..24 of that f32 are `a3[h] + b3[l]` and bits
/// 23..16 are `b2[l]` when the exponent field is not zero (sign and the exponent's
/// top three bits in `h`; its other bits, the change of bias and the mantissa in
/// `l`), and `a3[h] + s3[l]`, `s2[l]` when it is (a subnormal `l × 2^(1 − bias −
/// mantissa bits)`, normalised). NaN and infinity are fixed up after.
pub(super) struct Float8Tables {
    pub(super) a3: [u8; 16],
    pub(super) b3: [u8; 16],
    pub(super) b2: [u8; 16],
    pub(super) s3: [u8; 16],
    pub(super) s2: [u8; 16],
    /// The code bits of the exponent field.
    pub(super) exp_field: u8,
    /// What turns the lookups' bytes 3 and 2 for the NaN code (0x7f, or 0x80 in
    /// the FNUZ formats) into those of the quiet NaN of its sign (XOR).
    pub(super) nan_flip: (u8, u8),
}

impl Float8Tables {
    /// The tables of the format with `man` mantissa bits (seven minus the exponent
    /// bits) and exponent bias `bias`.
    const fn new(man: u32, bias: i32, specials: u8) -> Self {
        let exp_bits = 7 - man;
        let mut t = Float8Tables {
            a3: [0; 16],
            b3: [0; 16],
            b2: [0; 16],
            s3: [0; 16],
            s2: [0; 16],
            exp_field: (((1 << exp_bits) - 1) << man) as u8,
            nan_flip: (0, 0),
        };
        let mut i = 0u32;
        while i < 16 {
            // The sign, and the exponent's top three bits, at f32 bit 23 + (exp_bits − 3).
            let a16 = (i >> 3) << 15 | (i & 7) << (exp_bits + 4);
            t.a3[i as usize] = (a16 >> 8) as u8;
            // The exponent's low bits plus the change of bias, and the mantissa.
            let b16 = (((i >> man) as i32 + 127 - bias) << 7) as u32 | (i & ((1 << man) - 1)) << (7 - man);
            t.b3[i as usize] = (b16 >> 8) as u8;
            t.b2[i as usize] = b16 as u8;
            if i > 0 && i < 1 << man {
                // The subnormal `i × 2^(1 − bias − man)`, normalised.
                let p = 31 - i.leading_zeros();
                let exp = p as i32 + 1 - bias - man as i32 + 127;
                let s16 = (exp << 7) as u32 | (i - (1 << p)) << (7 - p);
                t.s3[i as usize] = (s16 >> 8) as u8;
                t.s2[i as usize] = s16 as u8;
            }
            i += 1;
        }
        // The scalar cast gives NaN the sign of its code: 0x7f / 0xff, or 0x80.
        t.nan_flip = match specials {
            FINITE => (t.a3[7].wrapping_add(t.b3[15]) ^ 0x7f, t.b2[15] ^ 0xc0),
            _ => (t.a3[8].wrapping_add(t.s3[0]) ^ 0xff, t.s2[0] ^ 0xc0),
        };
        t
    }
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
            const SPECIALS: u8 = $sp;
            const TABLES: Float8Tables = Float8Tables::new($m, $bias, $sp);
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

tables!(
    bytes: f8e4m3fn = 3, 7, FINITE, f8e4m3fnuz = 3, 8, FNUZ, f8e5m2 = 2, 15, IEEE, f8e5m2fnuz = 2, 16, FNUZ;
    nibbles: f4e2m1, i4, u4
);

/// An integer target of 32 bits or fewer: its width in bytes, and whether it is
/// `u32` (2^31 and above subtracted first).
pub(super) trait IntTarget {
    /// Bytes per element: 1, 2 or 4.
    const BYTES: usize;
    /// `u32`'s rule for values at or above 2^31.
    const U32: bool;
}

macro_rules! int_targets {
    ($($t:ty: $bytes:expr, $u32:expr;)*) => {$(
        impl IntTarget for $t {
            const BYTES: usize = $bytes;
            const U32: bool = $u32;
        }
    )*};
}
int_targets! { i8: 1, false; u8: 1, false; i16: 2, false; u16: 2, false; i32: 4, false; u32: 4, true; }

/// The source of an encoding kernel: f32, or f16 or bf16 widened to f32 exactly
/// on the way in (NaN stays NaN with its sign).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// f32.
    F32,
    /// f16, widened by `vcvtph2ps`.
    F16,
    /// bf16, shifted up.
    BF16,
}

impl Source {
    /// Bytes per element.
    pub(super) const fn size(self) -> usize {
        match self {
            Source::F32 => 4,
            _ => 2,
        }
    }
}

/// f16 and bf16 as sources of the encoding kernels.
pub(super) trait Half: Raw + CastSource {
    /// Which.
    const SOURCE: Source;
}

impl Half for f16 {
    const SOURCE: Source = Source::F16;
}

impl Half for bf16 {
    const SOURCE: Source = Source::BF16;
}

/// Outputs from this size on are written with non-temporal stores (when aligned):
/// they would only push the input out of the cache.
pub(super) const STREAM_FROM: usize = 32 << 20;

// ---- the kernels: the SIMD prefix where the CPU has it, then the portable rest ----

/// `$call` (a SIMD kernel, which returns how many elements it converted) when
/// `$simd` and the CPU has AVX2 and F16C; `0` otherwise.
macro_rules! simd_prefix {
    ($simd:expr, $call:expr) => {{
        #[cfg(target_arch = "x86_64")]
        let done = if $simd && Isa::detect() == Isa::Avx2 {
            // SAFETY: the CPU has AVX2 and F16C (checked just above); the kernels
            // stay inside the slices they are given.
            unsafe { $call }
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let done = 0;
        done
    }};
}

/// f32 into `T`: the SIMD kernel for whole steps, the scalar kernel for the rest.
fn encode<T: Target, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 4], &mut dst[..bytes_for(T::BITS, count)]);
    let saturate = T::SATURATE.unwrap_or(options.saturate);
    // f16 and bf16: a few elements first, so that the SIMD kernel's stores are aligned.
    let head = if T::BITS == 16 && SIMD {
        aligned_head(dst, 2, count)
    } else {
        0
    };
    kernel::<f32, T>(src, dst, head, options);
    let (rest, out) = (&src[head * 4..], &mut dst[head * T::BITS / 8..]);
    let done = head
        + simd_prefix!(
            SIMD,
            match (T::SPEC.bits(), T::SPEC.man_bits) {
                (16, 10) => x86_avx2::f32_to_f16(rest, out),
                (16, _) => x86_avx2::f32_to_bf16(rest, out),
                _ => x86_avx2::to_minifloat::<T>(Source::F32, rest, out, saturate, options.fnuz_inf_is_nan()),
            }
        );
    kernel::<f32, T>(
        &src[done * 4..],
        &mut dst[done * T::BITS / 8..],
        count - done,
        options,
    );
}

/// f16 or bf16 into a float8 format or f4e2m1, directly: each input is
/// widened to f32 exactly in a register and rounded once.
fn narrow_half<S: Half, T: Target, const SIMD: bool>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    options: &CastOptions,
) {
    let (src, dst) = (&src[..count * 2], &mut dst[..bytes_for(T::BITS, count)]);
    let saturate = T::SATURATE.unwrap_or(options.saturate);
    let done = simd_prefix!(
        SIMD,
        x86_avx2::to_minifloat::<T>(S::SOURCE, src, dst, saturate, options.fnuz_inf_is_nan())
    );
    kernel::<S, T>(
        &src[done * 2..],
        &mut dst[done * T::BITS / 8..],
        count - done,
        options,
    );
}

/// f64 into f32.
fn f64_to_f32<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 8], &mut dst[..count * 4]);
    let done = simd_prefix!(SIMD, x86_avx2::f64_to_f32(src, dst));
    kernel::<f64, f32>(&src[done * 8..], &mut dst[done * 4..], count - done, options);
}

/// f32 into f64.
fn f32_to_f64<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 4], &mut dst[..count * 8]);
    let done = simd_prefix!(SIMD, x86_avx2::f32_to_f64(src, dst));
    kernel::<f32, f64>(&src[done * 4..], &mut dst[done * 8..], count - done, options);
}

/// f32 into f8e8m0.
fn encode_e8m0<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let saturate = options.saturate;
    let done = simd_prefix!(
        SIMD,
        match options.round_mode {
            RoundMode::Up => x86_avx2::f32_to_e8m0::<0>(src, dst, count, saturate),
            RoundMode::Down => x86_avx2::f32_to_e8m0::<1>(src, dst, count, saturate),
            RoundMode::Nearest => x86_avx2::f32_to_e8m0::<2>(src, dst, count, saturate),
        }
    );
    kernel::<f32, crate::narrow::f8e8m0>(&src[done * 4..], &mut dst[done..], count - done, options);
}

/// How many elements of `size` bytes, at most `count`, take a large `dst` (one the
/// SIMD kernels write with non-temporal stores) to a 32-byte boundary; 0 for a
/// small one, or if elements cannot reach one.
fn aligned_head(dst: &[u8], size: usize, count: usize) -> usize {
    if dst.len() < STREAM_FROM {
        // Small outputs stay in the cache and are stored as they lie.
        return 0;
    }
    let misalign = dst.as_ptr() as usize % 32;
    if !misalign.is_multiple_of(size) {
        return 0;
    }
    ((32 - misalign) % 32 / size).min(count)
}

/// A float8 format into f32.
fn bytes_to_f32<S: ByteTable, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count], &mut dst[..count * 4]);
    let table = portable::byte_table::<S>();
    // A few elements first, so that the SIMD kernel's stores are aligned.
    let head = if SIMD { aligned_head(dst, 4, count) } else { 0 };
    portable::bytes_to_f32(table, &src[..head], &mut dst[..head * 4]);
    let done = head
        + simd_prefix!(
            SIMD,
            x86_avx2::float8_to_f32::<S>(&src[head..], &mut dst[head * 4..])
        );
    portable::bytes_to_f32(table, &src[done..], &mut dst[done * 4..]);
}

/// A nibble format into f32.
fn nibbles_to_f32<S: NibbleTable, const SIMD: bool>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    _: &CastOptions,
) {
    let table = portable::nibble_table::<S>();
    let (src, dst) = (&src[..count.div_ceil(2)], &mut dst[..count * 4]);
    // Bytes 3 and 2 of each result (the low two are zero for every nibble format).
    let t3: [u8; 16] = std::array::from_fn(|n| (table[n] >> 24) as u8);
    let t2: [u8; 16] = std::array::from_fn(|n| (table[n] >> 16) as u8);
    debug_assert!(table.iter().all(|x| x & 0xffff == 0));
    let done = simd_prefix!(SIMD, x86_avx2::nibbles_to_f32(&src[..count / 2], dst, &t3, &t2));
    portable::nibbles_to_f32(table, &src[done / 2..], &mut dst[done * 4..], count - done);
}

/// f8e8m0 into f32.
fn e8m0_to_f32<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count], &mut dst[..count * 4]);
    let head = aligned_head(dst, 4, count);
    kernel::<crate::narrow::f8e8m0, f32>(src, dst, head, options);
    let done = head + simd_prefix!(SIMD, x86_avx2::e8m0_to_f32(&src[head..], &mut dst[head * 4..]));
    kernel::<crate::narrow::f8e8m0, f32>(&src[done..], &mut dst[done * 4..], count - done, options);
}

/// bf16 into f32.
fn bf16_to_f32<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * 2], &mut dst[..count * 4]);
    let head = if SIMD { aligned_head(dst, 4, count) } else { 0 };
    portable::bf16_to_f32(&src[..head * 2], &mut dst[..head * 4]);
    let done = head
        + simd_prefix!(
            SIMD,
            x86_avx2::bf16_to_f32(&src[head * 2..], &mut dst[head * 4..])
        );
    portable::bf16_to_f32(&src[done * 2..], &mut dst[done * 4..]);
}

/// f16 into f32.
fn f16_to_f32<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 2], &mut dst[..count * 4]);
    let head = aligned_head(dst, 4, count);
    kernel::<f16, f32>(src, dst, head, options);
    let done = head + simd_prefix!(SIMD, x86_avx2::f16_to_f32(&src[head * 2..], &mut dst[head * 4..]));
    kernel::<f16, f32>(&src[done * 2..], &mut dst[done * 4..], count - done, options);
}

/// f32 into an integer of 32 bits or fewer.
fn f32_to_int<T: IntTarget, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * 4], &mut dst[..count * T::BYTES]);
    let done = simd_prefix!(SIMD, x86_avx2::f32_to_int::<T>(src, dst));
    portable::f32_to_int::<T>(&src[done * 4..], &mut dst[done * T::BYTES..]);
}

#[cfg(test)]
mod tests;
