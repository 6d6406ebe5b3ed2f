//! [`DType`] to and from the dtype enums of the crates Rust ML uses, each behind a
//! cargo feature named after the crate: `candle-core` (`candle_core::DType`) and
//! `safetensors` (`safetensors::Dtype`).
//!
//! Every variant of theirs today is a dtype promo knows; both enums are
//! `#[non_exhaustive]`, so both directions are `TryFrom`: into [`DType`] (or an
//! [`Operand`](crate::operand::Operand), a tensor) failing with [`NotInPromo`] for a variant added after this
//! version, and back failing with [`NotInCrate`] for a dtype the crate lacks. A
//! safetensors header's dtypes go straight into a promotion:
//!
//! ```
//! # #[cfg(feature = "safetensors")] {
//! use promo_table::DType;
//! use safetensors::Dtype;
//! assert_eq!(DType::try_from(Dtype::F8_E4M3), Ok(DType::F8E4M3FN));
//! assert_eq!(Dtype::try_from(DType::BF16), Ok(Dtype::BF16));
//! assert!(Dtype::try_from(DType::U4).is_err());
//! # }
//! ```
//!
//! The float8 names differ between crates: safetensors' `F8_E4M3` and candle's
//! `F8E4M3` are PyTorch's `float8_e4m3fn` (finite, max 448), promo's `f8e4m3fn`;
//! promo's `f8e4m3` is ml_dtypes' IEEE-like `float8_e4m3`, which neither crate has.
//! `F4` is `f4e2m1`, `F6_E2M3`/`F6E2M3` are `f6e2m3fn`, `F8_E8M0`/`F8E8M0` is
//! `f8e8m0`, and safetensors' `C64` is `c64` (two `f32`).

use crate::dtype::DType;
use core::fmt;

/// A [`DType`] that the named crate's dtype enum has no variant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotInCrate {
    /// The dtype.
    pub dtype: DType,
    /// The crate whose enum lacks it.
    pub krate: &'static str,
}

impl fmt::Display for NotInCrate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` has no dtype `{}`", self.krate, self.dtype)
    }
}

impl std::error::Error for NotInCrate {}

/// A variant of the named crate's dtype enum that promo does not know (one added
/// after the version promo was built against).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotInPromo {
    /// The variant, as its `Debug` spells it.
    pub variant: String,
    /// The crate.
    pub krate: &'static str,
}

impl fmt::Display for NotInPromo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "promo has no dtype for `{}`'s `{}`", self.krate, self.variant)
    }
}

impl std::error::Error for NotInPromo {}

/// `TryFrom` their enum into [`DType`] and `Operand`, and back, from one list of
/// variant pairs (so the two directions cannot disagree).
macro_rules! dtype_enum {
    ($feature:literal, $theirs:ty, $($their:ident <=> $ours:ident),* $(,)?) => {
        #[cfg(feature = $feature)]
        impl TryFrom<$theirs> for DType {
            type Error = NotInPromo;

            #[doc = concat!("The dtype of a `", $feature, "` variant.")]
            fn try_from(d: $theirs) -> Result<DType, NotInPromo> {
                match d {
                    $(<$theirs>::$their => Ok(DType::$ours),)*
                    #[allow(unreachable_patterns)]
                    other => Err(NotInPromo { variant: format!("{other:?}"), krate: $feature }),
                }
            }
        }

        #[cfg(feature = $feature)]
        impl TryFrom<DType> for $theirs {
            type Error = NotInCrate;

            #[doc = concat!("The `", $feature, "` variant of a promo dtype, if it has one.")]
            fn try_from(d: DType) -> Result<Self, NotInCrate> {
                match d {
                    $(DType::$ours => Ok(<$theirs>::$their),)*
                    dtype => Err(NotInCrate { dtype, krate: $feature }),
                }
            }
        }

        #[cfg(feature = $feature)]
        impl TryFrom<$theirs> for crate::operand::Operand {
            type Error = NotInPromo;

            /// A tensor (with dimensions) of the variant's dtype.
            fn try_from(d: $theirs) -> Result<crate::operand::Operand, NotInPromo> {
                DType::try_from(d).map(crate::operand::Operand::Dimensioned)
            }
        }
    };
}

dtype_enum!("candle-core", candle_core::DType,
    U8 <=> U8, U32 <=> U32, I16 <=> I16, I32 <=> I32, I64 <=> I64,
    BF16 <=> BF16, F16 <=> F16, F32 <=> F32, F64 <=> F64,
    F8E4M3 <=> F8E4M3FN, F6E2M3 <=> F6E2M3FN, F6E3M2 <=> F6E3M2FN, F4 <=> F4E2M1, F8E8M0 <=> F8E8M0,
);

dtype_enum!("safetensors", safetensors::Dtype,
    BOOL <=> Bool, F4 <=> F4E2M1, F6_E2M3 <=> F6E2M3FN, F6_E3M2 <=> F6E3M2FN,
    U8 <=> U8, I8 <=> I8, F8_E5M2 <=> F8E5M2, F8_E4M3 <=> F8E4M3FN, F8_E8M0 <=> F8E8M0,
    F8_E4M3FNUZ <=> F8E4M3FNUZ, F8_E5M2FNUZ <=> F8E5M2FNUZ,
    I16 <=> I16, U16 <=> U16, F16 <=> F16, BF16 <=> BF16, I32 <=> I32, U32 <=> U32,
    F32 <=> F32, C64 <=> C64, F64 <=> F64, I64 <=> I64, U64 <=> U64,
);
