//! [`Value`], the exact intermediate of every cast, and [`CastFrom`] for every
//! pair of numeric element types.

use super::options::CastOptions;
use crate::element::for_each_element;
use crate::narrow::{f8e8m0, format, i2, i4, int_to_f64_round_odd, u2, u4, Format, Minifloat, Reference};
use half::{bf16, f16};

/// Casts `value` to `T` as ONNX `Cast` does with `options`.
///
/// ```
/// use promo_core::cast::{cast, CastOptions};
/// use promo_core::narrow::f8e4m3fn;
/// let x: f8e4m3fn = cast(464.0f32, &CastOptions::default());
/// assert_eq!(x.to_bits(), 0x7e); // 448, the largest E4M3FN value
/// let y: i8 = cast(200i16, &CastOptions::default());
/// assert_eq!(y, -56);
/// ```
#[inline]
pub fn cast<S, T: CastFrom<S>>(value: S, options: &CastOptions) -> T {
    T::cast_from(value, options)
}

/// What a float does when it becomes an integer, which ONNX leaves undefined out
/// of range and for NaN. promo does what onnxruntime and the reference evaluator
/// (numpy) do on x86-64: truncate toward zero through the `cvtt` conversion — to
/// `i32` for targets of 32 bits or fewer (out of range, ±∞ or NaN give
/// `0x8000_0000`), to `i64` for 64-bit targets (`0x8000_0000_0000_0000`) — then
/// keep the target's low bits; `u64` subtracts 2^63 first for values at or above it.
/// The variants differ only for `u32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatToInt {
    /// f32, f64, bf16 and the narrow formats: `u32` subtracts 2^31 first for values at
    /// or above it and converts through `i32` (numpy's vectorised loop).
    X86,
    /// f16: `u32` converts through `i64` and keeps the low 32 bits (numpy's scalar loop).
    X86Scalar,
}

/// The exact value of any numeric element, before the target rounds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A bool.
    Bool(bool),
    /// An integer of any width.
    Int(i128),
    /// A float, widened exactly to `f64` (a NaN keeps its sign and payload bits),
    /// with the rule its source type follows into integers.
    Float(f64, FloatToInt),
}

/// Construction of `Self` from `S` as ONNX `Cast` does it.
pub trait CastFrom<S>: Sized {
    /// `value` cast to `Self`.
    fn cast_from(value: S, options: &CastOptions) -> Self;
}

/// A type that can be cast from: its exact [`Value`].
pub trait CastSource: Copy {
    /// The exact value.
    fn value(self) -> Value;
}

/// A type that can be cast to: rounding a [`Value`].
pub trait CastTarget: Sized {
    /// `value` rounded to `Self`.
    fn from_value(value: Value, options: &CastOptions) -> Self;
}

impl<S: CastSource, T: CastTarget> CastFrom<S> for T {
    #[inline]
    fn cast_from(value: S, options: &CastOptions) -> Self {
        T::from_value(value.value(), options)
    }
}

/// A real value into a complex type: the real part cast, the imaginary part zero,
/// as NumPy and PyTorch convert a real tensor to a complex dtype. (ONNX `Cast` has no
/// complex types; this is what promotion into one needs.)
impl<S: CastSource, T: CastTarget + Default> CastFrom<S> for num_complex::Complex<T> {
    #[inline]
    fn cast_from(value: S, options: &CastOptions) -> Self {
        num_complex::Complex::new(T::from_value(value.value(), options), T::default())
    }
}

/// One complex type into another: each part cast as a real value is.
impl<S: CastSource, T: CastTarget> CastFrom<num_complex::Complex<S>> for num_complex::Complex<T> {
    #[inline]
    fn cast_from(value: num_complex::Complex<S>, options: &CastOptions) -> Self {
        num_complex::Complex::new(
            T::from_value(value.re.value(), options),
            T::from_value(value.im.value(), options),
        )
    }
}

/// `f32` to `f64` keeping a NaN's payload bits as they are (no quieting).
#[inline]
pub(crate) fn widen_f32(x: f32) -> f64 {
    if x.is_nan() {
        let bits = x.to_bits();
        let sign = ((bits >> 31) as u64) << 63;
        f64::from_bits(sign | 0x7ff0_0000_0000_0000 | (((bits & 0x7f_ffff) as u64) << 29))
    } else {
        x as f64
    }
}

/// `f16` to `f64` keeping a NaN's payload bits (as numpy does).
#[inline]
fn widen_f16(x: f16) -> f64 {
    let bits = x.to_bits();
    if x.is_nan() {
        let sign = ((bits >> 15) as u64) << 63;
        f64::from_bits(sign | 0x7ff0_0000_0000_0000 | (((bits & 0x3ff) as u64) << 42))
    } else {
        x.to_f64()
    }
}

// ---- sources ---------------------------------------------------------------

impl CastSource for bool {
    #[inline]
    fn value(self) -> Value {
        Value::Bool(self)
    }
}

/// The integer primitives of the element table, as sources and targets.
macro_rules! ints {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(ints!(@$layout $t);)*
    };
    (@int $t:ty) => {
        impl CastSource for $t {
            #[inline]
            fn value(self) -> Value {
                Value::Int(self as i128)
            }
        }
        impl CastTarget for $t {
            #[inline]
            fn from_value(value: Value, _: &CastOptions) -> Self {
                match value {
                    Value::Bool(b) => b as $t,
                    Value::Int(i) => i as $t,
                    Value::Float(x, rule) => float_to_int(x, rule, <$t>::BITS, <$t>::MIN != 0) as $t,
                }
            }
        }
    };
    (@$other:ident $t:ty) => {};
}
for_each_element!(ints);

/// The integers narrower than a byte: their value, and the low bits of a value
/// (floats truncated toward zero first, as into `i32`).
macro_rules! small_ints {
    ($($t:ident: $signed:expr),*) => {$(
        impl CastSource for $t {
            #[inline]
            fn value(self) -> Value {
                Value::Int(self.get() as i128)
            }
        }
        impl CastTarget for $t {
            #[inline]
            fn from_value(value: Value, _: &CastOptions) -> Self {
                match value {
                    Value::Bool(b) => $t::wrapping_from(b as i64),
                    Value::Int(i) => $t::wrapping_from(i as i64),
                    Value::Float(x, rule) => $t::wrapping_from(float_to_int(x, rule, $t::BITS, $signed) as i64),
                }
            }
        }
    )*};
}
small_ints!(i2: true, u2: false, i4: true, u4: false);
impl CastSource for f32 {
    #[inline]
    fn value(self) -> Value {
        Value::Float(widen_f32(self), FloatToInt::X86)
    }
}
impl CastSource for f64 {
    #[inline]
    fn value(self) -> Value {
        Value::Float(self, FloatToInt::X86)
    }
}
impl CastSource for f16 {
    #[inline]
    fn value(self) -> Value {
        Value::Float(widen_f16(self), FloatToInt::X86Scalar)
    }
}
impl CastSource for bf16 {
    /// The exact value; a NaN loses its payload (ml_dtypes converts through a
    /// canonical quiet NaN).
    #[inline]
    fn value(self) -> Value {
        let x = self.to_f64();
        let x = if x.is_nan() { f64::NAN.copysign(x) } else { x };
        Value::Float(x, FloatToInt::X86)
    }
}
impl<F: Format> CastSource for Minifloat<F> {
    #[inline]
    fn value(self) -> Value {
        Value::Float(self.to_f64(), FloatToInt::X86)
    }
}
impl CastSource for f8e8m0 {
    #[inline]
    fn value(self) -> Value {
        Value::Float(self.to_f64(), FloatToInt::X86)
    }
}

// ---- targets ---------------------------------------------------------------

impl CastTarget for bool {
    #[inline]
    fn from_value(value: Value, _: &CastOptions) -> Self {
        match value {
            Value::Bool(b) => b,
            Value::Int(i) => i != 0,
            Value::Float(x, _) => x != 0.0,
        }
    }
}

/// x86 `cvttsd2si` to 32 bits: truncate, `0x8000_0000` when out of range or NaN.
#[inline]
fn cvtt32(x: f64) -> i64 {
    if x > -2147483649.0 && x < 2147483648.0 {
        x as i64
    } else {
        i32::MIN as i64
    }
}

/// x86 `cvttsd2si` to 64 bits.
#[inline]
fn cvtt64(x: f64) -> i128 {
    if (-9223372036854775808.0..9223372036854775808.0).contains(&x) {
        x as i64 as i128
    } else {
        i64::MIN as i128
    }
}

/// A float's integer as x86 computes it (see [`FloatToInt`]), before truncation
/// to `bits`.
#[inline]
fn float_to_int(x: f64, rule: FloatToInt, bits: u32, signed: bool) -> i128 {
    const TWO_63: f64 = 9223372036854775808.0;
    match (bits, signed, rule) {
        (64, false, _) if x >= TWO_63 => cvtt64(x - TWO_63) ^ i64::MIN as i128,
        (64, _, _) | (32, false, FloatToInt::X86Scalar) => cvtt64(x),
        (32, false, FloatToInt::X86) if x >= 2147483648.0 => cvtt32(x - 2147483648.0) as i128 ^ 0x8000_0000,
        _ => cvtt32(x) as i128,
    }
}

/// The exact value as `f64`, integers rounded to odd (so the target rounds once).
#[inline]
fn as_f64(value: Value) -> f64 {
    match value {
        Value::Bool(b) => b as u8 as f64,
        Value::Int(i) => int_to_f64_round_odd(i),
        Value::Float(x, _) => x,
    }
}

impl CastTarget for f64 {
    #[inline]
    fn from_value(value: Value, _: &CastOptions) -> Self {
        match value {
            Value::Int(i) => i as f64,
            other => as_f64(other),
        }
    }
}

impl CastTarget for f32 {
    /// Round to nearest even once (`f64 as f32`); a NaN keeps its sign and the top
    /// of its payload and is quieted, as x86 does.
    #[inline]
    fn from_value(value: Value, _: &CastOptions) -> Self {
        match value {
            Value::Int(i) => i as f32,
            other => as_f64(other) as f32,
        }
    }
}

impl CastTarget for f16 {
    /// Round to nearest even once, overflow to ±∞; a NaN keeps its sign and the top
    /// ten payload bits (made nonzero), as numpy does.
    #[inline]
    fn from_value(value: Value, _: &CastOptions) -> Self {
        let x = as_f64(value);
        if x.is_nan() {
            let bits = x.to_bits();
            let sign = ((bits >> 63) as u16) << 15;
            let payload = ((bits >> 42) & 0x3ff) as u16;
            return f16::from_bits(sign | 0x7c00 | payload.max(1));
        }
        f16::from_bits(format::F16_SPEC.encode(x, false) as u16)
    }
}

impl CastTarget for bf16 {
    /// Round to nearest even once, overflow to ±∞; NaN → `0x7fc0` / `0xffc0`.
    #[inline]
    fn from_value(value: Value, _: &CastOptions) -> Self {
        bf16::from_bits(format::BF16_SPEC.encode(as_f64(value), false) as u16)
    }
}

impl<F: Format> CastTarget for Minifloat<F> {
    /// See [`Minifloat::from_f64_with`], saturating as
    /// [`CastOptions::saturates`] says for the format's [`Reference`]. ONNX formats:
    /// with `saturate` and an opset before 24, ±∞ becomes NaN in the FNUZ formats.
    /// ml_dtypes formats: the value is rounded to `f32` first, as ml_dtypes converts
    /// (an `f64` can round twice); the opset does not apply. Formats without
    /// infinity or NaN always saturate (f4e2m1 to ±6, ±∞ too). Triton's format:
    /// Triton's conversion, which always clamps ([`format::Spec::encode_triton`]).
    #[inline]
    fn from_value(value: Value, options: &CastOptions) -> Self {
        let x = as_f64(value);
        let saturate = options.saturates(F::SPEC.reference);
        match (F::SPEC.reference, F::SPEC.non_finite) {
            (Reference::Triton, _) => Minifloat::from_bits(F::SPEC.encode_triton(x) as u8),
            (Reference::MlDtypes, _) => {
                let x = if x.is_nan() { x } else { x as f32 as f64 };
                Minifloat::from_f64_with(x, saturate)
            }
            (_, format::NonFinite::None) => Minifloat::from_f64_with(x, true),
            (_, format::NonFinite::NanNegativeZero) if x.is_infinite() && options.fnuz_inf_is_nan() => {
                Minifloat::from_bits(F::SPEC.nan.0 as u8)
            }
            _ => Minifloat::from_f64_with(x, saturate),
        }
    }
}

impl CastTarget for f8e8m0 {
    /// See [`f8e8m0::from_f64_with`] (an ONNX format: saturating unless
    /// `saturate` is `Some(false)`).
    #[inline]
    fn from_value(value: Value, options: &CastOptions) -> Self {
        f8e8m0::from_f64_with(
            as_f64(value),
            options.saturates(Reference::Onnx),
            options.round_mode,
        )
    }
}

/// The scalar cast of one element whose dtypes are known only at run time: `bits`
/// is the source's bit pattern (zero-extended; a 4-bit type's code), the result the
/// target's. What `promo cast` prints.
///
/// ```
/// use promo_core::cast::{cast_bits, CastOptions};
/// use promo_core::DType;
/// let o = CastOptions::default();
/// assert_eq!(cast_bits(DType::F32, DType::F8E4M3FN, 464f32.to_bits() as u64, &o), Ok(0x7e));
/// assert_eq!(cast_bits(DType::I16, DType::I8, 200, &o), Ok(0xc8));
/// ```
pub fn cast_bits(
    from: crate::DType,
    to: crate::DType,
    bits: u64,
    options: &CastOptions,
) -> Result<u64, super::ConvertError> {
    use super::raw::Bits;
    macro_rules! sources {
        ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
            match from {
                $(crate::DType::$dtype => <$t as Bits>::from_bits64(bits).value(),)*
                _ => return Err(super::ConvertError::Unsupported { from, to }),
            }
        };
    }
    let value = for_each_element!(sources);
    macro_rules! targets {
        ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
            match to {
                $(crate::DType::$dtype => Ok(<$t as CastTarget>::from_value(value, options).to_bits64()),)*
                _ => Err(super::ConvertError::Unsupported { from, to }),
            }
        };
    }
    for_each_element!(targets)
}
