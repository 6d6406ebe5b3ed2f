//! [`Element`]: which Rust type stores which [`DType`].

use crate::{DType, HasDType};

pub(crate) mod sealed {
    /// Implemented only inside promo-core: element types, and nothing for the
    /// diagnostic traits the macro generates. Its methods lend a typed slice to the
    /// byte kernels of `cast` (`None`: element by element).
    pub trait Sealed: Sized {
        /// The type's column in a rule set's type-level rows (`rows`): its dtype's
        /// index.
        #[doc(hidden)]
        type __Column;
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
/// | `i2`, `u2`, `i4`, `u4` | [`i2`](crate::narrow::i2), [`u2`](crate::narrow::u2), [`i4`](crate::narrow::i4), [`u4`](crate::narrow::u4) (one value per byte; see `narrow` for packing) |
/// | `f16`, `bf16` | [`half::f16`], [`half::bf16`] |
/// | `f32`, `f64` | the float primitives |
/// | `f8e4m3fn` … `f8e8m0`, `f4e2m1` | [`f8e4m3fn`](crate::narrow::f8e4m3fn) … [`f8e8m0`](crate::narrow::f8e8m0), [`f4e2m1`](crate::narrow::f4e2m1) |
/// | `c64`, `c128` | [`num_complex::Complex<f32>`], [`num_complex::Complex<f64>`] |
///
/// Sealed: the table above is the whole mapping.
///
/// Its dtype is [`HasDType::DTYPE`], also written [`DType::of::<T>()`](DType::of).
pub trait Element: HasDType + Copy + Send + Sync + 'static + sealed::Sealed {}

/// Every element type a cast reaches: its [`DType`] variant, its Rust type, how it
/// lies in a buffer and how it reads and writes as text. Each list of element
/// types in the crate (the [`Element`] impls, the buffer layouts, the kernel
/// tables, the string casts) is this table handed to a local macro:
/// `for_each_element!(my_macro)` expands to `my_macro! { ROW, ROW, … }` with rows
/// `DTYPE: TYPE = LAYOUT / TEXT`.
///
/// The dtypes and types are promo-table's element-type table
/// (`promo_table::for_each_element_type!`, which promo-macros reads too); the
/// complex types, which ONNX `Cast` does not cover, are left out. The layout and
/// text columns follow from the type ([`element_rows!`]):
///
/// | layout | in a buffer | types |
/// | --- | --- | --- |
/// | `bool` | one byte, zero or not | `bool` |
/// | `int`, `float`, `half` | little-endian, `size_of` bytes | the integer and float primitives; `f16`, `bf16` |
/// | `byte` | one byte, the narrow type's code | the float8 formats, `f8e8m0` |
/// | `nibble` | four bits, two per byte, low nibble first | `i4`, `u4`, `f4e2m1` |
/// | `crumb` | two bits, four per byte, element 0 in the low bits | `i2`, `u2` |
///
/// Text: `bool`, `int` (parses integers in range; the integers, `i2`, `u2`, `i4`, `u4`), `f16`,
/// `f32`, `f64` (parses any number; writes the shortest digits of that precision;
/// `f32` for every float but `f16` and `f64`).
macro_rules! for_each_element {
    ($m:ident) => {
        ::promo_table::for_each_element_type! { [$crate::element::element_rows] $m }
    };
}
pub(crate) use for_each_element;

/// Turns promo-table's rows `DTYPE: HOME [TYPE]` into [`for_each_element!`]'s rows
/// `DTYPE: TYPE = LAYOUT / TEXT`, one at a time, then hands them to the macro
/// named first.
macro_rules! element_rows {
    ([$m:ident] $($rows:tt)*) => {
        $crate::element::element_rows! { @next $m [] $($rows)* }
    };
    (@next $m:ident [$($out:tt)*] $dtype:ident: $home:ident [$($ty:tt)*], $($rest:tt)*) => {
        $crate::element::element_rows! { @row $m [$($out)*] $dtype $home [$($ty)*] $($rest)* }
    };
    (@next $m:ident [$($out:tt)*]) => {
        $m! { $($out)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident std [bool] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: bool = bool / bool,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident std [f32] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: f32 = float / f32,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident std [f64] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: f64 = float / f64,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident std [$ty:ident] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $ty = int / int,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident half [f16] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: ::half::f16 = half / f16,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident half [$ty:ident] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: ::half::$ty = half / f32,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [i2] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::i2 = crumb / int,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [u2] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::u2 = crumb / int,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [i4] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::i4 = nibble / int,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [u4] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::u4 = nibble / int,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [f4e2m1] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::f4e2m1 = nibble / f32,] $($rest)* }
    };
    (@row $m:ident [$($out:tt)*] $dtype:ident narrow [$ty:ident] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)* $dtype: $crate::narrow::$ty = byte / f32,] $($rest)* }
    };
    // Complex: not castable.
    (@row $m:ident [$($out:tt)*] $dtype:ident num_complex [$($ty:tt)*] $($rest:tt)*) => {
        $crate::element::element_rows! { @next $m [$($out)*] $($rest)* }
    };
}
pub(crate) use element_rows;

macro_rules! elements {
    ($($dtype:ident: $ty:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(elements!(@one $dtype $ty, $layout);)*
    };
    (@one $dtype:ident $ty:ty, $layout:ident) => {
        impl sealed::Sealed for $ty {
            type __Column = crate::rows::Col<{ DType::$dtype as usize }>;
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
    (@has_dtype $dtype:ident $ty:ty, crumb) => { elements!(@own $dtype $ty); };
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
    // Nibble and crumb types (one value per byte here, two or four per byte in a
    // buffer) and complex types (no ONNX Cast) have no byte view.
    (@view nibble) => {};
    (@view crumb) => {};
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

/// The complex rows of promo-table's element-type table (which
/// [`for_each_element!`] leaves out), and every element type's dtype.
macro_rules! complex_elements {
    ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {
        $(complex_elements!(@$home $dtype [$($ty)*]);)*
        /// Every [`Element`] type's dtype, in the order of the table above.
        pub const ELEMENT_DTYPES: &[DType] = &[$(DType::$dtype,)*];
    };
    (@num_complex $dtype:ident [$($ty:tt)*]) => {
        elements!(@one $dtype ::num_complex::$($ty)*, complex);
    };
    (@$other:ident $($row:tt)*) => {};
}

::promo_table::for_each_element_type!(complex_elements);
