//! [`Op`]: the binary operations a promotion can depend on.
//!
//! One vocabulary for every rule set: PaddlePaddle's API names, with the Python
//! operators accepted as aliases. It is the union of what the bundled frameworks
//! distinguish (Paddle's loss functions included): a rule set lists the operations
//! it answers for in `rules.ops`, and every other operation is refused as
//! unsupported by that rule set, so a name here promises nothing about a framework.

use core::fmt;
use core::str::FromStr;

macro_rules! ops {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal $(| $alias:literal)*; )*) => {
        /// A binary operation, named by its API name (`add`, `floor_divide`, `less_than`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Op {
            $( $(#[$doc])* $variant, )*
        }

        impl Op {
            /// Every operation, in declaration order.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];

            /// The API name, e.g. `"floor_divide"`.
            pub const fn name(self) -> &'static str {
                match self { $(Op::$variant => $name,)* }
            }

            /// Operator spellings accepted as aliases (`"//"` for `floor_divide`).
            pub const fn aliases(self) -> &'static [&'static str] {
                match self { $(Op::$variant => &[$($alias),*],)* }
            }
        }

        /// One zero-sized type per [`Op`], to name an operation in a type
        /// (`PromotedOp<Paddle, op_types::Divide, i32, i32>`).
        pub mod op_types {
            $(
                $(#[$doc])*
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                pub struct $variant;

                impl super::OpType for $variant {
                    const OP: super::Op = super::Op::$variant;
                }
            )*
        }
    };
}

/// A type that stands for one [`Op`] (the types of [`op_types`]).
pub trait OpType: Copy + Default + 'static {
    /// The operation.
    const OP: Op;
}

ops! {
    /// `a + b`.
    Add = "add" | "+";
    /// `a - b`.
    Subtract = "subtract" | "-" | "sub";
    /// `a * b`.
    Multiply = "multiply" | "*" | "mul";
    /// True division `a / b`.
    Divide = "divide" | "/" | "div" | "truediv";
    /// Floor division `a // b`.
    FloorDivide = "floor_divide" | "//" | "floordiv";
    /// Remainder `a % b`.
    Remainder = "remainder" | "%" | "mod";
    /// Power `a ** b`.
    Pow = "pow" | "**";
    /// Element-wise maximum.
    Maximum = "maximum";
    /// Element-wise minimum.
    Minimum = "minimum";
    /// Maximum ignoring NaN.
    Fmax = "fmax";
    /// Minimum ignoring NaN.
    Fmin = "fmin";
    /// `a == b`.
    Equal = "equal" | "==" | "eq";
    /// `a != b`.
    NotEqual = "not_equal" | "!=" | "ne";
    /// `a < b`.
    LessThan = "less_than" | "<" | "lt";
    /// `a <= b`.
    LessEqual = "less_equal" | "<=" | "le";
    /// `a > b`.
    GreaterThan = "greater_than" | ">" | "gt";
    /// `a >= b`.
    GreaterEqual = "greater_equal" | ">=" | "ge";
    /// `a & b`.
    BitwiseAnd = "bitwise_and" | "&" | "and";
    /// `a | b`.
    BitwiseOr = "bitwise_or" | "|" | "or";
    /// `a ^ b`.
    BitwiseXor = "bitwise_xor" | "^" | "xor";
    /// Logical and.
    LogicalAnd = "logical_and";
    /// Logical or.
    LogicalOr = "logical_or";
    /// Logical xor.
    LogicalXor = "logical_xor";
    /// `where(cond, a, b)`: the promotion of `a` and `b`.
    Where = "where";
    /// `log(exp(a) + exp(b))`.
    Logaddexp = "logaddexp";
    /// Next representable value after `a` towards `b`.
    Nextafter = "nextafter";
    /// Two-argument arctangent.
    Atan2 = "atan2";
    /// Huber loss of input and label.
    HuberLoss = "huber_loss";
    /// Poisson negative log-likelihood loss.
    PoissonNllLoss = "poisson_nll_loss";
    /// L1 loss.
    L1Loss = "l1_loss";
    /// Mean squared error loss.
    MseLoss = "mse_loss";
    /// The framework's promotion function on two operands (`np.result_type`,
    /// `torch.result_type`, `jnp.result_type`, `array_api_strict.result_type`,
    /// TensorFlow's `flexible_dtypes.result_type`): the dtype it names, with none of
    /// an operation's own restrictions.
    ResultType = "result_type";
    /// The framework's promotion function on two dtypes, where it differs from
    /// `result_type` (`np.promote_types`, `torch.promote_types`).
    PromoteTypes = "promote_types";
}

impl Op {
    /// The op's position in [`Op::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Looks up an API name or operator alias (API names case-insensitively).
    pub fn parse_name(name: &str) -> Option<Op> {
        Self::ALL
            .iter()
            .copied()
            .find(|op| op.name().eq_ignore_ascii_case(name) || op.aliases().contains(&name))
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The error of parsing an unknown operation name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownOp(pub String);

impl fmt::Display for UnknownOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown operation `{}`", self.0)
    }
}

impl std::error::Error for UnknownOp {}

impl FromStr for Op {
    type Err = UnknownOp;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse_name(s.trim()).ok_or_else(|| UnknownOp(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_are_aliases() {
        for (s, op) in [
            ("+", Op::Add),
            ("//", Op::FloorDivide),
            ("/", Op::Divide),
            ("**", Op::Pow),
            ("<=", Op::LessEqual),
            ("^", Op::BitwiseXor),
            ("floor_divide", Op::FloorDivide),
        ] {
            assert_eq!(s.parse::<Op>(), Ok(op));
        }
        assert!("plus".parse::<Op>().is_err());
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for op in Op::ALL {
            assert!(seen.insert(op.name()));
            for a in op.aliases() {
                assert!(seen.insert(a), "{a}");
            }
        }
    }
}
