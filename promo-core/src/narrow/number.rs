//! The narrow types as numbers: lossless `From` widenings, arithmetic computed in
//! `f32` as ml_dtypes does, `Neg`, `total_cmp`, the per-format `NAN`/`INFINITY`
//! constants, 4-bit integer conversions, and the optional `num-traits` and `serde`
//! impls.
//!
//! Arithmetic: see the [`narrow`](super#arithmetic) module docs.

use super::minifloat::{Format, Minifloat};
use super::{f8e8m0, i2, i4, u2, u4, NonFinite};
use super::{E2M1, E4M3FN, E5M2};
use core::cmp::Ordering;
use core::num::FpCategory;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign};
use half::{bf16, f16};

// The `NAN` constants of the formats with a NaN, `INFINITY` and `NEG_INFINITY` of
// those with ±∞, and `From` into `f16` and `bf16` for every format (all exact: the
// table checks each at compile time).
super::format::minifloats!(numbers);

impl<F: Format> Minifloat<F> {
    /// The total order of IEEE 754 `totalOrder`, as [`f32::total_cmp`]: −NaN < −∞ <
    /// … < −0 < +0 < … < +∞ < +NaN. The FNUZ formats' one NaN (`0x80`, the code −0
    /// would have) sorts last, as a positive NaN.
    pub fn total_cmp(&self, other: &Self) -> Ordering {
        self.total_key().cmp(&other.total_key())
    }

    /// A signed integer whose order is the total order of the codes.
    fn total_key(self) -> i16 {
        let sign = F::SPEC.sign_bit() as u8;
        let magnitude = (self.to_bits() & (sign - 1)) as i16;
        if F::SPEC.non_finite == NonFinite::NanNegativeZero && self.to_bits() == sign {
            return i16::MAX;
        }
        if self.to_bits() & sign != 0 {
            -magnitude - 1
        } else {
            magnitude
        }
    }
}

impl<F: Format> Neg for Minifloat<F> {
    type Output = Self;

    /// Flips the sign; zero and the one NaN of the FNUZ formats, which have no
    /// negative counterpart, stay as they are.
    fn neg(self) -> Self {
        let sign = F::SPEC.sign_bit() as u8;
        if F::SPEC.non_finite == NonFinite::NanNegativeZero && self.to_bits() & !sign == 0 {
            return self;
        }
        Self::from_bits(self.to_bits() ^ sign)
    }
}

macro_rules! arithmetic {
    ($($op:ident $method:ident $assign:ident $assign_method:ident $sym:tt),*) => {$(
        impl<F: Format> $op for Minifloat<F> {
            type Output = Self;

            /// Computed in `f32`, then rounded to the format without saturation (see
            /// the module docs: the result is the exactly rounded one).
            fn $method(self, rhs: Self) -> Self {
                Self::from_f32_unsaturated(self.to_f32() $sym rhs.to_f32())
            }
        }

        impl<F: Format> $assign for Minifloat<F> {
            fn $assign_method(&mut self, rhs: Self) {
                *self = *self $sym rhs;
            }
        }
    )*};
}
arithmetic!(Add add AddAssign add_assign +, Sub sub SubAssign sub_assign -, Mul mul MulAssign mul_assign *, Div div DivAssign div_assign /, Rem rem RemAssign rem_assign %);

/// What `half` gives `f16`, for every narrow float: the IEEE predicates, `abs`,
/// `signum`, NaN-aware `min`/`max` and `classify`, each what `f32` answers for the
/// value (`tests/narrow_numbers.rs` checks every code). The formats without NaN or
/// infinity simply never report one; the FNUZ formats' one NaN, `0x80`, has its sign
/// bit set (and decodes to −NaN, as in the references).
impl<F: Format> Minifloat<F> {
    /// The sign bit of the format.
    const SIGN: u8 = F::SPEC.sign_bit() as u8;

    /// Whether this is ±∞.
    pub const fn is_infinite(self) -> bool {
        match F::SPEC.inf_code() {
            Some(inf) => (self.to_bits() & !Self::SIGN) as u32 == inf,
            None => false,
        }
    }

    /// Whether this is neither ±∞ nor NaN.
    pub const fn is_finite(self) -> bool {
        !self.is_nan() && !self.is_infinite()
    }

    /// Whether this is a normal number: not zero, subnormal, ±∞ or NaN.
    pub const fn is_normal(self) -> bool {
        matches!(self.classify(), FpCategory::Normal)
    }

    /// Whether this is a subnormal number.
    pub const fn is_subnormal(self) -> bool {
        matches!(self.classify(), FpCategory::Subnormal)
    }

    /// The category of the value, as [`f32::classify`] (with the format's own
    /// subnormal range: exponent field zero).
    pub const fn classify(self) -> FpCategory {
        let magnitude = self.to_bits() & !Self::SIGN;
        if self.is_nan() {
            FpCategory::Nan
        } else if self.is_infinite() {
            FpCategory::Infinite
        } else if magnitude == 0 {
            FpCategory::Zero
        } else if (magnitude as u32) >> F::SPEC.man_bits == 0 {
            FpCategory::Subnormal
        } else {
            FpCategory::Normal
        }
    }

    /// Whether the sign bit is set (−0 and negative NaNs included).
    pub const fn is_sign_negative(self) -> bool {
        self.to_bits() & Self::SIGN != 0
    }

    /// Whether the sign bit is clear.
    pub const fn is_sign_positive(self) -> bool {
        !self.is_sign_negative()
    }

    /// The absolute value: the sign bit cleared (a NaN stays a NaN: the FNUZ
    /// formats' `0x80` is kept).
    pub const fn abs(self) -> Self {
        if self.is_nan() && F::SPEC.non_finite as u8 == NonFinite::NanNegativeZero as u8 {
            return self;
        }
        Self::from_bits(self.to_bits() & !Self::SIGN)
    }

    /// `1` for a positive value (+0 and +∞ included), `−1` for a negative one, NaN
    /// for NaN, as [`f32::signum`].
    pub fn signum(self) -> Self {
        if self.is_nan() {
            self
        } else if self.is_sign_negative() {
            -Self::ONE
        } else {
            Self::ONE
        }
    }

    /// The smaller value; if one is NaN, the other, as [`f32::min`].
    pub fn min(self, other: Self) -> Self {
        if self.is_nan() || other < self {
            other
        } else {
            self
        }
    }

    /// The larger value; if one is NaN, the other, as [`f32::max`].
    pub fn max(self, other: Self) -> Self {
        if self.is_nan() || other > self {
            other
        } else {
            self
        }
    }
}

impl<F: Format> From<Minifloat<F>> for f32 {
    /// Exact: every narrow value is an `f32`.
    fn from(x: Minifloat<F>) -> f32 {
        x.to_f32()
    }
}

impl<F: Format> From<Minifloat<F>> for f64 {
    /// Exact.
    fn from(x: Minifloat<F>) -> f64 {
        x.to_f64()
    }
}

/// Lossless widenings between promo's narrow types and `half`'s: exactly the pairs
/// [`crate::can_cast`] calls safe (`tests/narrow_numbers.rs` checks each). Every
/// minifloat's into `f16` and `bf16` comes from the format table (`minifloats!`).
macro_rules! widen {
    ($($from:ty => $($to:ty: $via:expr),+;)*) => {$($(
        impl From<$from> for $to {
            /// Exact: every value of the source is a value of the target.
            fn from(x: $from) -> $to {
                let convert: fn($from) -> $to = $via;
                convert(x)
            }
        }
    )+)*};
}
widen! {
    Minifloat<E2M1> => Minifloat<E4M3FN>: |x| Minifloat::from_f32_unsaturated(x.to_f32()),
        Minifloat<E5M2>: |x| Minifloat::from_f32_unsaturated(x.to_f32());
    f8e8m0 => f32: |x| x.to_f32(), f64: |x| x.to_f64(), bf16: |x| bf16::from_f32(x.to_f32());
    i4 => i8: |x| x.get(), i16: |x| x.get().into(), i32: |x| x.get().into(), i64: |x| x.get().into(),
        f32: |x| x.get().into(), f64: |x| x.get().into(), f16: |x| f16::from_f32(x.get().into()),
        bf16: |x| bf16::from_f32(x.get().into()), Minifloat<E4M3FN>: |x| Minifloat::from_f32(x.get().into());
    i2 => i8: |x| x.get(), i16: |x| x.get().into(), i32: |x| x.get().into(), i64: |x| x.get().into(),
        f32: |x| x.get().into(), f64: |x| x.get().into(), f16: |x| f16::from_f32(x.get().into()),
        bf16: |x| bf16::from_f32(x.get().into()), Minifloat<E4M3FN>: |x| Minifloat::from_f32(x.get().into()),
        i4: |x| i4::wrapping_from(x.get().into());
    u4 => u8: |x| x.get() as u8, u16: |x| (x.get() as u8).into(), u32: |x| (x.get() as u8).into(),
        u64: |x| (x.get() as u8).into(), i8: |x| x.get(), i16: |x| x.get().into(), i32: |x| x.get().into(),
        i64: |x| x.get().into(), f32: |x| x.get().into(), f64: |x| x.get().into(),
        f16: |x| f16::from_f32(x.get().into()), bf16: |x| bf16::from_f32(x.get().into());
    u2 => u8: |x| x.get() as u8, u16: |x| (x.get() as u8).into(), u32: |x| (x.get() as u8).into(),
        u64: |x| (x.get() as u8).into(), i8: |x| x.get(), i16: |x| x.get().into(), i32: |x| x.get().into(),
        i64: |x| x.get().into(), f32: |x| x.get().into(), f64: |x| x.get().into(),
        f16: |x| f16::from_f32(x.get().into()), bf16: |x| bf16::from_f32(x.get().into()),
        u4: |x| u4::wrapping_from(x.get().into()), i4: |x| i4::wrapping_from(x.get().into());
}

/// An integer outside the range of the 2- or 4-bit type it was converted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// The value that did not fit.
    pub value: i64,
    /// The type's range, as `(min, max)`.
    pub range: (i8, i8),
}

impl core::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} is outside {}..={}", self.value, self.range.0, self.range.1)
    }
}

impl std::error::Error for OutOfRange {}

macro_rules! int4_try_from {
    ($($int4:ident: $($from:ty),+;)*) => {$($(
        impl TryFrom<$from> for $int4 {
            type Error = OutOfRange;

            /// The same value, or an error when it is out of range (see
            /// [`wrapping_from`](Self::wrapping_from) for ONNX `Cast`'s wrapping).
            fn try_from(x: $from) -> Result<Self, OutOfRange> {
                let value = x as i64;
                let range = ($int4::MIN.get(), $int4::MAX.get());
                if (range.0 as i64..=range.1 as i64).contains(&value) {
                    Ok($int4::wrapping_from(value))
                } else {
                    Err(OutOfRange { value, range })
                }
            }
        }
    )+)*};
}
int4_try_from! {
    i4: i8, i16, i32, i64, u8, u16, u32;
    u4: i8, i16, i32, i64, u8, u16, u32;
    i2: i8, i16, i32, i64, u8, u16, u32;
    u2: i8, i16, i32, i64, u8, u16, u32;
}

#[cfg(feature = "num-traits")]
mod num {
    use super::*;
    use num_traits::{Bounded, FromPrimitive, Num, NumCast, One, ToPrimitive, Zero};

    impl<F: Format> Zero for Minifloat<F> {
        fn zero() -> Self {
            Self::ZERO
        }
        fn is_zero(&self) -> bool {
            Minifloat::to_f64(*self) == 0.0
        }
    }

    impl<F: Format> One for Minifloat<F> {
        fn one() -> Self {
            Self::ONE
        }
    }

    impl<F: Format> Bounded for Minifloat<F> {
        fn min_value() -> Self {
            Self::MIN
        }
        fn max_value() -> Self {
            Self::MAX
        }
    }

    impl<F: Format> ToPrimitive for Minifloat<F> {
        fn to_i64(&self) -> Option<i64> {
            Minifloat::to_f64(*self).to_i64()
        }
        fn to_u64(&self) -> Option<u64> {
            Minifloat::to_f64(*self).to_u64()
        }
        fn to_f32(&self) -> Option<f32> {
            Some(Minifloat::to_f32(*self))
        }
        fn to_f64(&self) -> Option<f64> {
            Some(Minifloat::to_f64(*self))
        }
    }

    impl<F: Format> FromPrimitive for Minifloat<F> {
        /// Rounded to nearest even as [`Minifloat::from_f64`] (saturating for the ONNX
        /// formats, as ONNX `Cast`'s default).
        fn from_i64(n: i64) -> Option<Self> {
            Some(Self::from_f64(crate::narrow::int_to_f64_round_odd(n.into())))
        }
        /// Rounded to nearest even, as `from_i64`.
        fn from_u64(n: u64) -> Option<Self> {
            Some(Self::from_f64(crate::narrow::int_to_f64_round_odd(n.into())))
        }
        /// [`Minifloat::from_f32`].
        fn from_f32(x: f32) -> Option<Self> {
            Some(Minifloat::from_f32(x))
        }
        /// [`Minifloat::from_f64`].
        fn from_f64(x: f64) -> Option<Self> {
            Some(Minifloat::from_f64(x))
        }
    }

    impl<F: Format> NumCast for Minifloat<F> {
        fn from<T: ToPrimitive>(n: T) -> Option<Self> {
            n.to_f64().map(Minifloat::from_f64)
        }
    }

    impl<F: Format> Num for Minifloat<F> {
        type FromStrRadixErr = num_traits::ParseFloatError;

        /// Parsed as an `f32` in `radix`, then rounded as [`Minifloat::from_f32`].
        fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
            <f32 as Num>::from_str_radix(s, radix).map(Minifloat::from_f32)
        }
    }

    /// `f32`'s function of the value, rounded to the format without saturation
    /// (as the arithmetic operators round).
    macro_rules! via_f32 {
        ($($name:ident($($arg:ident),*)),* $(,)?) => {$(
            fn $name(self $(, $arg: Self)*) -> Self {
                Self::from_f32_unsaturated(num_traits::Float::$name(self.to_f32() $(, $arg.to_f32())*))
            }
        )*};
    }

    /// Every method is `f32`'s on the exact value, rounded once to the format without
    /// saturation, as the arithmetic operators are. For a format without NaN,
    /// [`nan`](num_traits::Float::nan) is what NaN converts to (f4e2m1 and the f6
    /// formats: −0, as ml_dtypes gives); for one without infinity,
    /// [`infinity`](num_traits::Float::infinity) is what ∞ converts to without
    /// saturation (NaN, or `MAX` where there is no NaN either).
    impl<F: Format> num_traits::Float for Minifloat<F> {
        fn nan() -> Self {
            Self::from_f32_unsaturated(f32::NAN)
        }
        fn infinity() -> Self {
            Self::from_f32_unsaturated(f32::INFINITY)
        }
        fn neg_infinity() -> Self {
            Self::from_f32_unsaturated(f32::NEG_INFINITY)
        }
        fn neg_zero() -> Self {
            Self::from_f32_unsaturated(-0.0)
        }
        fn min_value() -> Self {
            Self::MIN
        }
        fn min_positive_value() -> Self {
            Self::MIN_POSITIVE
        }
        fn epsilon() -> Self {
            Self::EPSILON
        }
        fn max_value() -> Self {
            Self::MAX
        }
        fn is_nan(self) -> bool {
            Minifloat::is_nan(self)
        }
        fn is_infinite(self) -> bool {
            Minifloat::is_infinite(self)
        }
        fn is_finite(self) -> bool {
            Minifloat::is_finite(self)
        }
        fn is_normal(self) -> bool {
            Minifloat::is_normal(self)
        }
        fn is_subnormal(self) -> bool {
            Minifloat::is_subnormal(self)
        }
        fn classify(self) -> FpCategory {
            Minifloat::classify(self)
        }
        fn abs(self) -> Self {
            Minifloat::abs(self)
        }
        fn signum(self) -> Self {
            Minifloat::signum(self)
        }
        fn is_sign_positive(self) -> bool {
            Minifloat::is_sign_positive(self)
        }
        fn is_sign_negative(self) -> bool {
            Minifloat::is_sign_negative(self)
        }
        fn max(self, other: Self) -> Self {
            Minifloat::max(self, other)
        }
        fn min(self, other: Self) -> Self {
            Minifloat::min(self, other)
        }
        fn powi(self, n: i32) -> Self {
            Self::from_f32_unsaturated(self.to_f32().powi(n))
        }
        fn integer_decode(self) -> (u64, i16, i8) {
            num_traits::Float::integer_decode(self.to_f32())
        }
        fn sin_cos(self) -> (Self, Self) {
            (num_traits::Float::sin(self), num_traits::Float::cos(self))
        }
        #[allow(deprecated)]
        fn abs_sub(self, other: Self) -> Self {
            Self::from_f32_unsaturated(num_traits::Float::abs_sub(self.to_f32(), other.to_f32()))
        }
        via_f32!(
            floor(),
            ceil(),
            round(),
            trunc(),
            fract(),
            recip(),
            sqrt(),
            exp(),
            exp2(),
            ln(),
            log2(),
            log10(),
            cbrt(),
            sin(),
            cos(),
            tan(),
            asin(),
            acos(),
            atan(),
            exp_m1(),
            ln_1p(),
            sinh(),
            cosh(),
            tanh(),
            asinh(),
            acosh(),
            atanh(),
            to_degrees(),
            to_radians(),
            mul_add(a, b),
            powf(n),
            log(base),
            hypot(other),
            atan2(other),
        );
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl<F: Format> Serialize for Minifloat<F> {
        /// As its value, an `f32` (exact).
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_f32(self.to_f32())
        }
    }

    impl<'de, F: Format> Deserialize<'de> for Minifloat<F> {
        /// From a number, rounded as [`Minifloat::from_f64`].
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            f64::deserialize(deserializer).map(Minifloat::from_f64)
        }
    }
}
