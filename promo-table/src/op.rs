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
    ($( $(#[$doc:meta])* $variant:ident = $name:literal $(| $alias:literal)* => $kind:ident $(($base:ident))?; )*) => {
        /// An operation, named by its API name (`add`, `floor_divide`, `sqrt`,
        /// `concatenate`); its [`OpKind`] says how many operands it takes and which
        /// cells of a rule set answer it.
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

            /// What kind of operation it is: how many operands it takes and which
            /// cells answer it (docs/operations.md).
            pub const fn kind(self) -> OpKind {
                match self { $(Op::$variant => OpKind::$kind $((Op::$base))?,)* }
            }
        }

        /// `for_each_op!(m, ARG)` calls `m! { ARG Variant: Kind, … }` with every
        /// [`Op`] (its variant and the name of its [`OpKind`]) in declaration order,
        /// so that a list of operations elsewhere (a test's probes) is derived from
        /// this table, not written again. `ARG` is one token tree, passed first.
        #[doc(hidden)]
        #[macro_export]
        macro_rules! for_each_op {
            ($m:ident, $arg:tt) => {
                $m! { $arg $($variant: $kind,)* }
            };
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

                elementwise!($kind, $variant);
            )*
        }
    };
}

/// How an [`Op`] takes its operands and which cells of a rule set answer it
/// (docs/operations.md). Every kind is answered by cells of two operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// Two operands element by element: the cell (a, b).
    Elementwise,
    /// One operand element by element: the cell (x, x).
    Unary,
    /// One operand reduced over the whole array with default arguments: the cell
    /// (x, x).
    Reduction,
    /// A reduction with its `dtype=` argument: the cell (x, D), D the dtype asked
    /// for, given as the second operand.
    ReductionDtype(Op),
    /// Two operands, not element by element (`matmul`): the cell (a, b).
    Binary,
    /// An update of the first operand by the second that is no promotion (JAX's
    /// `a.at[:].add(b)`, TensorFlow's `assign_add`): the cell (a, b), never read
    /// swapped.
    Update,
    /// A list of two or more operands (`concatenate`): the left fold of the cells,
    /// each step's result the next step's left operand.
    List,
    /// A result of dtype R written into an existing array of dtype C (`out=`): the
    /// cell (R, C), C or a refusal.
    Store,
    /// `a OP= b`: in a rule set that has [`Op::Store`], `store(OP(a, b), a)`;
    /// otherwise the cell (a, b).
    Inplace(Op),
}

/// How a rule set combines a list of operands (`concatenate`): `[rules] list` of a
/// rule file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ListRule {
    /// The left fold of the two-operand cells: `((a, b) → r, c) → …` (`"fold"`, the
    /// default; PyTorch, JAX, TensorFlow and most others).
    #[default]
    Fold,
    /// The whole list at once (`"common"`, NumPy's `np.concatenate`): refused where
    /// two of the operands are, else the answer every operand's cell with it gives
    /// back, and of those the one every other such answer absorbs.
    Common,
    /// NumPy's reduction of a sequence of DTypes (`PyArray_PromoteDTypeSequence`,
    /// what `np.concatenate` and `np.result_type` of arrays run; `"sequence"`):
    /// of two dtypes, the one later in [`RuleTable::list_order`](crate::RuleTable::list_order)
    /// (NumPy's type number) answers for the pair with its cell and the earlier one
    /// defers. The list is first halved from both ends, each pair's deferring side
    /// swapped to the back and an absorbed one dropped, until the most
    /// knowledgeable dtype stands first; each remaining dtype is then promoted with
    /// it and the answers are combined. The result can depend on the operands' order
    /// (f32, bf16, i16 is f32 where the other orders are refused).
    Sequence,
}

impl ListRule {
    /// The rule's name in a rule file.
    pub const fn name(self) -> &'static str {
        match self {
            ListRule::Fold => "fold",
            ListRule::Common => "common",
            ListRule::Sequence => "sequence",
        }
    }

    /// The rule called `name` in a rule file.
    pub fn from_name(name: &str) -> Option<ListRule> {
        [ListRule::Fold, ListRule::Common, ListRule::Sequence]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// How many operands an operation takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arity {
    /// One.
    One,
    /// Two.
    Two,
    /// Two or more.
    Many,
}

impl Arity {
    /// Whether `n` operands are what this arity takes.
    pub const fn takes(self, n: usize) -> bool {
        match self {
            Arity::One => n == 1,
            Arity::Two => n == 2,
            Arity::Many => n >= 2,
        }
    }
}

impl fmt::Display for Arity {
    /// `one operand`, `two operands`, `two or more operands`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Arity::One => "one operand",
            Arity::Two => "two operands",
            Arity::Many => "two or more operands",
        })
    }
}

/// `impl ElementwiseOp` for the type of an elementwise operation, nothing for others.
macro_rules! elementwise {
    (Elementwise, $variant:ident) => {
        impl super::ElementwiseOp for $variant {}
    };
    ($kind:ident, $variant:ident) => {};
}

/// A type of [`op_types`] that stands for an elementwise operation
/// ([`OpKind::Elementwise`]): the operations a rule set of binary promotion answers
/// for, whatever the operation.
pub trait ElementwiseOp: OpType {}

/// A type that stands for one [`Op`] (the types of [`op_types`]).
pub trait OpType: Copy + Default + 'static {
    /// The operation.
    const OP: Op;
}

ops! {
    /// `a + b`.
    Add = "add" | "+" => Elementwise;
    /// `a - b`.
    Subtract = "subtract" | "-" | "sub" => Elementwise;
    /// `a * b`.
    Multiply = "multiply" | "*" | "mul" => Elementwise;
    /// True division `a / b`.
    Divide = "divide" | "/" | "div" | "truediv" => Elementwise;
    /// Floor division `a // b`.
    FloorDivide = "floor_divide" | "//" | "floordiv" => Elementwise;
    /// Remainder `a % b`.
    Remainder = "remainder" | "%" | "mod" => Elementwise;
    /// Power `a ** b`.
    Pow = "pow" | "**" => Elementwise;
    /// Element-wise maximum.
    Maximum = "maximum" => Elementwise;
    /// Element-wise minimum.
    Minimum = "minimum" => Elementwise;
    /// Maximum ignoring NaN.
    Fmax = "fmax" => Elementwise;
    /// Minimum ignoring NaN.
    Fmin = "fmin" => Elementwise;
    /// `a == b`.
    Equal = "equal" | "==" | "eq" => Elementwise;
    /// `a != b`.
    NotEqual = "not_equal" | "!=" | "ne" => Elementwise;
    /// `a < b`.
    LessThan = "less_than" | "<" | "lt" => Elementwise;
    /// `a <= b`.
    LessEqual = "less_equal" | "<=" | "le" => Elementwise;
    /// `a > b`.
    GreaterThan = "greater_than" | ">" | "gt" => Elementwise;
    /// `a >= b`.
    GreaterEqual = "greater_equal" | ">=" | "ge" => Elementwise;
    /// `a & b`.
    BitwiseAnd = "bitwise_and" | "&" | "and" => Elementwise;
    /// `a | b`.
    BitwiseOr = "bitwise_or" | "|" | "or" => Elementwise;
    /// `a ^ b`.
    BitwiseXor = "bitwise_xor" | "^" | "xor" => Elementwise;
    /// Logical and.
    LogicalAnd = "logical_and" => Elementwise;
    /// Logical or.
    LogicalOr = "logical_or" => Elementwise;
    /// Logical xor.
    LogicalXor = "logical_xor" => Elementwise;
    /// `where(cond, a, b)`: the promotion of `a` and `b`.
    Where = "where" => Elementwise;
    /// `log(exp(a) + exp(b))`.
    Logaddexp = "logaddexp" => Elementwise;
    /// Next representable value after `a` towards `b`.
    Nextafter = "nextafter" => Elementwise;
    /// Two-argument arctangent.
    Atan2 = "atan2" => Elementwise;
    /// Huber loss of input and label.
    HuberLoss = "huber_loss" => Elementwise;
    /// Poisson negative log-likelihood loss.
    PoissonNllLoss = "poisson_nll_loss" => Elementwise;
    /// L1 loss.
    L1Loss = "l1_loss" => Elementwise;
    /// Mean squared error loss.
    MseLoss = "mse_loss" => Elementwise;
    /// The framework's promotion function on two operands (`np.result_type`,
    /// `torch.result_type`, `jnp.result_type`, `array_api_strict.result_type`,
    /// TensorFlow's `flexible_dtypes.result_type`): the dtype it names, with none of
    /// an operation's own restrictions.
    ResultType = "result_type" => Elementwise;
    /// The framework's promotion function on two dtypes, where it differs from
    /// `result_type` (`np.promote_types`, `torch.promote_types`).
    PromoteTypes = "promote_types" => Elementwise;
    /// `a @ b`, `matmul(a, b)`.
    Matmul = "matmul" | "@" => Binary;
    /// `concatenate([a, b, ...])` (`torch.cat`, `tf.concat`, `xp.concat`).
    Concatenate = "concatenate" | "concat" | "cat" => List;
    /// A result written into an existing array: `out=`, and `a OP= b` where the
    /// framework writes into `a`.
    Store = "store" => Store;
    /// A reduction's result written into an existing array (`torch.sum(a, 0,
    /// out=c)`), where a framework stores it by another rule than an elementwise
    /// result; a rule set without it stores reductions' results as `store`.
    StoreReduced = "store_reduced" => Store;
    /// `a += b`.
    AddInplace = "add_inplace" | "+=" | "iadd" => Inplace(Add);
    /// `a -= b`.
    SubtractInplace = "subtract_inplace" | "-=" | "isub" => Inplace(Subtract);
    /// `a *= b`.
    MultiplyInplace = "multiply_inplace" | "*=" | "imul" => Inplace(Multiply);
    /// `a /= b`.
    DivideInplace = "divide_inplace" | "/=" | "itruediv" => Inplace(Divide);
    /// JAX's `a.at[:].add(b)`: `b` added into `a`'s dtype.
    AtAdd = "at_add" => Update;
    /// JAX's `a.at[:].set(b)`: `b` stored into `a`'s dtype.
    AtSet = "at_set" => Update;
    /// TensorFlow's `tf.Variable(a).assign_add(b)`.
    AssignAdd = "assign_add" => Update;
    /// TensorFlow's `tf.Variable(a).assign_sub(b)`.
    AssignSub = "assign_sub" => Update;
    /// Keras' `keras.ops.slice_update(a, start, b)`.
    SliceUpdate = "slice_update" => Update;
    /// `-x`.
    Negative = "negative" | "neg" => Unary;
    /// `+x`.
    Positive = "positive" | "pos" => Unary;
    /// `|x|`.
    Absolute = "absolute" | "abs" => Unary;
    /// Square root.
    Sqrt = "sqrt" => Unary;
    /// `e^x`.
    Exp = "exp" => Unary;
    /// `2^x`.
    Exp2 = "exp2" => Unary;
    /// `e^x - 1`.
    Expm1 = "expm1" => Unary;
    /// Natural logarithm.
    Log = "log" => Unary;
    /// `log(1 + x)`.
    Log1p = "log1p" => Unary;
    /// Sine.
    Sin = "sin" => Unary;
    /// Hyperbolic tangent.
    Tanh = "tanh" => Unary;
    /// `1 / x`.
    Reciprocal = "reciprocal" => Unary;
    /// Round toward −∞.
    Floor = "floor" => Unary;
    /// Round toward +∞.
    Ceil = "ceil" => Unary;
    /// Round to nearest, ties to even.
    Round = "round" => Unary;
    /// Round toward zero.
    Trunc = "trunc" => Unary;
    /// −1, 0 or 1 (`x / |x|` for complex numbers).
    Sign = "sign" => Unary;
    /// `x * x`.
    Square = "square" => Unary;
    /// Whether `x` is NaN.
    Isnan = "isnan" => Unary;
    /// Whether `x` is finite.
    Isfinite = "isfinite" => Unary;
    /// Logical not.
    LogicalNot = "logical_not" => Unary;
    /// `~x`.
    BitwiseNot = "bitwise_not" | "~" | "invert" => Unary;
    /// The real part.
    Real = "real" => Unary;
    /// The imaginary part.
    Imag = "imag" => Unary;
    /// The complex conjugate.
    Conj = "conj" | "conjugate" => Unary;
    /// The complex argument.
    Angle = "angle" => Unary;
    /// `1 / (1 + e^-x)`.
    Sigmoid = "sigmoid" => Unary;
    /// The error function.
    Erf = "erf" => Unary;
    /// `1 / sqrt(x)`.
    Rsqrt = "rsqrt" => Unary;
    /// The sum of every element.
    Sum = "sum" => Reduction;
    /// The product of every element.
    Prod = "prod" => Reduction;
    /// The arithmetic mean.
    Mean = "mean" => Reduction;
    /// Cumulative sum.
    Cumsum = "cumsum" => Reduction;
    /// Cumulative product.
    Cumprod = "cumprod" => Reduction;
    /// The largest element.
    Max = "max" | "amax" => Reduction;
    /// The smallest element.
    Min = "min" | "amin" => Reduction;
    /// The index of the largest element.
    Argmax = "argmax" => Reduction;
    /// Whether any element is true.
    Any = "any" => Reduction;
    /// Whether every element is true.
    All = "all" => Reduction;
    /// The variance.
    Var = "var" => Reduction;
    /// The standard deviation.
    Std = "std" => Reduction;
    /// `sum(x, dtype=D)`.
    SumDtype = "sum_dtype" => ReductionDtype(Sum);
    /// `prod(x, dtype=D)`.
    ProdDtype = "prod_dtype" => ReductionDtype(Prod);
    /// `mean(x, dtype=D)`.
    MeanDtype = "mean_dtype" => ReductionDtype(Mean);
    /// `cumsum(x, dtype=D)`.
    CumsumDtype = "cumsum_dtype" => ReductionDtype(Cumsum);
    /// `cumprod(x, dtype=D)`.
    CumprodDtype = "cumprod_dtype" => ReductionDtype(Cumprod);
}

impl Op {
    /// How many operands it takes.
    pub const fn arity(self) -> Arity {
        match self.kind() {
            OpKind::Unary | OpKind::Reduction => Arity::One,
            OpKind::List => Arity::Many,
            _ => Arity::Two,
        }
    }

    /// Whether the cells that answer it are the diagonal (x, x): a unary operation
    /// or a reduction.
    pub const fn on_diagonal(self) -> bool {
        matches!(self.kind(), OpKind::Unary | OpKind::Reduction)
    }

    /// Whether swapping its operands never changes its answer in a commutative rule
    /// set: every kind but those whose operands play different parts (a reduction's
    /// `dtype=`, a store, an in-place operation, an update), whose cells a
    /// commutative rule set never reads swapped.
    pub const fn symmetric(self) -> bool {
        !matches!(
            self.kind(),
            OpKind::ReductionDtype(_) | OpKind::Store | OpKind::Inplace(_) | OpKind::Update
        )
    }

    /// The `dtype=` form of a reduction (`sum` → `sum_dtype`), if it has one.
    pub fn with_dtype(self) -> Option<Op> {
        Op::ALL
            .iter()
            .copied()
            .find(|o| o.kind() == OpKind::ReductionDtype(self))
    }

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
