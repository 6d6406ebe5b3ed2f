//! What the kernels know of each element type, all of it derived: the narrow
//! formats' parameters and decode tables from their [`Spec`] (computed at compile
//! time), the integers' widths and signs from the element table.

use super::super::raw::Raw;
use super::super::values::{CastSource, CastTarget};
use crate::element::for_each_element;
use crate::narrow::{f4e2m1, format, i4, u4};
use crate::narrow::{Format, Minifloat, NonFinite, Reference, Spec};
use half::{bf16, f16};

// ---- rounding into a float format ----------------------------------------------

/// The constants of rounding f32 into one narrow float format, lane by lane.
///
/// A magnitude `c`, clamped, is rounded to the format's grid by the FPU: adding
/// `b = 2^(max(e, emin) + 23 − m)` (`e` its exponent, `emin` the format's smallest
/// normal exponent, `m` its mantissa bits) leaves the sum's last place at the
/// format's last place in `c`'s binade, so the addition rounds to nearest even.
/// The sum's bits minus `b`'s are then the rounded significand (1.f × 2^m, or the
/// subnormal multiple of the smallest step), and adding the exponent above `emin`
/// shifted into place gives the code; a carry into the next binade comes out right.
///
/// NaN costs nothing: the clamp is `min(clamp, c)`, which gives NaN back, and a
/// NaN's sum is the NaN itself, whose bits minus `b`'s (`b` at least 2^128 there,
/// negative as an i32) are negative. So a lane's code is `0..=max` for a number,
/// above `max` (below 2^15) for the overflow where the clamp lets it through, and
/// negative for NaN: packs with signed saturation keep the three apart. Every
/// backend broadcasts these into its vectors.
pub(crate) struct Rounding {
    /// The largest magnitude kept (f32 bits): the format's max with `saturate`;
    /// else one that encodes as the overflow (∞ in the IEEE-style formats; past the
    /// codes elsewhere).
    pub(crate) clamp: u32,
    /// `emin`'s f32 exponent field.
    pub(crate) threshold: i32,
    /// `23 − m` in the exponent field.
    pub(crate) magic: i32,
    /// `23 − m`.
    pub(crate) shift: i32,
    /// Whether ±∞ is NaN even though the clamp saturates (the FNUZ formats before
    /// opset 24): then the lanes that are ±∞ are marked NaN too.
    pub(crate) inf_is_nan: bool,
}

impl Rounding {
    /// The constants of `spec` with `saturate` and, for the FNUZ formats, whether
    /// ±∞ is NaN even when saturating.
    pub(crate) const fn new(spec: &Spec, saturate: bool, fnuz_inf_is_nan: bool) -> Rounding {
        let m = spec.man_bits as i32;
        let max_code = spec.max_code() as i32;
        let (max_e, max_m) = (max_code >> m, max_code & ((1 << m) - 1));
        let max = ((max_e - spec.bias + 127) << 23) | (max_m << (23 - m));
        let clamp = match (saturate, spec.non_finite) {
            (true, _) | (_, NonFinite::None) => max,
            // 2^(all-ones exponent − bias): the code of ∞.
            (false, NonFinite::Ieee) => (((1 << spec.exp_bits) - 1 - spec.bias) + 127) << 23,
            // 2^20: past every code, as NaN is.
            (false, _) => (20 + 127) << 23,
        };
        let fnuz = matches!(spec.non_finite, NonFinite::NanNegativeZero);
        Rounding {
            clamp: clamp as u32,
            threshold: (128 - spec.bias) << 23,
            magic: (23 - m) << 23,
            shift: 23 - m,
            inf_is_nan: fnuz && saturate && fnuz_inf_is_nan,
        }
    }
}

// ---- sources decoded by table --------------------------------------------------

/// A narrow float stored one code per byte (float8, float6): decoded through the
/// f32 values of all 256 bytes.
pub(crate) trait ByteTable {
    /// The format.
    const SPEC: Spec;
    /// The f32 bits of each byte's value (the code in its low bits, as the scalar
    /// cast reads it), computed from [`Spec::f32_bits`] at compile time.
    const F32: [u32; 256];
    /// Its nibble tables, for a float8 format with at least four exponent bits
    /// (the exponent's top three bits in the high nibble).
    const NIBBLES: Option<&'static Float8Tables>;
}

impl<F: Format> ByteTable for Minifloat<F> {
    const SPEC: Spec = F::SPEC;
    const F32: [u32; 256] = byte_table(&F::SPEC);
    const NIBBLES: Option<&'static Float8Tables> = if F::SPEC.bits() == 8 && F::SPEC.exp_bits >= 4 {
        Some(&Float8Tables::new(&F::SPEC))
    } else {
        None
    };
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
trait NibbleTable {
    /// The f32 bits of each of the 16 codes.
    const F32: [u32; 16];
    /// How the kernels write it.
    const SINK: Sink;
}

impl NibbleTable for f4e2m1 {
    const SINK: Sink = Sink::Float(<f4e2m1 as ByteTable>::SPEC);
    const F32: [u32; 16] = {
        let all = byte_table(&<f4e2m1 as ByteTable>::SPEC);
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
    const SINK: Sink = Sink::None;
    const F32: [u32; 16] = int_nibbles(true);
}

impl NibbleTable for u4 {
    const SINK: Sink = Sink::None;
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

// ---- how the kernels read a source and write a target --------------------------

/// An integer's layout (bool among them: one byte, zero or not).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct IntLayout {
    /// 1, 2, 4 or 8.
    pub(crate) bytes: usize,
    /// Whether it is sign-extended when widened.
    pub(crate) signed: bool,
    /// Whether it is bool (read as 0 or 1, written as whether nonzero).
    pub(crate) bool: bool,
}

impl IntLayout {
    /// `u32`, whose rule from floats at or above 2^31 differs (see
    /// [`FloatToInt`](super::super::values::FloatToInt)).
    pub(crate) const fn is_u32(self) -> bool {
        self.bytes == 4 && !self.signed && !self.bool
    }

    /// Whether it is `u64` (whose values past `i64::MAX` read as negative i64).
    pub(crate) const fn is_u64(self) -> bool {
        self.bytes == 8 && !self.signed
    }

    /// The element at the start of `b`, sign- or zero-extended (bool: 0 or 1; u64
    /// as its bits).
    #[inline(always)]
    pub(crate) fn read(self, b: &[u8]) -> i64 {
        let mut le = [0u8; 8];
        le[..self.bytes].copy_from_slice(&b[..self.bytes]);
        let x = u64::from_le_bytes(le);
        if self.bool {
            (x != 0) as i64
        } else if self.signed {
            let unused = 64 - 8 * self.bytes as u32;
            ((x << unused) as i64) >> unused
        } else {
            x as i64
        }
    }

    /// Writes the low bytes of `x` (bool: whether it is nonzero) at the start of `b`.
    #[inline(always)]
    pub(crate) fn write(self, x: i64, b: &mut [u8]) {
        let x = if self.bool { (x != 0) as i64 } else { x };
        b[..self.bytes].copy_from_slice(&x.to_le_bytes()[..self.bytes]);
    }

    /// The nearest f32 to a value read by [`IntLayout::read`], ties to even.
    #[inline(always)]
    pub(crate) fn to_f32(self, x: i64) -> f32 {
        if self.is_u64() {
            x as u64 as f32
        } else {
            x as f32
        }
    }

    /// The nearest f64 to a value read by [`IntLayout::read`], ties to even.
    #[inline(always)]
    pub(crate) fn to_f64(self, x: i64) -> f64 {
        if self.is_u64() {
            x as u64 as f64
        } else {
            x as f64
        }
    }
}

/// How the kernels read a source, a block of elements at a time.
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
    /// A narrow float stored one code per byte (float8, float6).
    Byte {
        /// The format.
        spec: Spec,
        /// The f32 bits of all 256 bytes.
        f32: &'static [u32; 256],
        /// Its nibble tables where it has them (the float8 formats with at least
        /// four exponent bits).
        nibbles: Option<&'static Float8Tables>,
    },
    /// Two codes per byte, the first in the low nibble (f4e2m1, i4, u4): the f32
    /// bits of the 16 codes.
    Nibble(&'static [u32; 16]),
    /// f8e8m0, shifted into the exponent field.
    E8M0,
    /// An integer or bool.
    Int(IntLayout),
    /// One the kernels do not read (i2, u2): the scalar cast's.
    None,
}

impl Source {
    /// Bits per element (0 for [`Source::None`]).
    pub(crate) const fn bits(self) -> usize {
        match self {
            Source::F32 => 32,
            Source::F16 | Source::BF16 => 16,
            Source::F64 => 64,
            Source::Byte { .. } | Source::E8M0 => 8,
            Source::Nibble(_) => 4,
            Source::Int(i) => 8 * i.bytes,
            Source::None => 0,
        }
    }

    /// Whether it is one of the ONNX float8 formats, which the kernels convert
    /// into integers through their f32 values (the other byte formats are left to
    /// the scalar kernel there).
    pub(crate) const fn is_onnx_float8(self) -> bool {
        matches!(self, Source::Byte { spec, .. } if spec.bits() == 8 && matches!(spec.reference, Reference::Onnx))
    }
}

/// How the kernels write a target.
#[derive(Clone, Copy)]
pub(crate) enum Sink {
    /// A float format with a [`Spec`]: float8, float6, f4e2m1, f16, bf16.
    Float(Spec),
    /// f8e8m0.
    E8M0,
    /// f32.
    F32,
    /// f64.
    F64,
    /// An integer or bool.
    Int(IntLayout),
    /// One the kernels do not write (i2, u2).
    None,
}

/// What the kernels know of an element type as a source.
pub(crate) trait Lanes: Raw + CastSource {
    /// How they read it.
    const SOURCE: Source;
}

/// What the kernels know of an element type as a target.
pub(crate) trait Target: Raw + CastTarget {
    /// How they write it.
    const SINK: Sink;
}

/// The [`Lanes`] and [`Target`] impls of every row of the element table, from its
/// layout column (a narrow float's from its `Spec`).
macro_rules! element_lanes {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(element_lanes!(@$layout $dtype $t);)*
    };
    (@int $dtype:ident $t:ty) => {
        element_lanes!(@both $t, Source::Int(<$t as IntRow>::LAYOUT), Sink::Int(<$t as IntRow>::LAYOUT));
    };
    (@bool $dtype:ident $t:ty) => {
        element_lanes!(@both $t, Source::Int(BOOL), Sink::Int(BOOL));
    };
    (@float $dtype:ident $t:ty) => {
        element_lanes!(@both $t, <$t as FloatRow>::SOURCE, <$t as FloatRow>::SINK);
    };
    (@half $dtype:ident $t:ty) => {
        element_lanes!(@both $t, <$t as FloatRow>::SOURCE, <$t as FloatRow>::SINK);
    };
    (@byte F8E8M0 $t:ty) => {
        element_lanes!(@both $t, Source::E8M0, Sink::E8M0);
    };
    (@byte $dtype:ident $t:ty) => {
        element_lanes!(
            @both $t,
            Source::Byte {
                spec: <$t as ByteTable>::SPEC,
                f32: &<$t as ByteTable>::F32,
                nibbles: <$t as ByteTable>::NIBBLES,
            },
            Sink::Float(<$t as ByteTable>::SPEC)
        );
    };
    (@nibble $dtype:ident $t:ty) => {
        element_lanes!(@both $t, Source::Nibble(&<$t as NibbleTable>::F32), <$t as NibbleTable>::SINK);
    };
    (@crumb $dtype:ident $t:ty) => {
        element_lanes!(@both $t, Source::None, Sink::None);
    };
    (@both $t:ty, $source:expr, $sink:expr) => {
        impl Lanes for $t {
            const SOURCE: Source = $source;
        }
        impl Target for $t {
            const SINK: Sink = $sink;
        }
    };
}

/// bool's layout.
const BOOL: IntLayout = IntLayout {
    bytes: 1,
    signed: false,
    bool: true,
};

/// The layout of an integer primitive.
trait IntRow {
    const LAYOUT: IntLayout;
}

macro_rules! int_rows {
    ($($t:ty),*) => {$(
        impl IntRow for $t {
            const LAYOUT: IntLayout = IntLayout {
                bytes: <$t>::BITS as usize / 8,
                signed: <$t>::MIN != 0,
                bool: false,
            };
        }
    )*};
}
int_rows!(i8, i16, i32, i64, u8, u16, u32, u64);

/// How a float primitive or a `half` type is read and written.
trait FloatRow {
    const SOURCE: Source;
    const SINK: Sink;
}

impl FloatRow for f32 {
    const SOURCE: Source = Source::F32;
    const SINK: Sink = Sink::F32;
}

impl FloatRow for f64 {
    const SOURCE: Source = Source::F64;
    const SINK: Sink = Sink::F64;
}

impl FloatRow for f16 {
    const SOURCE: Source = Source::F16;
    const SINK: Sink = Sink::Float(format::F16_SPEC);
}

impl FloatRow for bf16 {
    const SOURCE: Source = Source::BF16;
    const SINK: Sink = Sink::Float(format::BF16_SPEC);
}

for_each_element!(element_lanes);
