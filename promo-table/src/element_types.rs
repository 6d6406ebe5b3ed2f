//! Which Rust type stores each dtype: one table, read where a list of element
//! types is needed. This crate implements [`HasDType`](crate::HasDType) from it
//! for the standard, `half` and `num-complex` types; promo-macros names these
//! types in the `Promote` impls it generates; promo-core builds its element table
//! (`for_each_element!`, with how each type lies in a buffer and reads as text)
//! from it. It lives here, below both, because promo-macros cannot depend on
//! promo-core.

/// Hands every dtype that has a Rust element type, with that type, to a macro:
/// `for_each_element_type!(m)` expands to `m! { ROW, ROW, … }`, and
/// `for_each_element_type!([path::to::m] ARGS)` to `path::to::m! { [ARGS] ROW, … }`.
/// Rows are `DTYPE: HOME [TYPE]`, `HOME` saying where the type lives:
///
/// | home | type |
/// | --- | --- |
/// | `std` | a primitive |
/// | `half` | `half::TYPE` |
/// | `num_complex` | `num_complex::TYPE` |
/// | `narrow` | promo-core's `narrow::TYPE`, which this crate cannot name |
///
/// The order is promo-core's element order.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_element_type {
    ($m:ident) => {
        $crate::for_each_element_type! { @rows [$m] [] }
    };
    ([$($m:tt)*] $($arg:tt)*) => {
        $crate::for_each_element_type! { @rows [$($m)*] [[$($arg)*]] }
    };
    (@rows [$($m:tt)*] [$($arg:tt)*]) => {
        $($m)*! {
            $($arg)*
            Bool: std [bool],
            I2: narrow [i2],
            I4: narrow [i4],
            I8: std [i8],
            I16: std [i16],
            I32: std [i32],
            I64: std [i64],
            U2: narrow [u2],
            U4: narrow [u4],
            U8: std [u8],
            U16: std [u16],
            U32: std [u32],
            U64: std [u64],
            F4E2M1: narrow [f4e2m1],
            F6E2M3FN: narrow [f6e2m3fn],
            F6E3M2FN: narrow [f6e3m2fn],
            F8E4M3FN: narrow [f8e4m3fn],
            F8E4M3: narrow [f8e4m3],
            F8E3M4: narrow [f8e3m4],
            F8E4M3B11FNUZ: narrow [f8e4m3b11fnuz],
            F8E4M3B15: narrow [f8e4m3b15],
            F8E4M3FNUZ: narrow [f8e4m3fnuz],
            F8E5M2: narrow [f8e5m2],
            F8E5M2FNUZ: narrow [f8e5m2fnuz],
            F8E8M0: narrow [f8e8m0],
            F16: half [f16],
            BF16: half [bf16],
            F32: std [f32],
            F64: std [f64],
            C64: num_complex [Complex<f32>],
            C128: num_complex [Complex<f64>],
        }
    };
}
