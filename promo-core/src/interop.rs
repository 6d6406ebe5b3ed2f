//! promo with the crates Rust ML uses, each behind a cargo feature named after the
//! crate:
//!
//! | feature | what it gives |
//! | --- | --- |
//! | `float8` | `From` both ways between [`f8e4m3fn`]/[`f8e5m2`] and the `float8` crate's `F8E4M3`/`F8E5M2` (what candle uses), and zero-copy slice views (`to_float8`, `from_float8`) |
//! | `candle-core` | `TryFrom` both ways between [`DType`](crate::DType) and `candle_core::DType`; `interop::candle`: two tensors of different dtypes promoted by a rule set, and the binary ops on them (`candle::add::<Torch>(&a, &b)`) |
//! | `safetensors` | `TryFrom` both ways between [`DType`](crate::DType) and `safetensors::Dtype` |
//!
//! The dtype conversions live with `DType` in `promo-table`; their error types are
//! re-exported here. With `safetensors`, "what does PyTorch promote these two
//! tensors to?" is one line:
//!
//! ```
//! # #[cfg(feature = "safetensors")] {
//! use promo_core::rules::torch::Torch;
//! use promo_core::{DType, Op, RuleSet};
//! use safetensors::Dtype;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let (a, b) = (Dtype::BF16, Dtype::F16); // two tensors' `dtype()`
//! assert_eq!(Torch::promote(Op::Add, DType::try_from(a)?, DType::try_from(b)?), Ok(DType::F32));
//! // PyTorch promotes no float8 type with another dtype.
//! assert!(Torch::promote(Op::Add, DType::try_from(Dtype::F8_E4M3)?, DType::try_from(a)?).is_err());
//! # Ok(()) }
//! # main().unwrap();
//! # }
//! ```
//!
//! [`f8e4m3fn`]: crate::narrow::f8e4m3fn
//! [`f8e5m2`]: crate::narrow::f8e5m2

pub use promo_table::interop::{NotInCrate, NotInPromo};

#[cfg(feature = "candle-core")]
pub mod candle;

#[cfg(feature = "float8")]
pub use float8_twins::{from_float8, from_float8_mut, to_float8, to_float8_mut, Float8Twin};

#[cfg(feature = "float8")]
mod float8_twins {
    use crate::narrow::{f8e4m3fn, f8e5m2};

    /// A promo float8 type with the same format, bit for bit, as a `float8` crate
    /// type: [`f8e4m3fn`] and `float8::F8E4M3` (finite, max 448, NaN `S.1111.111`),
    /// [`f8e5m2`] and `float8::F8E5M2` (IEEE-like). Both are one byte, every byte a
    /// value, so slices of one are slices of the other.
    pub trait Float8Twin: bytemuck::Pod + From<Self::Float8> + Into<Self::Float8> {
        /// The `float8` crate's type of the same format.
        type Float8: bytemuck::Pod;
    }

    impl Float8Twin for f8e4m3fn {
        type Float8 = float8::F8E4M3;
    }

    impl Float8Twin for f8e5m2 {
        type Float8 = float8::F8E5M2;
    }

    macro_rules! twin_from {
        ($($ours:ty => $theirs:ty),*) => {$(
            impl From<$theirs> for $ours {
                /// The same bits: the formats are the same.
                fn from(x: $theirs) -> $ours {
                    <$ours>::from_bits(x.to_bits())
                }
            }
            impl From<$ours> for $theirs {
                /// The same bits: the formats are the same.
                fn from(x: $ours) -> $theirs {
                    <$theirs>::from_bits(x.to_bits())
                }
            }
        )*};
    }
    twin_from!(f8e4m3fn => float8::F8E4M3, f8e5m2 => float8::F8E5M2);

    /// A slice of promo float8 values as the `float8` crate's type, without copying.
    ///
    /// ```
    /// use promo_core::interop::to_float8;
    /// use promo_core::narrow::f8e4m3fn;
    /// let xs = [f8e4m3fn::from_f32(1.5), f8e4m3fn::MAX];
    /// let ys: &[float8::F8E4M3] = to_float8(&xs);
    /// assert_eq!(ys[1].to_f32(), 448.0);
    /// ```
    pub fn to_float8<T: Float8Twin>(xs: &[T]) -> &[T::Float8] {
        bytemuck::cast_slice(xs)
    }

    /// [`to_float8`] of a mutable slice.
    pub fn to_float8_mut<T: Float8Twin>(xs: &mut [T]) -> &mut [T::Float8] {
        bytemuck::cast_slice_mut(xs)
    }

    /// A slice of the `float8` crate's values as promo's type, without copying
    /// (`T` names which: `from_float8::<f8e5m2>(…)`).
    pub fn from_float8<T: Float8Twin>(xs: &[T::Float8]) -> &[T] {
        bytemuck::cast_slice(xs)
    }

    /// [`from_float8`] of a mutable slice.
    pub fn from_float8_mut<T: Float8Twin>(xs: &mut [T::Float8]) -> &mut [T] {
        bytemuck::cast_slice_mut(xs)
    }
}
