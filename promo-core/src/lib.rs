//! promo: ML dtype promotion as data, and ONNX `Cast` bit for bit.

#![warn(missing_docs)]

extern crate self as promo_core;

pub mod element;
pub mod narrow;
mod promote;
pub mod rules;

pub use element::Element;
pub use promo_table::{DType, Op, Operand, PyScalar};
pub use promo_table::{Options, Refusal, RuleTable};
pub use promote::{promote, Promote, Promoted, RuleSet};

#[doc(hidden)]
pub mod __private {
    pub use half::{bf16, f16};
    pub use num_complex::Complex;
    pub use promo_table as table;

    /// Seals the generated diagnostic traits.
    pub trait Sealed {}
}
