//! [`Layer`]: one matrix of a rule set with the conditions under which it applies,
//! and what one layer says of a pair ([`Layer::applies`], its opinion). The walk
//! over the layers ([`RuleTable::trace`](crate::RuleTable::trace)) stands above.

use crate::cell::Cell;
use crate::dtype::DType;
use crate::flat::code_at;
use crate::op::Op;
use crate::operand::Operand;
use crate::options::{OptionValue, Options};

/// A row or column index meaning "this layer has no row/column for that key".
pub const ABSENT: u8 = u8::MAX;

/// What one side of a [`Layer`] matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A tensor of any rank, rank 0 included. Keys are dtypes.
    Tensor,
    /// A rank-0 tensor only. Keys are dtypes.
    Scalar,
    /// A tensor with at least one dimension only. Keys are dtypes.
    Dimensioned,
    /// A Python scalar. Keys are [`PyScalar`](crate::PyScalar) kinds.
    Python,
    /// A weakly typed tensor ([`Operand::Weak`]). Keys are dtypes.
    Weak,
    /// Any operand: a tensor of any rank (keys are dtypes), a Python scalar (keys
    /// [`DType::COUNT`] + its [`PyScalar`](crate::PyScalar) kind) or a weakly typed
    /// tensor (keys [`DType::COUNT`] + 4 + its dtype).
    Any,
}

impl Side {
    /// The side's name as rule files spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Tensor => "tensor",
            Side::Scalar => "scalar",
            Side::Dimensioned => "dimensioned",
            Side::Python => "python",
            Side::Weak => "weak",
            Side::Any => "any",
        }
    }

    /// The index of `operand` on this side's axis, or `None` if the side does not match.
    pub const fn key(self, operand: Operand) -> Option<usize> {
        match (self, operand) {
            (Side::Tensor, Operand::Dimensioned(d) | Operand::Scalar(d)) => Some(d.index()),
            (Side::Scalar, Operand::Scalar(d)) | (Side::Dimensioned, Operand::Dimensioned(d)) => {
                Some(d.index())
            }
            (Side::Python, Operand::Python(k)) => Some(k.index()),
            (Side::Any, Operand::Dimensioned(d) | Operand::Scalar(d)) => Some(d.index()),
            (Side::Any, Operand::Python(k)) => Some(DType::COUNT + k.index()),
            (Side::Weak, Operand::Weak(d)) => Some(d.index()),
            (Side::Any, Operand::Weak(d)) => Some(DType::COUNT + 4 + d.index()),
            _ => None,
        }
    }

    /// The number of keys of this side: dtypes, Python kinds, or both and weak dtypes.
    pub const fn domain_len(self) -> usize {
        match self {
            Side::Python => 4,
            Side::Tensor | Side::Scalar | Side::Dimensioned | Side::Weak => DType::COUNT,
            Side::Any => 2 * DType::COUNT + 4,
        }
    }
}

/// `option == value`, a precondition of a [`Layer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// Index into [`RuleTable::options`](crate::RuleTable::options).
    pub option: u8,
    /// The value the option must have.
    pub value: OptionValue,
}

/// One matrix of a rule set, with the conditions under which it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer<'a> {
    /// A short description, e.g. `"tensor with tensor"`.
    pub name: &'a str,
    /// Every condition must hold for the layer to apply.
    pub when: &'a [Condition],
    /// The operations it applies to; empty means every operation.
    pub ops: &'a [Op],
    /// What the row operand must be.
    pub lhs: Side,
    /// What the column operand must be.
    pub rhs: Side,
    /// Row of each key ([`DType::index`] or
    /// [`PyScalar::index`](crate::PyScalar::index)), or [`ABSENT`].
    pub row_of: &'a [u8],
    /// Column of each key, or [`ABSENT`].
    pub col_of: &'a [u8],
    /// The number of columns.
    pub width: usize,
    /// The cells, row by row, each its [`Cell::code`] in two bytes, little-endian
    /// ([`code_at`](crate::code_at)): one byte-string literal in generated code,
    /// not a token per cell.
    pub cells: &'a [u8],
    /// A result filter: when not empty, the layer covers a pair only when the
    /// layers after it promote the pair to one of these dtypes.
    pub promoted: &'a [DType],
    /// `strong = true`: the layer's results are strongly typed. Its cells already
    /// are; for a result filter it also means that a weakly typed promotion does
    /// not make the filter's result weak (JAX's `logical_and`, which compares a weak
    /// promotion with a strong zero unless it is of the default dtype).
    pub strong: bool,
    /// The index of the first layer after this layer's statement: a result filter
    /// that covers a pair but does not change it leaves the pair to the layers from
    /// there on (the other cases of its statement are alternatives, not layers below).
    pub statement_end: usize,
    /// Whether the next layer is another entry of the same result map (`by_promoted
    /// = { c64 = "f32", c128 = "f64" }`): a result filter that does not hold passes
    /// the pair on to it, where it would leave the pair to the layers after the
    /// statement.
    pub continues: bool,
    /// A retyping (`retype = { i64 = "i32" }`): when not empty, the layer answers
    /// every pair by the layers after it, with each operand of a listed dtype taken
    /// as the paired dtype, and the answer's dtype mapped the same way (JAX without
    /// 64-bit types). Such a layer has no cells.
    pub retype: &'a [(DType, DType)],
}

impl Layer<'_> {
    /// Whether the layer applies under `options` to `op`: every `when` condition
    /// holds and `op` is among its operations (or it names none).
    pub fn applies(&self, options: &Options, op: Op) -> bool {
        self.when
            .iter()
            .all(|c| options.get(c.option as usize) == c.value)
            && (self.ops.is_empty() || self.ops.contains(&op))
    }

    /// The cell for (`lhs`, `rhs`) with `lhs`/`rhs` resolved to the operand's dtype,
    /// or `None` if the layer has no such cell or defers.
    pub(crate) fn opinion(&self, lhs: Operand, rhs: Operand) -> Option<Cell> {
        let row = *self.row_of.get(self.lhs.key(lhs)?)?;
        let col = *self.col_of.get(self.rhs.key(rhs)?)?;
        if row == ABSENT || col == ABSENT {
            return None;
        }
        match Cell::from_code(code_at(self.cells, row as usize * self.width + col as usize)?) {
            Cell::Defer => None,
            Cell::Lhs => operand_cell(lhs),
            Cell::Rhs => operand_cell(rhs),
            other => Some(other),
        }
    }
}

/// An operand's own type as a result: its dtype, weakly typed if the operand is.
fn operand_cell(operand: Operand) -> Option<Cell> {
    match operand {
        Operand::Weak(d) => Some(Cell::Weak(d)),
        other => other.dtype().map(Cell::Is),
    }
}
