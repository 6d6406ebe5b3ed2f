//! The narrow number formats: float8, float4, f8e8m0 and 4-bit integers.
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

#![allow(non_camel_case_types)]

mod e8m0;
pub mod format;
mod int4;
mod minifloat;

pub use e8m0::{f8e8m0, RoundMode};
pub use format::{NonFinite, Spec};
pub use int4::{i4, pack_nibbles, u4, unpack_nibbles};
pub use minifloat::{Format, Minifloat, ParseNarrowError, E2M1, E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};

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
