//! [`HasDType`]: the link from a Rust element type to its [`DType`], read by
//! [`DType::of`].

use crate::DType;

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

macro_rules! has_dtype {
    ($($ty:ty => $dtype:ident),* $(,)?) => {$(
        impl HasDType for $ty {
            const DTYPE: DType = DType::$dtype;
        }
    )*};
}

// The element types from the standard library, `half` and `num-complex`; promo-core
// adds its narrow types.
has_dtype! {
    bool => Bool,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64,
    half::f16 => F16, half::bf16 => BF16, f32 => F32, f64 => F64,
    num_complex::Complex<f32> => C64, num_complex::Complex<f64> => C128,
}
