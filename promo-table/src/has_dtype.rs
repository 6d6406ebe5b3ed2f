//! [`HasDType`]: the link from a Rust element type to its [`DType`], read by
//! [`DType::of`].

use crate::dtype::DType;

/// A Rust type whose values are elements of one [`DType`]. promo-core implements
/// it for its element types (`i8`, `half::f16`, `f8e4m3fn`, …).
pub trait HasDType {
    /// The dtype of this type's values.
    const DTYPE: DType;
}

impl DType {
    /// The dtype that Rust type `T` stores.
    ///
    /// ```
    /// use promo_table::{DType, HasDType};
    /// struct Celsius(f32);
    /// impl HasDType for Celsius {
    ///     const DTYPE: DType = DType::F32;
    /// }
    /// assert_eq!(DType::of::<Celsius>(), DType::F32);
    /// ```
    pub const fn of<T: HasDType>() -> DType {
        T::DTYPE
    }
}

/// The [`HasDType`] impls of the element-type table's rows whose types live outside
/// promo-core (promo-core adds its narrow types).
macro_rules! has_dtype {
    ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {
        $(has_dtype!(@$home $dtype [$($ty)*]);)*
    };
    (@std $dtype:ident [$ty:ty]) => {
        has_dtype!(@impl $dtype $ty);
    };
    (@half $dtype:ident [$ty:ident]) => {
        has_dtype!(@impl $dtype half::$ty);
    };
    (@num_complex $dtype:ident [$($ty:tt)*]) => {
        has_dtype!(@impl $dtype num_complex::$($ty)*);
    };
    (@narrow $($promo_core:tt)*) => {};
    (@impl $dtype:ident $ty:ty) => {
        impl HasDType for $ty {
            const DTYPE: DType = DType::$dtype;
        }
    };
}

crate::for_each_element_type!(has_dtype);
