//! promo's shared vocabulary and the compiled promotion-table format.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`DType`] | every element type a covered framework or ONNX names, with aliases |
//! | [`Op`] | the binary operations a promotion may depend on (Paddle's API names) |
//! | [`Operand`] | a tensor, a rank-0 tensor, or a Python scalar |
//! | [`RuleTable`] | one rule file compiled to slices, and [`RuleTable::promote`] |
//! | [`DType::of`], [`HasDType`] | the dtype a Rust element type stores (one table of them, `for_each_element_type!`, which promo-macros and promo-core read too) |
//! | [`DType::from_onnx`], [`DType::to_onnx`] | ONNX `TensorProto.DataType` codes |
//!
//! Feature `serde`: `DType` serializes as its canonical name.
//!
//! `promo-core` embeds generated `const` [`RuleTable`]s, `promo-rules` builds them
//! from TOML at run time, and both answer queries with the same
//! [`RuleTable::promote`]. The only dependencies are `half` and `num-complex`, whose
//! element types [`HasDType`] (read by [`DType::of`]) covers.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod dtype;
mod element_types;
mod has_dtype;
mod onnx;
mod op;
mod operand;
#[cfg(feature = "serde")]
mod serde_impls;
mod table;

pub use dtype::{Category, DType, UnknownDType};
pub use has_dtype::HasDType;
pub use op::{op_types, Op, OpType, UnknownOp};
pub use operand::{BadOperand, Operand, PyScalar};
pub use table::{
    operand_key, operand_of_key, option_combo, Cell, Condition, Flat, FlatParts, Layer, OptionError,
    OptionKind, OptionSpec, OptionValue, Options, Refusal, RuleTable, Side, Trace, ABSENT, MAX_OPTIONS,
    OPERAND_KEYS,
};
