//! [`DType`]: every element type that a covered framework or ONNX names.

use core::fmt;
use core::str::FromStr;

/// The broad family a dtype belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// `bool`.
    Bool,
    /// Unsigned integers, including the sub-byte `u1`..`u7`.
    Unsigned,
    /// Signed two's complement integers, including the sub-byte `i1`..`i7`.
    Signed,
    /// Real floating-point formats, including the narrow ones and `nf4`.
    Float,
    /// Complex numbers.
    Complex,
    /// Uninterpreted bits (PyTorch's `bits8`, `bits16`, `bits1x8`, `bits2x4`,
    /// `bits4x2`): copied, never computed with.
    Bits,
    /// Text.
    String,
}

macro_rules! dtypes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $bits:expr, $cat:ident, [$($alias:literal),*]; )*) => {
        /// An element type, named by its canonical lowercase name (`i32`, `f8e4m3fn`, `c64`).
        ///
        /// The order of the variants is the order promo lists dtypes in.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum DType {
            $( $(#[$doc])* $variant, )*
        }

        impl DType {
            /// Every dtype, in promo's canonical order.
            pub const ALL: &'static [DType] = &[$(DType::$variant),*];
            /// The number of dtypes.
            pub const COUNT: usize = Self::ALL.len();

            /// The canonical lowercase name, e.g. `"bf16"`.
            pub const fn name(self) -> &'static str {
                match self { $(DType::$variant => $name,)* }
            }

            /// Width of one element in bits (0 for `string`).
            pub const fn bits(self) -> u32 {
                match self { $(DType::$variant => $bits,)* }
            }

            /// The dtype's broad family.
            pub const fn category(self) -> Category {
                match self { $(DType::$variant => Category::$cat,)* }
            }

            /// Other spellings accepted by [`FromStr`] (compared case-insensitively).
            pub const fn aliases(self) -> &'static [&'static str] {
                match self { $(DType::$variant => &[$($alias),*],)* }
            }
        }
    };
}

dtypes! {
    /// Boolean.
    Bool = "bool", 8, Bool, ["boolean", "b"];
    /// 1-bit unsigned integer (OpenVINO `u1`, ml_dtypes `uint1`).
    U1 = "u1", 1, Unsigned, ["uint1", "bin"];
    /// 1-bit signed integer (ml_dtypes `int1`: -1 and 0).
    I1 = "i1", 1, Signed, ["int1"];
    /// 2-bit signed integer (ml_dtypes `int2`).
    I2 = "i2", 2, Signed, ["int2"];
    /// 2-bit unsigned integer (OpenVINO `u2`, ml_dtypes `uint2`).
    U2 = "u2", 2, Unsigned, ["uint2"];
    /// 3-bit unsigned integer (OpenVINO `u3`, PyTorch `uint3`).
    U3 = "u3", 3, Unsigned, ["uint3"];
    /// 3-bit signed integer (PyTorch `int3`, a shell dtype).
    I3 = "i3", 3, Signed, ["int3"];
    /// 4-bit signed integer (ONNX `INT4`).
    I4 = "i4", 4, Signed, ["int4"];
    /// 4-bit unsigned integer (ONNX `UINT4`).
    U4 = "u4", 4, Unsigned, ["uint4"];
    /// 5-bit signed integer (PyTorch `int5`, a shell dtype).
    I5 = "i5", 5, Signed, ["int5"];
    /// 5-bit unsigned integer (PyTorch `uint5`, a shell dtype).
    U5 = "u5", 5, Unsigned, ["uint5"];
    /// 6-bit signed integer (PyTorch `int6`, a shell dtype).
    I6 = "i6", 6, Signed, ["int6"];
    /// 6-bit unsigned integer (OpenVINO `u6`, PyTorch `uint6`).
    U6 = "u6", 6, Unsigned, ["uint6"];
    /// 7-bit signed integer (PyTorch `int7`, a shell dtype).
    I7 = "i7", 7, Signed, ["int7"];
    /// 7-bit unsigned integer (PyTorch `uint7`, a shell dtype).
    U7 = "u7", 7, Unsigned, ["uint7"];
    /// 8-bit signed integer.
    I8 = "i8", 8, Signed, ["int8", "char"];
    /// 16-bit signed integer.
    I16 = "i16", 16, Signed, ["int16", "short"];
    /// 32-bit signed integer.
    I32 = "i32", 32, Signed, ["int32"];
    /// 64-bit signed integer.
    I64 = "i64", 64, Signed, ["int64", "long"];
    /// 8-bit unsigned integer.
    U8 = "u8", 8, Unsigned, ["uint8"];
    /// 16-bit unsigned integer.
    U16 = "u16", 16, Unsigned, ["uint16"];
    /// 32-bit unsigned integer.
    U32 = "u32", 32, Unsigned, ["uint32"];
    /// 64-bit unsigned integer.
    U64 = "u64", 64, Unsigned, ["uint64"];
    /// 4-bit NormalFloat lookup format (OpenVINO `nf4`).
    Nf4 = "nf4", 4, Float, [];
    /// float4 E2M1: 1 sign, 2 exponent, 1 mantissa bit; no infinity, no NaN.
    F4E2M1 = "f4e2m1", 4, Float, ["float4e2m1", "float4_e2m1", "float4_e2m1fn", "f4e2m1fn"];
    /// float6 E2M3FN (OCP MX): 1 sign, 2 exponent, 3 mantissa bits; finite only.
    F6E2M3FN = "f6e2m3fn", 6, Float, ["float6_e2m3fn", "float6e2m3fn"];
    /// float6 E3M2FN (OCP MX): 1 sign, 3 exponent, 2 mantissa bits; finite only.
    F6E3M2FN = "f6e3m2fn", 6, Float, ["float6_e3m2fn", "float6e3m2fn"];
    /// float8 E4M3FN: finite only, NaN is `S.1111.111`.
    F8E4M3FN = "f8e4m3fn", 8, Float, ["float8e4m3fn", "float8_e4m3fn", "fp8e4m3fn"];
    /// float8 E4M3 in the IEEE style (ml_dtypes `float8_e4m3`): infinities and NaNs,
    /// unlike E4M3FN. (OpenVINO's `f8e4m3` is E4M3FN.)
    F8E4M3 = "f8e4m3", 8, Float, ["float8_e4m3", "float8e4m3"];
    /// float8 E3M4 in the IEEE style (ml_dtypes `float8_e3m4`).
    F8E3M4 = "f8e3m4", 8, Float, ["float8_e3m4", "float8e3m4"];
    /// float8 E4M3 with exponent bias 11, finite only, one NaN, no negative zero
    /// (ml_dtypes `float8_e4m3b11fnuz`).
    F8E4M3B11FNUZ = "f8e4m3b11fnuz", 8, Float, ["float8_e4m3b11fnuz", "float8e4m3b11fnuz"];
    /// float8 E4M3 with exponent bias 15, every code finite, no NaN, no infinity
    /// (Triton `tl.float8e4b15`); `0x7f` is 1.875, Triton's encoder stops at 1.75.
    F8E4M3B15 = "f8e4m3b15", 8, Float, ["fp8e4b15", "float8e4b15"];
    /// float8 E4M3FNUZ: finite only, one NaN (`0x80`), no negative zero.
    F8E4M3FNUZ = "f8e4m3fnuz", 8, Float, ["float8e4m3fnuz", "float8_e4m3fnuz"];
    /// float8 E5M2: IEEE-like, with infinities and NaNs.
    F8E5M2 = "f8e5m2", 8, Float, ["float8e5m2", "float8_e5m2", "fp8e5m2"];
    /// float8 E5M2FNUZ: finite only, one NaN (`0x80`), no negative zero.
    F8E5M2FNUZ = "f8e5m2fnuz", 8, Float, ["float8e5m2fnuz", "float8_e5m2fnuz"];
    /// float8 E8M0: an unsigned power of two (OCP MX scale), NaN is `0xff`.
    F8E8M0 = "f8e8m0", 8, Float, ["float8e8m0", "float8_e8m0fnu", "f8e8m0fnu", "float8e8m0fnu"];
    /// IEEE 754 binary16.
    F16 = "f16", 16, Float, ["float16", "half", "fp16"];
    /// bfloat16.
    BF16 = "bf16", 16, Float, ["bfloat16", "bfloat"];
    /// IEEE 754 binary32.
    F32 = "f32", 32, Float, ["float32", "fp32"];
    /// IEEE 754 binary64.
    F64 = "f64", 64, Float, ["float64", "double", "fp64"];
    /// Complex of two `f16` (PyTorch `complex32`/`chalf`, ml_dtypes `complex32`).
    C32 = "c32", 32, Complex, ["complex32", "chalf"];
    /// Complex of two `bf16` (PyTorch `bcomplex32`, ml_dtypes `bcomplex32`).
    BC32 = "bc32", 32, Complex, ["bcomplex32"];
    /// Complex of two `f32`.
    C64 = "c64", 64, Complex, ["complex64", "cfloat"];
    /// Complex of two `f64`.
    C128 = "c128", 128, Complex, ["complex128", "cdouble"];
    /// 8 uninterpreted bits (PyTorch `bits8`): copied, never computed with.
    Bits8 = "bits8", 8, Bits, [];
    /// 16 uninterpreted bits (PyTorch `bits16`).
    Bits16 = "bits16", 16, Bits, [];
    /// 8 uninterpreted bits, read as eight 1-bit fields (PyTorch `bits1x8`).
    Bits1x8 = "bits1x8", 8, Bits, [];
    /// 8 uninterpreted bits, read as four 2-bit fields (PyTorch `bits2x4`).
    Bits2x4 = "bits2x4", 8, Bits, [];
    /// 8 uninterpreted bits, read as two 4-bit fields (PyTorch `bits4x2`).
    Bits4x2 = "bits4x2", 8, Bits, [];
    /// Text (ONNX `STRING`); castable, never promoted.
    String = "string", 0, String, ["str"];
}

impl DType {
    /// The dtype's position in [`DType::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The dtype at position `index` of [`DType::ALL`].
    pub const fn from_index(index: usize) -> Option<DType> {
        if index < Self::COUNT {
            Some(Self::ALL[index])
        } else {
            None
        }
    }

    /// Whether this is `bool`.
    pub const fn is_bool(self) -> bool {
        matches!(self.category(), Category::Bool)
    }

    /// Whether this is a signed or unsigned integer.
    pub const fn is_integer(self) -> bool {
        matches!(self.category(), Category::Signed | Category::Unsigned)
    }

    /// Whether this is a real floating-point format.
    pub const fn is_float(self) -> bool {
        matches!(self.category(), Category::Float)
    }

    /// Whether this is a complex format.
    pub const fn is_complex(self) -> bool {
        matches!(self.category(), Category::Complex)
    }

    /// Looks up a name: the canonical name or any alias, case-insensitively.
    pub fn parse_name(name: &str) -> Option<DType> {
        Self::ALL.iter().copied().find(|d| {
            d.name().eq_ignore_ascii_case(name) || d.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Names that frameworks read as different dtypes, which no rule set's `[aliases]`
/// settles where they are parsed alone: each with the dtypes it may mean and who
/// means which. [`DType::parse_name`] refuses them.
pub const AMBIGUOUS_NAMES: &[(&str, &[DType], &str)] = &[
    (
        "float",
        &[DType::F32, DType::F64],
        "f32 in C and PyTorch (`torch.float`), f64 in Python, NumPy and JAX (`dtype=float`)",
    ),
    (
        "int",
        &[DType::I32, DType::I64],
        "i32 in C and PyTorch (`torch.int`), i64 in Python, NumPy and JAX (`dtype=int`)",
    ),
];

/// The dtypes an [ambiguous name](AMBIGUOUS_NAMES) may mean, and who means which.
pub fn ambiguous_name(name: &str) -> Option<(&'static [DType], &'static str)> {
    AMBIGUOUS_NAMES
        .iter()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))
        .map(|&(_, dtypes, who)| (dtypes, who))
}

/// The error of parsing an unknown dtype name (or an [ambiguous
/// one](AMBIGUOUS_NAMES), which says what it may mean).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDType(pub String);

impl fmt::Display for UnknownDType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match ambiguous_name(&self.0) {
            Some((dtypes, who)) => {
                let names: Vec<String> = dtypes.iter().map(|d| format!("`{d}`")).collect();
                write!(
                    f,
                    "dtype `{}` is ambiguous without a rule set: {who}; write {}",
                    self.0,
                    names.join(" or ")
                )
            }
            None => write!(f, "unknown dtype `{}`", self.0),
        }
    }
}

impl std::error::Error for UnknownDType {}

impl FromStr for DType {
    type Err = UnknownDType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_name(s.trim()).ok_or_else(|| UnknownDType(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for d in DType::ALL {
            assert!(seen.insert(d.name().to_ascii_lowercase()), "{d}");
            for a in d.aliases() {
                assert!(seen.insert(a.to_ascii_lowercase()), "{a}");
            }
        }
    }

    #[test]
    fn index_round_trips() {
        for (i, d) in DType::ALL.iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(DType::from_index(i), Some(*d));
        }
        assert_eq!(DType::from_index(DType::COUNT), None);
    }

    #[test]
    fn framework_spellings_parse() {
        for (s, d) in [
            ("float32", DType::F32),
            ("FP32", DType::F32),
            ("boolean", DType::Bool),
            ("bfloat16", DType::BF16),
            ("uint8", DType::U8),
            ("complex64", DType::C64),
            ("float8e4m3fn", DType::F8E4M3FN),
            ("float8_e5m2fnuz", DType::F8E5M2FNUZ),
            ("f8e4m3", DType::F8E4M3),
            ("float8_e4m3fn", DType::F8E4M3FN),
            ("complex32", DType::C32),
        ] {
            assert_eq!(s.parse::<DType>(), Ok(d), "{s}");
        }
        assert_eq!("f9".parse::<DType>(), Err(UnknownDType("f9".into())));
    }

    #[test]
    fn names_frameworks_read_differently_are_refused_with_the_choices() {
        for (name, dtypes, _) in AMBIGUOUS_NAMES {
            assert_eq!(DType::parse_name(name), None, "{name}");
            let e = name.parse::<DType>().unwrap_err().to_string();
            assert!(e.starts_with(&format!("dtype `{name}` is ambiguous")), "{e}");
            for d in *dtypes {
                assert!(e.contains(&format!("`{d}`")), "{e}");
            }
        }
        assert_eq!(
            "float".parse::<DType>().unwrap_err().to_string(),
            "dtype `float` is ambiguous without a rule set: f32 in C and PyTorch (`torch.float`), \
             f64 in Python, NumPy and JAX (`dtype=float`); write `f32` or `f64`"
        );
    }
}
