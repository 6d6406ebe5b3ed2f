//! The narrow floating-point formats as data: one [`Spec`] per format, and the
//! bit-level encoder and decoder every format shares.
//!
//! | format | bits | exp | man | bias | max | infinity | NaN | −0 | reference |
//! | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
//! | `f8e4m3fn` | 8 | 4 | 3 | 7 | 448 | none | `S.1111.111` | yes | ONNX |
//! | `f8e4m3fnuz` | 8 | 4 | 3 | 8 | 240 | none | `0x80` only | no | ONNX |
//! | `f8e5m2` | 8 | 5 | 2 | 15 | 57344 | `S.11111.00` | `S.11111.xx`, xx ≠ 0 | yes | ONNX |
//! | `f8e5m2fnuz` | 8 | 5 | 2 | 16 | 57344 | none | `0x80` only | no | ONNX |
//! | `f4e2m1` | 4 | 2 | 1 | 1 | 6 | none | none | yes | ONNX |
//! | `f8e4m3` | 8 | 4 | 3 | 7 | 240 | `S.1111.000` | `S.1111.xxx`, xxx ≠ 0 | yes | ml_dtypes |
//! | `f8e3m4` | 8 | 3 | 4 | 3 | 15.5 | `S.111.0000` | `S.111.xxxx`, xxxx ≠ 0 | yes | ml_dtypes |
//! | `f8e4m3b11fnuz` | 8 | 4 | 3 | 11 | 30 | none | `0x80` only | no | ml_dtypes |
//! | `f8e4m3b15` | 8 | 4 | 3 | 15 | 1.875 | none | none | yes | Triton |
//! | `f6e2m3fn` | 6 | 2 | 3 | 1 | 7.5 | none | none | yes | ml_dtypes |
//! | `f6e3m2fn` | 6 | 3 | 2 | 3 | 28 | none | none | yes | ml_dtypes |
//! | `f16` | 16 | 5 | 10 | 15 | 65504 | IEEE | IEEE | yes | |
//! | `bf16` | 16 | 8 | 7 | 127 | 3.39e38 | IEEE | IEEE | yes | |
//!
//! The reference ([`Reference`]) is whose conversions a format follows bit for bit:
//! ONNX `Cast` (saturating by default), ml_dtypes `astype` (never saturating unless
//! asked; wider sources rounded to `f32` first) or Triton's compiled conversion. A 6-bit code lies in the low six
//! bits of a byte, as ml_dtypes stores it.
//!
//! `f8e8m0` (an unsigned power of two) has its own rules, in `e8m0`.

/// How a format spells the values that are not finite numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonFinite {
    /// IEEE 754: all-ones exponent is infinity (mantissa 0) or NaN.
    Ieee,
    /// Finite only; all-ones exponent and mantissa is NaN (`S.1111.111`).
    NanAllOnes,
    /// Finite only; the negative-zero code `0x80` is the only NaN; no −0.
    NanNegativeZero,
    /// Finite only, no NaN at all.
    None,
}

/// Whose conversions a format follows, bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// ONNX `Cast`: `saturate` defaults to true; a wider source is rounded once.
    Onnx,
    /// ml_dtypes `astype`: no saturation unless asked (±∞ where the format has it,
    /// else NaN; formats with neither clamp); a source wider than `f32` (`f64`, a
    /// large integer) is rounded to `f32` first, then to the format, as ml_dtypes
    /// converts it (so `f64` can round twice).
    MlDtypes,
    /// Triton's compiled conversion (`x.to(tl.float8e4b15)`, inline PTX in Triton's
    /// `language/extra/cuda/utils.py`): the source rounded to `f32` (exact from `f16`
    /// and `f32`), then toward zero to `f16`; the magnitude clamped at the code below
    /// the largest (±∞ and NaN too, keeping their sign), then rounded to nearest with
    /// ties away from zero. It always clamps; `saturate` does not apply. See
    /// [`Spec::encode_triton`].
    Triton,
}

/// The parameters of one floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Canonical dtype name.
    pub name: &'static str,
    /// Exponent bits.
    pub exp_bits: u32,
    /// Mantissa (fraction) bits.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Encoding of non-finite values.
    pub non_finite: NonFinite,
    /// The code of a NaN with the sign bit clear and with it set, as the ONNX
    /// reference produces them.
    pub nan: (u32, u32),
    /// Whose conversions the format follows.
    pub reference: Reference,
}

/// float8 E4M3FN.
pub const E4M3FN_SPEC: Spec = Spec {
    name: "f8e4m3fn",
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    non_finite: NonFinite::NanAllOnes,
    nan: (0x7f, 0xff),
    reference: Reference::Onnx,
};
/// float8 E4M3FNUZ.
pub const E4M3FNUZ_SPEC: Spec = Spec {
    name: "f8e4m3fnuz",
    exp_bits: 4,
    man_bits: 3,
    bias: 8,
    non_finite: NonFinite::NanNegativeZero,
    nan: (0x80, 0x80),
    reference: Reference::Onnx,
};
/// float8 E5M2.
pub const E5M2_SPEC: Spec = Spec {
    name: "f8e5m2",
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    non_finite: NonFinite::Ieee,
    nan: (0x7e, 0xfe),
    reference: Reference::Onnx,
};
/// float8 E5M2FNUZ.
pub const E5M2FNUZ_SPEC: Spec = Spec {
    name: "f8e5m2fnuz",
    exp_bits: 5,
    man_bits: 2,
    bias: 16,
    non_finite: NonFinite::NanNegativeZero,
    nan: (0x80, 0x80),
    reference: Reference::Onnx,
};
/// float4 E2M1. The reference (ml_dtypes) turns NaN into `0x8` (−0) and −NaN
/// into `0x0` (+0).
pub const E2M1_SPEC: Spec = Spec {
    name: "f4e2m1",
    exp_bits: 2,
    man_bits: 1,
    bias: 1,
    non_finite: NonFinite::None,
    nan: (0x8, 0x0),
    reference: Reference::Onnx,
};
/// float8 E4M3 in the IEEE style (ml_dtypes `float8_e4m3`): ±∞ is `S.1111.000`, NaN
/// the other all-ones-exponent codes; ml_dtypes gives `0x7c` / `0xfc` for NaN.
pub const E4M3_SPEC: Spec = Spec {
    name: "f8e4m3",
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    non_finite: NonFinite::Ieee,
    nan: (0x7c, 0xfc),
    reference: Reference::MlDtypes,
};
/// float8 E3M4 in the IEEE style (ml_dtypes `float8_e3m4`); NaN is `0x78` / `0xf8`.
pub const E3M4_SPEC: Spec = Spec {
    name: "f8e3m4",
    exp_bits: 3,
    man_bits: 4,
    bias: 3,
    non_finite: NonFinite::Ieee,
    nan: (0x78, 0xf8),
    reference: Reference::MlDtypes,
};
/// float8 E4M3 with bias 11 (ml_dtypes `float8_e4m3b11fnuz`): finite only, `0x80`
/// the one NaN, no −0.
pub const E4M3B11FNUZ_SPEC: Spec = Spec {
    name: "f8e4m3b11fnuz",
    exp_bits: 4,
    man_bits: 3,
    bias: 11,
    non_finite: NonFinite::NanNegativeZero,
    nan: (0x80, 0x80),
    reference: Reference::MlDtypes,
};
/// float8 E4M3 with bias 15 (Triton `tl.float8e4b15`): every code is a finite number,
/// `±0x7f` is ±1.875; Triton's encoder stops at ±1.75 (`0x7e`). The NaN codes are what
/// Triton's conversion makes of a NaN.
pub const E4M3B15_SPEC: Spec = Spec {
    name: "f8e4m3b15",
    exp_bits: 4,
    man_bits: 3,
    bias: 15,
    non_finite: NonFinite::None,
    nan: (0x7e, 0xfe),
    reference: Reference::Triton,
};
/// float6 E2M3FN (OCP MX, ml_dtypes `float6_e2m3fn`): no infinity, no NaN. ml_dtypes
/// turns NaN into `0x20` (−0) and −NaN into `0x00` (+0), as for f4e2m1.
pub const E2M3FN_SPEC: Spec = Spec {
    name: "f6e2m3fn",
    exp_bits: 2,
    man_bits: 3,
    bias: 1,
    non_finite: NonFinite::None,
    nan: (0x20, 0x00),
    reference: Reference::MlDtypes,
};
/// float6 E3M2FN (OCP MX, ml_dtypes `float6_e3m2fn`): no infinity, no NaN; NaN as
/// for E2M3FN.
pub const E3M2FN_SPEC: Spec = Spec {
    name: "f6e3m2fn",
    exp_bits: 3,
    man_bits: 2,
    bias: 3,
    non_finite: NonFinite::None,
    nan: (0x20, 0x00),
    reference: Reference::MlDtypes,
};
/// IEEE binary16 (NaN payloads are handled by the caller, see `cast`).
pub const F16_SPEC: Spec = Spec {
    name: "f16",
    exp_bits: 5,
    man_bits: 10,
    bias: 15,
    non_finite: NonFinite::Ieee,
    nan: (0x7e00, 0xfe00),
    reference: Reference::Onnx,
};
/// bfloat16.
pub const BF16_SPEC: Spec = Spec {
    name: "bf16",
    exp_bits: 8,
    man_bits: 7,
    bias: 127,
    non_finite: NonFinite::Ieee,
    nan: (0x7fc0, 0xffc0),
    reference: Reference::Onnx,
};

impl Spec {
    /// Total bits of a code.
    #[inline]
    pub const fn bits(&self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    /// The sign bit.
    #[inline]
    pub const fn sign_bit(&self) -> u32 {
        1 << (self.exp_bits + self.man_bits)
    }

    /// The magnitude code of the largest finite value.
    #[inline]
    pub const fn max_code(&self) -> u32 {
        let all = (1 << (self.exp_bits + self.man_bits)) - 1;
        match self.non_finite {
            NonFinite::Ieee => (((1 << self.exp_bits) - 1) << self.man_bits) - 1,
            NonFinite::NanAllOnes => all - 1,
            NonFinite::NanNegativeZero | NonFinite::None => all,
        }
    }

    /// The magnitude code of infinity, if the format has one.
    #[inline]
    pub const fn inf_code(&self) -> Option<u32> {
        match self.non_finite {
            NonFinite::Ieee => Some(((1 << self.exp_bits) - 1) << self.man_bits),
            _ => None,
        }
    }

    /// The NaN code for a value of this sign.
    #[inline]
    pub const fn nan_code(&self, negative: bool) -> u32 {
        if negative {
            self.nan.1
        } else {
            self.nan.0
        }
    }

    /// Whether `code` is a NaN.
    #[inline]
    pub const fn is_nan(&self, code: u32) -> bool {
        let magnitude = code & (self.sign_bit() - 1);
        match self.non_finite {
            NonFinite::Ieee => {
                let exp_all = ((1 << self.exp_bits) - 1) << self.man_bits;
                magnitude & exp_all == exp_all && magnitude & ((1 << self.man_bits) - 1) != 0
            }
            NonFinite::NanAllOnes => magnitude == self.sign_bit() - 1,
            NonFinite::NanNegativeZero => code == self.sign_bit(),
            NonFinite::None => false,
        }
    }

    /// The exact value of `code`, as an `f64` (every code of every format here is
    /// exact in `f64`). NaN codes give a quiet NaN with the code's sign (the FNUZ NaN
    /// `0x80` is negative, as in the reference).
    #[inline]
    pub const fn decode(&self, code: u32) -> f64 {
        let negative = code & self.sign_bit() != 0;
        let magnitude = code & (self.sign_bit() - 1);
        if self.is_nan(code) {
            return if negative { -f64::NAN } else { f64::NAN };
        }
        if matches!(self.inf_code(), Some(inf) if inf == magnitude) {
            return if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        let exp = (magnitude >> self.man_bits) as i32;
        let man = magnitude & ((1 << self.man_bits) - 1);
        let value = if exp == 0 {
            man as f64 * pow2(1 - self.bias - self.man_bits as i32)
        } else {
            ((1 << self.man_bits) | man) as f64 * pow2(exp - self.bias - self.man_bits as i32)
        };
        if negative {
            -value
        } else {
            value
        }
    }

    /// The `f32` bits of `code`'s value (exact for every format here; NaN is the
    /// quiet NaN of the code's sign): what the cast of `code` to `f32` gives.
    #[inline]
    pub const fn f32_bits(&self, code: u32) -> u32 {
        if self.is_nan(code) {
            let sign = if code & self.sign_bit() != 0 {
                0x8000_0000
            } else {
                0
            };
            return sign | 0x7fc0_0000;
        }
        (self.decode(code) as f32).to_bits()
    }

    /// The code of `x` rounded to nearest, ties to even, once.
    ///
    /// Overflow (a rounded magnitude above the largest finite value) and infinities
    /// give `±max` when `saturate` is set, else infinity where the format has one and
    /// NaN where it does not ([`NonFinite::None`] always saturates). Zero keeps its
    /// sign where the format has −0. NaN gives [`Spec::nan`].
    #[inline(always)]
    pub fn encode(&self, x: f64, saturate: bool) -> u32 {
        let negative = x.is_sign_negative();
        let sign = if negative { self.sign_bit() } else { 0 };
        if x.is_nan() {
            return self.nan_code(negative);
        }
        let overflow = || match (saturate, self.inf_code(), self.non_finite) {
            (true, _, _) | (_, _, NonFinite::None) => sign | self.max_code(),
            (false, Some(inf), _) => sign | inf,
            (false, None, _) => self.nan_code(negative),
        };
        if x.is_infinite() {
            return overflow();
        }
        let zero = if self.non_finite == NonFinite::NanNegativeZero {
            0
        } else {
            sign
        };
        let a = x.abs();
        if a == 0.0 {
            return zero;
        }
        let emin = 1 - self.bias;
        let bits = a.to_bits();
        if exponent(a) >= emin {
            // A normal result: round the f64 significand to `man_bits` in place (ties
            // to even); a carry out of the mantissa bumps the exponent; then rebias.
            let shift = 52 - self.man_bits;
            let rounded = bits + ((1u64 << (shift - 1)) - 1) + ((bits >> shift) & 1);
            let code = (rounded >> shift) - (((1023 - self.bias) as u64) << self.man_bits);
            if code > self.max_code() as u64 {
                return overflow();
            }
            return sign | code as u32;
        }
        // A subnormal result (or zero).
        let e = emin;
        // r = a / 2^(e - man_bits) rounded to nearest even, on the integer
        // significand of `a` (a = m · 2^scale).
        let (m, scale) = match (bits >> 52) as i32 {
            0 => (bits, -1074),
            biased => ((bits & ((1 << 52) - 1)) | (1 << 52), biased - 1075),
        };
        let shift = (e - self.man_bits as i32) - scale;
        let mut r = if shift <= 0 {
            m << (-shift).min(63)
        } else if shift > 54 {
            0
        } else {
            let (q, rem, half) = (m >> shift, m & ((1 << shift) - 1), 1u64 << (shift - 1));
            q + (rem > half || (rem == half && q & 1 == 1)) as u64
        };
        if r == 0 {
            return zero;
        }
        let mut e = e;
        if r >= 2 << self.man_bits {
            r >>= 1;
            e += 1;
        }
        let code = if r >= 1 << self.man_bits {
            let biased = (e + self.bias) as u64;
            if biased >= 1 << self.exp_bits {
                return overflow();
            }
            (biased << self.man_bits) | (r - (1 << self.man_bits))
        } else {
            r
        } as u32;
        if code > self.max_code() {
            return overflow();
        }
        sign | code
    }
}

impl Spec {
    /// The code of `x` as Triton converts it ([`Reference::Triton`]), for a format
    /// with `f16`'s bias whose codes are the top bits of `f16` codes (`f8e4m3b15`).
    ///
    /// `x` is rounded to `f32` (to nearest even; exact from `f16` and `f32`), then
    /// toward zero to `f16`. The `f16` magnitude is clamped at the value of the code
    /// below [`max_code`](Self::max_code) (NaN and ±∞ too), and rounded to nearest
    /// with ties away from zero by adding half a unit of the dropped bits and
    /// truncating. The sign is the input's.
    ///
    /// Triton converts only `f16` and `f32`, so the first rounding is promo's choice
    /// for other sources. Whether the GPU's `cvt.rz.f16.f32` keeps a NaN's sign
    /// cannot be observed without one; promo keeps it, as the `f16` path does.
    ///
    /// ```
    /// use promo_core::narrow::format::E4M3B15_SPEC as S;
    /// assert_eq!(S.encode_triton(1.0), 0x78);
    /// assert_eq!(S.encode_triton(1.0625), 0x79); // a tie goes away from zero
    /// assert_eq!(S.encode_triton(1.8), 0x7e); // clamped at 1.75
    /// assert_eq!(S.encode_triton(f64::NEG_INFINITY), 0xfe);
    /// assert_eq!(S.decode(0x7f), 1.875);
    /// ```
    pub fn encode_triton(&self, x: f64) -> u32 {
        debug_assert!(self.bias == F16_SPEC.bias && self.exp_bits <= F16_SPEC.exp_bits);
        let shift = F16_SPEC.man_bits - self.man_bits;
        let sign = if x.is_sign_negative() { self.sign_bit() } else { 0 };
        let clamp = (self.max_code() - 1) << shift;
        let magnitude = if x.is_nan() {
            clamp
        } else {
            f16_bits_toward_zero((x as f32).abs()).min(clamp)
        };
        sign | (magnitude + (1 << (shift - 1))) >> shift
    }
}

/// The `f16` bits of a non-negative, non-NaN `a`, rounded toward zero (what
/// `cvt.rz.f16.f32` gives): the mantissa truncated, a value past the largest
/// finite `f16` its largest finite value, ∞ itself.
fn f16_bits_toward_zero(a: f32) -> u32 {
    const F16_MIN_NORMAL: f32 = 6.103_515_6e-5; // 2^-14
    let bits = a.to_bits();
    if a < F16_MIN_NORMAL {
        // Subnormal f16: whole units of 2^-24 (the product is exact).
        (a * 16_777_216.0) as u32
    } else if a == f32::INFINITY {
        0x7c00
    } else {
        // Rebias the exponent (127 to 15) and keep the top 10 mantissa bits.
        (((bits >> 23) - 112) << 10 | (bits & 0x7f_ffff) >> 13).min(0x7bff)
    }
}

/// `2^k` for `k` in the normal range of `f64`.
pub(crate) const fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// The unbiased exponent of a positive finite `a` (subnormals report −1023, which
/// is below every narrow format's range).
fn exponent(a: f64) -> i32 {
    ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_codes() {
        assert_eq!(E4M3FN_SPEC.max_code(), 0x7e);
        assert_eq!(E4M3FNUZ_SPEC.max_code(), 0x7f);
        assert_eq!(E5M2_SPEC.max_code(), 0x7b);
        assert_eq!(E5M2FNUZ_SPEC.max_code(), 0x7f);
        assert_eq!(E2M1_SPEC.max_code(), 0x7);
        assert_eq!(F16_SPEC.max_code(), 0x7bff);
        assert_eq!(BF16_SPEC.max_code(), 0x7f7f);
        assert_eq!(E4M3_SPEC.max_code(), 0x77);
        assert_eq!(E3M4_SPEC.max_code(), 0x6f);
        assert_eq!(E4M3B11FNUZ_SPEC.max_code(), 0x7f);
        assert_eq!(E4M3B15_SPEC.max_code(), 0x7f);
        assert_eq!(E2M3FN_SPEC.max_code(), 0x1f);
        assert_eq!(E3M2FN_SPEC.max_code(), 0x1f);
    }
}
