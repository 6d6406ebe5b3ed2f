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

macro_rules! formats {
    ($($(#[$doc:meta])* $marker:ident => $spec:path;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $marker;
        impl Format for $marker {
            const SPEC: Spec = $spec;
        }
    )*};
}

formats! {
    /// Marker of float8 E4M3FN.
    E4M3FN => format::E4M3FN;
    /// Marker of float8 E4M3FNUZ.
    E4M3FNUZ => format::E4M3FNUZ;
    /// Marker of float8 E5M2.
    E5M2 => format::E5M2;
    /// Marker of float8 E5M2FNUZ.
    E5M2FNUZ => format::E5M2FNUZ;
    /// Marker of float4 E2M1.
    E2M1 => format::E2M1;
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
    /// The NaN the reference produces for a positive NaN input (`None`: the format has no NaN).
    pub const NAN: Option<Self> = match F::SPEC.non_finite {
        format::NonFinite::None => None,
        _ => Some(Self::from_bits(F::SPEC.nan.0 as u8)),
    };
    /// +∞, where the format has it.
    pub const INFINITY: Option<Self> = match F::SPEC.inf_code() {
        Some(code) => Some(Self::from_bits(code as u8)),
        None => None,
    };
    /// −∞, where the format has it.
    pub const NEG_INFINITY: Option<Self> = match F::SPEC.inf_code() {
        Some(code) => Some(Self::from_bits((code | F::SPEC.sign_bit()) as u8)),
        None => None,
    };

    /// The exact value.
    pub fn to_f64(self) -> f64 {
        F::SPEC.decode(self.0 as u32)
    }

    /// The exact value as `f32` (every value of every narrow format is exact in `f32`).
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// `x` rounded to nearest, ties to even, with ONNX `Cast`'s `saturate` rule:
    /// out-of-range values and infinities become ±`MAX` when `saturate` is set,
    /// else infinity (E5M2) or NaN (the finite-only formats). NaN becomes the
    /// format's NaN; f4e2m1, which has none, gives `0x8` for NaN and `0x0` for
    /// −NaN as the reference (ml_dtypes) does, and always saturates.
    pub fn from_f64(x: f64, saturate: bool) -> Self {
        Self::from_bits(F::SPEC.encode(x, saturate) as u8)
    }

    /// [`Minifloat::from_f64`] of an `f32` (exact widening, so one rounding).
    pub fn from_f32(x: f32, saturate: bool) -> Self {
        Self::from_f64(x as f64, saturate)
    }

    /// Whether this is a NaN.
    pub const fn is_nan(self) -> bool {
        F::SPEC.is_nan(self.0 as u32)
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

    /// Parses a decimal number (or `inf`, `nan`) and rounds it with saturation.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let x: f64 = s.trim().parse().map_err(|_| ParseNarrowError(s.to_owned()))?;
        Ok(Self::from_f64(x, true))
    }
}

#[cfg(feature = "bytemuck")]
// SAFETY: `Minifloat<F>` is `repr(transparent)` over `u8` (the `PhantomData` is a
// zero-sized field), so every bit pattern is valid and it has no padding.
unsafe impl<F: Format> bytemuck::Zeroable for Minifloat<F> {}
#[cfg(feature = "bytemuck")]
// SAFETY: as above; `F` is a zero-sized `Copy` marker, so the type is `Copy + 'static`.
unsafe impl<F: Format> bytemuck::Pod for Minifloat<F> {}
