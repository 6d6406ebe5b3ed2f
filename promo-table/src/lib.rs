//! promo's shared vocabulary and the compiled promotion-table format.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`DType`] | every element type a covered framework or ONNX names, with aliases |
//! | [`RuleTable::dtype_named`] | a dtype name under a rule set: its `[aliases]` first |
//! | [`Op`], [`OpKind`] | the operations a rule set answers for, of every arity (docs/operations.md) |
//! | [`Operand`] | a tensor, a rank-0 tensor, or a Python scalar |
//! | [`RuleTable`] | one rule file compiled to slices, and [`RuleTable::promote`] |
//! | [`RuleTable::apply`], [`Outcome`] | an operation of any arity, its result and compute dtype |
//! | [`OptionSpec`], [`Options`] | a rule set's options, and `KEY=VALUE` settings parsed |
//! | [`Cell`] | one cell of a layer, and its `u16` code |
//! | [`Layer`], [`RuleTable::trace`] | one matrix with its conditions, and the walk over the layers |
//! | [`Flat`], [`Answer`], [`RuleTable::flatten`] | every answer precomputed as a `u16` code, read by one indexed load |
//! | [`RuleTable::fix`], [`FixedTable`] | a table with its options fixed: a lookup is an index computation and one load |
//! | [`DType::of`], [`HasDType`] | the dtype a Rust element type stores |
//! | [`DType::from_onnx`], [`DType::to_onnx`] | ONNX `TensorProto.DataType` codes |
//! | [`text::is_unsafe_char`] | the characters a rule set's texts may not hold |
//!
//! The modules import one way. Below stand the data: the vocabulary (`dtype`,
//! `op`, `operand`, `cell`), the options (`options`), the flat cells (`flat`),
//! the layers (`layer`) and the rule table that holds them (`table`). Above stands
//! the engine that reads them, each part a set of [`RuleTable`] methods: the lookup
//! (`lookup`: [`RuleTable::promote`]), the walk over the layers (`walk`:
//! [`RuleTable::trace`]), settings read against a rule set (`settings`:
//! [`RuleTable::options_from`]), aliases (`aliases`), options fixed (`fixed`:
//! [`RuleTable::fix`]) and flattening (`flatten`: [`RuleTable::flatten`]). No data
//! module imports an engine module.
//!
//! Feature `serde`: `DType` serializes as its canonical name.
//!
//! `promo-core` embeds generated `const` [`RuleTable`]s, `promo-rules` builds them
//! from TOML at run time, and both answer queries with the same
//! [`RuleTable::promote`]. The only dependencies are `half` and `num-complex`, whose
//! element types [`HasDType`] (read by [`DType::of`]) covers.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod aliases;
mod apply;
mod cell;
mod dtype;
mod element_types;
mod fixed;
#[cfg(test)]
mod fixture;
mod flat;
mod flatten;
mod has_dtype;
pub mod interop;
mod layer;
mod lookup;
mod onnx;
mod op;
mod operand;
mod options;
#[cfg(feature = "serde")]
mod serde_impls;
mod settings;
mod table;
pub mod text;
mod walk;

pub use aliases::DTypeNameError;
pub use cell::Cell;
pub use dtype::{ambiguous_name, Category, DType, UnknownDType, AMBIGUOUS_NAMES};
pub use fixed::FixedTable;
pub use flat::{code_at, operand_key, operand_of_key, option_combo, Answer, Flat, OPERAND_KEYS, WALKED};
pub use flatten::FlatParts;
pub use has_dtype::HasDType;
pub use layer::{Condition, Layer, Side, ABSENT};
pub use op::{op_types, Arity, ElementwiseOp, ListRule, Op, OpKind, OpType, UnknownOp};
pub use operand::{BadOperand, Operand, PyScalar};
pub use options::{OptionError, OptionKind, OptionSpec, OptionValue, Options, MAX_OPTIONS};
pub use table::{Outcome, Promotion, Reason, Refusal, RuleTable};
pub use walk::Trace;
