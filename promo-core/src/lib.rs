//! promo: ML dtype promotion as data, and ONNX `Cast` bit for bit.
//!
//! Each framework's promotion rules live in a TOML file under `rules/`; the
//! `promo-macros` proc-macro turns them, at compile time, into the modules of
//! [`rules`](mod@rules): marker types, `const` run-time tables and [`Promote`] impls.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`Promote`], [`Promoted`], [`promote_pair`] | compile-time promotion: `Promoted<OpenVino, i32, u8>` is `i32`; both operands converted to it |
//! | [`promote`], [`RuleSet::promote`], [`RuleTable::promote`] | run-time promotion of [`DType`]s from the same tables |
//! | [`rules`](mod@rules) | the bundled rule sets: OpenVINO, kernel_float, PaddlePaddle, NVIDIA DALI |
//! | [`rules!`] | your own rule file as a module of marker types, impls and a table |
//! | [`Element`] | which Rust type stores which [`DType`] |
//! | [`narrow`] | float8, float4 and 4-bit integer types |
//! | [`can_cast`], [`finfo`], [`iinfo`] | NumPy's casting levels and format facts, computed from the formats |
//!
//! A pair a framework refuses does not compile, and the error says why:
//!
//! ```compile_fail
//! use promo_core::{rules::kernel_float::KernelFloat, Promoted};
//! // error: kernel_float type promotion refuses `i8` with `u8`: a signed and an unsigned integer do not mix
//! let x: Promoted<KernelFloat, i8, u8> = 0;
//! ```
//!
//! Features: `bytemuck` derives `Pod`/`Zeroable` for the narrow types.

#![warn(missing_docs)]

extern crate self as promo_core;

pub mod cast;
pub mod convert_promote;
pub mod element;
pub mod narrow;
pub mod numeric;
mod promote;
pub mod rules;

pub use element::Element;
pub use numeric::{can_cast, finfo, iinfo, Casting, FloatInfo, IntInfo};
pub use promo_table::{BadOperand, Category, DType, Op, Operand, PyScalar, UnknownDType, UnknownOp};
pub use promo_table::{OptionError, OptionValue, Options, Refusal, RuleTable};
pub use promote::{promote, promote_pair, Promote, Promoted, RuleSet};

/// The element types of half precision, re-exported so that one dependency is enough.
pub use half::{bf16, f16};
/// `rules!("rules/mine.toml")`: a rule file of your own crate as a module of marker
/// types, `Promote` impls and a run-time table (see [`promo_macros::rules!`]).
pub use promo_macros::rules;

#[doc(hidden)]
pub mod __private {
    pub use half::{bf16, f16};
    pub use num_complex::Complex;
    pub use promo_table as table;

    /// Seals the generated diagnostic traits.
    pub trait Sealed {}
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
