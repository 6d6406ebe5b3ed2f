//! promo: ML dtype promotion as data, and ONNX `Cast` bit for bit.
//!
//! Each framework's promotion rules live in a TOML file under `rules/`; the
//! `promo-macros` proc-macro turns them, at compile time, into the modules of
//! [`rules`](mod@rules): marker types, `const` run-time tables and [`Promote`] impls.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`Promote`], [`Promoted`], [`promote_pair`] | compile-time promotion: `Promoted<OpenVino, i32, u8>` is `i32`; both operands converted to it |
//! | [`PromoteArith`], [`Arithmetic`], [`zip_promoted`] | generic arithmetic in the promoted type, for every pair a rule set accepts |
//! | [`operand_types`] | operand kinds at compile time: `Promoted<Torch, f32, Scalar<f64>>` is `f32` |
//! | [`promote`], [`RuleSet::promote`], [`RuleTable::promote`], [`RuleTable::fix`], [`result_type`] | run-time promotion of [`DType`]s from the same tables; of any number of operands |
//! | [`rules`](mod@rules) | the bundled rule sets: `openvino` (OpenVINO), `kernel_float`, `paddle` (PaddlePaddle), `dali` (NVIDIA DALI), `numpy`, `torch` (PyTorch), `array_api` (the Python array API), `tensorflow`, `jax`, `keras` (Keras 3), `tinygrad`, `mlx` (Apple's MLX), `triton` (Triton kernels), `mindspore` |
//! | [`rules!`] | your own rule file as a module of marker types, impls and a table |
//! | [`cast`] | ONNX `Cast`: scalar casts, buffer conversion, strings |
//! | [`convert_promote`](mod@convert_promote) | OpenVINO's `ConvertPromoteTypes` on buffers and slices, for any rule set |
//! | [`Element`] | which Rust type stores which [`DType`] |
//! | [`interop`] | the `float8`, `candle-core` and `safetensors` crates' types, behind features named after them |
//! | [`narrow`] | float8, float4 and 4-bit integer types that behave like numbers |
//! | [`can_cast`], [`finfo`], [`iinfo`] | NumPy's casting levels and format facts, computed from the formats |
//!
//! # Compile-time promotion
//!
//! The common type is a type, and generic code names it:
//!
//! ```
//! use promo_core::rules::openvino::OpenVinoUnsafe;
//! use promo_core::{Arithmetic, Element, PromoteArith};
//!
//! // One bound: A and B promote under R to a type both convert to and that computes.
//! fn add<R: PromoteArith<A, B>, A: Element, B: Element>(a: A, b: B) -> R::Common {
//!     let (a, b) = R::convert(a, b);
//!     a.add(b)
//! }
//! assert_eq!(add::<OpenVinoUnsafe, i8, u8>(-1, 255), 254i16);
//! ```
//!
//! A pair a framework refuses does not compile, and the error says why:
//!
//! ```compile_fail
//! use promo_core::{rules::kernel_float::KernelFloat, Promoted};
//! // error: kernel_float type promotion refuses `i8` with `u8`: a signed and an unsigned integer do not mix
//! let x: Promoted<KernelFloat, i8, u8> = 0;
//! ```
//!
//! # Run-time promotion
//!
//! For dtypes known only at run time (read from a model file), one lookup in the
//! same `const` tables: a marker type's ([`RuleSet::promote`]) and options fixed
//! once ([`RuleTable::fix`]) are an index computation and one load.
//!
//! ```
//! use promo_core::rules::paddle::{Paddle, TABLE};
//! use promo_core::{promote, rules, DType, Op, RuleSet};
//! assert_eq!(promote(&rules::kernel_float::TABLE, DType::F16, DType::BF16), Ok(DType::F32));
//! assert_eq!(Paddle::promote(Op::Divide, DType::I32, DType::I32), Ok(DType::F32));
//! let static_graph = TABLE.options_from(["mode=static"]).unwrap();
//! let fixed = TABLE.fix(&static_graph).expect("bundled rule sets have flat tables");
//! assert_eq!(fixed.promote(Op::Divide, DType::I32.into(), DType::I32.into()), Ok(DType::F32));
//! ```
//!
//! # Casting values and buffers
//!
//! Scalars with [`cast::cast`]; run-time typed buffers with [`cast::convert`]
//! (little-endian bytes, one monomorphized kernel picked per call):
//!
//! ```
//! use promo_core::cast::{cast, convert, CastOptions};
//! use promo_core::narrow::f8e4m3fn;
//! use promo_core::DType;
//! let o = CastOptions::default();
//! assert_eq!(cast::<f32, f8e4m3fn>(464.0, &o), f8e4m3fn::MAX); // saturates, as ONNX's default
//! let bytes: Vec<u8> = [1.0f32, -2.5].iter().flat_map(|x| x.to_le_bytes()).collect();
//! assert_eq!(convert(DType::F32, DType::F8E4M3FN, &bytes, &o).unwrap(), [0x38, 0xc2]);
//! ```
//!
//! # Your own rule file
//!
//! `promo_core::rules!("rules/mine.toml")` in your crate reads `rules/mine.toml`
//! next to your `Cargo.toml`, tracks it for rebuilds, and emits the same marker
//! types, impls and table as the bundled rule sets (see [`rules!`]).
//!
//! Features: `bytemuck` (`Pod`/`Zeroable` for the narrow types), `serde` (`DType`
//! as its name, narrow numbers as their value), `num-traits` (for the narrow floats),
//! `rayon` (parallel casts: `cast::par_cast_slice`, `par_cast_vec`,
//! `par_convert_to_slice`, `par_convert_stream`), and the [`interop`] features
//! `float8`, `candle-core`, `safetensors`.

#![warn(missing_docs)]

extern crate self as promo_core;

pub mod cast;
pub mod compute;
pub mod convert_promote;
pub mod element;
pub mod interop;
pub mod narrow;
pub mod numeric;
pub mod operand_types;
mod promote;
#[doc(hidden)]
pub mod rows;
pub mod rules;

pub use compute::{zip_promoted, Arithmetic, PromoteArith};
pub use element::Element;
pub use numeric::{can_cast, finfo, iinfo, Casting, FloatInfo, IntInfo};
pub use promo_table::{op_types, ElementwiseOp, OpType};
pub use promo_table::{
    BadOperand, Category, DType, HasDType, Op, Operand, Promotion, PyScalar, UnknownDType, UnknownOp,
};
pub use promo_table::{FixedTable, OptionError, OptionValue, Options, Refusal, RuleTable};
pub use promote::{
    promote, promote_pair, result_promotion, result_type, ComputedIn, Promote, PromoteOne, PromoteOp,
    Promoted, PromotedOp, Reduced, RuleSet, Unary,
};

/// The element types of half precision, re-exported so that one dependency is enough.
pub use half::{bf16, f16};
/// The complex element types (`c64` and `c128`: `num_complex::Complex<f32>` and
/// `Complex<f64>`), re-exported so that one dependency is enough.
pub use num_complex::{Complex32, Complex64};
/// `rules!("rules/mine.toml")`: a rule file of your own crate as a module of marker
/// types, `Promote` impls and a run-time table (see [`promo_macros::rules!`]).
pub use promo_macros::rules;

#[doc(hidden)]
pub mod __private {
    /// Seals the generated diagnostic traits (the one sealing trait of the crate,
    /// also behind [`Element`](crate::Element)).
    pub use crate::element::sealed::Sealed;
    pub use crate::promote::Refused;
    pub use crate::rows;
    pub use half::{bf16, f16};
    pub use num_complex::Complex;
    pub use promo_table as table;
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
