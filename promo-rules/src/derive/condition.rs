//! Pair conditions: what a parsed `where` ([`Condition`]) means for a pair of
//! keys, comparisons of the operands' dtypes and kinds joined by `and` and `or`.

use super::key_rank;
use crate::parse::{Arg, CmpOp, Comparison, Condition};
use promo_table::{DType, Side};

/// One comparison of a `where` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The two operands have the same dtype (`lhs == rhs`), or not (`lhs != rhs`).
    SameDType(bool),
    /// `kind(lhs) OP kind(rhs)`: the ordering of the two kinds' priorities is one
    /// of these (`<`, `==`, `>`).
    Kinds([bool; 3]),
    /// `kind(SIDE) OP NAME`: side 0 is lhs, 1 rhs; the allowed orderings of the
    /// side's kind against the named kind's priority.
    KindIs(u8, u8, [bool; 3]),
}

/// A `where` condition: every test must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairCondition {
    /// Alternatives joined by `or`, each a list of tests joined by `and` (`and`
    /// binds tighter).
    pub alternatives: Vec<Vec<Test>>,
    /// The condition as written.
    pub text: String,
}

impl PairCondition {
    /// The meaning of `condition`, written as `text`.
    pub fn new(text: String, condition: &Condition) -> PairCondition {
        let alternatives = condition
            .alternatives
            .iter()
            .map(|tests| tests.iter().map(|c| test(*c)).collect())
            .collect();
        PairCondition { alternatives, text }
    }

    /// Whether the pair of keys (on sides `lhs` and `rhs`) meets the condition;
    /// `dtypes` are the keys' dtypes, a Python scalar's from `[python]` (`lhs == rhs`
    /// compares those).
    pub fn holds(
        &self,
        sides: (Side, Side),
        keys: (usize, usize),
        dtypes: (Option<DType>, Option<DType>),
    ) -> bool {
        let ranks = (key_rank(sides.0, keys.0), key_rank(sides.1, keys.1));
        let holds = |test: &Test| match *test {
            Test::SameDType(same) => {
                let equal = matches!(dtypes, (Some(a), Some(b)) if a == b);
                equal == same
            }
            Test::Kinds(allowed) => match ranks {
                (Some(a), Some(b)) => allowed[ordering_index(a, b)],
                _ => false,
            },
            Test::KindIs(side, rank, allowed) => {
                let r = if side == 0 { ranks.0 } else { ranks.1 };
                r.is_some_and(|r| allowed[ordering_index(r, rank)])
            }
        };
        self.alternatives.iter().any(|tests| tests.iter().all(holds))
    }
}

/// 0 for `a < b`, 1 for `a == b`, 2 for `a > b`.
fn ordering_index(a: u8, b: u8) -> usize {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 2,
    }
}

/// A comparison as a test: each operator as the orderings it allows.
fn test(comparison: Comparison) -> Test {
    let allowed = |op| match op {
        CmpOp::Eq => [false, true, false],
        CmpOp::Ne => [true, false, true],
        CmpOp::Le => [true, true, false],
        CmpOp::Ge => [false, true, true],
        CmpOp::Lt => [true, false, false],
        CmpOp::Gt => [false, false, true],
    };
    match comparison {
        Comparison::SameDType { equal } => Test::SameDType(equal),
        Comparison::Kinds { left: Arg::Lhs, op } => Test::Kinds(allowed(op)),
        Comparison::Kinds { left: Arg::Rhs, op } => {
            let [lt, eq, gt] = allowed(op);
            Test::Kinds([gt, eq, lt])
        }
        Comparison::KindIs { arg, op, kind } => Test::KindIs(arg as u8, kind as u8, allowed(op)),
    }
}

/// The condition `text` means (it must parse).
#[cfg(test)]
pub(crate) fn condition(text: &str) -> PairCondition {
    PairCondition::new(text.to_owned(), &crate::parse::parse_condition(text).unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::PyScalar;

    #[test]
    fn conditions_compare_kinds_and_dtypes() {
        let t = (Side::Tensor, Side::Tensor);
        // The keys and their dtypes (a Python scalar typed by `[python]`).
        let holds = |c: &PairCondition, sides: (Side, Side), keys: (usize, usize)| {
            let typed = |side: Side, key: usize| match side {
                Side::Python => [None, Some(DType::I64), Some(DType::F32), None][key],
                _ => DType::from_index(key),
            };
            c.holds(sides, keys, (typed(sides.0, keys.0), typed(sides.1, keys.1)))
        };
        let (i8, f32) = (DType::I8.index(), DType::F32.index());
        let c = condition("kind(lhs) > kind(rhs)");
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, f32)) && !holds(&c, t, (i8, i8)));
        let c = condition("kind(rhs) <= kind(lhs)");
        assert!(holds(&c, t, (f32, i8)) && holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let c = condition("lhs != rhs and kind(rhs) == integer");
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let py = (Side::Tensor, Side::Python);
        let c = condition("kind(lhs) >= kind(rhs)");
        assert!(holds(&c, py, (f32, PyScalar::Float.index())));
        assert!(!holds(&c, py, (i8, PyScalar::Float.index())));
        // A Python int is the same dtype as an i64 tensor when `[python] int = "i64"`.
        let same = condition("lhs == rhs");
        assert!(holds(&same, py, (DType::I64.index(), PyScalar::Int.index())));
        assert!(!holds(&same, py, (i8, PyScalar::Int.index())));
        let c = condition("kind(lhs) == integer or kind(rhs) == integer and lhs != rhs");
        assert!(holds(&c, t, (i8, i8)) && holds(&c, t, (f32, i8)) && !holds(&c, t, (f32, f32)));
        let u8 = DType::U8.index();
        assert!(holds(&c, t, (u8, i8)) && !holds(&c, t, (f32, DType::F64.index())));
    }
}
