//! [`CastOptions`]: the attributes of one ONNX `Cast`, the vocabulary every other
//! part of `cast` shares.

use crate::narrow::{Reference, RoundMode};
use crate::DType;

/// The newest ONNX opset whose `Cast` promo follows (the default).
pub const NEWEST_OPSET: u32 = 28;

/// The first opset whose `Cast` saturates ±∞ to ±max for the FNUZ formats (before
/// it, Cast-19/21/23 say NaN).
pub const FNUZ_INF_SATURATES_FROM: u32 = 24;

/// The first opset whose `Cast` takes `dtype` (as input or output), from ONNX's
/// operator history (`onnx.defs.get_schema("Cast", N)`, onnx 1.23.2): Cast-1 the
/// ints, bool, f16, f32 and f64; Cast-9 string; Cast-13 bf16; Cast-19 the four
/// float8 formats; Cast-21 i4 and u4; Cast-23 f4e2m1; Cast-24 f8e8m0; Cast-25 i2 and
/// u2. `None` for a dtype no `Cast` takes (complex, the other sub-byte and narrow
/// types).
pub const fn cast_since_opset(dtype: DType) -> Option<u32> {
    use DType::*;
    Some(match dtype {
        Bool | I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64 | F16 | F32 | F64 => 1,
        String => 9,
        BF16 => 13,
        F8E4M3FN | F8E4M3FNUZ | F8E5M2 | F8E5M2FNUZ => 19,
        I4 | U4 => 21,
        F4E2M1 => 23,
        F8E8M0 => 24,
        I2 | U2 => 25,
        _ => return None,
    })
}

/// The attributes of one ONNX `Cast`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastOptions {
    /// `saturate` (float8, and f8e8m0 targets): `Some(true)` clamps out-of-range
    /// values and ±∞ to ±max, `Some(false)` gives infinity or NaN instead. `None`
    /// (the default) is each target's own convention: ONNX `Cast`'s default
    /// `saturate=1` for the ONNX formats (`f8e4m3fn`, `f8e4m3fnuz`, `f8e5m2`,
    /// `f8e5m2fnuz`, `f8e8m0`), ml_dtypes' conversion, which does not saturate, for
    /// the formats only ml_dtypes defines (`f8e4m3`, `f8e3m4`, `f8e4m3b11fnuz`).
    /// Formats with neither infinity nor NaN (`f4e2m1`, `f6e2m3fn`, `f6e3m2fn`)
    /// always clamp, `f8e4m3b15` as Triton does (to ±1.75); other targets ignore it.
    pub saturate: Option<bool>,
    /// The model's opset; decides what ±∞ becomes in the FNUZ formats with
    /// `saturate` (NaN before 24, ±max from 24). Default [`NEWEST_OPSET`].
    pub opset: u32,
    /// `round_mode` (f8e8m0 targets). Default [`RoundMode::Up`].
    pub round_mode: RoundMode,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            saturate: None,
            opset: NEWEST_OPSET,
            round_mode: RoundMode::Up,
        }
    }
}

impl CastOptions {
    /// Whether the model's opset has a `Cast` from `from` to `to`: an error naming
    /// the opset that introduced the later of the two ([`cast_since_opset`]). A dtype
    /// no `Cast` takes is left to the converter, which refuses it.
    pub fn check_opset(&self, from: DType, to: DType) -> Result<(), String> {
        for d in [from, to] {
            if let Some(since) = cast_since_opset(d) {
                if self.opset < since {
                    return Err(format!(
                        "opset {} has no `{d}`: ONNX `Cast` takes it from opset {since}",
                        self.opset
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether a target whose conversions follow `reference` saturates:
    /// [`saturate`](Self::saturate) when set, else `true` for ONNX and `false` for
    /// ml_dtypes. Triton's conversion always clamps.
    ///
    /// ```
    /// use promo_core::cast::CastOptions;
    /// use promo_core::narrow::Reference;
    /// let o = CastOptions::default();
    /// assert!(o.saturates(Reference::Onnx) && !o.saturates(Reference::MlDtypes));
    /// let clamp = CastOptions { saturate: Some(true), ..o };
    /// assert!(clamp.saturates(Reference::MlDtypes));
    /// ```
    #[inline]
    pub const fn saturates(&self, reference: Reference) -> bool {
        match (self.saturate, reference) {
            (_, Reference::Triton) => true,
            (Some(saturate), _) => saturate,
            (None, Reference::Onnx) => true,
            (None, Reference::MlDtypes) => false,
        }
    }

    /// Whether ±∞ becomes NaN in the FNUZ formats even with `saturate` (Cast-19..23).
    #[inline]
    pub(crate) fn fnuz_inf_is_nan(&self) -> bool {
        self.opset < FNUZ_INF_SATURATES_FROM
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opset_before_a_type_has_no_cast_of_it() {
        let at = |opset| CastOptions {
            opset,
            ..CastOptions::default()
        };
        assert_eq!(
            at(18).check_opset(DType::F32, DType::F8E4M3FN),
            Err("opset 18 has no `f8e4m3fn`: ONNX `Cast` takes it from opset 19".to_owned())
        );
        assert!(at(19).check_opset(DType::F8E5M2FNUZ, DType::F32).is_ok());
        assert!(at(23).check_opset(DType::F32, DType::F8E8M0).is_err());
        assert!(at(22).check_opset(DType::F4E2M1, DType::F32).is_err());
        assert!(at(24).check_opset(DType::I2, DType::I8).is_err());
        assert!(at(12).check_opset(DType::BF16, DType::F32).is_err());
        assert!(at(8).check_opset(DType::String, DType::F32).is_err());
        assert!(at(1).check_opset(DType::I64, DType::F16).is_ok());
        assert!(at(0).check_opset(DType::I64, DType::F16).is_err());
        assert_eq!(cast_since_opset(DType::C64), None);
    }
}
