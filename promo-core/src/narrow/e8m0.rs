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
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
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
    pub fn from_f32(x: f32, saturate: bool, mode: RoundMode) -> Self {
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

    /// [`f8e8m0::from_f32`] of an `f64`, rounded once: in the `f32` normal range the
    /// `f64` is narrowed rounding to odd, which keeps exactly the bits the rounding
    /// mode reads (the exponent, mantissa bit 22, whether anything below it is set);
    /// below it (under 2^-126) it is narrowed to nearest, as the reference does.
    pub fn from_f64(x: f64, saturate: bool, mode: RoundMode) -> Self {
        let narrowed = if x.abs() >= f32::MIN_POSITIVE as f64 {
            crate::cast::f64_to_f32_round_odd(x)
        } else {
            x as f32
        };
        Self::from_f32(narrowed, saturate, mode)
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
        Ok(Self::from_f64(x, true, RoundMode::Up))
    }
}
