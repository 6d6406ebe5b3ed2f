//! The narrow number formats: float8, float4, f8e8m0 and 2- and 4-bit integers.
//!
//! The float formats are one generic [`Minifloat`] over a [`Format`] marker whose
//! [`Spec`] (bits, exponent bits, bias, how non-finite values are spelled) is one
//! row of the table in [`format`](mod@format). `f8e8m0` is a power of two with no sign or
//! mantissa and has its own small type.
//!
//! | type | format | range | NaN | ∞ |
//! | --- | --- | --- | --- | --- |
//! | [`f8e4m3fn`] | E4M3FN | ±448 | `0x7f`, `0xff` | — |
//! | [`f8e4m3fnuz`] | E4M3FNUZ | ±240 | `0x80` | — |
//! | [`f8e5m2`] | E5M2 | ±57344 | `0x7d..=0x7f`, `0xfd..=0xff` | `0x7c`, `0xfc` |
//! | [`f8e5m2fnuz`] | E5M2FNUZ | ±57344 | `0x80` | — |
//! | [`f4e2m1`] | E2M1 | ±6 | — | — |
//! | [`f8e8m0`] | E8M0 | 2^-127..=2^127 | `0xff` | — |
//! | [`i4`], [`u4`] | 4-bit integers | −8..=7, 0..=15 | | |
//! | [`i2`], [`u2`] | 2-bit integers | −2..=1, 0..=3 | | |

//! They behave like numbers, as `half`'s types do: lossless `From` widenings
//! (`f32::from(x)`, `f16::from(x)`), `from_f32` saturating as ONNX `Cast` does by
//! default beside `from_f32_unsaturated`, `Neg`, and `+ - * /` computed in `f32` and
//! rounded once more to the format, as ml_dtypes does (exactly rounded all the same;
//! see [`number`](self#arithmetic)). Features: `num-traits` (`Zero`, `One`, `Bounded`,
//! `ToPrimitive`, `FromPrimitive`, `NumCast`), `serde` (as the value), `bytemuck`.
//!
//! # Arithmetic
//!
//! Both operands widen to `f32` exactly; the operation rounds once there, and the
//! result rounds to the format without saturation (±∞ or NaN on overflow; f4e2m1,
//! which has neither, saturates). `f32` carries more than twice the format's
//! precision plus two bits, so the second rounding never changes the exactly rounded
//! result, division included; `tests/narrow_numbers.rs` checks every pair.
//!
//! ```
//! use promo_core::narrow::f8e4m3fn;
//! let x = f8e4m3fn::from_f32(1.5);
//! assert_eq!(f32::from(x * x), 2.25);
//! assert_eq!(f32::from(-x / f8e4m3fn::from_f32(3.0)), -0.5);
//! assert!((f8e4m3fn::MAX + f8e4m3fn::MAX).is_nan());
//! ```

#![allow(non_camel_case_types)]

mod e8m0;
pub mod format;
mod minifloat;
mod number;
mod round;
mod small_int;

pub use e8m0::{f8e8m0, RoundMode};
pub use format::{NonFinite, Spec};
pub use minifloat::{Format, Minifloat, ParseNarrowError, E2M1, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};
pub use number::OutOfRange;
pub use round::{f64_to_f32_round_odd, int_to_f64_round_odd};
pub use small_int::{i2, i4, pack_codes, pack_nibbles, u2, u4, unpack_codes, unpack_nibbles};

/// float8 E4M3FN.
pub type f8e4m3fn = Minifloat<E4M3FN>;
/// float8 E4M3FNUZ.
pub type f8e4m3fnuz = Minifloat<E4M3FNUZ>;
/// float8 E5M2.
pub type f8e5m2 = Minifloat<E5M2>;
/// float8 E5M2FNUZ.
pub type f8e5m2fnuz = Minifloat<E5M2FNUZ>;
/// float4 E2M1.
pub type f4e2m1 = Minifloat<E2M1>;
