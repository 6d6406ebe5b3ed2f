//! The fast kernels, and the one place that picks them.
//!
//! [`find`] chooses, once per [`Converter`](super::Converter) (so once per slice
//! call), a kernel that computes exactly what the scalar cast computes, faster:
//!
//! | conversion | AVX2 / F16C ([`x86_avx2`]) | every CPU ([`portable`]) |
//! | --- | --- | --- |
//! | f32, f16, bf16 → float8, f4e2m1; f32 → f8e8m0, f16, bf16 | arithmetic on 8 lanes, 32 elements a step | the scalar cast |
//! | float8 → f32 | nibble lookups on 32 lanes | a 256-entry table of the scalar cast's results |
//! | f4e2m1, i4, u4 → f32 | a 16-entry lookup | the same, two outputs per byte |
//! | bf16 → f32 | shift, NaN made quiet | the same, one at a time |
//! | f16 → f32 | `vcvtph2ps` | the scalar cast |
//! | f32 ↔ f64 | `vcvtps2pd` (signalling NaN kept) / `vcvtpd2ps` | the scalar cast |
//! | integer, bool ↔ integer, bool | `vpmovsx` / `vpmovzx`; masked packs; compare with zero | `as`, one at a time (the same bits: a copy) |
//! | integer, bool → f32, f64 | `vcvtdq2ps`, `vcvtdq2pd`; u32 and 64-bit by halves, rounded once | `as`, one at a time |
//! | integer, bool → f16, bf16, float8, f4e2m1, f8e8m0 | to f32 (past 2^24 rounded to odd for bf16 and f8e8m0), then the f32 encoders | the scalar cast |
//! | f32, f64, f16, bf16, float8, f8e8m0 → integers | `vcvttps2dq` / `vcvttpd2dq`, narrowed by packs; 64-bit by shifting the mantissa | f32 and float8 (through their f32 table) in f32 arithmetic; the rest the scalar cast |
//!
//! Each SIMD kernel runs its whole loop inside one `#[target_feature]` function and
//! returns how many elements it did; the rest of the slice goes through the
//! portable path. Outputs of [`STREAM_FROM`] bytes or more are written with
//! non-temporal stores, after a few elements that align the destination. The
//! instruction set is read from the CPU ([`Isa::detect`]); [`Isa::Portable`] gives
//! the kernels every CPU runs, which the same tests check.

mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;

use super::buffer::{bytes_for, kernel, Kernel};
use super::options::CastOptions;
use super::raw::Raw;
use super::values::{CastSource, CastTarget};
use crate::element::for_each_element;
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
    // Integers (bool among them) into anything, floats into integers.
    let int = if from.is_integer() || from.is_bool() {
        from_int::<SIMD>(from, to)
    } else if to.is_integer() {
        match from {
            D::F32 => float_into_int::<f32, SIMD>(to),
            D::F8E4M3FN => float_into_int::<f8e4m3fn, SIMD>(to),
            D::F8E4M3FNUZ => float_into_int::<f8e4m3fnuz, SIMD>(to),
            D::F8E5M2 => float_into_int::<f8e5m2, SIMD>(to),
            D::F8E5M2FNUZ => float_into_int::<f8e5m2fnuz, SIMD>(to),
            _ if !SIMD => None,
            D::F64 => float_into_int::<f64, SIMD>(to),
            D::F16 => float_into_int::<f16, SIMD>(to),
            D::BF16 => float_into_int::<bf16, SIMD>(to),
            D::F8E8M0 => float_into_int::<crate::narrow::f8e8m0, SIMD>(to),
            _ => None,
        }
    } else {
        None
    };
    if int.is_some() {
        return int;
    }
    Some(match (from, to) {
        (D::F32, D::F8E4M3FN) if SIMD => encode::<f32, f8e4m3fn, SIMD>,
        (D::F32, D::F8E4M3FNUZ) if SIMD => encode::<f32, f8e4m3fnuz, SIMD>,
        (D::F32, D::F8E5M2) if SIMD => encode::<f32, f8e5m2, SIMD>,
        (D::F32, D::F8E5M2FNUZ) if SIMD => encode::<f32, f8e5m2fnuz, SIMD>,
        (D::F32, D::F4E2M1) if SIMD => encode::<f32, f4e2m1, SIMD>,
        (D::F32, D::F16) if SIMD => encode::<f32, f16, SIMD>,
        (D::F32, D::BF16) if SIMD => encode::<f32, bf16, SIMD>,
        (D::F32, D::F8E8M0) if SIMD => encode_e8m0::<f32, SIMD>,
        (D::F32, D::F64) if SIMD => f32_to_f64::<SIMD>,
        (D::F64, D::F32) if SIMD => f64_to_f32::<SIMD>,
        (D::F16, D::F8E4M3FN) if SIMD => encode::<f16, f8e4m3fn, SIMD>,
        (D::F16, D::F8E4M3FNUZ) if SIMD => encode::<f16, f8e4m3fnuz, SIMD>,
        (D::F16, D::F8E5M2) if SIMD => encode::<f16, f8e5m2, SIMD>,
        (D::F16, D::F8E5M2FNUZ) if SIMD => encode::<f16, f8e5m2fnuz, SIMD>,
        (D::F16, D::F4E2M1) if SIMD => encode::<f16, f4e2m1, SIMD>,
        (D::BF16, D::F8E4M3FN) if SIMD => encode::<bf16, f8e4m3fn, SIMD>,
        (D::BF16, D::F8E4M3FNUZ) if SIMD => encode::<bf16, f8e4m3fnuz, SIMD>,
        (D::BF16, D::F8E5M2) if SIMD => encode::<bf16, f8e5m2, SIMD>,
        (D::BF16, D::F8E5M2FNUZ) if SIMD => encode::<bf16, f8e5m2fnuz, SIMD>,
        (D::BF16, D::F4E2M1) if SIMD => encode::<bf16, f4e2m1, SIMD>,
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
        }
        impl Lanes for $b {
            const SOURCE: Source = Source::Float8 { tables: &<$b as ByteTable>::TABLES, specials: $sp };
            fn f32_table() -> Option<&'static [u32; 256]> {
                Some(portable::byte_table::<$b>())
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

/// How the SIMD kernels read a source, 32 elements at a time.
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// f32.
    F32,
    /// f16, widened by `vcvtph2ps`.
    F16,
    /// bf16, shifted up.
    BF16,
    /// f64.
    F64,
    /// A float8 format, decoded by nibble lookups.
    Float8 {
        /// Its nibble tables.
        tables: &'static Float8Tables,
        /// Where it keeps its special values ([`FINITE`], [`IEEE`], [`FNUZ`]).
        specials: u8,
    },
    /// f8e8m0, shifted into the exponent field.
    E8M0,
    /// bool: one byte, zero or not.
    Bool,
    /// An integer of `bytes` bytes, two's complement when `signed`.
    Int {
        /// 1, 2, 4 or 8.
        bytes: usize,
        /// Whether it is sign-extended.
        signed: bool,
    },
}

impl Source {
    /// Bytes per element.
    pub(super) const fn size(self) -> usize {
        match self {
            Source::F32 => 4,
            Source::F16 | Source::BF16 => 2,
            Source::F64 => 8,
            Source::Float8 { .. } | Source::E8M0 | Source::Bool => 1,
            Source::Int { bytes, .. } => bytes,
        }
    }
}

/// A source the SIMD kernels read.
pub(super) trait Lanes: Raw + CastSource {
    /// How they read it.
    const SOURCE: Source;
    /// A float8 format's 256 f32 results (what the portable kernels decode by).
    fn f32_table() -> Option<&'static [u32; 256]> {
        None
    }
}

macro_rules! lanes {
    ($($t:ty => $source:expr;)*) => {$(
        impl Lanes for $t {
            const SOURCE: Source = $source;
        }
    )*};
}

lanes! {
    f32 => Source::F32;
    f16 => Source::F16;
    bf16 => Source::BF16;
    f64 => Source::F64;
    crate::narrow::f8e8m0 => Source::E8M0;
}

/// An integer element type, or bool, as the integer kernels see it.
pub(super) trait Int: Lanes + CastTarget {
    /// Bytes per element.
    const BYTES: usize;
    /// Whether it is sign-extended when widened.
    const SIGNED: bool;
    /// Whether it is bool (nonzero is true; read as 0 or 1).
    const BOOL: bool;
    /// `u32`, whose rule from floats at or above 2^31 differs (see
    /// [`FloatToInt`](super::values::FloatToInt)).
    const U32: bool = Self::BYTES == 4 && !Self::SIGNED && !Self::BOOL;
    /// Sign- or zero-extended (bool: 0 or 1).
    fn to_i64(self) -> i64;
    /// The low bits of `x` (bool: whether it is nonzero).
    fn from_i64(x: i64) -> Self;
    /// The nearest f32, ties to even.
    fn to_f32(self) -> f32;
    /// The nearest f64, ties to even.
    fn to_f64(self) -> f64;
}

/// The [`Lanes`] and [`Int`] impls of the integer rows of the element table.
macro_rules! ints {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(ints!(@$layout $t);)*
    };
    (@int $t:ty) => {
        impl Lanes for $t {
            const SOURCE: Source = Source::Int { bytes: <$t>::BITS as usize / 8, signed: <$t>::MIN != 0 };
        }
        impl Int for $t {
            const BYTES: usize = <$t>::BITS as usize / 8;
            const SIGNED: bool = <$t>::MIN != 0;
            const BOOL: bool = false;
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn from_i64(x: i64) -> Self {
                x as $t
            }
            #[inline]
            fn to_f32(self) -> f32 {
                self as f32
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
    (@bool $t:ty) => {
        impl Lanes for bool {
            const SOURCE: Source = Source::Bool;
        }
        impl Int for bool {
            const BYTES: usize = 1;
            const SIGNED: bool = false;
            const BOOL: bool = true;
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn from_i64(x: i64) -> Self {
                x != 0
            }
            #[inline]
            fn to_f32(self) -> f32 {
                self as u8 as f32
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as u8 as f64
            }
        }
    };
    (@$other:ident $t:ty) => {};
}
for_each_element!(ints);

/// The kernel tables of the integer rows of the element table (bool among them):
/// every integer into every other, every integer into the floats, and the floats
/// into every integer.
macro_rules! int_kernels {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        int_kernels!(@pick [] $($dtype $t, $layout;)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, int; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)* $dtype $t;] $($rest)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, bool; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)* $dtype $t;] $($rest)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, $other:ident; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)*] $($rest)*);
    };
    (@pick [$($dtype:ident $t:ty;)*]) => {
        /// The kernel from the integer (or bool) `from`, if there is one.
        fn from_int<const SIMD: bool>(from: DType, to: DType) -> Option<Kernel> {
            match from {
                $(DType::$dtype => int_source::<$t, SIMD>(to),)*
                _ => None,
            }
        }

        /// The kernel from `S` into the integer (or bool) `to`, if there is one.
        fn into_int<S: Int, const SIMD: bool>(to: DType) -> Option<Kernel> {
            match to {
                $(DType::$dtype => Some(int_to_int::<S, $t, SIMD>),)*
                _ => None,
            }
        }

        /// The kernel from the float `S` into the integer `to`, if there is one.
        fn float_into_int<S: Lanes, const SIMD: bool>(to: DType) -> Option<Kernel> {
            match to {
                // Floats into bool are left to the scalar kernel.
                $(DType::$dtype if !<$t as Int>::BOOL => Some(to_int::<S, $t, SIMD>),)*
                _ => None,
            }
        }
    };
}
for_each_element!(int_kernels);

/// The kernel from the integer (or bool) `S` into `to`, if there is one.
fn int_source<S: Int, const SIMD: bool>(to: DType) -> Option<Kernel> {
    use DType as D;
    Some(match to {
        D::F32 => int_to_f32::<S, SIMD>,
        D::F64 => int_to_f64::<S, SIMD>,
        _ if !SIMD => return into_int::<S, SIMD>(to),
        D::F16 => encode::<S, f16, SIMD>,
        D::BF16 => encode::<S, bf16, SIMD>,
        D::F8E4M3FN => encode::<S, f8e4m3fn, SIMD>,
        D::F8E4M3FNUZ => encode::<S, f8e4m3fnuz, SIMD>,
        D::F8E5M2 => encode::<S, f8e5m2, SIMD>,
        D::F8E5M2FNUZ => encode::<S, f8e5m2fnuz, SIMD>,
        D::F4E2M1 => encode::<S, f4e2m1, SIMD>,
        D::F8E8M0 => encode_e8m0::<S, SIMD>,
        _ => return into_int::<S, SIMD>(to),
    })
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

/// `S` (f32, f16, bf16 or an integer) into `T`: the SIMD kernel for whole steps,
/// the scalar kernel for the rest. Each input is widened to f32 in a register:
/// exactly, or, an integer past 2^24, rounded so that `T` rounds once (to odd
/// for bf16; to nearest for the formats that overflow long before).
fn encode<S: Lanes, T: Target, const SIMD: bool>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    options: &CastOptions,
) {
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..bytes_for(T::BITS, count)]);
    let saturate = T::SATURATE.unwrap_or(options.saturates(T::SPEC.reference));
    // f16 and bf16: a few elements first, so that the SIMD kernel's stores are aligned.
    let head = if T::BITS == 16 && SIMD {
        aligned_head(dst, 2, count)
    } else {
        0
    };
    kernel::<S, T>(src, dst, head, options);
    let (rest, out) = (&src[head * size..], &mut dst[head * T::BITS / 8..]);
    let done = head
        + simd_prefix!(
            SIMD,
            match (T::SPEC.bits(), T::SPEC.man_bits) {
                (16, 10) => x86_avx2::to_f16::<S>(rest, out),
                (16, _) => x86_avx2::to_bf16::<S>(rest, out),
                _ => x86_avx2::to_minifloat::<S, T>(rest, out, saturate, options.fnuz_inf_is_nan()),
            }
        );
    kernel::<S, T>(
        &src[done * size..],
        &mut dst[done * T::BITS / 8..],
        count - done,
        options,
    );
}

/// f64 into f32.
fn f64_to_f32<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 8], &mut dst[..count * 4]);
    let head = aligned_head(dst, 4, count);
    kernel::<f64, f32>(src, dst, head, options);
    let done = head + simd_prefix!(SIMD, x86_avx2::f64_to_f32(&src[head * 8..], &mut dst[head * 4..]));
    kernel::<f64, f32>(&src[done * 8..], &mut dst[done * 4..], count - done, options);
}

/// f32 into f64.
fn f32_to_f64<const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 4], &mut dst[..count * 8]);
    let head = aligned_head(dst, 8, count);
    kernel::<f32, f64>(src, dst, head, options);
    let done = head + simd_prefix!(SIMD, x86_avx2::f32_to_f64(&src[head * 4..], &mut dst[head * 8..]));
    kernel::<f32, f64>(&src[done * 4..], &mut dst[done * 8..], count - done, options);
}

/// `S` (f32 or an integer) into f8e8m0.
fn encode_e8m0<S: Lanes, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    use crate::narrow::f8e8m0;
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..count]);
    let saturate = options.saturates(crate::narrow::Reference::Onnx);
    let done = simd_prefix!(
        SIMD,
        match options.round_mode {
            RoundMode::Up => x86_avx2::to_e8m0::<S, 0>(src, dst, saturate),
            RoundMode::Down => x86_avx2::to_e8m0::<S, 1>(src, dst, saturate),
            RoundMode::Nearest => x86_avx2::to_e8m0::<S, 2>(src, dst, saturate),
        }
    );
    kernel::<S, f8e8m0>(&src[done * size..], &mut dst[done..], count - done, options);
}

/// How many elements of `size` bytes, at most `count`, take `dst` to a 32-byte
/// boundary (0 if elements cannot reach one). The SIMD kernels then store whole
/// vectors that never straddle two cache lines (about a fifth faster in the cache),
/// and a large output can be written with non-temporal stores.
fn aligned_head(dst: &[u8], size: usize, count: usize) -> usize {
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
    // A few whole bytes first, so that the SIMD kernel's stores are aligned.
    let head = if SIMD { aligned_head(dst, 4, count) } else { 0 };
    let head = if head % 2 == 0 { head } else { 0 };
    portable::nibbles_to_f32(table, &src[..head / 2], &mut dst[..head * 4], head);
    let done = head
        + simd_prefix!(
            SIMD,
            x86_avx2::nibbles_to_f32(&src[head / 2..count / 2], &mut dst[head * 4..], &t3, &t2)
        );
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

/// An integer (or bool) into another: the same bits when only the sign differs,
/// else widened (sign- or zero-extended) or narrowed (the low bits kept); bool is 0
/// or 1 in, nonzero out.
fn int_to_int<S: Int, T: Int, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * T::BYTES]);
    if S::BYTES == T::BYTES && !S::BOOL && !T::BOOL {
        dst.copy_from_slice(src);
        return;
    }
    let head = if SIMD {
        aligned_head(dst, T::BYTES, count)
    } else {
        0
    };
    portable::int_to_int::<S, T>(&src[..head * S::BYTES], &mut dst[..head * T::BYTES]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * T::BYTES..]);
    let done = head + simd_prefix!(SIMD, x86_avx2::int_to_int::<S, T>(rest, out));
    portable::int_to_int::<S, T>(&src[done * S::BYTES..], &mut dst[done * T::BYTES..]);
}

/// An integer (or bool) into f32, rounded once to nearest even.
fn int_to_f32<S: Int, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * 4]);
    let head = if SIMD { aligned_head(dst, 4, count) } else { 0 };
    portable::int_to_f32::<S>(&src[..head * S::BYTES], &mut dst[..head * 4]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * 4..]);
    let done = head + simd_prefix!(SIMD, x86_avx2::to_f32::<S>(rest, out));
    portable::int_to_f32::<S>(&src[done * S::BYTES..], &mut dst[done * 4..]);
}

/// An integer (or bool) into f64, rounded once to nearest even (exact below 2^53).
fn int_to_f64<S: Int, const SIMD: bool>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * 8]);
    let head = if SIMD { aligned_head(dst, 8, count) } else { 0 };
    portable::int_to_f64::<S>(&src[..head * S::BYTES], &mut dst[..head * 8]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * 8..]);
    let done = head + simd_prefix!(SIMD, x86_avx2::to_f64::<S>(rest, out));
    portable::int_to_f64::<S>(&src[done * S::BYTES..], &mut dst[done * 8..]);
}

/// A float into an integer, as x86 `cvtt` gives it (see
/// [`FloatToInt`](super::values::FloatToInt)). Without SIMD: f32 into an integer
/// of 32 bits or fewer in f32 arithmetic, a float8 format through its table of
/// f32 values, the rest through the scalar kernel.
fn to_int<S: Lanes, T: Int, const SIMD: bool>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    options: &CastOptions,
) {
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..count * T::BYTES]);
    let rest = |src: &[u8], dst: &mut [u8], n: usize| match (S::SOURCE, S::f32_table()) {
        (Source::F32, _) if T::BYTES <= 4 => portable::f32_to_int::<T>(src, dst),
        (_, Some(table)) => portable::float8_to_int::<T>(table, src, dst),
        _ => kernel::<S, T>(src, dst, n, options),
    };
    let head = if SIMD {
        aligned_head(dst, T::BYTES, count)
    } else {
        0
    };
    rest(&src[..head * size], &mut dst[..head * T::BYTES], head);
    let (middle, out) = (&src[head * size..], &mut dst[head * T::BYTES..]);
    let done = head + simd_prefix!(SIMD, x86_avx2::to_int::<S, T>(middle, out));
    rest(&src[done * size..], &mut dst[done * T::BYTES..], count - done);
}

#[cfg(test)]
mod tests;
