//! What each dtype's numbers are: NumPy-shaped [`finfo`], [`iinfo`] and
//! [`can_cast`], computed from the number formats themselves.
//!
//! Every float format is described by a [`FloatInfo`] derived from its parameters
//! (exponent and mantissa bits, bias, how it spells ∞ and NaN, whether it has a sign
//! and a negative zero), every integer by its range. [`can_cast`] answers from those
//! facts, never from a list of pairs:
//!
//! | level | `can_cast(from, to, level)` is true when |
//! | --- | --- |
//! | [`Casting::No`], [`Casting::Equiv`] | `from == to` (promo's dtypes have no byte order) |
//! | [`Casting::Safe`] | every value of `from` (±0, ±∞ and NaN included) is exactly a value of `to` |
//! | [`Casting::SameKind`] | safe, or `to`'s kind is at or above `from`'s in bool < unsigned < signed < float < complex (NumPy's order) |
//! | [`Casting::Unsafe`] | `from` converts to `to` at all: numbers (complex to real drops the imaginary part, as in NumPy), bool and text; `nf4` and the sub-byte integers without a cast (`u1`, `i1`, `u3`, `i3`, `u5`..`u7`, `i5`..`i7`) only to themselves |
//!
//! Safe is strict about zero: a format with −0 is not safe into one without it
//! (`f8e4m3fn` into `f8e4m3fnuz`), because the cast turns −0 into +0.
//!
//! ```
//! use promo_core::{can_cast, finfo, Casting, DType};
//! assert!(can_cast(DType::F8E4M3FN, DType::F16, Casting::Safe));
//! // E4M3FNUZ's smallest subnormal, 2^-10, is below E4M3FN's, 2^-9.
//! assert!(!can_cast(DType::F8E4M3FNUZ, DType::F8E4M3FN, Casting::Safe));
//! assert_eq!(finfo(DType::F8E4M3FN).unwrap().max, 448.0);
//! ```

use crate::narrow::format::{self, NonFinite, Spec};
use promo_table::{Category, DType};

/// The facts of a float format: NumPy's `finfo` fields under NumPy's names
/// (agreeing with `ml_dtypes.finfo` 0.6 field by field for every narrow format,
/// `tests/finfo.rs`), and how the format spells the values that are not finite
/// numbers and whether it has a sign: everything [`can_cast`] needs.
///
/// | NumPy | here |
/// | --- | --- |
/// | `bits`, `max`, `min`, `smallest_normal`, `smallest_subnormal`, `epsneg`, `resolution`, `precision`, `minexp`, `maxexp`, `machep`, `negep` | fields of the same name |
/// | `eps`, `tiny`, `nmant`, `nexp`, `iexp` | [`eps`](Self::eps) (also the field `epsilon`), [`tiny`](Self::tiny), [`nmant`](Self::nmant), [`nexp`](Self::nexp), [`iexp`](Self::iexp) |
///
/// ```
/// use promo_core::{finfo, DType};
/// let e4m3 = finfo(DType::F8E4M3).unwrap();
/// assert_eq!((e4m3.max, e4m3.eps(), e4m3.tiny()), (240.0, 0.125, 0.015625));
/// assert_eq!((e4m3.minexp, e4m3.maxexp, e4m3.nmant(), e4m3.precision), (-6, 8, 3, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatInfo {
    /// Bits of one value.
    pub bits: u32,
    /// Exponent bits.
    pub exp_bits: u32,
    /// Explicit mantissa (fraction) bits; the precision is one more, except for
    /// `f8e8m0`, which has none.
    pub man_bits: u32,
    /// The largest finite value.
    pub max: f64,
    /// The most negative finite value (the smallest positive value for unsigned
    /// `f8e8m0`).
    pub min: f64,
    /// The smallest positive normal value.
    pub smallest_normal: f64,
    /// The smallest positive value (a subnormal where the format has them).
    pub smallest_subnormal: f64,
    /// The distance from 1 to the next larger value.
    pub epsilon: f64,
    /// Whether the format has negative values.
    pub signed: bool,
    /// Whether the format has zero (`f8e8m0` has not).
    pub has_zero: bool,
    /// Whether the format has a negative zero distinct from +0.
    pub has_negative_zero: bool,
    /// Whether the format has ±∞.
    pub has_infinity: bool,
    /// Whether the format has NaN.
    pub has_nan: bool,
    /// The distance from 1 to the next smaller value (NumPy `epsneg`).
    pub epsneg: f64,
    /// `10^-precision` rounded to the format (NumPy `resolution`).
    pub resolution: f64,
    /// Decimal digits of precision (NumPy `precision`): `⌊−log10(eps)⌋`. ml_dtypes'
    /// quirk, followed here: it states 1 for every float8 format, where the formula
    /// gives 0 for `f8e4m3*`, `f8e5m2*` and `f8e8m0`.
    pub precision: u32,
    /// The exponent of the smallest positive normal value (NumPy `minexp`).
    pub minexp: i32,
    /// The smallest power of two that overflows: one more than the exponent of
    /// `max` (NumPy `maxexp`).
    pub maxexp: i32,
    /// `log2(eps)` (NumPy `machep`).
    pub machep: i32,
    /// `log2(epsneg)` (NumPy `negep`).
    pub negep: i32,
}

impl FloatInfo {
    /// The facts of a sign-exponent-mantissa format.
    const fn from_spec(
        bits: u32,
        exp_bits: u32,
        man_bits: u32,
        bias: i32,
        non_finite: NonFinite,
    ) -> FloatInfo {
        let emax_field = (1i32 << exp_bits) - 1;
        // The largest finite value's exponent field and fraction (in units of 2^-man_bits).
        let all_ones = (1i64 << man_bits) - 1;
        let (top_field, top_fraction) = match non_finite {
            NonFinite::Ieee => (emax_field - 1, all_ones),
            NonFinite::NanAllOnes => (emax_field, all_ones - 1),
            NonFinite::NanNegativeZero | NonFinite::None => (emax_field, all_ones),
        };
        let max = pow2(top_field - bias) * (1.0 + top_fraction as f64 / pow2(man_bits as i32));
        let minexp = 1 - bias;
        // Below 1 the spacing halves, unless 1 is the smallest normal value (the
        // subnormals below it keep the spacing of 1).
        let negep = if minexp == 0 {
            -(man_bits as i32)
        } else {
            -(man_bits as i32) - 1
        };
        let precision = decimal_precision(bits, man_bits);
        FloatInfo {
            bits,
            exp_bits,
            man_bits,
            max,
            min: -max,
            smallest_normal: pow2(1 - bias),
            smallest_subnormal: pow2(1 - bias - man_bits as i32),
            epsilon: pow2(-(man_bits as i32)),
            signed: true,
            has_zero: true,
            has_negative_zero: !matches!(non_finite, NonFinite::NanNegativeZero),
            has_infinity: matches!(non_finite, NonFinite::Ieee),
            has_nan: !matches!(non_finite, NonFinite::None),
            epsneg: pow2(negep),
            resolution: round_to_format(ten_to_minus(precision), man_bits, minexp),
            precision,
            minexp,
            maxexp: top_field - bias + 1,
            machep: -(man_bits as i32),
            negep,
        }
    }

    /// The facts of a narrow format's [`Spec`].
    pub(crate) const fn of_spec(spec: &Spec) -> FloatInfo {
        FloatInfo::from_spec(
            spec.bits(),
            spec.exp_bits,
            spec.man_bits,
            spec.bias,
            spec.non_finite,
        )
    }

    /// NumPy `eps`: the distance from 1 to the next larger value (the field
    /// `epsilon`).
    pub const fn eps(&self) -> f64 {
        self.epsilon
    }

    /// NumPy `tiny`: the smallest positive normal value (the field `smallest_normal`).
    pub const fn tiny(&self) -> f64 {
        self.smallest_normal
    }

    /// NumPy `nmant`: explicit mantissa bits (the field `man_bits`).
    pub const fn nmant(&self) -> u32 {
        self.man_bits
    }

    /// NumPy `nexp`: exponent bits (the field `exp_bits`).
    pub const fn nexp(&self) -> u32 {
        self.exp_bits
    }

    /// NumPy `iexp`: exponent bits, as [`nexp`](Self::nexp).
    pub const fn iexp(&self) -> u32 {
        self.exp_bits
    }

    /// Significant bits of a normal value (one more than `man_bits`; 1 for
    /// `f8e8m0`). Not NumPy's `precision`, which counts decimal digits.
    pub const fn significand_bits(&self) -> u32 {
        if self.has_zero {
            self.man_bits + 1
        } else {
            1
        }
    }
}

/// NumPy's `precision`, `⌊−log10(2^-man_bits)⌋` (`log10(2)` to six digits is exact
/// enough up to f64's 52 bits), or 1 for every 8-bit format, as ml_dtypes states it.
const fn decimal_precision(bits: u32, man_bits: u32) -> u32 {
    if bits == 8 {
        1
    } else {
        man_bits * 301_030 / 1_000_000
    }
}

/// `10^-p` as the nearest `f64`.
const fn ten_to_minus(p: u32) -> f64 {
    let mut x = 1.0;
    let mut i = 0;
    while i < p {
        x *= 10.0;
        i += 1;
    }
    1.0 / x
}

/// Positive normal `x` rounded to nearest, ties to even, in a format with
/// `man_bits` mantissa bits whose smallest normal exponent is `minexp` (below it,
/// the subnormal spacing).
const fn round_to_format(x: f64, man_bits: u32, minexp: i32) -> f64 {
    let exp = ((x.to_bits() >> 52) as i32) - 1023;
    let exp = if exp < minexp { minexp } else { exp };
    let quantum = pow2(exp - man_bits as i32);
    let q = x / quantum;
    let n = q as u64;
    let fraction = q - n as f64;
    let n = if fraction > 0.5 || (fraction == 0.5 && n % 2 == 1) {
        n + 1
    } else {
        n
    };
    n as f64 * quantum
}

/// 2^e as an `f64`, exact for -1074..=1023 (f64's subnormals included).
const fn pow2(e: i32) -> f64 {
    if e < -1022 {
        f64::from_bits(1u64 << (e + 1074))
    } else {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
}

const F16: FloatInfo = FloatInfo::of_spec(&format::F16_SPEC);
const BF16: FloatInfo = FloatInfo::of_spec(&format::BF16_SPEC);
const F32: FloatInfo = FloatInfo::from_spec(32, 8, 23, 127, NonFinite::Ieee);
const F64: FloatInfo = FloatInfo::from_spec(64, 11, 52, 1023, NonFinite::Ieee);
/// E8M0: 2^-127 ..= 2^127, NaN `0xff`; no sign, no zero, no mantissa.
const F8E8M0: FloatInfo = FloatInfo {
    bits: 8,
    exp_bits: 8,
    man_bits: 0,
    max: pow2(127),
    min: pow2(-127),
    smallest_normal: pow2(-127),
    smallest_subnormal: pow2(-127),
    epsilon: 1.0,
    signed: false,
    has_zero: false,
    has_negative_zero: false,
    has_infinity: false,
    has_nan: true,
    epsneg: 0.5,
    resolution: 0.125,
    precision: 1,
    minexp: -127,
    maxexp: 128,
    machep: 0,
    negep: -1,
};

/// The float format facts of `dtype` (of one component, for complex dtypes), or
/// `None` for integers, `bool`, `string` and `nf4` (a lookup table, not a format).
pub const fn finfo(dtype: DType) -> Option<FloatInfo> {
    if let Some(spec) = crate::narrow::spec_of(dtype) {
        return Some(FloatInfo::of_spec(&spec));
    }
    Some(match dtype {
        DType::F8E8M0 => F8E8M0,
        DType::F16 => F16,
        DType::BF16 => BF16,
        DType::F32 | DType::C64 => F32,
        DType::F64 | DType::C128 => F64,
        _ => return None,
    })
}

/// The range of an integer dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntInfo {
    /// Bits of one value.
    pub bits: u32,
    /// The smallest value.
    pub min: i128,
    /// The largest value.
    pub max: i128,
}

/// The range of `dtype` if it is an integer (signed, unsigned, any width), else `None`.
pub const fn iinfo(dtype: DType) -> Option<IntInfo> {
    let bits = dtype.bits();
    match dtype.category() {
        Category::Unsigned => Some(IntInfo {
            bits,
            min: 0,
            max: (1i128 << bits) - 1,
        }),
        Category::Signed => Some(IntInfo {
            bits,
            min: -(1i128 << (bits - 1)),
            max: (1i128 << (bits - 1)) - 1,
        }),
        _ => None,
    }
}

/// NumPy's casting levels, from strictest to loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Casting {
    /// Only the identical dtype.
    No,
    /// The identical dtype up to byte order (promo's dtypes have none, so as `No`).
    Equiv,
    /// Every value is kept exactly.
    Safe,
    /// Safe, or towards the same or a higher kind (bool < unsigned < signed < float < complex).
    SameKind,
    /// Any cast promo can do.
    Unsafe,
}

impl core::str::FromStr for Casting {
    type Err = UnknownCasting;

    /// NumPy's spellings: `no`, `equiv`, `safe`, `same_kind`, `unsafe`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "no" => Casting::No,
            "equiv" => Casting::Equiv,
            "safe" => Casting::Safe,
            "same_kind" => Casting::SameKind,
            "unsafe" => Casting::Unsafe,
            _ => return Err(UnknownCasting(s.to_owned())),
        })
    }
}

/// A casting level that is not one of NumPy's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCasting(pub String);

impl core::fmt::Display for UnknownCasting {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "unknown casting level `{}` (expected no, equiv, safe, same_kind or unsafe)",
            self.0
        )
    }
}

impl std::error::Error for UnknownCasting {}

/// Whether `from` casts to `to` at `casting` level (see the [module docs](self)).
pub fn can_cast(from: DType, to: DType, casting: Casting) -> bool {
    if from == to {
        return true;
    }
    match casting {
        Casting::No | Casting::Equiv => false,
        Casting::Safe => castable(from, to) && is_safe(from, to),
        Casting::SameKind => castable(from, to) && (is_safe(from, to) || kind_rank(from) <= kind_rank(to)),
        Casting::Unsafe => castable(from, to),
    }
}

/// Whether `from` converts to `to` at all: numbers (complex too, as NumPy converts
/// them; promo's own casts stop at real numbers, as ONNX `Cast` does), bool and text.
/// `nf4` and the sub-byte integers without a cast (`u1`, `i1`, `u3`, `i3`, `u5`..`u7`,
/// `i5`..`i7`) convert only to themselves.
fn castable(from: DType, to: DType) -> bool {
    let convertible =
        |d: DType| crate::cast::element_size(d).is_some() || d.is_complex() || d == DType::String;
    from == to || convertible(from) && convertible(to)
}

/// NumPy's kind order: bool < unsigned < signed < float < complex; string last.
fn kind_rank(d: DType) -> u8 {
    match d.category() {
        Category::Bool => 0,
        Category::Unsigned => 1,
        Category::Signed => 2,
        Category::Float => 3,
        Category::Complex => 4,
        Category::Bits | Category::String => 5,
    }
}

/// The values of a dtype, as far as exact representation is concerned.
enum Values {
    /// `false` and `true`, as 0 and 1.
    Bool,
    /// Every integer in `min..=max`.
    Int(IntInfo),
    /// A float format's values.
    Float(FloatInfo),
    /// Pairs of a float format's values.
    Complex(FloatInfo),
    /// Something no other dtype holds exactly (text, `nf4`).
    Other,
}

fn values(d: DType) -> Values {
    if d.is_bool() {
        return Values::Bool;
    }
    if let Some(i) = iinfo(d) {
        return Values::Int(i);
    }
    match (finfo(d), d.is_complex()) {
        (Some(f), true) => Values::Complex(f),
        (Some(f), false) if d != DType::Nf4 => Values::Float(f),
        _ => Values::Other,
    }
}

/// Whether every value of `from` is exactly a value of `to`.
fn is_safe(from: DType, to: DType) -> bool {
    match (values(from), values(to)) {
        (Values::Bool, Values::Bool) => true,
        (Values::Bool, Values::Int(t)) => t.max >= 1,
        (Values::Bool, Values::Float(t) | Values::Complex(t)) => t.has_zero,
        (Values::Int(f), Values::Int(t)) => t.min <= f.min && f.max <= t.max,
        (Values::Int(f), Values::Float(t) | Values::Complex(t)) => ints_fit(f, &t),
        (Values::Float(f) | Values::Complex(f), Values::Complex(t))
        | (Values::Float(f), Values::Float(t)) => floats_fit(&f, &t),
        _ => false,
    }
}

/// Every integer of `f` is a value of `t`: all integers up to 2^precision are, and
/// none past the format's range.
fn ints_fit(f: IntInfo, t: &FloatInfo) -> bool {
    let magnitude = f.max.max(-f.min) as f64;
    t.has_zero
        && (f.min >= 0 || t.signed)
        && magnitude <= pow2(t.significand_bits() as i32)
        && magnitude <= t.max
}

/// Every value of `f` is a value of `t`. Every finite value of `f` is a multiple of
/// its smallest positive value with at most `precision` significant bits, up to
/// `max`; `t` holds all of them when its smallest positive value divides `f`'s (both
/// are powers of two), it has at least as much precision, and its range reaches as
/// far. The special values must have a counterpart too.
fn floats_fit(f: &FloatInfo, t: &FloatInfo) -> bool {
    (!f.signed || t.signed)
        && (!f.has_zero || t.has_zero)
        && (!f.has_negative_zero || t.has_negative_zero)
        && (!f.has_infinity || t.has_infinity)
        && (!f.has_nan || t.has_nan)
        && t.significand_bits() >= f.significand_bits()
        && t.smallest_subnormal <= f.smallest_subnormal
        && t.max >= f.max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_of_the_ieee_formats_match_the_standard_library() {
        let f32 = finfo(DType::F32).unwrap();
        assert_eq!(f32.max, f32::MAX as f64);
        assert_eq!(f32.smallest_normal, f32::MIN_POSITIVE as f64);
        assert_eq!(f32.epsilon, f32::EPSILON as f64);
        assert_eq!(f32.smallest_subnormal, f32::from_bits(1) as f64);
        let f64 = finfo(DType::F64).unwrap();
        assert_eq!(f64.max, f64::MAX);
        assert_eq!(f64.smallest_normal, f64::MIN_POSITIVE);
        assert_eq!(f64.smallest_subnormal, f64::from_bits(1));
        assert_eq!(finfo(DType::F16).unwrap().max, half::f16::MAX.to_f64());
        assert_eq!(finfo(DType::BF16).unwrap().max, half::bf16::MAX.to_f64());
    }

    #[test]
    fn integer_ranges() {
        assert_eq!(
            iinfo(DType::I4),
            Some(IntInfo {
                bits: 4,
                min: -8,
                max: 7
            })
        );
        assert_eq!(iinfo(DType::U64).unwrap().max, u64::MAX as i128);
        assert_eq!(iinfo(DType::I64).unwrap().min, i64::MIN as i128);
        assert_eq!(iinfo(DType::F32), None);
    }

    #[test]
    fn casting_levels_parse_as_numpy_spells_them() {
        assert_eq!("same_kind".parse::<Casting>().unwrap(), Casting::SameKind);
        assert!("sameKind".parse::<Casting>().is_err());
    }
}
