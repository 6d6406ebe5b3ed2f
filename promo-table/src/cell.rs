//! [`Cell`]: one entry of a layer's matrix.

use crate::DType;

/// One cell of a layer's matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No opinion: the next layer decides (`"."` in a rule file).
    Defer,
    /// The result is this dtype.
    Is(DType),
    /// The result is this dtype, weakly typed (`"f64*"`: JAX's and TensorFlow's
    /// weak types).
    Weak(DType),
    /// The result is the left operand's dtype (`"lhs"`).
    Lhs,
    /// The result is the right operand's dtype (`"rhs"`).
    Rhs,
    /// The result is the value of this dtype option (`"$name"`).
    Option(u8),
    /// Refused, for the reason at this index of
    /// [`RuleTable::reasons`](crate::RuleTable::reasons) (`"!key"`).
    Refuse(u16),
}
