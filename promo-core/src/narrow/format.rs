//! The narrow floating-point formats as data: one [`Spec`] per format, and the
//! bit-level encoder and decoder every format shares.
//!
//! The minifloat formats are the rows of one table, the `minifloats!` macro here:
//! each row gives a format's [`Spec`] (the `*_SPEC` constants below), its marker,
//! its type, its dtype and its ml_dtypes name, and every list of formats in the
//! crate is read from it. [`MINIFLOATS`](super::MINIFLOATS) shows the table.
//! `f16` and `bf16` have a `Spec` too ([`F16_SPEC`], [`BF16_SPEC`]), as targets of
//! the same encoder.
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

/// The table of minifloat formats: one row per format, the only place in
/// promo-core that names one. Everything per format is derived from it:
///
/// - the `*_SPEC` constant here (mode `specs`);
/// - the [`Format`](super::Format) marker, its impl and the type alias
///   `narrow::f8e4m3fn = Minifloat<E4M3FN>` (`types`);
/// - [`spec_of`](super::spec_of), which [`finfo`](crate::finfo) reads, and
///   [`MINIFLOATS`](super::MINIFLOATS) (`lookup`);
/// - the `NAN` and `INFINITY` constants of the formats that have them and the
///   lossless `From` widenings into `f16` and `bf16` (`numbers`);
/// - the lists of markers the tests walk (`[callback]`: `callback! { path::to::E4M3FN, … }`).
///
/// The kernels and the element-type impls need no row: they follow promo-table's
/// element-type table (`narrow [f8e4m3fn]`), whose narrow floats are these.
///
/// A row is `DTYPE alias Marker SPEC_NAME { spec fields, max, ml_dtypes }`, its doc
/// comment becoming the docs of the constant and the alias. `alias` is the dtype's
/// name (the [`Spec::name`]); `max` is the largest value as written in the docs
/// (checked against the spec by a test); `ml_dtypes` the name of ml_dtypes' scalar
/// type, if it has the format.
macro_rules! minifloats {
    (@rows [$($mode:tt)*] $(
        $(#[doc = $doc:literal])*
        $dtype:ident $alias:ident $marker:ident $spec:ident {
            exp_bits: $e:literal,
            man_bits: $m:literal,
            bias: $b:literal,
            non_finite: $nf:ident,
            nan: ($n0:literal, $n1:literal),
            reference: $r:ident,
            max: $max:literal,
            ml_dtypes: $mlk:ident $(($mln:literal))? $(,)?
        }
    )*) => {
        $crate::narrow::format::minifloats! { @$($mode)* $([
            [$(#[doc = $doc])*] $dtype $alias $marker $spec $e $m $b $nf ($n0, $n1) $r $max ($mlk $(($mln))?)
        ])* }
    };
    // The `Spec` constants.
    (@specs $([
        [$($doc:tt)*] $dtype:ident $alias:ident $marker:ident $spec:ident
        $e:literal $m:literal $b:literal $nf:ident ($n0:literal, $n1:literal) $r:ident $max:literal ($($ml:tt)*)
    ])*) => {$(
        $($doc)*
        pub const $spec: Spec = Spec {
            name: stringify!($alias),
            exp_bits: $e,
            man_bits: $m,
            bias: $b,
            non_finite: NonFinite::$nf,
            nan: ($n0, $n1),
            reference: Reference::$r,
        };
    )*};
    // The markers, their `Format` impls and the type aliases.
    (@types $([
        [$($doc:tt)*] $dtype:ident $alias:ident $marker:ident $spec:ident $($rest:tt)*
    ])*) => {$(
        #[doc = concat!(
            "The [`Format`](crate::narrow::Format) marker of [`", stringify!($alias), "`](crate::narrow::",
            stringify!($alias), "): [`", stringify!($spec), "`](crate::narrow::format::", stringify!($spec), ")."
        )]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $marker;
        impl $crate::narrow::Format for $marker {
            const SPEC: $crate::narrow::Spec = $crate::narrow::format::$spec;
        }
        $($doc)*
        pub type $alias = $crate::narrow::Minifloat<$marker>;
    )*};
    // `spec_of` and `MINIFLOATS`, with its table of the formats.
    (@lookup $([
        [$($doc:tt)*] $dtype:ident $alias:ident $marker:ident $spec:ident
        $e:literal $m:literal $b:literal $nf:ident ($n0:literal, $n1:literal) $r:ident $max:literal ($($ml:tt)*)
    ])*) => {
        /// The [`Spec`] of a minifloat dtype (one stored as a [`Minifloat`]), or
        /// `None` for every other dtype (`f16`, `bf16` and `f8e8m0` included).
        ///
        /// ```
        /// use promo_core::narrow::{format, spec_of};
        /// use promo_core::DType;
        /// assert_eq!(spec_of(DType::F8E4M3B15), Some(format::E4M3B15_SPEC));
        /// assert_eq!(spec_of(DType::F16), None);
        /// ```
        pub const fn spec_of(dtype: $crate::DType) -> Option<$crate::narrow::Spec> {
            match dtype {
                $($crate::DType::$dtype => Some($crate::narrow::format::$spec),)*
                _ => None,
            }
        }

        /// Every minifloat format, one row of the format table each, in its order:
        ///
        /// | type | marker | exp | man | bias | range | non-finite | reference | ml_dtypes |
        /// | --- | --- | --- | --- | --- | --- | --- | --- | --- |
        $(#[doc = concat!(
            "| [`", stringify!($alias), "`] | [`", stringify!($marker), "`] | ", stringify!($e), " | ",
            stringify!($m), " | ", stringify!($b), " | ±", $max, " | [`", stringify!($nf), "`](NonFinite::", stringify!($nf),
            ") | [`", stringify!($r), "`](Reference::", stringify!($r), ") | ",
            $crate::narrow::format::minifloats!(@ml $($ml)*), " |"
        )])*
        pub const MINIFLOATS: &[$crate::narrow::MinifloatEntry] = &[$($crate::narrow::MinifloatEntry {
            dtype: $crate::DType::$dtype,
            spec: $crate::narrow::format::$spec,
            max: $max,
            ml_dtypes: $($ml)*,
        },)*];
    };
    (@ml Some($name:literal)) => { concat!("`", $name, "`") };
    (@ml None) => { "" };
    // The `NAN` and `INFINITY` constants, and the widenings into `f16` and `bf16`.
    (@numbers $([
        [$($doc:tt)*] $dtype:ident $alias:ident $marker:ident $spec:ident
        $e:literal $m:literal $b:literal $nf:ident $($rest:tt)*
    ])*) => {$(
        $crate::narrow::format::minifloats! { @non_finite $marker $nf }
        $crate::narrow::format::minifloats! { @widen $marker f16 F16_SPEC }
        $crate::narrow::format::minifloats! { @widen $marker bf16 BF16_SPEC }
    )*};
    (@non_finite $marker:ident None) => {};
    (@non_finite $marker:ident Ieee) => {
        $crate::narrow::format::minifloats! { @nan $marker }
        impl $crate::narrow::Minifloat<$crate::narrow::$marker> {
            /// +∞.
            pub const INFINITY: Self = match Self::infinity() {
                Some(inf) => inf,
                None => panic!("format without infinity"),
            };
            /// −∞.
            pub const NEG_INFINITY: Self = match Self::neg_infinity() {
                Some(inf) => inf,
                None => panic!("format without infinity"),
            };
        }
    };
    (@non_finite $marker:ident $nf:ident) => {
        $crate::narrow::format::minifloats! { @nan $marker }
    };
    (@nan $marker:ident) => {
        impl $crate::narrow::Minifloat<$crate::narrow::$marker> {
            /// The NaN the reference produces for a positive NaN input.
            pub const NAN: Self = match Self::nan() {
                Some(nan) => nan,
                None => panic!("format without NaN"),
            };
        }
    };
    (@widen $marker:ident $to:ident $to_spec:ident) => {
        const _: () = assert!(
            $crate::narrow::format::widens_exactly(
                &$crate::narrow::format::$to_spec,
                &<$crate::narrow::$marker as $crate::narrow::Format>::SPEC,
            ),
            concat!("`", stringify!($to), "` does not hold every value of a minifloat: give it no `From`")
        );
        impl From<$crate::narrow::Minifloat<$crate::narrow::$marker>> for ::half::$to {
            /// Exact: every value of the source is a value of the target.
            fn from(x: $crate::narrow::Minifloat<$crate::narrow::$marker>) -> ::half::$to {
                ::half::$to::from_f32(x.to_f32())
            }
        }
    };
    // Every marker, handed to a macro.
    (@[$callback:ident] $([
        [$($doc:tt)*] $dtype:ident $alias:ident $marker:ident $($rest:tt)*
    ])*) => {
        $callback! { $($crate::narrow::$marker),* }
    };
    // The table itself.
    ($($mode:tt)*) => {
        $crate::narrow::format::minifloats! { @rows [$($mode)*]
            /// float8 E4M3FN (ONNX): finite only, NaN `S.1111.111`.
            F8E4M3FN f8e4m3fn E4M3FN E4M3FN_SPEC {
                exp_bits: 4, man_bits: 3, bias: 7, non_finite: NanAllOnes, nan: (0x7f, 0xff),
                reference: Onnx, max: "448", ml_dtypes: Some("float8_e4m3fn"),
            }
            /// float8 E4M3FNUZ (ONNX): finite only, `0x80` the one NaN, no −0.
            F8E4M3FNUZ f8e4m3fnuz E4M3FNUZ E4M3FNUZ_SPEC {
                exp_bits: 4, man_bits: 3, bias: 8, non_finite: NanNegativeZero, nan: (0x80, 0x80),
                reference: Onnx, max: "240", ml_dtypes: Some("float8_e4m3fnuz"),
            }
            /// float8 E5M2 (ONNX), in the IEEE style: ±∞ `S.11111.00`, NaN the other
            /// all-ones-exponent codes.
            F8E5M2 f8e5m2 E5M2 E5M2_SPEC {
                exp_bits: 5, man_bits: 2, bias: 15, non_finite: Ieee, nan: (0x7e, 0xfe),
                reference: Onnx, max: "57344", ml_dtypes: Some("float8_e5m2"),
            }
            /// float8 E5M2FNUZ (ONNX): finite only, `0x80` the one NaN, no −0.
            F8E5M2FNUZ f8e5m2fnuz E5M2FNUZ E5M2FNUZ_SPEC {
                exp_bits: 5, man_bits: 2, bias: 16, non_finite: NanNegativeZero, nan: (0x80, 0x80),
                reference: Onnx, max: "57344", ml_dtypes: Some("float8_e5m2fnuz"),
            }
            /// float4 E2M1 (ONNX, OCP MX): no infinity, no NaN. The reference (ml_dtypes)
            /// turns NaN into `0x8` (−0) and −NaN into `0x0` (+0).
            F4E2M1 f4e2m1 E2M1 E2M1_SPEC {
                exp_bits: 2, man_bits: 1, bias: 1, non_finite: None, nan: (0x8, 0x0),
                reference: Onnx, max: "6", ml_dtypes: Some("float4_e2m1fn"),
            }
            /// float8 E4M3 in the IEEE style (ml_dtypes `float8_e4m3`): ±∞ is `S.1111.000`,
            /// NaN the other all-ones-exponent codes; ml_dtypes gives `0x7c` / `0xfc` for NaN.
            F8E4M3 f8e4m3 E4M3 E4M3_SPEC {
                exp_bits: 4, man_bits: 3, bias: 7, non_finite: Ieee, nan: (0x7c, 0xfc),
                reference: MlDtypes, max: "240", ml_dtypes: Some("float8_e4m3"),
            }
            /// float8 E3M4 in the IEEE style (ml_dtypes `float8_e3m4`): ±∞ is `S.111.0000`;
            /// NaN is `0x78` / `0xf8`.
            F8E3M4 f8e3m4 E3M4 E3M4_SPEC {
                exp_bits: 3, man_bits: 4, bias: 3, non_finite: Ieee, nan: (0x78, 0xf8),
                reference: MlDtypes, max: "15.5", ml_dtypes: Some("float8_e3m4"),
            }
            /// float8 E4M3 with exponent bias 11 (ml_dtypes `float8_e4m3b11fnuz`): finite
            /// only, `0x80` the one NaN, no −0.
            F8E4M3B11FNUZ f8e4m3b11fnuz E4M3B11FNUZ E4M3B11FNUZ_SPEC {
                exp_bits: 4, man_bits: 3, bias: 11, non_finite: NanNegativeZero, nan: (0x80, 0x80),
                reference: MlDtypes, max: "30", ml_dtypes: Some("float8_e4m3b11fnuz"),
            }
            /// float8 E4M3 with exponent bias 15 (Triton `tl.float8e4b15`): every code is a
            /// finite number, `±0x7f` is ±1.875; Triton's encoder stops at ±1.75 (`0x7e`).
            /// The NaN codes are what Triton's conversion makes of a NaN.
            F8E4M3B15 f8e4m3b15 E4M3B15 E4M3B15_SPEC {
                exp_bits: 4, man_bits: 3, bias: 15, non_finite: None, nan: (0x7e, 0xfe),
                reference: Triton, max: "1.875", ml_dtypes: None,
            }
            /// float6 E2M3FN (OCP MX, ml_dtypes `float6_e2m3fn`): no infinity, no NaN.
            /// ml_dtypes turns NaN into `0x20` (−0) and −NaN into `0x00` (+0), as for f4e2m1.
            F6E2M3FN f6e2m3fn E2M3FN E2M3FN_SPEC {
                exp_bits: 2, man_bits: 3, bias: 1, non_finite: None, nan: (0x20, 0x00),
                reference: MlDtypes, max: "7.5", ml_dtypes: Some("float6_e2m3fn"),
            }
            /// float6 E3M2FN (OCP MX, ml_dtypes `float6_e3m2fn`): no infinity, no NaN; NaN
            /// as for E2M3FN.
            F6E3M2FN f6e3m2fn E3M2FN E3M2FN_SPEC {
                exp_bits: 3, man_bits: 2, bias: 3, non_finite: None, nan: (0x20, 0x00),
                reference: MlDtypes, max: "28", ml_dtypes: Some("float6_e3m2fn"),
            }
        }
    };
}
pub(crate) use minifloats;

minifloats!(specs);

/// Whether every value of `from` is a value of `to`: `to` has at least `from`'s
/// mantissa bits, its smallest step and its largest value, and ±∞ and NaN where
/// `from` has them. What a lossless `From` needs.
pub(crate) const fn widens_exactly(to: &Spec, from: &Spec) -> bool {
    let from_tiny = 1 - from.bias - from.man_bits as i32;
    let to_tiny = 1 - to.bias - to.man_bits as i32;
    from.man_bits <= to.man_bits
        && from_tiny >= to_tiny
        && from.decode(from.max_code()) <= to.decode(to.max_code())
        && (from.inf_code().is_none() || to.inf_code().is_some())
        && (matches!(from.non_finite, NonFinite::None) || !matches!(to.non_finite, NonFinite::None))
}

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
