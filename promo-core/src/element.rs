//! [`Element`]: which Rust type stores which [`DType`].

use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i4, u4};
use crate::{DType, HasDType};
use half::{bf16, f16};
use num_complex::Complex;

pub(crate) mod sealed {
    /// Implemented only inside promo-core: element types, and nothing for the
    /// diagnostic traits the macro generates. Its methods lend a typed slice to the
    /// byte kernels of `cast` (`None`: element by element).
    pub trait Sealed: Sized {
        /// The elements as the bytes a buffer of this dtype holds. (Named so that
        /// it cannot clash with a user's method on an `Element` type parameter.)
        #[doc(hidden)]
        fn __promo_bytes(_: &[Self]) -> Option<&[u8]> {
            None
        }
        /// The elements as bytes to write, where every byte pattern the kernels
        /// write is a valid element.
        #[doc(hidden)]
        fn __promo_bytes_mut(_: &mut [Self]) -> Option<&mut [u8]> {
            None
        }
    }
}

/// A Rust type that stores elements of one [`DType`].
///
/// | dtype | Rust type |
/// | --- | --- |
/// | `bool` | `bool` |
/// | `i8`..`i64`, `u8`..`u64` | the integer primitives |
/// | `i4`, `u4` | [`i4`], [`u4`] (one value per byte; see `narrow` for packing) |
/// | `f16`, `bf16` | [`half::f16`], [`half::bf16`] |
/// | `f32`, `f64` | the float primitives |
/// | `f8e4m3fn` … `f8e8m0`, `f4e2m1` | [`f8e4m3fn`] … [`f8e8m0`], [`f4e2m1`] |
/// | `c64`, `c128` | [`num_complex::Complex<f32>`], [`num_complex::Complex<f64>`] |
///
/// Sealed: the table above is the whole mapping.
///
/// Its dtype is [`HasDType::DTYPE`], also written [`DType::of::<T>()`](DType::of).
pub trait Element: HasDType + Copy + Send + Sync + 'static + sealed::Sealed {}

/// promo's own element types, the narrow ones; `promo-table` links the others.
macro_rules! narrow_dtypes {
    ($($ty:ty => $dtype:ident),* $(,)?) => {$(
        impl HasDType for $ty {
            const DTYPE: DType = DType::$dtype;
        }
    )*};
}

narrow_dtypes! {
    i4 => I4, u4 => U4, f4e2m1 => F4E2M1, f8e4m3fn => F8E4M3FN, f8e4m3fnuz => F8E4M3FNUZ,
    f8e5m2 => F8E5M2, f8e5m2fnuz => F8E5M2FNUZ, f8e8m0 => F8E8M0,
}

macro_rules! elements {
    ($($ty:ty => $dtype:ident $(: $view:ident)?),* $(,)?) => {
        $(
            impl sealed::Sealed for $ty {
                $(elements!(@$view);)?
            }
            impl Element for $ty {}
            const _: () = assert!(<$ty as HasDType>::DTYPE as usize == DType::$dtype as usize);
        )*
        /// Every [`Element`] type's dtype, in the order of the table above.
        pub const ELEMENT_DTYPES: &[DType] = &[$(DType::$dtype),*];
    };
    // Laid out as in a (little-endian) buffer.
    (@pod) => {
        fn __promo_bytes(s: &[Self]) -> Option<&[u8]> {
            cfg!(target_endian = "little").then(|| bytemuck::cast_slice(s))
        }
        fn __promo_bytes_mut(s: &mut [Self]) -> Option<&mut [u8]> {
            cfg!(target_endian = "little").then(|| bytemuck::cast_slice_mut(s))
        }
    };
    // Readable as bytes; not every byte is a bool, so not writable.
    (@read) => {
        fn __promo_bytes(s: &[Self]) -> Option<&[u8]> {
            Some(bytemuck::cast_slice(s))
        }
    };
}

// Nibble types (one value per byte here, two per byte in a buffer) and complex
// types (no ONNX Cast) have no byte view.
elements! {
    bool => Bool: read,
    i4 => I4, i8 => I8: pod, i16 => I16: pod, i32 => I32: pod, i64 => I64: pod,
    u4 => U4, u8 => U8: pod, u16 => U16: pod, u32 => U32: pod, u64 => U64: pod,
    f4e2m1 => F4E2M1,
    f8e4m3fn => F8E4M3FN: pod, f8e4m3fnuz => F8E4M3FNUZ: pod, f8e5m2 => F8E5M2: pod,
    f8e5m2fnuz => F8E5M2FNUZ: pod, f8e8m0 => F8E8M0: pod,
    f16 => F16: pod, bf16 => BF16: pod, f32 => F32: pod, f64 => F64: pod,
    Complex<f32> => C64, Complex<f64> => C128,
}
