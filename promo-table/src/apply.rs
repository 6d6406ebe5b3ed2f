//! [`RuleTable::apply`]: an operation of any arity on its operands, answered by the
//! cells of two operands its [`OpKind`] names (docs/operations.md), with the dtype
//! it computes in.

use crate::op::{ListRule, Op, OpKind};
use crate::operand::Operand;
use crate::options::Options;
use crate::table::{Outcome, Refusal, RuleTable};

impl<'a> RuleTable<'a> {
    /// `op` on `operands`, written into an array of dtype `out` if one is given
    /// (`out=`): the result and the dtype the framework computes in, or why there
    /// is none.
    ///
    /// One operand for a unary operation or a reduction (the cell (x, x)); two for
    /// an elementwise or binary operation, a reduction's `dtype=` form (x and the
    /// dtype asked for), a store or an in-place operation; two or more for a list
    /// (the left fold of its cells). An in-place operation in a rule set with
    /// [`Op::Store`] is `store(op(a, b), a)`, computed as `op(a, b)` is unless a
    /// `[[compute]]` statement names the in-place operation; `out` is `store(op(...), out)`
    /// (`store_reduced` for a reduction, where the rule set has it).
    /// Another number of operands is [`Refusal::Arity`].
    pub fn apply(
        &self,
        options: &Options,
        op: Op,
        operands: &[Operand],
        out: Option<Operand>,
    ) -> Result<Outcome, Refusal<'a>> {
        if !op.arity().takes(operands.len()) {
            return Err(Refusal::Arity {
                op,
                given: operands.len(),
            });
        }
        if !self.supports(op) {
            return Err(Refusal::UnsupportedOp(op));
        }
        let outcome = match (op.kind(), operands) {
            (OpKind::Unary | OpKind::Reduction, &[x]) => self.outcome(options, op, x, x)?,
            (OpKind::List, [first, second, rest @ ..]) => match self.list {
                ListRule::Fold => {
                    let mut acc = self.outcome(options, op, *first, *second)?;
                    for &next in rest {
                        acc = self.outcome(options, op, acc.result.operand(), next)?;
                    }
                    acc
                }
                ListRule::Common => self.common(options, op, operands)?,
            },
            (OpKind::Inplace(base), &[a, b]) if self.supports(Op::Store) => {
                let done = self.apply(options, base, &[a, b], None)?;
                let stored = self.store_as(Op::Store, options, done, a)?;
                // It computes as its operation does, unless a `[[compute]]` statement
                // names the in-place form itself (NumPy's loop search with `out=a`).
                match self.compute_dtype(options, op, a, b) {
                    Some(compute) => Outcome { compute, ..stored },
                    None => stored,
                }
            }
            (_, &[a, b]) => self.outcome(options, op, a, b)?,
            _ => {
                return Err(Refusal::Arity {
                    op,
                    given: operands.len(),
                })
            }
        };
        match out {
            None => Ok(outcome),
            Some(into) => self.store_as(self.store_for(op), options, outcome, into),
        }
    }

    /// A list taken at once ([`ListRule::Common`]): refused where a pair of its
    /// operands is; else, among the answers of its pairs, those every operand's cell
    /// with it gives back, and of these the one every other absorbs.
    fn common(&self, options: &Options, op: Op, operands: &[Operand]) -> Result<Outcome, Refusal<'a>> {
        let mut answers: Vec<Outcome> = Vec::new();
        for &a in operands {
            for &b in operands {
                let answer = self.outcome(options, op, a, b)?;
                if !answers.contains(&answer) {
                    answers.push(answer);
                }
            }
        }
        let gives_back = |into: &Outcome, x: Operand| {
            self.outcome(options, op, x, into.result.operand())
                .is_ok_and(|o| o.result == into.result)
        };
        let absorbing: Vec<Outcome> = answers
            .iter()
            .copied()
            .filter(|d| operands.iter().all(|&x| gives_back(d, x)))
            .collect();
        absorbing
            .iter()
            .copied()
            .find(|d| absorbing.iter().all(|e| gives_back(e, d.result.operand())))
            .ok_or(Refusal::NoRule)
    }

    /// The store that `op`'s `out=` reads: [`Op::StoreReduced`] for a reduction in a
    /// rule set that has it, else [`Op::Store`].
    pub fn store_for(&self, op: Op) -> Op {
        let reduced = matches!(op.kind(), OpKind::Reduction | OpKind::ReductionDtype(_));
        if reduced && self.supports(Op::StoreReduced) {
            Op::StoreReduced
        } else {
            Op::Store
        }
    }

    /// The outcome of one cell: its result, computed in its result's dtype.
    fn outcome(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Result<Outcome, Refusal<'a>> {
        let result = self.promote_result(options, op, lhs, rhs)?;
        Ok(Outcome {
            result,
            compute: self.compute_dtype(options, op, lhs, rhs).unwrap_or(result.dtype),
        })
    }

    /// `done` written into an array like `into`: the cell (`store`, its result,
    /// `into`), `store` being [`Op::Store`] or [`Op::StoreReduced`]; computed as
    /// `done` was.
    fn store_as(
        &self,
        store: Op,
        options: &Options,
        done: Outcome,
        into: Operand,
    ) -> Result<Outcome, Refusal<'a>> {
        if !self.supports(store) {
            return Err(Refusal::UnsupportedOp(store));
        }
        let result = self.promote_result(options, store, done.result.operand(), into)?;
        Ok(Outcome {
            result,
            compute: done.compute,
        })
    }
}
