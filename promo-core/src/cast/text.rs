//! Strings: ONNX `Cast` from and to `STRING`, as the reference evaluator does it
//! (Python's `float()` / `int()` to parse, numpy's `str` to format).

use super::options::CastOptions;
use super::raw::Bits;
use super::values::{CastSource, CastTarget, FloatToInt, Value};
use crate::element::for_each_element;
use core::fmt;
use half::f16;

/// A string that is not a number of the requested kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseValueError {
    /// Not a number at all (`"abc"`, `""`, `"0x10"`).
    NotANumber(String),
    /// A number, but not an integer, where an integer type was asked for (`"2.5"`).
    NotAnInteger(String),
    /// An integer outside the target type's range (`"300"` as `i8`).
    OutOfRange(String, &'static str),
    /// No ONNX `Cast` from a string to this dtype (complex, the sub-byte OpenVINO types).
    NoCast(crate::DType),
}

impl fmt::Display for ParseValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseValueError::NotANumber(s) => write!(f, "not a number: `{s}`"),
            ParseValueError::NotAnInteger(s) => write!(f, "not an integer: `{s}`"),
            ParseValueError::OutOfRange(s, t) => write!(f, "`{s}` is out of range for {t}"),
            ParseValueError::NoCast(to) => write!(f, "no cast from string to {to}"),
        }
    }
}

impl std::error::Error for ParseValueError {}

/// Drops single underscores between digits (Python's `1_000`); `None` if an
/// underscore stands anywhere else.
fn without_underscores(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let digit_before = i > 0 && bytes[i - 1].is_ascii_digit();
            let digit_after = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !(digit_before && digit_after) {
                return None;
            }
        } else {
            out.push(b as char);
        }
    }
    Some(out)
}

/// Parses like Python's `float()`: surrounding whitespace, a sign, plain or
/// scientific notation, `inf` / `infinity` / `nan` in any case, `_` between digits.
pub fn parse_float(s: &str) -> Result<f64, ParseValueError> {
    let bad = || ParseValueError::NotANumber(s.to_owned());
    let text = without_underscores(s.trim()).ok_or_else(bad)?;
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(&text);
    let word = unsigned.to_ascii_lowercase();
    let special = matches!(word.as_str(), "inf" | "infinity" | "nan");
    let numeric = !unsigned.is_empty()
        && unsigned
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        && unsigned.bytes().any(|b| b.is_ascii_digit());
    if !special && !numeric {
        return Err(bad());
    }
    text.parse::<f64>().map_err(|_| bad())
}

/// Parses like Python's `int()`: whitespace, a sign, decimal digits with `_`
/// between them.
pub fn parse_int(s: &str) -> Result<i128, ParseValueError> {
    let text = without_underscores(s.trim()).ok_or_else(|| ParseValueError::NotAnInteger(s.to_owned()))?;
    let digits = text.strip_prefix(['+', '-']).unwrap_or(&text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(if parse_float(s).is_ok() {
            ParseValueError::NotAnInteger(s.to_owned())
        } else {
            ParseValueError::NotANumber(s.to_owned())
        });
    }
    text.parse::<i128>()
        .map_err(|_| ParseValueError::OutOfRange(s.to_owned(), "i128"))
}

/// A string cast to `T`: floats parse as `f64` and round once to `T`; integer
/// types take integers in range only; `bool` takes any number (zero is false).
pub fn parse_value<T: CastTarget + ParseKind>(s: &str, options: &CastOptions) -> Result<T, ParseValueError> {
    let value = match T::KIND {
        Kind::Float => Value::Float(parse_float(s)?, FloatToInt::X86),
        Kind::Int { min, max, name } => {
            let i = parse_int(s)?;
            if i < min || i > max {
                return Err(ParseValueError::OutOfRange(s.to_owned(), name));
            }
            Value::Int(i)
        }
    };
    Ok(T::from_value(value, options))
}

/// What a string must hold to become a type.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Any number.
    Float,
    /// An integer in `min..=max`.
    Int {
        /// Smallest accepted.
        min: i128,
        /// Largest accepted.
        max: i128,
        /// The type, for messages.
        name: &'static str,
    },
}

/// The kind of string a type parses from.
pub trait ParseKind {
    /// The kind.
    const KIND: Kind;
}

/// [`ParseKind`] and [`FormatKind`] of every element type, from its text column.
macro_rules! text_kinds {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(text_kinds!(@$text $t, $layout, $dtype);)*
    };
    (@bool $t:ty, $layout:ident, $dtype:ident) => {
        impl ParseKind for $t { const KIND: Kind = Kind::Float; }
        impl FormatKind for $t { const PRECISION: Precision = Precision::F64; }
    };
    (@int $t:ty, nibble, $dtype:ident) => {
        text_kinds!(@int_range $t, $dtype, <$t>::MIN.get() as i128, <$t>::MAX.get() as i128);
    };
    (@int $t:ty, crumb, $dtype:ident) => {
        text_kinds!(@int_range $t, $dtype, <$t>::MIN.get() as i128, <$t>::MAX.get() as i128);
    };
    (@int $t:ty, $layout:ident, $dtype:ident) => {
        text_kinds!(@int_range $t, $dtype, <$t>::MIN as i128, <$t>::MAX as i128);
    };
    (@int_range $t:ty, $dtype:ident, $min:expr, $max:expr) => {
        impl ParseKind for $t {
            const KIND: Kind = Kind::Int { min: $min, max: $max, name: crate::DType::$dtype.name() };
        }
        impl FormatKind for $t { const PRECISION: Precision = Precision::F64; }
    };
    (@f16 $t:ty, $layout:ident, $dtype:ident) => { text_kinds!(@float $t, F16); };
    (@f32 $t:ty, $layout:ident, $dtype:ident) => { text_kinds!(@float $t, F32); };
    (@f64 $t:ty, $layout:ident, $dtype:ident) => { text_kinds!(@float $t, F64); };
    (@float $t:ty, $p:ident) => {
        impl ParseKind for $t { const KIND: Kind = Kind::Float; }
        impl FormatKind for $t { const PRECISION: Precision = Precision::$p; }
    };
}
for_each_element!(text_kinds);

/// Lays out shortest round-trip digits (`1.5e-5`) the way numpy's `str` does:
/// positional (with `.0` when whole) when `positional`, else `d.ddde±XX`.
fn python_repr(scientific: &str, positional: bool) -> String {
    let (mantissa, exp) = scientific.split_once('e').unwrap_or((scientific, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if negative { "-" } else { "" };
    if positional {
        let point = exp + 1; // digits before the decimal point
        let text = if point <= 0 {
            format!("0.{}{}", "0".repeat((-point) as usize), digits)
        } else if point as usize >= digits.len() {
            format!("{}{}.0", digits, "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{text}")
    } else {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        format!(
            "{sign}{first}{frac}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}

/// numpy writes `|x|` positionally in `[1e-4, upper)`, where `upper` is 1e3 for
/// f16, 1e6 for f32 and 1e16 for f64; zero always.
fn positional(x: f64, upper: f64) -> bool {
    x == 0.0 || (x.abs() >= 1e-4 && x.abs() < upper)
}

/// The shortest decimal that rounds back to `x` through `round_trips`, in
/// scientific notation (`1.5e-5`).
fn shortest(x: f64, round_trips: impl Fn(f64) -> bool) -> String {
    for precision in 0..17 {
        let text = format!("{x:.precision$e}");
        if let Ok(back) = text.parse::<f64>() {
            if round_trips(back) {
                // Trim trailing zeros of the mantissa ("1.50e3" → "1.5e3").
                let (m, e) = text.split_once('e').unwrap_or((&text, "0"));
                let m = if m.contains('.') {
                    m.trim_end_matches('0').trim_end_matches('.')
                } else {
                    m
                };
                return format!("{m}e{e}");
            }
        }
    }
    format!("{x:e}")
}

/// A value as ONNX's reference evaluator writes it (numpy `str`): integers in
/// decimal, `True` / `False`, floats as Python's `repr` of their shortest
/// round-trip digits in their own precision (`0.1` for f32 0.1, `0.3333` for f16
/// 1/3, `1e-05`, `inf`, `nan`); the narrow formats and bf16 through `f32`.
pub fn format_value<S: CastSource + FormatKind>(x: S) -> String {
    match (x.value(), S::PRECISION) {
        (Value::Bool(b), _) => (if b { "True" } else { "False" }).to_owned(),
        (Value::Int(i), _) => i.to_string(),
        (Value::Float(v, _), _) if v.is_nan() => "nan".to_owned(),
        (Value::Float(v, _), _) if v.is_infinite() => (if v > 0.0 { "inf" } else { "-inf" }).to_owned(),
        (Value::Float(v, _), Precision::F16) => python_repr(
            &shortest(v, |b| f16::from_f64(b).to_f64() == v),
            positional(v, 1e3),
        ),
        (Value::Float(v, _), Precision::F64) => python_repr(&shortest(v, |b| b == v), positional(v, 1e16)),
        (Value::Float(v, _), Precision::F32) => {
            python_repr(&shortest(v, |b| b as f32 as f64 == v), positional(v, 1e6))
        }
    }
}

/// The precision a float is written in.
#[derive(Clone, Copy, Debug)]
pub enum Precision {
    /// Shortest digits for f16.
    F16,
    /// Shortest digits for f32 (also the narrow formats and bf16).
    F32,
    /// Shortest digits for f64.
    F64,
}

/// The precision a type is written in.
pub trait FormatKind {
    /// The precision (ignored for integers and bool).
    const PRECISION: Precision;
}

/// [`parse_value`] for a dtype known at run time: the result's bit pattern,
/// zero-extended (2- and 4-bit types as their code).
pub fn parse_str(s: &str, to: crate::DType, options: &CastOptions) -> Result<u64, ParseValueError> {
    macro_rules! parse {
        ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
            match to {
                $(crate::DType::$dtype => Ok(parse_value::<$t>(s, options)?.to_bits64()),)*
                other => Err(ParseValueError::NoCast(other)),
            }
        };
    }
    for_each_element!(parse)
}

/// [`format_value`] of the value of dtype `from` with bit pattern `bits`; `None`
/// for dtypes that have no numeric cast (complex, string, sub-byte OpenVINO types).
pub fn format_bits(from: crate::DType, bits: u64) -> Option<String> {
    macro_rules! format {
        ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
            match from {
                $(crate::DType::$dtype => Some(format_value(<$t as Bits>::from_bits64(bits))),)*
                _ => None,
            }
        };
    }
    for_each_element!(format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_layout() {
        assert_eq!(python_repr("1e-5", false), "1e-05");
        assert_eq!(python_repr("4.48e2", true), "448.0");
        assert_eq!(python_repr("1e16", false), "1e+16");
        assert_eq!(python_repr("-1.5e0", true), "-1.5");
        assert_eq!(python_repr("3.3333e-1", true), "0.33333");
        assert_eq!(python_repr("1.2345e-4", true), "0.00012345");
        assert_eq!(format_value(f16::from_f32(65504.0)), "6.55e+04");
        assert_eq!(format_value(f16::from_f32(999.0)), "999.0");
        assert_eq!(format_value(1e6f32), "1e+06");
        assert_eq!(format_value(1e15f64), "1000000000000000.0");
    }

    #[test]
    fn python_parsing() {
        assert_eq!(parse_float(" 1_000 "), Ok(1000.0));
        assert!(parse_float("1__0").is_err());
        assert!(parse_float("0x10").is_err());
        assert!(parse_float("").is_err());
        assert_eq!(parse_float("-Infinity"), Ok(f64::NEG_INFINITY));
        assert_eq!(parse_int("-0"), Ok(0));
        assert!(matches!(parse_int("2.5"), Err(ParseValueError::NotAnInteger(_))));
    }
}
