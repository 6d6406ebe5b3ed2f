//! What the kernels know of each element type, all of it derived: the narrow
//! formats' parameters and decode tables from their [`Spec`] (computed at compile
//! time), the integers' widths and signs from the element table.

use super::super::raw::Raw;
use super::super::values::{CastSource, CastTarget};
use crate::element::for_each_element;
use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, format, i4, u4};
use crate::narrow::{Format, Minifloat, NonFinite, Spec};
use half::{bf16, f16};

// ---- targets -------------------------------------------------------------------

/// A target the f32 kernels encode into: a narrow float, f16 or bf16.
pub(crate) trait Target: Raw + CastTarget {
    /// The format.
    const SPEC: Spec;
    /// Whether the kernels saturate regardless of the options (`Some`): f16 and bf16
    /// never do; a narrow float follows [`CastOptions::saturates`](super::super::CastOptions::saturates)
    /// (a format without ±∞ or NaN clamps either way).
    const SATURATE: Option<bool>;
}

impl<F: Format> Target for Minifloat<F>
where
    Self: Raw + CastTarget,
{
    const SPEC: Spec = F::SPEC;
    const SATURATE: Option<bool> = None;
}

impl Target for f16 {
    const SPEC: Spec = format::F16_SPEC;
    const SATURATE: Option<bool> = Some(false);
}

impl Target for bf16 {
    const SPEC: Spec = format::BF16_SPEC;
    const SATURATE: Option<bool> = Some(false);
}

/// The constants of rounding f32 into one narrow float format, lane by lane.
///
/// A magnitude `c`, clamped, is rounded to the format's grid by the FPU: adding
/// `b = 2^(max(e, emin) + 23 − m)` (`e` its exponent, `emin` the format's smallest
/// normal exponent, `m` its mantissa bits) leaves the sum's last place at the
/// format's last place in `c`'s binade, so the addition rounds to nearest even.
/// The sum's bits minus `b`'s are then the rounded significand (1.f × 2^m, or the
/// subnormal multiple of the smallest step), and adding the exponent above `emin`
/// shifted into place gives the code; a carry into the next binade comes out right.
/// Every backend broadcasts these into its vectors.
pub(crate) struct Rounding {
    /// The largest magnitude kept (f32 bits): the format's max with `saturate`;
    /// else one that encodes as the overflow (∞ in E5M2; past the codes elsewhere).
    pub(crate) clamp: u32,
    /// `emin`'s f32 exponent field.
    pub(crate) threshold: i32,
    /// `23 − m` in the exponent field.
    pub(crate) magic: i32,
    /// `23 − m`.
    pub(crate) shift: i32,
    /// Magnitudes above this are NaN (from 0x7f7f_ffff: ±∞ too, in the FNUZ formats
    /// before opset 24).
    pub(crate) nan_above: i32,
    /// Whether NaN needs a code of its own (else clamping gives it the overflow's).
    pub(crate) mark_nan: bool,
}

impl Rounding {
    /// The constants of `spec` with `saturate` and, for the FNUZ formats, whether
    /// ±∞ is NaN even when saturating.
    pub(crate) const fn new(spec: &Spec, saturate: bool, fnuz_inf_is_nan: bool) -> Rounding {
        let m = spec.man_bits as i32;
        let max_code = spec.max_code() as i32;
        let (max_e, max_m) = (max_code >> m, max_code & ((1 << m) - 1));
        let max = ((max_e - spec.bias + 127) << 23) | (max_m << (23 - m));
        let (clamp, mark_nan) = match (saturate, spec.non_finite) {
            (true, _) | (_, NonFinite::None) => (max, true),
            // 2^(all-ones exponent − bias): the code of ∞.
            (false, NonFinite::Ieee) => ((((1 << spec.exp_bits) - 1 - spec.bias) + 127) << 23, true),
            // 2^20: past every code, as NaN is.
            (false, _) => ((20 + 127) << 23, false),
        };
        let fnuz = matches!(spec.non_finite, NonFinite::NanNegativeZero);
        Rounding {
            clamp: clamp as u32,
            threshold: (128 - spec.bias) << 23,
            magic: (23 - m) << 23,
            shift: 23 - m,
            nan_above: if fnuz && saturate && fnuz_inf_is_nan {
                0x7f7f_ffff
            } else {
                0x7f80_0000
            },
            mark_nan,
        }
    }
}

// ---- sources decoded by table --------------------------------------------------

/// A narrow float stored one code per byte (float8, float6): decoded through the
/// f32 values of all 256 bytes.
pub(crate) trait ByteTable: Raw + CastSource {
    /// The format.
    const SPEC: Spec;
    /// The f32 bits of each byte's value (the code in its low bits, as the scalar
    /// cast reads it), computed from [`Spec::f32_bits`] at compile time.
    const F32: [u32; 256];
}

impl<F: Format> ByteTable for Minifloat<F>
where
    Self: Raw + CastSource,
{
    const SPEC: Spec = F::SPEC;
    const F32: [u32; 256] = byte_table(&F::SPEC);
}

/// The f32 bits of every byte read as a code of `spec` (high bits past the code
/// ignored).
const fn byte_table(spec: &Spec) -> [u32; 256] {
    let mask = (1u32 << spec.bits()) - 1;
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = spec.f32_bits(b as u32 & mask);
        b += 1;
    }
    table
}

/// A source of two elements per byte (the first in the low nibble), decoded
/// through a 16-entry table.
pub(crate) trait NibbleTable: Raw + CastSource {
    /// The f32 bits of each of the 16 codes.
    const F32: [u32; 16];
}

impl NibbleTable for f4e2m1 {
    const F32: [u32; 16] = {
        let all = byte_table(&<f4e2m1 as Target>::SPEC);
        let mut table = [0; 16];
        let mut n = 0;
        while n < 16 {
            table[n] = all[n];
            n += 1;
        }
        table
    };
}

impl NibbleTable for i4 {
    const F32: [u32; 16] = int_nibbles(true);
}

impl NibbleTable for u4 {
    const F32: [u32; 16] = int_nibbles(false);
}

/// The f32 bits of the 16 four-bit integers, two's complement when `signed`.
const fn int_nibbles(signed: bool) -> [u32; 16] {
    let mut table = [0; 16];
    let mut n = 0;
    while n < 16 {
        let value = if signed { (n as i32) << 28 >> 28 } else { n as i32 };
        table[n] = (value as f32).to_bits();
        n += 1;
    }
    table
}

/// A float8 format's decoding as 16-entry tables, one lookup per nibble (what the
/// AVX2 kernels decode with), derived from its [`Spec`]. Every float8 value has an
/// f32 whose low 16 bits are zero; for a code with high nibble `h` and low nibble
/// `l`, bits 31..24 of that f32 are `a3[h] + b3[l]` and bits 23..16 are `b2[l]`
/// when the exponent field is not zero (sign and the exponent's top three bits in
/// `h`; its other bits, the change of bias and the mantissa in `l`), and `a3[h] +
/// s3[l]`, `s2[l]` when it is (a subnormal `l × 2^(1 − bias − mantissa bits)`,
/// normalised). NaN and infinity are fixed up after.
pub(crate) struct Float8Tables {
    pub(crate) a3: [u8; 16],
    pub(crate) b3: [u8; 16],
    pub(crate) b2: [u8; 16],
    pub(crate) s3: [u8; 16],
    pub(crate) s2: [u8; 16],
    /// The code bits of the exponent field.
    pub(crate) exp_field: u8,
    /// Where the format keeps its special values.
    pub(crate) non_finite: NonFinite,
    /// What turns the lookups' bytes 3 and 2 for the NaN code (0x7f, or 0x80 in
    /// the FNUZ formats) into those of the quiet NaN of its sign (XOR).
    pub(crate) nan_flip: (u8, u8),
}

impl Float8Tables {
    /// The tables of an 8-bit format.
    pub(crate) const fn new(spec: &Spec) -> Self {
        let (man, exp_bits, bias) = (spec.man_bits, spec.exp_bits, spec.bias);
        let mut t = Float8Tables {
            a3: [0; 16],
            b3: [0; 16],
            b2: [0; 16],
            s3: [0; 16],
            s2: [0; 16],
            exp_field: (((1 << exp_bits) - 1) << man) as u8,
            non_finite: spec.non_finite,
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
        t.nan_flip = match spec.non_finite {
            NonFinite::NanNegativeZero => (t.a3[8].wrapping_add(t.s3[0]) ^ 0xff, t.s2[0] ^ 0xc0),
            NonFinite::NanAllOnes => (t.a3[7].wrapping_add(t.b3[15]) ^ 0x7f, t.b2[15] ^ 0xc0),
            // IEEE NaNs are set whole; a format without NaN has nothing to flip.
            NonFinite::Ieee | NonFinite::None => (0, 0),
        };
        t
    }
}

// ---- how the SIMD kernels read a source ----------------------------------------

/// How the SIMD kernels read a source, a block of elements at a time.
#[derive(Clone, Copy)]
pub(crate) enum Source {
    /// f32.
    F32,
    /// f16, widened by `vcvtph2ps`.
    F16,
    /// bf16, shifted up.
    BF16,
    /// f64.
    F64,
    /// A float8 format, decoded by its nibble tables.
    Float8(&'static Float8Tables),
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
    pub(crate) const fn size(self) -> usize {
        match self {
            Source::F32 => 4,
            Source::F16 | Source::BF16 => 2,
            Source::F64 => 8,
            Source::Float8(_) | Source::E8M0 | Source::Bool => 1,
            Source::Int { bytes, .. } => bytes,
        }
    }
}

/// A source the SIMD kernels read.
pub(crate) trait Lanes: Raw + CastSource {
    /// How they read it.
    const SOURCE: Source;
    /// A float8 format's 256 f32 results (what the portable kernels decode by).
    const F32_TABLE: Option<&'static [u32; 256]> = None;
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
    f8e8m0 => Source::E8M0;
}

/// The float8 formats the SIMD kernels read as a source, each from its `Spec`.
macro_rules! float8_lanes {
    ($($t:ty),*) => {$(
        impl Lanes for $t {
            const SOURCE: Source = Source::Float8(&Float8Tables::new(&<$t as ByteTable>::SPEC));
            const F32_TABLE: Option<&'static [u32; 256]> = Some(&<$t as ByteTable>::F32);
        }
    )*};
}

float8_lanes!(f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz);

// ---- integers ------------------------------------------------------------------

/// An integer element type, or bool, as the integer kernels see it.
pub(crate) trait Int: Lanes + CastTarget {
    /// Bytes per element.
    const BYTES: usize;
    /// Whether it is sign-extended when widened.
    const SIGNED: bool;
    /// Whether it is bool (nonzero is true; read as 0 or 1).
    const BOOL: bool;
    /// `u32`, whose rule from floats at or above 2^31 differs (see
    /// [`FloatToInt`](super::super::values::FloatToInt)).
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
