//! [`Element`]: which Rust type stores which [`DType`].

use crate::{DType, HasDType};
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
/// | `i4`, `u4` | [`i4`](crate::narrow::i4), [`u4`](crate::narrow::u4) (one value per byte; see `narrow` for packing) |
/// | `f16`, `bf16` | [`half::f16`], [`half::bf16`] |
/// | `f32`, `f64` | the float primitives |
/// | `f8e4m3fn` … `f8e8m0`, `f4e2m1` | [`f8e4m3fn`](crate::narrow::f8e4m3fn) … [`f8e8m0`](crate::narrow::f8e8m0), [`f4e2m1`](crate::narrow::f4e2m1) |
/// | `c64`, `c128` | [`num_complex::Complex<f32>`], [`num_complex::Complex<f64>`] |
///
/// Sealed: the table above is the whole mapping.
///
/// Its dtype is [`HasDType::DTYPE`], also written [`DType::of::<T>()`](DType::of).
pub trait Element: HasDType + Copy + Send + Sync + 'static + sealed::Sealed {}

/// Every element type a cast reaches, written once: its [`DType`] variant, its Rust
/// type, how it lies in a buffer and how it reads and writes as text. Each list of
/// element types in the crate (the [`Element`] impls, the buffer layouts, the
/// kernel table, the string casts) is this table handed to a local macro:
/// `for_each_element!(my_macro)` expands to `my_macro! { ROW, ROW, … }` with rows
/// `DTYPE: TYPE = LAYOUT / TEXT`.
///
/// | layout | in a buffer |
/// | --- | --- |
/// | `bool` | one byte, zero or not |
/// | `int`, `float`, `half` | little-endian, `size_of` bytes |
/// | `byte` | one byte, the narrow type's code |
/// | `nibble` | four bits, two per byte, low nibble first |
///
/// Text: `bool`, `int` (parses integers in range), `f16`, `f32`, `f64` (parses any
/// number; writes the shortest digits of that precision).
macro_rules! for_each_element {
    ($m:ident) => {
        $m! {
            Bool: bool = bool / bool,
            I4: $crate::narrow::i4 = nibble / int,
            I8: i8 = int / int,
            I16: i16 = int / int,
            I32: i32 = int / int,
            I64: i64 = int / int,
            U4: $crate::narrow::u4 = nibble / int,
            U8: u8 = int / int,
            U16: u16 = int / int,
            U32: u32 = int / int,
            U64: u64 = int / int,
            F4E2M1: $crate::narrow::f4e2m1 = nibble / f32,
            F8E4M3FN: $crate::narrow::f8e4m3fn = byte / f32,
            F8E4M3FNUZ: $crate::narrow::f8e4m3fnuz = byte / f32,
            F8E5M2: $crate::narrow::f8e5m2 = byte / f32,
            F8E5M2FNUZ: $crate::narrow::f8e5m2fnuz = byte / f32,
            F8E8M0: $crate::narrow::f8e8m0 = byte / f32,
            F16: ::half::f16 = half / f16,
            BF16: ::half::bf16 = half / f32,
            F32: f32 = float / f32,
            F64: f64 = float / f64,
        }
    };
}
pub(crate) use for_each_element;

macro_rules! elements {
    ($($dtype:ident: $ty:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(elements!(@one $dtype $ty, $layout);)*
        elements!(@one C64 Complex<f32>, complex);
        elements!(@one C128 Complex<f64>, complex);
        /// Every [`Element`] type's dtype, in the order of the table above.
        pub const ELEMENT_DTYPES: &[DType] = &[$(DType::$dtype,)* DType::C64, DType::C128];
    };
    (@one $dtype:ident $ty:ty, $layout:ident) => {
        impl sealed::Sealed for $ty {
            elements!(@view $layout);
        }
        impl Element for $ty {}
        elements!(@has_dtype $dtype $ty, $layout);
        const _: () = assert!(<$ty as HasDType>::DTYPE as usize == DType::$dtype as usize);
    };
    // promo's own types, the narrow ones, link their dtype here; `promo-table`
    // links the others.
    (@has_dtype $dtype:ident $ty:ty, byte) => { elements!(@own $dtype $ty); };
    (@has_dtype $dtype:ident $ty:ty, nibble) => { elements!(@own $dtype $ty); };
    (@has_dtype $dtype:ident $ty:ty, $other:ident) => {};
    (@own $dtype:ident $ty:ty) => {
        impl HasDType for $ty {
            const DTYPE: DType = DType::$dtype;
        }
    };
    // Readable as bytes; not every byte is a bool, so not writable.
    (@view bool) => {
        fn __promo_bytes(s: &[Self]) -> Option<&[u8]> {
            Some(bytemuck::cast_slice(s))
        }
    };
    // Nibble types (one value per byte here, two per byte in a buffer) and complex
    // types (no ONNX Cast) have no byte view.
    (@view nibble) => {};
    (@view complex) => {};
    // Laid out as in a (little-endian) buffer.
    (@view $pod:ident) => {
        fn __promo_bytes(s: &[Self]) -> Option<&[u8]> {
            cfg!(target_endian = "little").then(|| bytemuck::cast_slice(s))
        }
        fn __promo_bytes_mut(s: &mut [Self]) -> Option<&mut [u8]> {
            cfg!(target_endian = "little").then(|| bytemuck::cast_slice_mut(s))
        }
    };
}

for_each_element!(elements);
