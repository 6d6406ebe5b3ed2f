//! The narrow number formats: float8, float6, float4, f8e8m0 and 2- and 4-bit integers.
//!
//! The float formats are one generic [`Minifloat`] over a [`Format`] marker whose
//! [`Spec`] (bits, exponent bits, bias, how non-finite values are spelled) is one
//! row of the table in [`format`](mod@format). `f8e8m0` is a power of two with no sign or
//! mantissa and has its own small type.
//!
//! The minifloats are one table, each row a format: its [`Spec`], its marker, its
//! type, its dtype and its ml_dtypes name ([`MINIFLOATS`] shows it, with each
//! format's range). The other narrow types:
//!
//! | type | format | range | NaN | ∞ |
//! | --- | --- | --- | --- | --- |
//! | [`f8e8m0`] | E8M0 | 2^-127..=2^127 | `0xff` | — |
//! | [`i4`], [`u4`] | 4-bit integers | −8..=7, 0..=15 | | |
//! | [`i2`], [`u2`] | 2-bit integers | −2..=1, 0..=3 | | |

//! The ONNX formats (the first five rows) convert as ONNX `Cast` does; `f8e4m3`, `f8e3m4`,
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

use crate::DType;

mod e8m0;
pub mod format;
mod minifloat;
mod number;
mod round;
mod small_int;

pub use e8m0::{f8e8m0, RoundMode};
pub use format::{NonFinite, Reference, Spec};
pub use minifloat::{Format, Minifloat, ParseNarrowError};
pub use number::OutOfRange;
pub use round::{f64_to_f32_round_odd, int_to_f64_round_odd};
pub use small_int::{i2, i4, pack_codes, pack_nibbles, u2, u4, unpack_codes, unpack_nibbles};

format::minifloats!(types);
format::minifloats!(lookup);

/// One row of the minifloat table: a format's dtype, its [`Spec`], its largest
/// value as the docs write it, and the name ml_dtypes gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinifloatEntry {
    /// The dtype, whose name is the spec's.
    pub dtype: DType,
    /// The format.
    pub spec: Spec,
    /// The largest finite value, in decimal (`"448"`).
    pub max: &'static str,
    /// The name of ml_dtypes' scalar type of the format (`"float8_e4m3fn"`), or
    /// `None` where ml_dtypes has none (Triton's `f8e4m3b15`).
    pub ml_dtypes: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::{finfo, FloatInfo};

    /// The spec of an element type if it is a [`Minifloat`].
    trait Probe {
        const SPEC: Option<Spec>;
    }
    impl<F: Format> Probe for Minifloat<F> {
        const SPEC: Option<Spec> = Some(F::SPEC);
    }
    macro_rules! not_minifloats {
        ($($t:ty),*) => {$(impl Probe for $t { const SPEC: Option<Spec> = None; })*};
    }
    not_minifloats!(f8e8m0, i2, i4, u2, u4);

    /// The element types promo-table keeps in `narrow`, with their dtype's spec
    /// from [`spec_of`] and the spec of the type itself.
    macro_rules! narrow_rows {
        ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {{
            let mut rows = Vec::new();
            $(narrow_rows!(@$home rows $dtype [$($ty)*]);)*
            rows
        }};
        (@narrow $rows:ident $dtype:ident [$ty:ident]) => {
            $rows.push((DType::$dtype, spec_of(DType::$dtype), <$ty as Probe>::SPEC));
        };
        (@$other:ident $($rest:tt)*) => {};
    }

    /// Every narrow float of promo-table's element table but `f8e8m0` is a
    /// minifloat of the table: `spec_of` gives its type's spec, named as the dtype;
    /// its `finfo` is that spec's; `MINIFLOATS` lists it once. No other dtype has a
    /// spec, and each row's range and ml_dtypes name agree with the spec and the
    /// dtype's names.
    #[test]
    #[allow(clippy::vec_init_then_push)] // one push per narrow row of the element table
    fn every_narrow_float_of_the_element_table_is_a_row() {
        let rows: Vec<(DType, Option<Spec>, Option<Spec>)> = promo_table::for_each_element_type!(narrow_rows);
        let mut minifloats = Vec::new();
        for (dtype, spec, of_type) in rows {
            assert_eq!(spec, of_type, "{dtype}: spec_of and the element type disagree");
            let narrow_float = dtype.is_float() && dtype != DType::F8E8M0;
            assert_eq!(
                spec.is_some(),
                narrow_float,
                "{dtype}: a narrow float has a spec, nothing else"
            );
            if let Some(spec) = spec {
                assert_eq!(spec.name, dtype.name());
                assert_eq!(spec.bits(), dtype.bits(), "{dtype}");
                assert_eq!(finfo(dtype), Some(FloatInfo::of_spec(&spec)), "{dtype}");
                minifloats.push(dtype);
            }
        }
        let listed: Vec<DType> = MINIFLOATS.iter().map(|m| m.dtype).collect();
        minifloats.sort();
        let mut sorted = listed.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted, minifloats,
            "MINIFLOATS is every minifloat of the element table, once"
        );
        assert_eq!(sorted.len(), listed.len());
        for dtype in DType::ALL {
            assert_eq!(spec_of(*dtype).is_some(), listed.contains(dtype), "{dtype}");
        }
        for m in MINIFLOATS {
            assert_eq!(spec_of(m.dtype), Some(m.spec));
            let max = m.spec.decode(m.spec.max_code());
            assert_eq!(
                m.max.parse::<f64>(),
                Ok(max),
                "{}: the documented max",
                m.spec.name
            );
            if let Some(name) = m.ml_dtypes {
                assert!(
                    m.dtype.aliases().contains(&name),
                    "{}: {name} is not an alias",
                    m.spec.name
                );
            }
        }
    }

    /// `From` into `f16` and `bf16` exists for every minifloat (the table makes
    /// it), so each must be a safe cast.
    #[test]
    fn widenings_are_safe_casts() {
        for m in MINIFLOATS {
            for to in [DType::F16, DType::BF16] {
                let safe = crate::can_cast(m.dtype, to, crate::Casting::Safe);
                assert!(safe, "{} -> {to}", m.spec.name);
            }
        }
    }
}
