//! [`CastOptions`]: the attributes of one ONNX `Cast`, the vocabulary every other
//! part of `cast` shares.

use crate::narrow::RoundMode;

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

impl CastOptions {
    /// Whether ±∞ becomes NaN in the FNUZ formats even with `saturate` (Cast-19..23).
    #[inline]
    pub(crate) fn fnuz_inf_is_nan(&self) -> bool {
        self.opset < FNUZ_INF_SATURATES_FROM
    }
}
