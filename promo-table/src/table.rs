//! [`RuleTable`]: the compiled form of a rule file, as data, and the answers a
//! lookup gives ([`Promotion`], [`Refusal`]).
//!
//! A [`RuleTable`] is plain data made of slices, so the same shape serves the
//! `const` tables that `promo-macros` generates and the tables `promo-rules`
//! compiles from a rule file at run time. The engine that reads it stands above:
//! the lookup ([`RuleTable::promote`]), the walk over the layers
//! ([`RuleTable::trace`]), options fixed ([`RuleTable::fix`]) and flattening
//! ([`RuleTable::flatten`]).

use crate::dtype::DType;
use crate::flat::Flat;
use crate::layer::{Layer, Side};
use crate::op::{ListRule, Op, OpKind};
use crate::operand::Operand;
use crate::options::OptionSpec;
use core::fmt;

/// A whole rule set: what one rule file says, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleTable<'a> {
    /// The short name used on the command line, e.g. `openvino`.
    pub name: &'a str,
    /// The framework and the operation, e.g. `OpenVINO ConvertPromoteTypes-14`.
    pub title: &'a str,
    /// The framework version whose behaviour the rules encode.
    pub version: &'a str,
    /// Whether `promote(a, b) == promote(b, a)` always holds.
    pub commutative: bool,
    /// How a list of operands is combined (`concatenate`).
    pub list: ListRule,
    /// For [`ListRule::Sequence`], the rule set's dtypes in the order in which they
    /// answer for a pair (NumPy's type numbers): of two, the later one decides.
    /// Empty for the other list rules.
    pub list_order: &'a [DType],
    /// The dtypes the framework accepts, in listing order.
    pub dtypes: &'a [DType],
    /// The operations the framework distinguishes; empty means the result does not
    /// depend on the operation.
    pub ops: &'a [Op],
    /// The framework's own spellings of its dtypes (a rule file's `[aliases]`):
    /// `(name, dtype)`, by name; a name listed with several dtypes is
    /// ambiguous ([`RuleTable::dtype_named`]).
    pub aliases: &'a [(&'a str, DType)],
    /// Options and their defaults.
    pub options: &'a [OptionSpec<'a>],
    /// How each Python scalar kind is typed: as a tensor of a dtype (DALI: `int` is
    /// an `i32` tensor) or, where Python scalars are weak (JAX, TensorFlow), as a
    /// weakly typed one ([`Operand::Weak`]); `None` if the framework takes no Python
    /// scalar of that kind. Derived layers type them so; where no layer speaks of a
    /// Python scalar, the walk starts again with it typed so.
    pub python: [Option<Operand>; 4],
    /// Refusal reasons, referenced by [`Cell::Refuse`](crate::Cell::Refuse).
    pub reasons: &'a [&'a str],
    /// The layers, most specific first; the last is the tensor-with-tensor base.
    /// The first [`RuleTable::results_from`] are `[[compute]]` layers: they give
    /// the dtype an operation computes in, and a walk for a result starts after them.
    pub layers: &'a [Layer<'a>],
    /// The number of `[[compute]]` layers at the front of [`RuleTable::layers`].
    pub results_from: usize,
    /// Every answer precomputed, when the rule set was compiled ahead of time;
    /// `None` makes [`RuleTable::promote`] walk the layers.
    pub flat: Option<Flat<'a>>,
}

/// The answer of [`RuleTable::apply`]: the result, and the dtype the framework
/// computes it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result's dtype, and whether it is weakly typed.
    pub result: Promotion,
    /// The dtype the framework computes in: the result's dtype unless the rule set
    /// says otherwise (`[[compute]]`); for an in-place or `out=` operation, the
    /// dtype its operation computes in.
    pub compute: DType,
}

/// The answer of [`RuleTable::promote_result`]: the dtype, and whether it is
/// weakly typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Promotion {
    /// The result's dtype.
    pub dtype: DType,
    /// Whether the result is weakly typed (a Python scalar's kind of type, which
    /// gives way to a strongly typed operand's).
    pub weak: bool,
}

impl Promotion {
    /// The result as an operand of a further operation: a weakly typed tensor or a
    /// tensor.
    pub const fn operand(self) -> Operand {
        if self.weak {
            Operand::Weak(self.dtype)
        } else {
            Operand::Dimensioned(self.dtype)
        }
    }
}

impl fmt::Display for Promotion {
    /// `f32`, or `weak:f32` for a weakly typed result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.weak {
            write!(f, "weak:{}", self.dtype)
        } else {
            write!(f, "{}", self.dtype)
        }
    }
}

/// One of a rule set's refusal reasons: its place in [`RuleTable::reasons`] and its
/// text. Two reasons worded alike are still two reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason<'a> {
    /// The index into [`RuleTable::reasons`] (a rule file's `[reasons]`, in key
    /// order), as [`Cell::Refuse`](crate::Cell::Refuse) holds it.
    pub index: usize,
    /// What the reason says.
    pub text: &'a str,
}

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// Why a promotion has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal<'a> {
    /// The rule set refuses the pair, for this reason.
    Refused(Reason<'a>),
    /// The framework does not accept this dtype.
    UnsupportedDType(DType),
    /// The framework does not have this operation.
    UnsupportedOp(Op),
    /// The framework takes no Python scalar operands.
    PythonScalar,
    /// Both operands are Python scalars and no rule speaks of that (plain Python,
    /// not the framework).
    TwoPythonScalars,
    /// A weakly typed operand, in a rule set without weak types.
    WeakOperand,
    /// No layer covers the pair (a rule file that `promo check` would reject).
    NoRule,
    /// A list reduced as a sequence ([`ListRule::Sequence`]) has a dtype that the
    /// most knowledgeable one cannot promote, though each pair may have an answer
    /// (NumPy's `DTypePromotionError`: "The DType … could not be promoted by …").
    NotPromotedBy {
        /// The dtype left over.
        dtype: DType,
        /// The dtype that stood first and could not promote it.
        by: DType,
    },
    /// The operation takes another number of operands than were given.
    Arity {
        /// The operation.
        op: Op,
        /// How many operands were given.
        given: usize,
    },
}

impl fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Refused(reason) => reason.fmt(f),
            Refusal::UnsupportedDType(d) => write!(f, "dtype `{d}` is not supported"),
            Refusal::UnsupportedOp(op) => write!(f, "operation `{op}` is not covered"),
            Refusal::PythonScalar => f.write_str("Python scalar operands are not supported"),
            Refusal::TwoPythonScalars => f.write_str("both operands are Python scalars"),
            Refusal::WeakOperand => f.write_str("this rule set has no weakly typed operands"),
            Refusal::NoRule => f.write_str("no rule covers this pair"),
            Refusal::NotPromotedBy { dtype, by } => write!(
                f,
                "`{dtype}` could not be promoted by `{by}`, which leads the list: no common dtype of the list in this order"
            ),
            Refusal::Arity { op, given } => {
                write!(f, "`{op}` takes {}, not {given}", op.arity())
            }
        }
    }
}

impl std::error::Error for Refusal<'_> {}

impl RuleTable<'_> {
    /// Whether the rule set answers for `op`: it lists it in `ops`, or it lists no
    /// operation (the result does not depend on it) and `op` is elementwise. A rule
    /// set of binary promotion only refuses unary operations, reductions, `matmul`,
    /// lists and stores as not covered.
    pub fn supports(&self, op: Op) -> bool {
        if self.ops.is_empty() {
            op.kind() == OpKind::Elementwise
        } else {
            self.ops.contains(&op)
        }
    }

    /// Whether the framework accepts `dtype`.
    pub fn accepts(&self, dtype: DType) -> bool {
        self.dtypes.contains(&dtype)
    }

    /// Whether the rule set has weakly typed operands (a layer with a `weak` side,
    /// or Python scalars typed as weak tensors).
    pub fn takes_weak(&self) -> bool {
        self.python.iter().any(|p| matches!(p, Some(Operand::Weak(_))))
            || self
                .layers
                .iter()
                .any(|l| l.lhs == Side::Weak || l.rhs == Side::Weak)
    }
}
