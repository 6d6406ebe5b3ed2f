//! A derived layer's `where`: comparisons of the operands' dtypes and kinds, joined
//! by `and` and `or` (`and` binds tighter).

/// A `where` condition: alternatives joined by `or`, each a list of comparisons
/// joined by `and`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The alternatives, in order.
    pub alternatives: Vec<Vec<Comparison>>,
}

/// One comparison of a `where` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `lhs == rhs` (`equal`) or `lhs != rhs`, the operands in either order.
    SameDType {
        /// Whether the operator is `==`.
        equal: bool,
    },
    /// `kind(LEFT) OP kind(OTHER)`: the kinds of the two operands compared.
    Kinds {
        /// The operand whose kind is on the left.
        left: Arg,
        /// The operator.
        op: CmpOp,
    },
    /// `kind(ARG) OP KIND`: an operand's kind compared with a named kind.
    KindIs {
        /// The operand.
        arg: Arg,
        /// The operator.
        op: CmpOp,
        /// The kind named on the right.
        kind: Kind,
    },
}

/// An operand a condition names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `lhs`.
    Lhs,
    /// `rhs`.
    Rhs,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<=`.
    Le,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `>`.
    Gt,
}

/// A kind a condition names, lowest priority first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `bool`.
    Bool,
    /// `integer`.
    Integer,
    /// `float`.
    Float,
    /// `complex`.
    Complex,
}

impl Kind {
    /// The kinds, lowest priority first.
    pub const ALL: [Kind; 4] = [Kind::Bool, Kind::Integer, Kind::Float, Kind::Complex];
    /// Their names, in the same order.
    pub const NAMES: [&'static str; 4] = ["bool", "integer", "float", "complex"];
}

/// The operators, in the order they are looked for (`<=` before `<`).
const OPS: [(&str, CmpOp); 6] = [
    ("==", CmpOp::Eq),
    ("!=", CmpOp::Ne),
    ("<=", CmpOp::Le),
    (">=", CmpOp::Ge),
    ("<", CmpOp::Lt),
    (">", CmpOp::Gt),
];

const EXPECTED: &str = "expected `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or `kind(lhs) OP KIND` (OP one of == != < <= > >=, KIND one of bool, integer, float, complex)";

/// Parses `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or
/// `kind(lhs|rhs) OP KIND`, joined by `and` and `or` (`and` binds tighter); the
/// error names the comparison that is none of these.
pub fn parse_condition(text: &str) -> Result<Condition, String> {
    let alternatives = text
        .split(" or ")
        .map(|alternative| {
            alternative
                .split(" and ")
                .map(|part| comparison(part.trim()))
                .collect()
        })
        .collect::<Result<_, _>>()?;
    Ok(Condition { alternatives })
}

fn comparison(part: &str) -> Result<Comparison, String> {
    let Some((text, op, at)) = OPS
        .iter()
        .find_map(|&(text, op)| part.find(text).map(|at| (text, op, at)))
    else {
        return Err(format!("bad condition `{part}`: {EXPECTED}"));
    };
    let (left, right) = (part[..at].trim(), part[at + text.len()..].trim());
    let kind_of = |s: &str| match s {
        "kind(lhs)" => Some(Arg::Lhs),
        "kind(rhs)" => Some(Arg::Rhs),
        _ => None,
    };
    match (left, right) {
        ("lhs", "rhs") | ("rhs", "lhs") if matches!(op, CmpOp::Eq | CmpOp::Ne) => Ok(Comparison::SameDType {
            equal: op == CmpOp::Eq,
        }),
        _ => match (kind_of(left), kind_of(right)) {
            (Some(left), Some(other)) if left != other => Ok(Comparison::Kinds { left, op }),
            (Some(arg), None) => match Kind::NAMES.iter().position(|k| *k == right) {
                Some(rank) => Ok(Comparison::KindIs {
                    arg,
                    op,
                    kind: Kind::ALL[rank],
                }),
                None => Err(format!(
                    "bad condition `{part}`: unknown kind `{right}`; {EXPECTED}"
                )),
            },
            _ => Err(format!("bad condition `{part}`: {EXPECTED}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_parse_to_their_comparisons() {
        let c = parse_condition("kind(rhs) <= kind(lhs)").unwrap();
        assert_eq!(
            c.alternatives,
            [vec![Comparison::Kinds {
                left: Arg::Rhs,
                op: CmpOp::Le
            }]]
        );
        let c = parse_condition("kind(lhs) == integer or kind(rhs) == integer and rhs != lhs").unwrap();
        assert_eq!(c.alternatives.len(), 2);
        assert_eq!(c.alternatives[1][1], Comparison::SameDType { equal: false });
        assert_eq!(
            c.alternatives[0][0],
            Comparison::KindIs {
                arg: Arg::Lhs,
                op: CmpOp::Eq,
                kind: Kind::Integer
            }
        );
    }

    #[test]
    fn a_bad_comparison_is_named() {
        let e = parse_condition("lhs ~ rhs").unwrap_err();
        assert!(e.starts_with("bad condition `lhs ~ rhs`: expected"), "{e}");
        assert!(parse_condition("lhs == rhs or").is_err());
        assert!(parse_condition("kind(lhs) < kind(lhs)").is_err());
        let e = parse_condition("kind(lhs) < quaternion").unwrap_err();
        assert!(e.contains("unknown kind `quaternion`"), "{e}");
    }
}
