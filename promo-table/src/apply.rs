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
                ListRule::Sequence => self.sequence(options, op, operands)?,
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

    /// A list reduced as NumPy reduces a sequence of DTypes ([`ListRule::Sequence`];
    /// `PyArray_PromoteDTypeSequence` and `reduce_dtypes_to_most_knowledgeable` in
    /// NumPy's `common_dtype.c`, whose steps this follows one for one).
    fn sequence(&self, options: &Options, op: Op, operands: &[Operand]) -> Result<Outcome, Refusal<'a>> {
        // Each operand is one the operation takes (a 0-d array or a Python scalar is
        // refused by its own cell), of a dtype the order ranks.
        for &x in operands {
            self.outcome(options, op, x, x)?;
            let d = x.dtype().ok_or(Refusal::NoRule)?;
            if !self.list_order.contains(&d) {
                return Err(Refusal::UnsupportedDType(d));
            }
        }
        let rank = |x: Operand| {
            x.dtype()
                .and_then(|d| self.list_order.iter().position(|&o| o == d))
        };
        // `a.__common_dtype__(b)`: `a`'s cell with `b` where `a` ranks at least as
        // high, else `None` (NotImplemented: `b` knows more).
        let one_sided = |a: Operand, b: Operand| -> Option<Outcome> {
            if rank(b) > rank(a) {
                return None;
            }
            self.outcome(options, op, a, b).ok()
        };
        // `PyArray_CommonDType`: the same dtype, or either side's answer.
        let common = |a: Operand, b: Operand| -> Result<Outcome, Refusal<'a>> {
            if a == b {
                return self.outcome(options, op, a, a);
            }
            match one_sided(a, b).or_else(|| one_sided(b, a)) {
                Some(o) => Ok(o),
                None => Err(self.outcome(options, op, a, b).err().unwrap_or(Refusal::NoRule)),
            }
        };
        let mut slots: Vec<Option<Operand>> = operands.iter().map(|&x| Some(x)).collect();
        // Halve the list from both ends until the most knowledgeable stands first;
        // `last` is the last pair's answer (`None`: NotImplemented).
        let mut length = slots.len();
        let last = loop {
            let mut last = None;
            for low in 0..length / 2 {
                let high = length - 1 - low;
                // Entries are dropped only at `high`, past every later prefix.
                let (Some(a), Some(b)) = (slots[low], slots[high]) else {
                    return Err(Refusal::NoRule);
                };
                last = if a == b {
                    self.outcome(options, op, a, a).ok()
                } else {
                    one_sided(a, b)
                };
                match last {
                    // "Guess at the other being more knowledgeable."
                    None => slots.swap(low, high),
                    // `b` cannot change the result.
                    Some(o) if o.result.operand() == a => slots[high] = None,
                    Some(_) => {}
                }
            }
            if length == 2 {
                break last;
            }
            length = length / 2 + length % 2;
        };
        let main = slots[0].ok_or(Refusal::NoRule)?;
        // The answer so far, and where the pass over the rest starts.
        let (mut result, start) = match last {
            Some(o) => (Some(o), 2),
            None => (None, 1),
        };
        for x in slots[start..].iter().flatten() {
            let Some(promotion) = one_sided(main, *x) else {
                // NumPy: "The DType … could not be promoted by …".
                return Err(match (common(main, *x), x.dtype(), main.dtype()) {
                    (Err(refused), _, _) => refused,
                    (Ok(_), Some(dtype), Some(by)) => Refusal::NotPromotedBy { dtype, by },
                    _ => Refusal::NoRule,
                });
            };
            result = Some(match result {
                None => promotion,
                Some(r) => common(r.result.operand(), promotion.result.operand())?,
            });
        }
        result.ok_or(Refusal::NoRule)
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
