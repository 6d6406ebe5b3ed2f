//! The narrow number formats: float8, float6, float4, f8e8m0 and 2- and 4-bit integers.
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
//! | [`f8e4m3`] | E4M3 (IEEE style) | ±240 | `0x79..=0x7f`, `0xf9..=0xff` | `0x78`, `0xf8` |
//! | [`f8e3m4`] | E3M4 (IEEE style) | ±15.5 | `0x71..=0x7f`, `0xf1..=0xff` | `0x70`, `0xf0` |
//! | [`f8e4m3b11fnuz`] | E4M3B11FNUZ | ±30 | `0x80` | — |
//! | [`f8e4m3b15`] | E4M3B15 (Triton) | ±1.875 | — | — |
//! | [`f6e2m3fn`] | E2M3FN | ±7.5 | — | — |
//! | [`f6e3m2fn`] | E3M2FN | ±28 | — | — |
//! | [`f8e8m0`] | E8M0 | 2^-127..=2^127 | `0xff` | — |
//! | [`i4`], [`u4`] | 4-bit integers | −8..=7, 0..=15 | | |
//! | [`i2`], [`u2`] | 2-bit integers | −2..=1, 0..=3 | | |

//! The ONNX formats (the first five) convert as ONNX `Cast` does; `f8e4m3`, `f8e3m4`,
//! `f8e4m3b11fnuz` and the f6 formats, which ONNX does not define, as ml_dtypes 0.6
//! does, and `f8e4m3b15` as Triton's compiled code does (see [`format::Reference`]). Every type is one byte, the code in its low bits
//! (a 6-bit code in bits 0..6, as ml_dtypes stores it).
//!
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
pub use format::{NonFinite, Reference, Spec};
pub use minifloat::{
    Format, Minifloat, ParseNarrowError, E2M1, E2M3FN, E3M2FN, E3M4, E4M3, E4M3B11FNUZ, E4M3B15, E4M3FN,
    E4M3FNUZ, E5M2, E5M2FNUZ,
};
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
/// float8 E4M3 in the IEEE style, with ±∞ and NaNs (ml_dtypes `float8_e4m3`).
pub type f8e4m3 = Minifloat<E4M3>;
/// float8 E3M4 in the IEEE style, with ±∞ and NaNs (ml_dtypes `float8_e3m4`).
pub type f8e3m4 = Minifloat<E3M4>;
/// float8 E4M3 with exponent bias 11, finite only, NaN `0x80` (ml_dtypes
/// `float8_e4m3b11fnuz`).
pub type f8e4m3b11fnuz = Minifloat<E4M3B11FNUZ>;
/// float8 E4M3 with exponent bias 15, every code finite (Triton `tl.float8e4b15`).
pub type f8e4m3b15 = Minifloat<E4M3B15>;
/// float6 E2M3FN, finite only (OCP MX, ml_dtypes `float6_e2m3fn`).
pub type f6e2m3fn = Minifloat<E2M3FN>;
/// float6 E3M2FN, finite only (OCP MX, ml_dtypes `float6_e3m2fn`).
pub type f6e3m2fn = Minifloat<E3M2FN>;
