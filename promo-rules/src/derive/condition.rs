//! Pair conditions: the `where` of a derived layer, comparisons of the operands'
//! dtypes and kinds joined by `and` and `or`.

use super::{key_rank, KIND_NAMES};
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
    /// Parses `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or
    /// `kind(lhs|rhs) OP KIND`, joined by `and` and `or` (`and` binds tighter).
    pub fn parse(text: &str) -> Result<PairCondition, String> {
        let mut alternatives = Vec::new();
        for alternative in text.split(" or ") {
            let mut tests = Vec::new();
            for part in alternative.split(" and ") {
                tests.push(parse_test(part.trim())?);
            }
            alternatives.push(tests);
        }
        Ok(PairCondition {
            alternatives,
            text: text.to_owned(),
        })
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

fn parse_test(part: &str) -> Result<Test, String> {
    const OPS: [(&str, [bool; 3]); 6] = [
        ("==", [false, true, false]),
        ("!=", [true, false, true]),
        ("<=", [true, true, false]),
        (">=", [false, true, true]),
        ("<", [true, false, false]),
        (">", [false, false, true]),
    ];
    let expected = "expected `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or `kind(lhs) OP KIND` (OP one of == != < <= > >=, KIND one of bool, integer, float, complex)";
    let Some((op, allowed, at)) = OPS
        .iter()
        .find_map(|(op, allowed)| part.find(op).map(|at| (*op, *allowed, at)))
    else {
        return Err(format!("bad condition `{part}`: {expected}"));
    };
    let (left, right) = (part[..at].trim(), part[at + op.len()..].trim());
    let side = |s: &str| match s {
        "kind(lhs)" => Some(0u8),
        "kind(rhs)" => Some(1u8),
        _ => None,
    };
    match (left, right) {
        ("lhs", "rhs") | ("rhs", "lhs") if op == "==" || op == "!=" => Ok(Test::SameDType(op == "==")),
        _ => match (side(left), side(right)) {
            (Some(0), Some(1)) => Ok(Test::Kinds(allowed)),
            (Some(1), Some(0)) => Ok(Test::Kinds([allowed[2], allowed[1], allowed[0]])),
            (Some(s), None) => match KIND_NAMES.iter().position(|k| *k == right) {
                Some(rank) => Ok(Test::KindIs(s, rank as u8, allowed)),
                None => Err(format!(
                    "bad condition `{part}`: unknown kind `{right}`; {expected}"
                )),
            },
            _ => Err(format!("bad condition `{part}`: {expected}")),
        },
    }
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
        let c = PairCondition::parse("kind(lhs) > kind(rhs)").unwrap();
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, f32)) && !holds(&c, t, (i8, i8)));
        let c = PairCondition::parse("kind(rhs) <= kind(lhs)").unwrap();
        assert!(holds(&c, t, (f32, i8)) && holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let c = PairCondition::parse("lhs != rhs and kind(rhs) == integer").unwrap();
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let py = (Side::Tensor, Side::Python);
        let c = PairCondition::parse("kind(lhs) >= kind(rhs)").unwrap();
        assert!(holds(&c, py, (f32, PyScalar::Float.index())));
        assert!(!holds(&c, py, (i8, PyScalar::Float.index())));
        // A Python int is the same dtype as an i64 tensor when `[python] int = "i64"`.
        let same = PairCondition::parse("lhs == rhs").unwrap();
        assert!(holds(&same, py, (DType::I64.index(), PyScalar::Int.index())));
        assert!(!holds(&same, py, (i8, PyScalar::Int.index())));
        let c = PairCondition::parse("kind(lhs) == integer or kind(rhs) == integer and lhs != rhs").unwrap();
        assert!(holds(&c, t, (i8, i8)) && holds(&c, t, (f32, i8)) && !holds(&c, t, (f32, f32)));
        let u8 = DType::U8.index();
        assert!(holds(&c, t, (u8, i8)) && !holds(&c, t, (f32, DType::F64.index())));
        assert!(PairCondition::parse("lhs ~ rhs").is_err());
        assert!(PairCondition::parse("lhs == rhs or").is_err());
        assert!(PairCondition::parse("kind(lhs) < quaternion").is_err());
    }
}
