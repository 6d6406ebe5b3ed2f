//! How each framework computes `a OP b` on the CPU, beyond its result dtype: the
//! facts `tools/oracles/compute/FINDINGS.md` established from the frameworks' own
//! outputs, one [`Semantics`] value per framework.

use super::{ComputeError, OPS};
use crate::DType;
use core::fmt;

/// Which operand `maximum` and `minimum` return when the two compare equal but
/// differ in bits (`+0` and `-0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZeroTie {
    /// The left operand.
    Lhs,
    /// The right operand.
    Rhs,
    /// IEEE 754-2019's `maximum`/`minimum`: `-0 < +0`.
    Ordered,
}

/// How a framework computes the elementwise binary operations, beyond the result
/// dtype its rule set gives.
///
/// Every framework measured converts both operands to the result dtype `R` first
/// (rounding to nearest even where `R` does not hold them), computes in `R` (in
/// `f32` when `R` is narrower than `f32`: `f16`, `bf16` and the 8-, 6- and 4-bit
/// floats, which gives the correctly rounded result), and rounds once into `R`;
/// integers wrap. Comparisons convert to the promoted dtype of the pair. What
/// differs is below.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Semantics {
    /// The rule set these are the semantics of (`numpy`, `torch`, ...).
    pub rules: &'static str,
    /// Denormals are zero and flush to zero (XLA's and TensorFlow's CPU kernels):
    /// an operand that is subnormal in the type the operation computes in (or in
    /// its own `f32`, `bf16` or `f64` dtype) reads as ±0, and a result whose exact
    /// value lies below that type's smallest normal is ±0.
    pub flush_subnormals: bool,
    /// The operand `maximum`/`minimum` give for ±0 ties, for `f16` results and for
    /// the others.
    pub zero_tie: (ZeroTie, ZeroTie),
    /// Whether an `f8e4m3fn` result saturates to ±448 (PyTorch's `c10` conversion)
    /// instead of becoming NaN (ml_dtypes, XLA).
    pub saturate_f8e4m3fn: bool,
    /// `bool - bool` is exclusive or (MLX); elsewhere the rule sets refuse it.
    pub bool_subtract_is_xor: bool,
    /// `bool * x` with an `f16`, `f32` or `f64` result is a select, `b ? x : +0`
    /// (JAX: `False * -1.0` is `+0`, `False * NaN` is `+0`).
    pub bool_multiply_selects: bool,
    /// A NaN result in a format without NaN (`f4e2m1`, the 6-bit floats) is `-0`
    /// whatever its sign (XLA); else `+NaN` gives `-0` and `-NaN` `+0` (ml_dtypes).
    pub nan_into_nanless_is_negative_zero: bool,
    /// A float converted to an integer dtype by truncation wraps around, `+∞`
    /// gives all ones and `-∞` and NaN zero (ml_dtypes' 1- to 4-bit integers:
    /// `i4 + f8e4m3 -> i4`).
    pub float_to_int_wraps: bool,
    /// Two integer operands compare exactly, whatever their promoted dtype
    /// (NumPy: `i64 0x7ffffffffffffffe < u64 2^63`, though both are `2^63` in
    /// `f64`, the dtype they promote to).
    pub exact_integer_comparisons: bool,
    /// A Python float is rounded to `f32` before the dtype it is converted to,
    /// unless that is `f64` (PyTorch's `c10::Half(float(double))`, TensorFlow,
    /// MLX); elsewhere it is rounded once from the double (NumPy), or from the
    /// rule set's `f64` (JAX: `f32` with `jax_enable_x64` off).
    pub python_float_via_f32: bool,
    /// A Python int too is rounded to `f32` before a float dtype narrower than
    /// `f64` (PyTorch converts a scalar through its opmath type).
    pub python_int_via_f32: bool,
    /// A double converted to `bf16` goes through `f32` (XLA: with
    /// `jax_enable_x64`, `bf16 + (1 + 2^-8 + 2^-30)` is `1`).
    pub bf16_from_f64_through_f32: bool,
    /// A Python scalar multiplying or dividing an `f16`/`bf16` tensor keeps its
    /// `f32` value, the product or quotient is computed in `f32` and rounded once
    /// (PyTorch's opmath: `bf16 0x3F81 * 0.1` is `0x3DCE`, not `0x3DCF`).
    pub python_scalar_opmath: bool,
    /// `s / x` with a Python scalar `s` is `round_R(round_R(1 / x) * s)` (PyTorch
    /// computes `x.reciprocal() * s`).
    pub python_dividend_reciprocal: bool,
    /// `x / s` with a Python scalar `s` is `x * rcp`, `rcp` being `1 / s` rounded
    /// to the result dtype when it is `f16`, `f32` or `f64`, else to `f32` (XLA
    /// folds the division by a constant; a bool `x` selects `rcp` or `+0`).
    pub python_divisor_reciprocal: bool,
    /// A Python int must fit the integer dtype it is converted to, else it is
    /// refused (NumPy: `i8 + 300`; MLX); elsewhere it wraps around.
    pub python_int_must_fit: bool,
    /// A `u64` array takes a negative Python int too, wrapped around (MLX:
    /// `u64 + -1` adds `2^64 - 1`), though ints must fit.
    pub python_int_u64_takes_negative: bool,
    /// A Python int beyond this dtype's range is refused whatever it meets
    /// (TensorFlow: `i32`; JAX: `i64`, which the rule set makes `i32` with
    /// `jax_enable_x64` off).
    pub python_int_limit: Option<DType>,
    /// A Python int meeting an integer array is first wrapped to (or, with
    /// `python_int_must_fit`, checked against) the array's dtype, and one meeting
    /// a bool array to this dtype, even where the result is a float (TensorFlow
    /// and MLX, `i32`: `u8 / -1` is `u8 / 255`); elsewhere it goes straight to
    /// the dtype the operation converts to.
    pub python_int_to_array: Option<DType>,
    /// The words the framework refuses a Python int out of range with: `{value}`
    /// stands for the int, `{dtype}` for the dtype's name (`int8`, `uint64`).
    pub python_int_refusal: &'static str,
}

impl Semantics {
    /// NumPy 2 with ml_dtypes: `maximum` of ±0 gives the left operand in the `f16`
    /// loop, the right one in the `f32`/`f64` loops and every ml_dtypes type.
    pub const NUMPY: Semantics = Semantics {
        rules: "numpy",
        flush_subnormals: false,
        zero_tie: (ZeroTie::Lhs, ZeroTie::Rhs),
        saturate_f8e4m3fn: false,
        bool_subtract_is_xor: false,
        bool_multiply_selects: false,
        nan_into_nanless_is_negative_zero: false,
        float_to_int_wraps: true,
        exact_integer_comparisons: true,
        python_float_via_f32: false,
        python_int_via_f32: false,
        bf16_from_f64_through_f32: false,
        python_scalar_opmath: false,
        python_dividend_reciprocal: false,
        python_divisor_reciprocal: false,
        python_int_must_fit: true,
        python_int_u64_takes_negative: false,
        python_int_limit: None,
        python_int_to_array: None,
        python_int_refusal: "OverflowError: Python integer {value} out of bounds for {dtype}",
    };
    /// PyTorch on the CPU: `f8e4m3fn` results saturate. Its `maximum` of ±0 gives
    /// the right operand in whole 64-byte vectors and the left one in the scalar
    /// tail; promo gives the right one everywhere.
    pub const TORCH: Semantics = Semantics {
        rules: "torch",
        flush_subnormals: false,
        zero_tie: (ZeroTie::Rhs, ZeroTie::Rhs),
        saturate_f8e4m3fn: true,
        bool_subtract_is_xor: false,
        bool_multiply_selects: false,
        nan_into_nanless_is_negative_zero: false,
        float_to_int_wraps: false,
        exact_integer_comparisons: false,
        python_float_via_f32: true,
        python_int_via_f32: true,
        bf16_from_f64_through_f32: false,
        python_scalar_opmath: true,
        python_dividend_reciprocal: true,
        python_divisor_reciprocal: false,
        python_int_must_fit: false,
        python_int_u64_takes_negative: false,
        python_int_limit: None,
        python_int_to_array: None,
        python_int_refusal: "RuntimeError: value cannot be converted to type {dtype} without overflow",
    };
    /// JAX on XLA's CPU client (either `jax_enable_x64` setting): denormals are
    /// zero, results flush to zero, and `-0 < +0` in `maximum`/`minimum`.
    pub const JAX: Semantics = Semantics {
        rules: "jax",
        flush_subnormals: true,
        zero_tie: (ZeroTie::Ordered, ZeroTie::Ordered),
        saturate_f8e4m3fn: false,
        bool_subtract_is_xor: false,
        bool_multiply_selects: true,
        nan_into_nanless_is_negative_zero: true,
        float_to_int_wraps: false,
        exact_integer_comparisons: false,
            python_float_via_f32: false,
        python_int_via_f32: false,
        bf16_from_f64_through_f32: true,
        python_scalar_opmath: false,
        python_dividend_reciprocal: false,
        python_divisor_reciprocal: true,
        python_int_must_fit: false,
        python_int_u64_takes_negative: false,
        python_int_limit: Some(DType::I64),
        python_int_to_array: None,
        python_int_refusal: "OverflowError: An overflow was encountered while parsing an argument to a jitted computation: Python int {value} beyond {dtype}",
    };
    /// TensorFlow on the CPU: denormals are zero and results flush to zero, as in
    /// JAX; `maximum` of ±0 gives the left operand for `f16`/`bf16`, the right one
    /// for `f32`/`f64` in whole 32-byte vectors (the left one in the tail; promo
    /// gives the right one everywhere).
    pub const TENSORFLOW: Semantics = Semantics {
        rules: "tensorflow",
        flush_subnormals: true,
        zero_tie: (ZeroTie::Lhs, ZeroTie::Rhs),
        saturate_f8e4m3fn: false,
        bool_subtract_is_xor: false,
        bool_multiply_selects: false,
        nan_into_nanless_is_negative_zero: false,
        float_to_int_wraps: false,
        exact_integer_comparisons: false,
        python_float_via_f32: true,
        python_int_via_f32: false,
        bf16_from_f64_through_f32: false,
        python_scalar_opmath: false,
        python_dividend_reciprocal: false,
        python_divisor_reciprocal: false,
        python_int_must_fit: false,
        python_int_u64_takes_negative: false,
        python_int_limit: Some(DType::I32),
        python_int_to_array: Some(DType::I32),
        python_int_refusal: "OverflowError: Python int {value} too large to convert to np.{dtype}",
    };
    /// MLX on the CPU: `bool - bool` is exclusive or; ties give the right operand.
    pub const MLX: Semantics = Semantics {
        rules: "mlx",
        flush_subnormals: false,
        zero_tie: (ZeroTie::Rhs, ZeroTie::Rhs),
        saturate_f8e4m3fn: false,
        bool_subtract_is_xor: true,
        bool_multiply_selects: false,
        nan_into_nanless_is_negative_zero: false,
        float_to_int_wraps: false,
        exact_integer_comparisons: false,
        python_float_via_f32: true,
        python_int_via_f32: false,
        bf16_from_f64_through_f32: false,
        python_scalar_opmath: false,
        python_dividend_reciprocal: false,
        python_divisor_reciprocal: false,
        python_int_must_fit: true,
        python_int_u64_takes_negative: true,
        python_int_limit: None,
        python_int_to_array: Some(DType::I32),
        python_int_refusal: "ValueError: Converting {value} to {dtype} would result in overflow.",
    };

    /// Every framework whose arithmetic promo computes.
    pub const ALL: [Semantics; 5] = [
        Semantics::NUMPY,
        Semantics::TORCH,
        Semantics::JAX,
        Semantics::TENSORFLOW,
        Semantics::MLX,
    ];

    /// The semantics of the rule set called `rules`, if promo computes its
    /// arithmetic.
    pub fn of(rules: &str) -> Option<Semantics> {
        Semantics::ALL.into_iter().find(|s| s.rules == rules)
    }

    /// The semantics of `table`'s framework for `op`: [`ComputeError::NoSemantics`]
    /// where promo does not compute its arithmetic, [`ComputeError::UnsupportedOp`]
    /// for an operation not in [`OPS`].
    pub(crate) fn computing(
        table: &promo_table::RuleTable<'_>,
        op: promo_table::Op,
    ) -> Result<Semantics, ComputeError> {
        let semantics =
            Semantics::of(table.name).ok_or_else(|| ComputeError::NoSemantics(table.name.to_string()))?;
        if !OPS.contains(&op) {
            return Err(ComputeError::UnsupportedOp(op));
        }
        Ok(semantics)
    }

    /// Whether an `R` result's overflow saturates: PyTorch's `f8e4m3fn`.
    pub(crate) fn saturates(&self, result: DType) -> bool {
        self.saturate_f8e4m3fn && result == DType::F8E4M3FN
    }

    /// The options of the conversions into the values' dtype `value` and out of
    /// the work values: nearest even, saturating where [`Semantics::saturates`]
    /// says so.
    pub(crate) fn cast_options(&self, value: DType) -> crate::cast::CastOptions {
        crate::cast::CastOptions {
            saturate: Some(self.saturates(value)),
            round_mode: crate::narrow::RoundMode::Nearest,
            ..crate::cast::CastOptions::default()
        }
    }

    /// The tie rule for a `maximum`/`minimum` whose result is `result`.
    pub(crate) fn tie(&self, result: DType) -> ZeroTie {
        if result == DType::F16 {
            self.zero_tie.0
        } else {
            self.zero_tie.1
        }
    }
}

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rules)
    }
}
