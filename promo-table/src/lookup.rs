//! The engine's lookup: [`RuleTable::promote`] and [`RuleTable::promote_result`],
//! which read the precomputed [`Flat`](crate::Flat) table when there is one (an index
//! computation and one load, as [`FixedTable`](crate::FixedTable) does with the
//! option combination computed once) and otherwise walk the layers
//! ([`RuleTable::answer`]); each step is an indexed load, never a `match` over
//! dtypes.

use crate::cell::Cell;
use crate::dtype::DType;
use crate::flat::Answer;
use crate::op::Op;
use crate::operand::Operand;
use crate::options::{OptionValue, Options};
use crate::table::{Promotion, Reason, Refusal, RuleTable};

impl<'a> RuleTable<'a> {
    /// The common dtype of `lhs` and `rhs` under `op`, or why there is none.
    ///
    /// With a [`Flat`](crate::Flat) table this is the option combination, an index computation
    /// and one load (to fix the options once for many lookups, see
    /// [`RuleTable::fix`]); otherwise it walks the layers ([`RuleTable::answer`]).
    #[inline]
    pub fn promote(
        &self,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<DType, Refusal<'a>> {
        self.promote_result(options, op, lhs, rhs).map(|p| p.dtype)
    }

    /// [`RuleTable::promote`] with whether the result is weakly typed (JAX's
    /// `weak_type`, TensorFlow's `WeakTensor`; never so in a rule set without weak
    /// types): the answer in the [`Flat`](crate::Flat) table for `options` ([`RuleTable::fix`],
    /// then one load), or the walk's without one, read as a result.
    #[inline]
    pub fn promote_result(
        &self,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<Promotion, Refusal<'a>> {
        let answer = match self.fix(options) {
            Some(fixed) => fixed.answer(op, lhs, rhs),
            None => self.answer(options, op, lhs, rhs),
        };
        read(answer, self.reasons, options, op, lhs, rhs)
    }

    /// The answer the layers give, refusals included: the reference that [`Flat`](crate::Flat)
    /// tables are generated from ([`RuleTable::flatten`]) and that they are tested
    /// against. An operation the rule set lacks is refused first, then each operand
    /// in turn (a dtype it does not accept, then a weakly typed tensor where it has
    /// none); then the walk ([`RuleTable::resolve`]) decides, and where no layer
    /// speaks, [`Answer::TwoPythonScalars`], [`Answer::PythonScalar`] or
    /// [`Answer::NoRule`] says why.
    pub fn answer(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Answer {
        if let Some(refused) = self.check_operands(op, lhs, rhs) {
            return refused;
        }
        // A unary operation or a reduction reads the diagonal only.
        if op.on_diagonal() && lhs != rhs {
            return Answer::NoRule;
        }
        self.cell_answer(self.resolve(options, op, lhs, rhs), op, lhs, rhs)
    }

    /// The answer a walk's cell gives for `lhs` and `rhs`; where it gave none, why.
    pub(crate) fn cell_answer(&self, cell: Cell, op: Op, lhs: Operand, rhs: Operand) -> Answer {
        match cell {
            Cell::Is(d) => Answer::Is(d),
            Cell::Weak(d) => Answer::Weak(d),
            Cell::Option(i) => Answer::Option(i),
            Cell::Refuse(r) => Answer::Refuse(r),
            Cell::Defer | Cell::Lhs | Cell::Rhs => self.no_cell(op, lhs, rhs),
        }
    }

    /// What went wrong when no layer gave a cell.
    fn no_cell(&self, op: Op, lhs: Operand, rhs: Operand) -> Answer {
        match (lhs, rhs) {
            (Operand::Python(_), Operand::Python(_)) if !op.on_diagonal() => Answer::TwoPythonScalars,
            (Operand::Python(k), _) | (_, Operand::Python(k)) if self.python[k.index()].is_none() => {
                Answer::PythonScalar
            }
            _ => Answer::NoRule,
        }
    }

    /// The refusals that need no layer: an op or dtype the framework lacks, a weakly
    /// typed operand where it has none.
    fn check_operands(&self, op: Op, lhs: Operand, rhs: Operand) -> Option<Answer> {
        if !self.supports(op) {
            return Some(Answer::UnsupportedOp);
        }
        self.operand_refusal(lhs, Answer::UnsupportedLhs)
            .or_else(|| self.operand_refusal(rhs, Answer::UnsupportedRhs))
    }

    /// Why the rule set refuses `operand` whatever the other operand is: a dtype it
    /// does not accept (`unsupported`, which names the side), then a weakly typed
    /// tensor where it has none.
    pub(crate) fn operand_refusal(&self, operand: Operand, unsupported: Answer) -> Option<Answer> {
        if operand.dtype().is_some_and(|d| !self.accepts(d)) {
            Some(unsupported)
        } else if matches!(operand, Operand::Weak(_)) && !self.takes_weak() {
            Some(Answer::WeakOperand)
        } else {
            None
        }
    }

    /// The tensor-with-tensor matrix under `op`: one entry per ordered pair of
    /// accepted dtypes, in [`RuleTable::dtypes`] order.
    pub fn matrix(&self, options: &Options, op: Op) -> Vec<Vec<Result<DType, Refusal<'a>>>> {
        self.dtypes
            .iter()
            .map(|&l| {
                self.dtypes
                    .iter()
                    .map(|&r| self.promote(options, op, Operand::Dimensioned(l), Operand::Dimensioned(r)))
                    .collect()
            })
            .collect()
    }
}

/// `answer` for `op` on `lhs` and `rhs` as a result: the dtype option's value
/// under `options`, the reason's text (from the rule set's `reasons`), the operation
/// or operand refused.
#[inline]
pub(crate) fn read<'a>(
    answer: Answer,
    reasons: &'a [&'a str],
    options: &Options,
    op: Op,
    lhs: Operand,
    rhs: Operand,
) -> Result<Promotion, Refusal<'a>> {
    let strong = |dtype| Ok(Promotion { dtype, weak: false });
    let unsupported = |o: Operand| Err(o.dtype().map_or(Refusal::NoRule, Refusal::UnsupportedDType));
    match answer {
        Answer::Is(d) => strong(d),
        Answer::Weak(d) => Ok(Promotion { dtype: d, weak: true }),
        Answer::Option(i) => match options.values().get(i as usize) {
            Some(&OptionValue::DType(d)) => strong(d),
            _ => Err(Refusal::NoRule),
        },
        Answer::Refuse(r) => {
            let index = r as usize;
            match reasons.get(index) {
                Some(&text) => Err(Refusal::Refused(Reason { index, text })),
                None => Err(Refusal::NoRule),
            }
        }
        Answer::UnsupportedOp => Err(Refusal::UnsupportedOp(op)),
        Answer::UnsupportedLhs => unsupported(lhs),
        Answer::UnsupportedRhs => unsupported(rhs),
        Answer::WeakOperand => Err(Refusal::WeakOperand),
        Answer::PythonScalar => Err(Refusal::PythonScalar),
        Answer::TwoPythonScalars => Err(Refusal::TwoPythonScalars),
        Answer::NoRule => Err(Refusal::NoRule),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::tiny_table;
    use crate::operand::PyScalar;

    const T: fn(DType) -> Operand = Operand::Dimensioned;

    fn promote(
        t: &RuleTable<'static>,
        settings: &[&str],
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<DType, Refusal<'static>> {
        let options = t.options_from(settings.iter().copied()).unwrap();
        t.promote(&options, op, lhs, rhs)
    }

    #[test]
    fn results_come_from_cells_and_dtype_options() {
        let t = tiny_table();
        assert_eq!(
            promote(&t, &[], Op::Add, T(DType::I8), T(DType::U8)),
            Ok(DType::I16)
        );
        assert_eq!(
            promote(&t, &[], Op::Divide, T(DType::I8), T(DType::U8)),
            Ok(DType::F32)
        );
        assert_eq!(
            promote(&t, &["out=i16"], Op::Divide, T(DType::I8), T(DType::U8)),
            Ok(DType::I16)
        );
    }

    #[test]
    fn refusals_say_why() {
        let t = tiny_table();
        let why =
            |settings: &[&str], op, lhs, rhs| promote(&t, settings, op, lhs, rhs).unwrap_err().to_string();
        assert_eq!(
            why(&["strict=true"], Op::Add, T(DType::I8), T(DType::U8)),
            "mixed signedness"
        );
        assert_eq!(
            why(&[], Op::Add, T(DType::F32), T(DType::Bool)),
            "bool does not mix with f32"
        );
        assert_eq!(
            why(&[], Op::Add, T(DType::F64), T(DType::I8)),
            "dtype `f64` is not supported"
        );
        assert_eq!(
            why(&[], Op::Multiply, T(DType::I8), T(DType::I8)),
            "operation `multiply` is not covered"
        );
        let (int, complex) = (Operand::Python(PyScalar::Int), Operand::Python(PyScalar::Complex));
        assert_eq!(why(&[], Op::Add, int, int), "both operands are Python scalars");
        assert_eq!(
            why(&[], Op::Add, T(DType::I8), complex),
            "Python scalar operands are not supported"
        );
        let not_commutative = RuleTable {
            commutative: false,
            ..t
        };
        assert_eq!(
            promote(&not_commutative, &[], Op::Add, T(DType::F32), T(DType::Bool)),
            Err(Refusal::NoRule)
        );
    }

    #[test]
    fn a_refusal_names_its_reason_by_index() {
        // Two reasons worded alike stay two reasons.
        let t = RuleTable {
            reasons: &["refused", "refused"],
            ..tiny_table()
        };
        let strict = promote(&t, &["strict=true"], Op::Add, T(DType::I8), T(DType::U8));
        let base = promote(&t, &[], Op::Add, T(DType::Bool), T(DType::F32));
        let reason = |index| {
            Refusal::Refused(Reason {
                index,
                text: "refused",
            })
        };
        assert_eq!((strict, base), (Err(reason(0)), Err(reason(1))));
        assert_eq!(reason(1).to_string(), "refused");
    }

    #[test]
    fn the_matrix_lists_every_pair_in_dtype_order() {
        let t = tiny_table();
        let m = t.matrix(&t.default_options(), Op::Add);
        assert_eq!(m.len(), t.dtypes.len());
        assert!(m.iter().all(|row| row.len() == t.dtypes.len()));
        assert_eq!(m[1][2], Ok(DType::I16));
        assert!(m[0][4].is_err());
    }
}
