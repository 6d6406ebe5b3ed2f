//! The narrow types as numbers: lossless `From` widenings, arithmetic computed in
//! `f32` as ml_dtypes does, `Neg`, `total_cmp`, the per-format `NAN`/`INFINITY`
//! constants, 4-bit integer conversions, and the optional `num-traits` and `serde`
//! impls.
//!
//! Arithmetic: see the [`narrow`](super#arithmetic) module docs.

use super::minifloat::{
    Format, Minifloat, E2M1, E2M3FN, E3M2FN, E3M4, E4M3, E4M3B11FNUZ, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ,
};
use super::{f8e8m0, i2, i4, u2, u4, NonFinite};
use core::cmp::Ordering;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use half::{bf16, f16};

macro_rules! nan_constant {
    ($($marker:ident),*) => {$(
        impl Minifloat<$marker> {
            /// The NaN the reference produces for a positive NaN input.
            pub const NAN: Self = match Self::nan() {
                Some(nan) => nan,
                None => panic!("format without NaN"),
            };
        }
    )*};
}
nan_constant!(E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E4M3, E3M4, E4M3B11FNUZ);

macro_rules! infinity_constants {
    ($($marker:ident),*) => {$(
        impl Minifloat<$marker> {
            /// +∞.
            pub const INFINITY: Self = match Self::infinity() {
                Some(inf) => inf,
                None => panic!("format without infinity"),
            };
            /// −∞.
            pub const NEG_INFINITY: Self = match Self::neg_infinity() {
                Some(inf) => inf,
                None => panic!("format without infinity"),
            };
        }
    )*};
}
infinity_constants!(E5M2, E4M3, E3M4);

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
arithmetic!(Add add AddAssign add_assign +, Sub sub SubAssign sub_assign -, Mul mul MulAssign mul_assign *, Div div DivAssign div_assign /);

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
/// [`crate::can_cast`] calls safe (`tests/narrow_numbers.rs` checks each).
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
    Minifloat<E4M3FN> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E4M3FNUZ> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E5M2> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E5M2FNUZ> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E4M3> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E3M4> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E4M3B11FNUZ> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E2M3FN> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E3M2FN> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32());
    Minifloat<E2M1> => f16: |x| f16::from_f32(x.to_f32()), bf16: |x| bf16::from_f32(x.to_f32()),
        Minifloat<E4M3FN>: |x| Minifloat::from_f32_unsaturated(x.to_f32()),
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
    use num_traits::{Bounded, FromPrimitive, NumCast, One, ToPrimitive, Zero};

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
        /// Rounded to nearest even, saturating (ONNX `Cast`'s default).
        fn from_i64(n: i64) -> Option<Self> {
            Some(Self::from_f64(crate::narrow::int_to_f64_round_odd(n.into())))
        }
        /// Rounded to nearest even, saturating.
        fn from_u64(n: u64) -> Option<Self> {
            Some(Self::from_f64(crate::narrow::int_to_f64_round_odd(n.into())))
        }
        /// Rounded to nearest even, saturating.
        fn from_f32(x: f32) -> Option<Self> {
            Some(Minifloat::from_f32(x))
        }
        /// Rounded to nearest even once, saturating.
        fn from_f64(x: f64) -> Option<Self> {
            Some(Minifloat::from_f64(x))
        }
    }

    impl<F: Format> NumCast for Minifloat<F> {
        fn from<T: ToPrimitive>(n: T) -> Option<Self> {
            n.to_f64().map(Minifloat::from_f64)
        }
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
        /// From a number, rounded to nearest even with saturation.
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            f64::deserialize(deserializer).map(Minifloat::from_f64)
        }
    }
}
