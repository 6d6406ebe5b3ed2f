//! ONNX `Cast`, bit for bit: scalar casts between every pair of numeric dtypes,
//! buffer conversion, and strings.
//!
//! Every cast goes through a [`Value`]: the source's exact value (floats widened
//! to `f64` exactly, NaN payload kept; integers as `i128`), which the target then
//! rounds once. After monomorphisation and inlining the `Value` match disappears:
//! `cast::<f32, f8e4m3fn>` is straight-line code.
//!
//! | to \ from | float | integer | bool |
//! | --- | --- | --- | --- |
//! | float8 | round to nearest even; out of range and ±∞: ±max with `saturate`, else ∞ (E5M2) or NaN; NaN: the format's NaN | exact value, rounded once | 1 / 0 |
//! | f4e2m1 | round to nearest even, saturate to ±6; NaN → `0x8`, −NaN → `0x0` (the reference) | same | 1 / 0 |
//! | f8e8m0 | `round_mode` up / down / nearest on the exponent; see [`f8e8m0::from_f32_with`](crate::narrow::f8e8m0::from_f32_with) | same | 1 / 0 |
//! | f16, bf16, f32, f64 | round to nearest even once (f64 → f16 too); overflow → ±∞ | rounded once | 1 / 0 |
//! | integers, i4, u4, i2, u2 | see [`FloatToInt`] | keep the low bits (200 i16 → −56 i8) | 1 / 0 |
//! | bool | zero → false, anything else (NaN too) → true | zero → false | — |
//!
//! Complex numbers are not castable (ONNX `Cast` has no complex types).
//!
//! Buffers: [`convert`], [`convert_to_slice`] and [`Converter`] take little-endian
//! raw bytes (4-bit types two per byte, low nibble first; 2-bit types four per
//! byte, element 0 in the low bits) and pick one
//! monomorphized kernel per call from a `const` table; [`convert_stream`] runs one
//! over any [`Read`](std::io::Read) into any [`Write`](std::io::Write). Typed
//! slices: [`cast_slice`], [`cast_vec`], [`CastSliceExt::cast_to`]. The conversions
//! that move the most data have SIMD kernels (AVX-512 and AVX2 with F16C, the
//! [`Backend`] chosen at run time, once per [`Converter`]), which give the same
//! bits as the scalar kernel ([`Converter::scalar`], the reference they are
//! tested against on every backend the CPU has).
//!
//! With the feature `rayon`, `par_cast_slice`, `par_cast_vec`,
//! `par_convert_to_slice` and `par_convert_stream` do the same on rayon's
//! thread pool, four chunks per thread through the same kernel (the same bits), and
//! on one thread below `PAR_MIN_ELEMENTS` elements.
//!
//! The modules stack one way: `options` and `error` (the shared vocabulary) at the
//! bottom; `values` (the scalar cast) and `raw` (buffer layouts) on them;
//! `scalar` (the one-element-at-a-time kernel) on those; `text` and `kernels`
//! above; `buffer` on `kernels`; `typed` and `stream` on `buffer`; `parallel`
//! (feature `rayon`) on `typed` and `stream`. This file only assembles them.

mod buffer;
mod error;
pub(crate) mod kernels;
mod options;
#[cfg(feature = "rayon")]
mod parallel;
mod raw;
mod scalar;
mod stream;
mod text;
mod typed;
mod values;

pub use crate::narrow::{f64_to_f32_round_odd, int_to_f64_round_odd};
pub use buffer::{convert, convert_bytes, convert_to_slice, element_size, Converter};
pub use error::ConvertError;
pub use kernels::Backend;
pub use options::{cast_since_opset, CastOptions, FNUZ_INF_SATURATES_FROM, NEWEST_OPSET};
#[cfg(feature = "rayon")]
pub use parallel::{
    par_cast_slice, par_cast_vec, par_convert_stream, par_convert_stream_exact, par_convert_to_slice,
    PAR_BLOCK_BYTES, PAR_MIN_ELEMENTS,
};
pub use stream::{convert_stream, convert_stream_exact, StreamError, CHUNK_BYTES};
pub use text::{
    format_bits, format_value, parse_str, parse_value, FormatKind, Kind, ParseKind, ParseValueError,
    Precision,
};
pub use typed::{cast_slice, cast_vec, CastSliceExt};
pub use values::{cast, cast_bits, CastFrom, CastSource, CastTarget, FloatToInt, Value};
