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
//! | f8e8m0 | `round_mode` up / down / nearest on the exponent; see [`f8e8m0::from_f32_with`] | same | 1 / 0 |
//! | f16, bf16, f32, f64 | round to nearest even once (f64 → f16 too); overflow → ±∞ | rounded once | 1 / 0 |
//! | integers, i4, u4 | see [`FloatToInt`] | keep the low bits (200 i16 → −56 i8) | 1 / 0 |
//! | bool | zero → false, anything else (NaN too) → true | zero → false | — |
//!
//! Complex numbers are not castable (ONNX `Cast` has no complex types).
//!
//! Buffers: [`convert`], [`convert_to_slice`] and [`Converter`] take little-endian
//! raw bytes (4-bit types two per byte, low nibble first) and pick one
//! monomorphized kernel per call from a `const` table. `f32` into the float 8
//! formats, f4e2m1, f8e8m0, f16 and bf16 has an AVX2 kernel, chosen at run time
//! when the CPU has it, which gives the same bits as the scalar kernel
//! ([`Converter::scalar`], the reference it is tested against).

mod text;
mod values;

pub use text::{
    format_bits, format_value, parse_str, parse_value, FormatKind, Kind, ParseKind, ParseValueError,
    Precision,
};
pub use values::{CastFrom, CastSource, CastTarget, FloatToInt, Value};

use crate::narrow::{f8e8m0, RoundMode};

/// The newest ONNX opset whose `Cast` promo follows (the default).
pub const NEWEST_OPSET: u32 = 28;

/// The first opset whose `Cast` saturates ±∞ to ±max for the FNUZ formats (before
/// it, Cast-19/21/23 say NaN).
pub const FNUZ_INF_SATURATES_FROM: u32 = 24;

/// The attributes of one ONNX `Cast`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastOptions {
    /// `saturate` (float 8 and f8e8m0 targets): clamp out-of-range values to the
    /// largest finite value instead of infinity or NaN. Default `true`.
    pub saturate: bool,
    /// The model's opset; decides what ±∞ becomes in the FNUZ formats with
    /// `saturate` (NaN before 24, ±max from 24). Default [`NEWEST_OPSET`].
    pub opset: u32,
    /// `round_mode` (f8e8m0 targets). Default [`RoundMode::Up`].
    pub round_mode: RoundMode,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            saturate: true,
            opset: NEWEST_OPSET,
            round_mode: RoundMode::Up,
        }
    }
}

/// Casts `value` to `T` as ONNX `Cast` does with `options`.
///
/// ```
/// use promo_core::cast::{cast, CastOptions};
/// use promo_core::narrow::f8e4m3fn;
/// let x: f8e4m3fn = cast(464.0f32, &CastOptions::default());
/// assert_eq!(x.to_bits(), 0x7e); // 448, the largest E4M3FN value
/// let y: i8 = cast(200i16, &CastOptions::default());
/// assert_eq!(y, -56);
/// ```
#[inline]
pub fn cast<S, T: CastFrom<S>>(value: S, options: &CastOptions) -> T {
    T::cast_from(value, options)
}

/// `x` narrowed to `f32` rounding to odd: truncated, with the last bit set when
/// anything was dropped. A later rounding to 22 bits or fewer of mantissa then
/// gives the same result as rounding `x` once.
pub fn f64_to_f32_round_odd(x: f64) -> f32 {
    let nearest = x as f32;
    if !x.is_finite() || nearest as f64 == x {
        return nearest;
    }
    // Step toward zero if rounding went away from it, then mark the loss.
    let toward_zero = if (nearest as f64).abs() > x.abs() || nearest.is_infinite() {
        f32::from_bits(nearest.to_bits() - 1)
    } else {
        nearest
    };
    f32::from_bits(toward_zero.to_bits() | 1)
}

/// `i` as `f64` rounding to odd (exact below 2^53 in magnitude), so that a later
/// rounding to a narrower format rounds once.
pub fn int_to_f64_round_odd(i: i128) -> f64 {
    let magnitude = i.unsigned_abs();
    let bits = 128 - magnitude.leading_zeros();
    let value = if bits <= 53 {
        magnitude as f64
    } else {
        let shift = bits - 53;
        let kept = magnitude >> shift;
        let sticky = (magnitude & ((1u128 << shift) - 1) != 0) as u128;
        (kept | sticky) as f64 * 2f64.powi(shift as i32)
    };
    if i < 0 {
        -value
    } else {
        value
    }
}

/// `x` as f8e8m0 with the options' `saturate` and `round_mode`.
pub(crate) fn to_e8m0(x: f64, options: &CastOptions) -> f8e8m0 {
    f8e8m0::from_f64_with(x, options.saturate, options.round_mode)
}

mod buffer;
mod decode;
mod simd;
mod to_int;
mod typed;
pub use buffer::{convert, convert_bytes, convert_to_slice, element_size, ConvertError, Converter};
pub use typed::{cast_slice, cast_vec, CastSliceExt};
