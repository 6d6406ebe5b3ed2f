//! Arithmetic in the promoted type, as the frameworks compute it.
//!
//! Two ways in:
//!
//! - **Dynamic**, over byte buffers whose dtypes are known at run time:
//!   [`Computation`] plans `a OP b` once for a rule set, its options and two
//!   dtypes (the result dtype from the rule set, the dtype it computes in and the
//!   conversions from the framework's [`Semantics`]), then [`Computation::apply`]
//!   computes slices, bit for bit as the framework does;
//!   [`Computation::with_scalar`] plans `array OP scalar` with a Python scalar,
//!   converted as the framework converts a weak scalar.
//! - **Typed**, generic over element types: [`PromoteArith`] says "`A` and `B`
//!   promote under `R` to a type I can convert both to and compute with", and
//!   [`zip_promoted`] applies a function to two slices element by element in it.
//!
//! ```
//! use promo_core::compute::{zip_promoted, Arithmetic, PromoteArith};
//! use promo_core::rules::torch::Torch;
//! use promo_core::f16;
//!
//! // Torch: i32 + f16 is f16; both sides are cast to it with ONNX `Cast`.
//! let sums = zip_promoted::<Torch, _, _, _>(&[1i32, 2, 3], &[f16::from_f32(0.5)], |x, y| x.add(y));
//! assert_eq!(sums.unwrap(), [1.5, 2.5, 3.5].map(f16::from_f32));
//! ```
//!
//! What each framework does was measured, not read: `tools/oracles/compute/`
//! runs NumPy (with ml_dtypes), PyTorch, JAX, TensorFlow and MLX on every pair of
//! codes of the 8-bit formats and on random and special bit patterns of the wider
//! ones, and `FINDINGS.md` there states the rules [`Semantics`] encodes; the tests
//! compare [`Computation`] with every recorded element.

mod dynamic;
mod scalar;
mod semantics;
mod typed;

pub use dynamic::{Computation, ComputeError, Side, OPS};
pub use scalar::Scalar;
pub use semantics::{Semantics, ZeroTie};
pub use typed::{apply, compare, zip_promoted, Arithmetic, LengthMismatch, PromoteArith};

#[cfg(test)]
mod tests;
