//! [`CastOptions`]: the attributes of one ONNX `Cast`, the vocabulary every other
//! part of `cast` shares.

use crate::narrow::{Reference, RoundMode};

/// The newest ONNX opset whose `Cast` promo follows (the default).
pub const NEWEST_OPSET: u32 = 28;

/// The first opset whose `Cast` saturates ±∞ to ±max for the FNUZ formats (before
/// it, Cast-19/21/23 say NaN).
pub const FNUZ_INF_SATURATES_FROM: u32 = 24;

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
    /// always clamp; other targets ignore it.
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
    /// Whether a target whose conversions follow `reference` saturates:
    /// [`saturate`](Self::saturate) when set, else `true` for ONNX and `false` for
    /// ml_dtypes.
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
