//! promo: ML dtype promotion as data, and ONNX `Cast` bit for bit.

#![warn(missing_docs)]

pub mod element;
pub mod narrow;

pub use element::Element;
pub use promo_table::{DType, Op, Operand, PyScalar};
