//! [`f8e8m0`]: an unsigned power of two (the OCP MX scale type).

use core::fmt;

/// How a value that is not a power of two becomes one (ONNX `Cast-24` `round_mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoundMode {
    /// Toward +∞: any fraction bumps the exponent (the ONNX default).
    #[default]
    Up,
    /// Toward zero: the fraction is dropped.
    Down,
    /// To nearest: the exponent is bumped when the fraction is at least one half,
    /// as the reference computes it (see [`f8e8m0::from_f32`]).
    Nearest,
}

impl core::str::FromStr for RoundMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "up" => Ok(RoundMode::Up),
            "down" => Ok(RoundMode::Down),
            "nearest" => Ok(RoundMode::Nearest),
            _ => Err(format!(
                "bad round mode `{s}`: expected `up`, `down` or `nearest`"
            )),
        }
    }
}

/// float8 E8M0: `2^(code - 127)` for codes `0..=254`, NaN for `0xff`; no sign, no
/// zero, no infinity.
///
/// Equality and order follow IEEE: NaN equals nothing and is unordered.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
pub struct f8e8m0(u8);

impl f8e8m0 {
    /// The value with this bit pattern.
    pub const fn from_bits(bits: u8) -> Self {
        f8e8m0(bits)
    }
    /// The bit pattern.
    pub const fn to_bits(self) -> u8 {
        self.0
    }
    /// 2^127.
    pub const MAX: Self = f8e8m0(0xfe);
    /// 2^-127, the smallest value.
    pub const MIN_POSITIVE: Self = f8e8m0(0);
    /// 1.0.
    pub const ONE: Self = f8e8m0(127);
    /// NaN.
    pub const NAN: Self = f8e8m0(0xff);

    /// Whether this is NaN.
    pub const fn is_nan(self) -> bool {
        self.0 == 0xff
    }

    /// Whether this is a number (every code but NaN; there is no infinity).
    pub const fn is_finite(self) -> bool {
        !self.is_nan()
    }

    /// Always `false`: the format has no infinity.
    pub const fn is_infinite(self) -> bool {
        false
    }

    /// Whether this is a number: every value is normal (no zero, no subnormals;
    /// 2^-127 is the smallest normal value, as `ml_dtypes.finfo` says).
    pub const fn is_normal(self) -> bool {
        !self.is_nan()
    }

    /// [`FpCategory::Nan`](core::num::FpCategory::Nan) or
    /// [`Normal`](core::num::FpCategory::Normal) (see [`is_normal`](Self::is_normal)).
    pub const fn classify(self) -> core::num::FpCategory {
        if self.is_nan() {
            core::num::FpCategory::Nan
        } else {
            core::num::FpCategory::Normal
        }
    }

    /// Always `true`: the format has no sign (its NaN decodes to a positive NaN).
    pub const fn is_sign_positive(self) -> bool {
        true
    }

    /// Always `false`.
    pub const fn is_sign_negative(self) -> bool {
        false
    }

    /// The value itself (every value is positive).
    pub const fn abs(self) -> Self {
        self
    }

    /// `1` for a number, NaN for NaN, as [`f32::signum`].
    pub const fn signum(self) -> Self {
        if self.is_nan() {
            self
        } else {
            Self::ONE
        }
    }

    /// The smaller value; if one is NaN, the other, as [`f32::min`].
    pub const fn min(self, other: Self) -> Self {
        if self.is_nan() || (!other.is_nan() && other.0 < self.0) {
            other
        } else {
            self
        }
    }

    /// The larger value; if one is NaN, the other, as [`f32::max`].
    pub const fn max(self, other: Self) -> Self {
        if self.is_nan() || (!other.is_nan() && other.0 > self.0) {
            other
        } else {
            self
        }
    }

    /// The exact value (`0xff` is a quiet positive NaN).
    pub fn to_f32(self) -> f32 {
        match self.0 {
            0xff => f32::NAN,
            0 => f32::from_bits(0x0040_0000),
            code => f32::from_bits((code as u32) << 23),
        }
    }

    /// The exact value as `f64`.
    pub fn to_f64(self) -> f64 {
        self.to_f32() as f64
    }

    /// The code of `x`, as the ONNX reference (`to_float8e8m0`) computes it from the
    /// bits of the `f32`: the biased exponent field, the sign ignored; `Up` adds one
    /// for any nonzero mantissa, `Down` none, `Nearest` one when mantissa bit 22 is
    /// set and either a lower bit is set or the exponent field is nonzero. NaN and
    /// ±∞ give NaN (`0xff`) in either saturate mode; a bump past `0xfe` gives `0xfe`
    /// with `saturate`, NaN without. ±0 and values below 2^-127 that do not round up
    /// give code `0` (2^-127).
    pub fn from_f32_with(x: f32, saturate: bool, mode: RoundMode) -> Self {
        let bits = x.to_bits();
        let exp = (bits >> 23) & 0xff;
        let man = bits & 0x7f_ffff;
        if exp == 0xff {
            return Self::NAN;
        }
        let bump = match mode {
            RoundMode::Up => man != 0,
            RoundMode::Down => false,
            RoundMode::Nearest => man & 0x40_0000 != 0 && (man & 0x3f_ffff != 0 || exp > 0),
        };
        let code = exp + bump as u32;
        if code == 0xff {
            return if saturate { Self::MAX } else { Self::NAN };
        }
        f8e8m0(code as u8)
    }

    /// [`f8e8m0::from_f32_with`] of an `f64`, rounded once: in the `f32` normal range the
    /// `f64` is narrowed rounding to odd, which keeps exactly the bits the rounding
    /// mode reads (the exponent, mantissa bit 22, whether anything below it is set);
    /// below it (under 2^-126) it is narrowed to nearest, as the reference does.
    pub fn from_f64_with(x: f64, saturate: bool, mode: RoundMode) -> Self {
        let narrowed = if x.abs() >= f32::MIN_POSITIVE as f64 {
            super::round::f64_to_f32_round_odd(x)
        } else {
            x as f32
        };
        Self::from_f32_with(narrowed, saturate, mode)
    }

    /// `x` with ONNX `Cast`'s defaults: rounded up, saturating.
    ///
    /// ```
    /// use promo_core::narrow::f8e8m0;
    /// assert_eq!(f8e8m0::from_f32(3.0).to_f32(), 4.0);
    /// ```
    pub fn from_f32(x: f32) -> Self {
        Self::from_f32_with(x, true, RoundMode::Up)
    }

    /// [`f8e8m0::from_f32`] of an `f64`, rounded once.
    pub fn from_f64(x: f64) -> Self {
        Self::from_f64_with(x, true, RoundMode::Up)
    }
}

impl PartialEq for f8e8m0 {
    /// Equal codes are equal values, except NaN, which equals nothing.
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 && !self.is_nan()
    }
}

impl PartialOrd for f8e8m0 {
    /// NaN is unordered; otherwise codes order as values.
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        self.to_f32().partial_cmp(&other.to_f32())
    }
}

impl fmt::Display for f8e8m0 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_f64(), f)
    }
}

impl fmt::Debug for f8e8m0 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "f8e8m0({:#04x} = {})", self.0, self.to_f64())
    }
}

impl core::str::FromStr for f8e8m0 {
    type Err = super::ParseNarrowError;

    /// Parses a number and rounds it up, saturating (the ONNX defaults).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let x: f64 = s
            .trim()
            .parse()
            .map_err(|_| super::ParseNarrowError(s.to_owned()))?;
        Ok(Self::from_f64(x))
    }
}

// SAFETY: `f8e8m0` is `repr(transparent)` over `u8` and every byte is a valid code.
unsafe impl bytemuck::Zeroable for f8e8m0 {}
// SAFETY: as above; it is `Copy + 'static` with no padding.
unsafe impl bytemuck::Pod for f8e8m0 {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn constants_and_comparisons() {
        assert_eq!(f8e8m0::MAX.to_f64(), 2f64.powi(127));
        assert_eq!(f8e8m0::MIN_POSITIVE.to_f64(), 2f64.powi(-127));
        assert_eq!(f8e8m0::ONE.to_f64(), 1.0);
        assert!(f8e8m0::NAN.is_nan() && f8e8m0::NAN != f8e8m0::NAN);
        assert!(f8e8m0::NAN.partial_cmp(&f8e8m0::ONE).is_none());
        assert!(f8e8m0::MIN_POSITIVE < f8e8m0::ONE && f8e8m0::ONE == f8e8m0::from_bits(127));
    }

    #[test]
    fn round_modes() {
        let code = |x: f32, mode| f8e8m0::from_f32_with(x, true, mode).to_bits();
        assert_eq!(
            [
                code(3.0, RoundMode::Up),
                code(3.0, RoundMode::Down),
                code(3.0, RoundMode::Nearest)
            ],
            [129, 128, 129]
        );
        assert_eq!(
            [
                code(2.5, RoundMode::Up),
                code(2.5, RoundMode::Down),
                code(2.5, RoundMode::Nearest)
            ],
            [129, 128, 128]
        );
        assert_eq!(code(-4.0, RoundMode::Up), 129, "the sign is ignored");
        assert_eq!(code(f32::INFINITY, RoundMode::Up), 0xff);
        assert_eq!(code(f32::MAX, RoundMode::Up), 0xfe);
        assert_eq!(
            f8e8m0::from_f32_with(f32::MAX, false, RoundMode::Up).to_bits(),
            0xff
        );
        assert_eq!(code(0.0, RoundMode::Up), 0);
        let smallest = f8e8m0::MIN_POSITIVE.to_f32();
        assert_eq!(
            [
                code(smallest, RoundMode::Up),
                code(smallest, RoundMode::Down),
                code(smallest, RoundMode::Nearest)
            ],
            [1, 0, 0]
        );
    }

    proptest! {
        #[test]
        fn every_power_of_two_is_exact(code in 1u8..0xff, mode in 0..3, saturate in any::<bool>()) {
            // (Code 0, 2^-127, is an f32 subnormal with a nonzero mantissa field: the
            // reference's `up` takes it to code 1; see `round_modes`.)
            let mode = [RoundMode::Up, RoundMode::Down, RoundMode::Nearest][mode as usize];
            let x = f8e8m0::from_bits(code).to_f64();
            prop_assert_eq!(f8e8m0::from_f64_with(x, saturate, mode).to_bits(), code);
        }

        #[test]
        fn f64_rounds_once(bits in any::<u32>(), tail in 1u64..(1 << 29), mode in 0..3) {
            // An f64 just above an f32 x rounds as x plus a little: the same as x
            // unless x is exactly on a boundary the mode reads.
            let mode = [RoundMode::Up, RoundMode::Down, RoundMode::Nearest][mode as usize];
            let x = f32::from_bits(bits & 0x7fff_ffff);
            prop_assume!(x.is_normal() && x < f32::MAX);
            let above = f64::from_bits((x as f64).to_bits() + tail);
            let up = f8e8m0::from_f64_with(above, true, mode).to_bits();
            let lo = f8e8m0::from_f32_with(x, true, mode).to_bits();
            let hi = f8e8m0::from_f32_with(f32::from_bits(x.to_bits() + 1), true, mode).to_bits();
            prop_assert!(lo <= up && up <= hi);
        }
    }
}
