//! One question about an operation of any arity, as a person asks it: the operation,
//! its operands, a reduction's `dtype=` argument and the array written into
//! (`out=`), checked against what the operation takes (docs/operations.md). The
//! `promo` command and the Python package ask through it alike.

use promo_table::{Arity, DType, Op, OpKind, Operand};

/// A question ready for [`RuleTable::apply`](promo_table::RuleTable::apply): a
/// reduction with `dtype=` is its `_dtype` form, the dtype its second operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The operation asked about.
    pub op: Op,
    /// Its operands.
    pub operands: Vec<Operand>,
    /// The array written into (`out=`), if any.
    pub out: Option<Operand>,
}

/// Why a question cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuestionError {
    /// `dtype=` given to an operation that has no such argument.
    NoDtypeArgument(Op),
    /// Another number of operands than the operation takes: (the operation as
    /// asked, how many operands were given).
    Count(Op, usize),
}

impl QuestionError {
    /// The message, with `shape` the beginning of the question as asked
    /// (`promo query numpy `), and `flag` whether the operation is named by
    /// `--op OP` (else by `op=OP`, as on a `--stdin` line).
    pub fn message(&self, prefix: &str, flag: bool) -> String {
        match *self {
            QuestionError::NoDtypeArgument(op) => format!(
                "`{op}` takes no `dtype=`: the reductions `sum`, `prod`, `mean`, `cumsum` and `cumprod` do"
            ),
            QuestionError::Count(op, given) => count_message(op, given, prefix, flag),
        }
    }
}

/// Says that `op` takes another number of operands than `given`, with the shape of
/// the question (`promo query numpy X --op sqrt`).
fn count_message(op: Op, given: usize, prefix: &str, flag: bool) -> String {
    let arity = op.arity();
    let shape = match arity {
        Arity::One => "X",
        Arity::Two => "LHS RHS",
        Arity::Many => "A B [C]...",
    };
    let op_part = match (op == Op::Add, flag) {
        (true, _) => String::new(),
        (false, true) => format!(" --op {op}"),
        (false, false) => format!(" op={op}"),
    };
    if arity == Arity::Two && given < 2 {
        let side = if given == 0 { "left" } else { "right" };
        return format!("missing the {side} operand: `{prefix}{shape}{op_part}`");
    }
    let meant = crate::names::binary_meant(op.name())
        .filter(|_| given == 2)
        .map_or(String::new(), |m| {
            format!(" (the element-wise {op} of two is `{m}`)")
        });
    format!("`{op}` takes {arity}, not {given}: `{prefix}{shape}{op_part}`{meant}")
}

impl Question {
    /// `op` on `operands`, with a reduction's `dtype=` argument and an array to
    /// write into, checked against the number of operands the operation takes.
    pub fn new(
        op: Op,
        mut operands: Vec<Operand>,
        dtype: Option<DType>,
        out: Option<Operand>,
    ) -> Result<Question, QuestionError> {
        let given = operands.len();
        let op = match dtype {
            None => op,
            Some(d) => {
                let with = op.with_dtype().ok_or(QuestionError::NoDtypeArgument(op))?;
                operands.push(Operand::Dimensioned(d));
                with
            }
        };
        if !op.arity().takes(operands.len()) {
            let asked = match op.kind() {
                OpKind::ReductionDtype(base) => base,
                _ => op,
            };
            return Err(QuestionError::Count(asked, given));
        }
        Ok(Question { op, operands, out })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I8: Operand = Operand::Dimensioned(DType::I8);

    #[test]
    fn a_reduction_with_dtype_is_its_dtype_form() {
        let q = Question::new(Op::Sum, vec![I8], Some(DType::F32), None).unwrap();
        assert_eq!(
            (q.op, q.operands),
            (Op::SumDtype, vec![I8, Operand::Dimensioned(DType::F32)])
        );
        let e = Question::new(Op::Sqrt, vec![I8], Some(DType::F32), None).unwrap_err();
        assert!(e.message("", true).contains("`sqrt` takes no `dtype=`"));
    }

    #[test]
    fn a_wrong_count_names_the_arity_and_the_shape() {
        let count = |op, n| {
            Question::new(op, vec![I8; n], None, None)
                .unwrap_err()
                .message("promo query numpy ", true)
        };
        assert_eq!(
            count(Op::Sqrt, 2),
            "`sqrt` takes one operand, not 2: `promo query numpy X --op sqrt`"
        );
        assert_eq!(
            count(Op::Add, 1),
            "missing the right operand: `promo query numpy LHS RHS`"
        );
        assert_eq!(
            count(Op::Add, 3),
            "`add` takes two operands, not 3: `promo query numpy LHS RHS`"
        );
        assert_eq!(
            count(Op::Concatenate, 1),
            "`concatenate` takes two or more operands, not 1: `promo query numpy A B [C]... --op concatenate`"
        );
        assert!(count(Op::Max, 2).ends_with("(the element-wise max of two is `maximum`)"));
        assert!(Question::new(Op::Concatenate, vec![I8; 5], None, None).is_ok());
    }
}
