//! [`Minifloat`]: one generic sub-16-bit float type, parameterised by a [`Format`].

use super::format::{self, Spec};
use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

/// A narrow floating-point format: a zero-sized marker naming a [`Spec`].
pub trait Format: Copy + Default + Send + Sync + 'static {
    /// The format's parameters.
    const SPEC: Spec;
}

/// A narrow float: the bits of one value of format `F`, in the low bits of a byte.
#[repr(transparent)]
pub struct Minifloat<F: Format>(u8, PhantomData<F>);

impl<F: Format> Clone for Minifloat<F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Format> Copy for Minifloat<F> {}
impl<F: Format> Default for Minifloat<F> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<F: Format> Minifloat<F> {
    /// The value with this bit pattern (bits above the format's width are dropped).
    pub const fn from_bits(bits: u8) -> Self {
        Minifloat(bits & ((1u32 << F::SPEC.bits()) - 1) as u8, PhantomData)
    }

    /// The bit pattern.
    pub const fn to_bits(self) -> u8 {
        self.0
    }

    /// +0.
    pub const ZERO: Self = Self::from_bits(0);
    /// The largest finite value.
    pub const MAX: Self = Self::from_bits(F::SPEC.max_code() as u8);
    /// The most negative finite value.
    pub const MIN: Self = Self::from_bits((F::SPEC.sign_bit() | F::SPEC.max_code()) as u8);
    /// The smallest positive normal value.
    pub const MIN_POSITIVE: Self = Self::from_bits(1 << F::SPEC.man_bits);
    /// The smallest positive subnormal value.
    pub const MIN_POSITIVE_SUBNORMAL: Self = Self::from_bits(1);
    /// The difference between 1.0 and the next larger value.
    pub const EPSILON: Self = Self::from_bits(epsilon_code(&F::SPEC) as u8);
    /// 1.0.
    pub const ONE: Self = Self::from_bits(((F::SPEC.bias as u32) << F::SPEC.man_bits) as u8);
    /// The NaN the reference produces for a positive NaN input, or `None` where the
    /// format has no NaN (f4e2m1, the f6 formats). Each format with a NaN also has a
    /// `NAN` constant.
    pub const fn nan() -> Option<Self> {
        match F::SPEC.non_finite {
            format::NonFinite::None => None,
            _ => Some(Self::from_bits(F::SPEC.nan.0 as u8)),
        }
    }
    /// +∞, or `None` where the format has none (E5M2, E4M3 and E3M4 have ±∞; they
    /// also have `INFINITY` and `NEG_INFINITY` constants).
    pub const fn infinity() -> Option<Self> {
        match F::SPEC.inf_code() {
            Some(code) => Some(Self::from_bits(code as u8)),
            None => None,
        }
    }
    /// −∞, or `None` where the format has none.
    pub const fn neg_infinity() -> Option<Self> {
        match F::SPEC.inf_code() {
            Some(code) => Some(Self::from_bits((code | F::SPEC.sign_bit()) as u8)),
            None => None,
        }
    }

    /// The exact value.
    pub fn to_f64(self) -> f64 {
        F::SPEC.decode(self.0 as u32)
    }

    /// The exact value as `f32` (every value of every narrow format is exact in `f32`).
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// `x` rounded to nearest, ties to even, once, with ONNX `Cast`'s `saturate` rule:
    /// out-of-range values and infinities become ±`MAX` when `saturate` is set,
    /// else infinity (E5M2, E4M3, E3M4) or NaN (the finite-only formats). NaN becomes
    /// the format's NaN; f4e2m1 and the f6 formats, which have none, give −0 for NaN
    /// and +0 for −NaN as ml_dtypes does, and always saturate.
    ///
    /// (ml_dtypes rounds an `f64` to `f32` first; [`cast`](crate::cast) does that for
    /// the ml_dtypes formats, this function rounds once.)
    pub fn from_f64_with(x: f64, saturate: bool) -> Self {
        Self::from_bits(F::SPEC.encode(x, saturate) as u8)
    }

    /// [`Minifloat::from_f64_with`] of an `f32` (exact widening, so one rounding).
    pub fn from_f32_with(x: f32, saturate: bool) -> Self {
        Self::from_f64_with(x as f64, saturate)
    }

    /// `x` rounded to nearest even as the format's reference converts by default
    /// (see [`Reference`](super::Reference)): the ONNX formats saturate as ONNX
    /// `Cast` does by default (out-of-range values and ±∞ become ±`MAX`), the
    /// ml_dtypes formats do not (±∞ or NaN, as
    /// [`from_f32_unsaturated`](Self::from_f32_unsaturated)). NaN becomes NaN.
    /// `f8e4m3b15` converts as Triton does ([`Spec::encode_triton`]).
    ///
    /// ```
    /// use promo_core::narrow::f8e4m3fn;
    /// assert_eq!(f8e4m3fn::from_f32(1000.0), f8e4m3fn::MAX);
    /// assert!(f8e4m3fn::from_f32_unsaturated(1000.0).is_nan());
    /// ```
    pub fn from_f32(x: f32) -> Self {
        match F::SPEC.reference {
            format::Reference::Triton => Self(F::SPEC.encode_triton(x as f64) as u8, PhantomData),
            reference => Self::from_f32_with(x, reference == format::Reference::Onnx),
        }
    }

    /// `x` rounded to nearest even without saturation, as ml_dtypes converts:
    /// out-of-range values become ±∞ (E5M2, E4M3, E3M4) or NaN (the finite-only
    /// formats; f4e2m1 and the f6 formats, with neither, saturate).
    pub fn from_f32_unsaturated(x: f32) -> Self {
        Self::from_f32_with(x, false)
    }

    /// [`Minifloat::from_f32`] of an `f64`: rounded once for the ONNX formats; for the
    /// ml_dtypes formats rounded to `f32` first, as ml_dtypes converts; Triton's
    /// format as Triton converts ([`Spec::encode_triton`]).
    pub fn from_f64(x: f64) -> Self {
        match F::SPEC.reference {
            format::Reference::Triton => Self(F::SPEC.encode_triton(x) as u8, PhantomData),
            format::Reference::Onnx => Self::from_f64_with(x, true),
            format::Reference::MlDtypes if x.is_nan() => Self::from_f64_with(x, false),
            format::Reference::MlDtypes => Self::from_f64_with(x as f32 as f64, false),
        }
    }

    /// [`Minifloat::from_f32_unsaturated`] of an `f64`, rounded once.
    pub fn from_f64_unsaturated(x: f64) -> Self {
        Self::from_f64_with(x, false)
    }

    /// Whether this is a NaN.
    pub const fn is_nan(self) -> bool {
        F::SPEC.is_nan(self.0 as u32)
    }

    /// The codes of `values` as bytes, without copying (one byte per value, the
    /// code in its low bits, as a buffer of the dtype holds it). The same as
    /// `bytemuck::cast_slice(values)`: the type is `bytemuck::Pod`.
    ///
    /// ```
    /// use promo_core::narrow::f8e4m3fn;
    /// let xs = [f8e4m3fn::ONE, f8e4m3fn::MAX];
    /// assert_eq!(f8e4m3fn::slice_as_bytes(&xs), [0x38, 0x7e]);
    /// assert_eq!(f8e4m3fn::slice_from_bytes(&[0x38, 0x7e]), xs);
    /// ```
    pub fn slice_as_bytes(values: &[Self]) -> &[u8] {
        bytemuck::cast_slice(values)
    }

    /// Bytes as values of the format, without copying (`bytemuck::cast_slice`). Every
    /// byte is a valid value; in a format narrower than 8 bits, the bits above its
    /// width are ignored by the value (and kept by [`to_bits`](Self::to_bits)).
    pub fn slice_from_bytes(bytes: &[u8]) -> &[Self] {
        bytemuck::cast_slice(bytes)
    }
}

/// The code of `2^-man_bits`, normal or subnormal.
const fn epsilon_code(spec: &Spec) -> u32 {
    let biased = spec.bias - spec.man_bits as i32;
    if biased >= 1 {
        (biased as u32) << spec.man_bits
    } else {
        1 << (spec.bias - 1)
    }
}

impl<F: Format> PartialEq for Minifloat<F> {
    /// IEEE equality: NaN equals nothing, +0 equals −0.
    fn eq(&self, other: &Self) -> bool {
        self.to_f64() == other.to_f64()
    }
}

impl<F: Format> PartialOrd for Minifloat<F> {
    /// IEEE order: NaN is unordered.
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.to_f64().partial_cmp(&other.to_f64())
    }
}

impl<F: Format> fmt::Display for Minifloat<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_f64(), f)
    }
}

impl<F: Format> fmt::Debug for Minifloat<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({:#04x} = {})", F::SPEC.name, self.0, self.to_f64())
    }
}

/// The error of parsing a narrow float.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNarrowError(pub String);

impl fmt::Display for ParseNarrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a number: `{}`", self.0)
    }
}

impl std::error::Error for ParseNarrowError {}

impl<F: Format> FromStr for Minifloat<F> {
    type Err = ParseNarrowError;

    /// Parses a decimal number (or `inf`, `nan`) and rounds it as
    /// [`Minifloat::from_f64`] does (saturating for the ONNX formats).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let x: f64 = s.trim().parse().map_err(|_| ParseNarrowError(s.to_owned()))?;
        Ok(Self::from_f64(x))
    }
}

// SAFETY: `Minifloat<F>` is `repr(transparent)` over `u8` (the `PhantomData` is a
// zero-sized field), so every bit pattern is valid and it has no padding.
unsafe impl<F: Format> bytemuck::Zeroable for Minifloat<F> {}
// SAFETY: as above; `F` is a zero-sized `Copy` marker, so the type is `Copy + 'static`.
unsafe impl<F: Format> bytemuck::Pod for Minifloat<F> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::{
        f4e2m1, f6e2m3fn, f6e3m2fn, f8e3m4, f8e4m3, f8e4m3b11fnuz, f8e4m3b15, f8e4m3fn, f8e4m3fnuz, f8e5m2,
        f8e5m2fnuz,
    };
    use proptest::prelude::*;

    /// Every code of `F` with its value.
    fn codes<F: Format>() -> Vec<(u8, f64)> {
        (0..1u32 << F::SPEC.bits())
            .map(|c| (c as u8, Minifloat::<F>::from_bits(c as u8).to_f64()))
            .collect()
    }

    /// The code nearest to `x` by brute force over every finite code (ties to the even
    /// code, zero keeping the sign of `x` where the format has −0): shares nothing
    /// with the encoder. `None` outside the finite range.
    fn nearest<F: Format>(x: f64) -> Option<u8> {
        let all = codes::<F>();
        let max = all
            .iter()
            .filter(|c| c.1.is_finite())
            .map(|c| c.1)
            .fold(0.0, f64::max);
        if x.abs() > max {
            return None;
        }
        let mut best: Option<(f64, u8)> = None;
        let has_negative_zero = F::SPEC.non_finite != format::NonFinite::NanNegativeZero;
        for (code, v) in all {
            let wrong_zero = v == 0.0 && v.is_sign_negative() != x.is_sign_negative() && has_negative_zero;
            if !v.is_finite() || wrong_zero {
                continue;
            }
            let d = (v - x).abs();
            best = match best {
                Some((bd, bc)) if bd < d || (bd == d && bc % 2 == 0) => Some((bd, bc)),
                _ => Some((d, code)),
            };
        }
        best.map(|b| b.1)
    }

    fn decode_encode_is_identity<F: Format>() {
        for (code, v) in codes::<F>() {
            let m = Minifloat::<F>::from_bits(code);
            if m.is_nan() {
                assert!(v.is_nan());
                continue;
            }
            for saturate in [true, false] {
                let back = Minifloat::<F>::from_f64_with(v, saturate).to_bits();
                let back32 = Minifloat::<F>::from_f32_with(v as f32, saturate).to_bits();
                let expected = if v.is_infinite() && saturate {
                    code - 1
                } else {
                    code
                };
                assert_eq!(
                    (back, back32),
                    (expected, expected),
                    "{} code {code:#x}",
                    F::SPEC.name
                );
            }
        }
    }

    #[test]
    fn every_code_round_trips() {
        macro_rules! each {
            ($($marker:ty),*) => {$(decode_encode_is_identity::<$marker>();)*};
        }
        format::minifloats!([each]);
    }

    #[test]
    fn constants() {
        assert_eq!(f8e4m3fn::MAX.to_f64(), 448.0);
        assert_eq!(f8e4m3fn::MIN.to_f64(), -448.0);
        assert_eq!(f8e4m3fnuz::MAX.to_f64(), 240.0);
        assert_eq!(f8e5m2::MAX.to_f64(), 57344.0);
        assert_eq!(f8e5m2fnuz::MAX.to_f64(), 57344.0);
        assert_eq!(f4e2m1::MAX.to_f64(), 6.0);
        assert_eq!(f8e4m3fn::MIN_POSITIVE.to_f64(), 2f64.powi(-6));
        assert_eq!(f8e4m3fnuz::MIN_POSITIVE.to_f64(), 2f64.powi(-7));
        assert_eq!(f8e5m2::MIN_POSITIVE_SUBNORMAL.to_f64(), 2f64.powi(-16));
        assert_eq!(f8e5m2fnuz::MIN_POSITIVE_SUBNORMAL.to_f64(), 2f64.powi(-17));
        assert_eq!(f4e2m1::MIN_POSITIVE_SUBNORMAL.to_f64(), 0.5);
        assert_eq!(f4e2m1::EPSILON.to_f64(), 0.5);
        assert_eq!(f8e4m3fn::EPSILON.to_f64(), 0.125);
        assert_eq!(f8e5m2::EPSILON.to_f64(), 0.25);
        assert_eq!(f8e4m3fn::ONE.to_f64(), 1.0);
        assert_eq!(f4e2m1::ONE.to_f64(), 1.0);
        assert!(f8e4m3fn::NAN.is_nan() && f4e2m1::nan().is_none());
        assert_eq!(f8e5m2::INFINITY.to_f64(), f64::INFINITY);
        assert_eq!(f8e5m2::NEG_INFINITY.to_f64(), f64::NEG_INFINITY);
        assert!(f8e4m3fnuz::infinity().is_none());
        assert_eq!(f8e4m3::MAX.to_f64(), 240.0);
        assert_eq!(f8e3m4::MAX.to_f64(), 15.5);
        assert_eq!(f8e4m3b11fnuz::MAX.to_f64(), 30.0);
        assert_eq!(f6e2m3fn::MAX.to_f64(), 7.5);
        assert_eq!(f6e3m2fn::MAX.to_f64(), 28.0);
        assert_eq!(f6e2m3fn::MIN.to_bits(), 0x3f);
        assert_eq!(f8e4m3::INFINITY.to_bits(), 0x78);
        assert_eq!(f8e3m4::NEG_INFINITY.to_bits(), 0xf0);
        assert_eq!(f6e3m2fn::from_bits(0xff).to_bits(), 0x3f);
        assert!(f6e2m3fn::nan().is_none() && f8e4m3b11fnuz::NAN.is_nan());
        assert_eq!(f8e4m3b15::MAX.to_f64(), 1.875);
    }

    #[test]
    fn ieee_comparisons() {
        let nan = f8e4m3fn::NAN;
        assert!(nan != nan && nan.partial_cmp(&nan).is_none());
        assert_eq!(f8e4m3fn::from_bits(0x80), f8e4m3fn::ZERO);
        assert!(f8e4m3fn::MIN < f8e4m3fn::ZERO && f8e4m3fn::ZERO < f8e4m3fn::MAX);
        assert!(f8e4m3fnuz::from_bits(0x80) != f8e4m3fnuz::from_bits(0x80));
        assert_eq!(f4e2m1::from_bits(0x8), f4e2m1::ZERO);
        assert!(f8e5m2::NEG_INFINITY < f8e5m2::MIN);
    }

    #[test]
    fn text() {
        assert_eq!(f8e4m3fn::MAX.to_string(), "448");
        assert_eq!(format!("{:?}", f8e4m3fn::MAX), "f8e4m3fn(0x7e = 448)");
        assert_eq!("464".parse::<f8e4m3fn>().map(|x| x.to_bits()), Ok(0x7e));
        assert_eq!(" -0.25 ".parse::<f4e2m1>().map(|x| x.to_bits()), Ok(0x8));
        assert!("abc".parse::<f8e5m2>().is_err());
    }

    fn check_nearest<F: Format>(x: f64) {
        if let Some(code) = nearest::<F>(x) {
            let got = Minifloat::<F>::from_f64_with(x, true).to_bits();
            assert_eq!(got, code, "{} {x:e}: {got:#x}, nearest {code:#x}", F::SPEC.name);
        }
    }

    fn scaled(mantissa: f64, exponent: i32) -> f64 {
        mantissa * 2f64.powi(exponent)
    }

    proptest! {
        #[test]
        fn encoding_picks_the_nearest_code(m in -2.0f64..2.0, e in -20i32..17) {
            let x = scaled(m, e);
            macro_rules! each {
                ($($marker:ty),*) => {$(check_nearest::<$marker>(x);)*};
            }
            format::minifloats!([each]);
        }

        #[test]
        fn f32_and_f64_paths_agree(bits in any::<u32>(), saturate in any::<bool>()) {
            let x = f32::from_bits(bits);
            prop_assert_eq!(f8e4m3fn::from_f32_with(x, saturate).to_bits(), f8e4m3fn::from_f64_with(x as f64, saturate).to_bits());
            prop_assert_eq!(f8e5m2::from_f32_with(x, saturate).to_bits(), f8e5m2::from_f64_with(x as f64, saturate).to_bits());
        }

        #[test]
        fn encoding_is_monotonic(a in -1e6f64..1e6, b in -1e6f64..1e6) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(f8e4m3fn::from_f64_with(lo, true) <= f8e4m3fn::from_f64_with(hi, true));
            prop_assert!(f8e5m2::from_f64_with(lo, false) <= f8e5m2::from_f64_with(hi, false));
            prop_assert!(f4e2m1::from_f64_with(lo, true) <= f4e2m1::from_f64_with(hi, true));
        }
    }
}
