//! Compile-time promotion: [`Promote`], [`Promoted`] and [`RuleSet`].

use crate::cast::{CastFrom, CastOptions};
use crate::operand_types::OperandType;
use crate::Element;
use promo_table::{DType, FixedTable, Op, OpType, Operand, Options, Promotion, Refusal, RuleTable};

/// `Self` (a rule set's marker type) promotes `A` with `B` to [`Promote::Output`].
///
/// `A` and `B` are element types (tensors with dimensions) or the other operand
/// kinds of [`operand_types`](crate::operand_types): a rank-0 tensor
/// ([`Scalar<T>`](crate::operand_types::Scalar)), a weakly typed one
/// ([`Weak<T>`](crate::operand_types::Weak)) or a Python scalar
/// ([`PyFloat`](crate::operand_types::PyFloat)…), wherever the rule set takes them.
///
/// Implemented by `promo-macros` from the rule files, only for pairs the rule set
/// accepts; a refused pair fails to compile with the framework's reason. The third
/// parameter is the hook for that message; leave it at its default.
///
/// ```
/// use promo_core::operand_types::{PyInt, Scalar};
/// use promo_core::{rules::kernel_float::KernelFloat, rules::numpy::NumPy, Promoted};
/// let x: Promoted<KernelFloat, i32, i8> = 7i32;
/// // NEP 50: a Python int takes the other operand's dtype, a 0-d array does not.
/// let y: Promoted<NumPy, u8, PyInt> = 7u8;
/// let z: Promoted<NumPy, u8, Scalar<i16>> = 7i16;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no promotion of `{A}` with `{B}`",
    label = "no promotion of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes or operand kinds; see `promo table` and `promo query`"
)]
pub trait Promote<A: OperandType, B: OperandType, Why = ()> {
    /// The common type's element type.
    type Output: Element;
    /// Whether the result is weakly typed (JAX, TensorFlow: a Python scalar's kind
    /// of type, which gives way to a strongly typed operand's in the next step).
    const WEAK: bool = false;
}

/// The common type of `A` and `B` under rule set `R`: `<R as Promote<A, B>>::Output`.
pub type Promoted<R, A, B> = <R as Promote<A, B>>::Output;

/// `Self` (a rule set's marker type) gives [`PromoteOp::Output`] for operation `O`
/// (a type of [`op_types`](crate::op_types)) on `A` and `B`: what
/// [`Promote`] is for `add`, for every operation the rule set distinguishes
/// (a division giving `f32`, a comparison giving `bool`). A refused pair fails to
/// compile with the framework's reason. Rule sets whose results do not depend on
/// the operation answer every operation as [`Promote`] does.
///
/// ```
/// use promo_core::{op_types::{Divide, Equal}, rules::dali::Dali, PromotedOp};
/// let q: PromotedOp<Dali, Divide, i32, u8> = 0.5f32;
/// let c: PromotedOp<Dali, Equal, f64, i8> = true;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no result for `{O}` of `{A}` with `{B}`",
    label = "no result for `{O}` of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes or this operation; see `promo table --op`"
)]
pub trait PromoteOp<O: OpType, A: Element, B: Element, Why = ()> {
    /// The result type.
    type Output: Element;
    /// Whether the result is weakly typed, as [`Promote::WEAK`].
    const WEAK: bool = false;
}

/// The result type of operation `O` on `A` and `B` under rule set `R`.
pub type PromotedOp<R, O, A, B> = <R as PromoteOp<O, A, B>>::Output;

/// `Self` (a rule set's marker type) answers one-operand operation `O` (a type of
/// [`op_types`](crate::op_types): a unary operation such as `Sqrt`, or a reduction
/// with its default arguments such as `Sum`) on a tensor of `A` with
/// [`PromoteOne::Output`], computed in [`PromoteOne::Compute`] (PyTorch's opmath
/// type, JAX's upcast of half-precision sums).
///
/// Implemented from the rule files for every operation a rule set lists and every
/// dtype it accepts for it; a dtype the framework refuses fails to compile with the
/// framework's reason. The operation's other arguments (`sum(x, dtype=D)`, `out=`)
/// are answered at run time ([`RuleTable::apply`]).
///
/// ```
/// use promo_core::op_types::{Argmax, Mean, Sqrt, Sum};
/// use promo_core::rules::{jax::{Jax, JaxX64}, numpy::NumPy, torch::Torch};
/// use promo_core::{f16, ComputedIn, Reduced, Unary};
/// // sqrt(i8): f16 in NumPy, f32 in PyTorch and JAX.
/// let _: Unary<NumPy, Sqrt, i8> = f16::ONE;
/// let _: Unary<Torch, Sqrt, i8> = 1.0f32;
/// let _: Unary<Jax, Sqrt, i8> = 1.0f32;
/// // sum(u8): u64 in NumPy, i64 in PyTorch, u32 in JAX; argmax is i32 without x64.
/// let _: Reduced<NumPy, Sum, u8> = 1u64;
/// let _: Reduced<Torch, Sum, u8> = 1i64;
/// let _: Reduced<Jax, Sum, u8> = 1u32;
/// let _: Reduced<Jax, Argmax, f32> = 1i32;
/// let _: Reduced<JaxX64, Argmax, f32> = 1i64;
/// // PyTorch returns the mean of f16 as f16 and accumulates it in f32.
/// let _: Reduced<Torch, Mean, f16> = f16::ONE;
/// let _: ComputedIn<Torch, Mean, f16> = 1.0f32;
/// ```
///
/// A refusal is a compile error carrying the framework's reason:
///
/// ```compile_fail
/// use promo_core::{op_types::Mean, rules::torch::Torch, Reduced};
/// // PyTorch: mean(): could not infer output dtype. Input dtype must be either a
/// // floating point or complex dtype.
/// let _: Reduced<Torch, Mean, i32> = 0;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no result for `{O}` of `{A}`",
    label = "no result for `{O}` of `{A}` in `{Self}`",
    note = "the rule set does not list this one-operand operation or does not accept this dtype; see `promo query RULES DTYPE --op OP`"
)]
pub trait PromoteOne<O: OpType, A: Element, Why = ()> {
    /// The result's element type.
    type Output: Element;
    /// The element type the framework computes in (the result's where it states no
    /// other).
    type Compute: Element;
}

/// The result of unary operation `O` on a tensor of `A` under rule set `R`:
/// `<R as PromoteOne<O, A>>::Output` (`Unary<Torch, op_types::Sqrt, i8>` is `f32`).
pub type Unary<R, O, A> = <R as PromoteOne<O, A>>::Output;

/// The result of reduction `O` (default arguments: the whole array, no `dtype=`) of
/// a tensor of `A` under rule set `R`: `<R as PromoteOne<O, A>>::Output`
/// (`Reduced<Jax, op_types::Sum, u8>` is `u32`).
pub type Reduced<R, O, A> = <R as PromoteOne<O, A>>::Output;

/// The element type rule set `R` computes one-operand operation `O` of `A` in:
/// `<R as PromoteOne<O, A>>::Compute` (`ComputedIn<Torch, op_types::Mean, f16>` is
/// `f32`).
pub type ComputedIn<R, O, A> = <R as PromoteOne<O, A>>::Compute;

/// The column of `A` in a [`OneRow`](crate::rows::OneRow)'s tuples.
type Column<A> = <A as crate::element::sealed::Sealed>::__Column;

impl<R, O, A, Why> PromoteOne<O, A, Why> for R
where
    O: OpType,
    A: Element,
    R: crate::rows::OneRow<O>,
    R::Results: crate::rows::At<Column<A>>,
    R::Computes: crate::rows::At<Column<A>>,
    <R::Results as crate::rows::At<Column<A>>>::Entry: crate::rows::OneAnswer<Why, O, A>,
    <R::Computes as crate::rows::At<Column<A>>>::Entry: crate::rows::OneAnswer<Why, O, A>,
{
    type Output =
        <<R::Results as crate::rows::At<Column<A>>>::Entry as crate::rows::OneAnswer<Why, O, A>>::Output;
    type Compute =
        <<R::Computes as crate::rows::At<Column<A>>>::Entry as crate::rows::OneAnswer<Why, O, A>>::Output;
}

/// A rule set's marker type, with its run-time table and fixed options.
///
/// ```
/// use promo_core::rules::openvino::{OpenVino, OpenVinoUnsafe};
/// use promo_core::{DType, Op, RuleSet};
/// assert!(OpenVino::promote(Op::Add, DType::I8, DType::U8).is_err());
/// assert_eq!(OpenVinoUnsafe::promote(Op::Add, DType::I8, DType::U8), Ok(DType::I16));
/// // The same lookup, with the options the marker stands for.
/// let (table, options) = (OpenVinoUnsafe::TABLE, OpenVinoUnsafe::OPTIONS);
/// assert_eq!(table.promote(&options, Op::Add, DType::I8.into(), DType::U8.into()), Ok(DType::I16));
/// ```
pub trait RuleSet: Copy + Default + 'static {
    /// The rule set's table.
    const TABLE: &'static RuleTable<'static>;
    /// The option values this marker stands for.
    const OPTIONS: Options;
    /// The table with this marker's options fixed, made at compile time: a lookup
    /// is an index computation and one load. `None` only for a rule set without a
    /// flat table (a layer whose condition tests a dtype option; every bundled rule
    /// set has one).
    const FIXED: Option<FixedTable<'static>> = Self::TABLE.fix(&Self::OPTIONS);

    /// The run-time promotion of `lhs` with `rhs` under `op`, with this marker's
    /// options: one load from [`RuleSet::FIXED`] (a walk over the layers without
    /// one).
    #[inline]
    fn promote(op: Op, lhs: impl Into<Operand>, rhs: impl Into<Operand>) -> Result<DType, Refusal<'static>> {
        let (lhs, rhs) = (lhs.into(), rhs.into());
        // Borrowed from a static, not copied to the stack on every call.
        let fixed: &'static Option<FixedTable<'static>> = const { &Self::FIXED };
        match fixed {
            Some(fixed) => fixed.promote(op, lhs, rhs),
            None => Self::TABLE.promote(&Self::OPTIONS, op, lhs, rhs),
        }
    }
}

/// The run-time promotion of two operands under a rule set's default options, for
/// `add` (or any operation whose result the rule set does not distinguish).
///
/// For options, operand kinds and operations use [`RuleTable::promote`], or
/// [`RuleTable::fix`] to fix the options once for many lookups; for a marker type's
/// options, [`RuleSet::promote`]. Each reads the rule set's precomputed table: an
/// index computation and one load, with no `match` over dtypes.
///
/// ```
/// use promo_core::{promote, rules, DType};
/// assert_eq!(promote(&rules::kernel_float::TABLE, DType::I8, DType::I32), Ok(DType::I32));
/// assert!(promote(&rules::kernel_float::TABLE, DType::I8, DType::U8).is_err());
/// ```
pub fn promote(
    rules: &RuleTable<'static>,
    lhs: impl Into<Operand>,
    rhs: impl Into<Operand>,
) -> Result<DType, Refusal<'static>> {
    rules.promote(&rules.default_options(), Op::Add, lhs.into(), rhs.into())
}

/// The promotion of any number of operands for one operation, as a chain of
/// binary promotions from the left (kernel_float's `promote_t<Ts…>`).
///
/// It is a fold from the left for each of the nine bundled rule sets. For
/// kernel_float, OpenVINO, PaddlePaddle and DALI that is the framework's own answer:
/// kernel_float's `promote_t<A, B, C…>` is `promote_t<promote_t<A, B>, C…>`
/// (`multi_promote_type` in `meta.h`), and the other three promote only pairs, so
/// more operands are a chain of binary operations, evaluated left to right. NumPy,
/// PyTorch, the array API, TensorFlow and JAX have a many-operand promotion function
/// of their own; promo checks it for two operands (`--op result_type`), so for more
/// it answers the left fold of those pairs. The fold matters: some rule sets are not associative (OpenVINO's default table gives a
/// different result folded from the right on 368 of its 5,832 triples). Each step's
/// result is a tensor when either side is one (a rank-0 tensor when either is one,
/// else a Python scalar's type). One operand is its own result; none is
/// [`Refusal::NoRule`].
///
/// ```
/// use promo_core::{result_type, rules, DType, Op, Operand};
/// let t = &rules::kernel_float::TABLE;
/// let o = t.default_options();
/// // Plain dtypes are tensors (NumPy's `np.result_type` takes dtypes too).
/// assert_eq!(result_type(t, &o, Op::Add, &[DType::I8, DType::I16, DType::F16]), Ok(DType::F16));
/// // Any operand kind, as `Operand`s.
/// let numpy = &rules::numpy::TABLE;
/// let mixed: [Operand; 2] = [DType::U8.into(), "python:float".parse().unwrap()];
/// assert_eq!(result_type(numpy, &numpy.default_options(), Op::Add, &mixed), Ok(DType::F64));
/// // NumPy's own answer for the dtypes: int16 with float16 is float32.
/// let dtypes = [DType::I8, DType::I16, DType::F16];
/// assert_eq!(result_type(numpy, &numpy.default_options(), Op::Add, &dtypes), Ok(DType::F32));
/// ```
pub fn result_type<'a, O: Copy + Into<Operand>>(
    table: &RuleTable<'a>,
    options: &Options,
    op: Op,
    operands: &[O],
) -> Result<DType, Refusal<'a>> {
    result_promotion(table, options, op, operands).map(|p| p.dtype)
}

/// [`result_type`] with whether the result is weakly typed, as `promo query`
/// prints it (`weak:i32`): a weakly typed operand alone, a Python scalar alone
/// where the rule set types it as a weak tensor, or a weak last step.
///
/// An operation that is not elementwise is answered as [`RuleTable::apply`] answers
/// it: a unary operation or a reduction of its one operand, `matmul` of two, a list
/// by the rule set's list rule; another count of operands is [`Refusal::Arity`].
///
/// ```
/// use promo_core::{result_promotion, rules, DType, Op, Operand};
/// let jax = &rules::jax::TABLE;
/// let ops: [Operand; 2] = ["python:int".parse().unwrap(), "python:float".parse().unwrap()];
/// let p = result_promotion(jax, &jax.default_options(), Op::Add, &ops).unwrap();
/// assert_eq!(p.to_string(), "weak:f32");
/// let torch = &rules::torch::TABLE;
/// let sqrt = result_promotion(torch, &torch.default_options(), Op::Sqrt, &[DType::I8]);
/// assert_eq!(sqrt.unwrap().dtype, DType::F32);
/// let two = result_promotion(torch, &torch.default_options(), Op::Sqrt, &[DType::I8, DType::I8]);
/// assert!(matches!(two, Err(promo_core::Refusal::Arity { .. })));
/// ```
pub fn result_promotion<'a, O: Copy + Into<Operand>>(
    table: &RuleTable<'a>,
    options: &Options,
    op: Op,
    operands: &[O],
) -> Result<Promotion, Refusal<'a>> {
    let Some((&first, rest)) = operands.split_first() else {
        return Err(Refusal::NoRule);
    };
    // An operation that is not elementwise (one operand, `matmul`, a list, a store)
    // takes the operands its kind says and answers by its own cells.
    if op.kind() != promo_table::OpKind::Elementwise {
        let operands: Vec<Operand> = operands.iter().map(|&o| o.into()).collect();
        return table.apply(options, op, &operands, None).map(|o| o.result);
    }
    let (first, rest) = (first.into(), rest.iter().map(|&o| o.into()));
    if operands.len() == 1 {
        let alone = match first {
            Operand::Python(kind) => table.python[kind as usize].ok_or(Refusal::PythonScalar)?,
            tensor => tensor,
        };
        return match alone.dtype() {
            Some(d) if table.dtypes.contains(&d) => Ok(Promotion {
                dtype: d,
                weak: matches!(alone, Operand::Weak(_)),
            }),
            Some(d) => Err(Refusal::UnsupportedDType(d)),
            None => Err(Refusal::NoRule),
        };
    }
    let (mut acc, mut result) = (first, None);
    for next in rest {
        let step = table.promote_result(options, op, acc, next)?;
        acc = match (acc, next) {
            // A weakly typed result stays weak (JAX, TensorFlow).
            _ if step.weak => Operand::Weak(step.dtype),
            (Operand::Dimensioned(_), _) | (_, Operand::Dimensioned(_)) => Operand::Dimensioned(step.dtype),
            _ => Operand::Scalar(step.dtype),
        };
        result = Some(step);
    }
    result.ok_or(Refusal::NoRule)
}

/// Both operands converted to the type rule set `R` promotes them to, as every
/// generic kernel starts: `let (x, y) = promote_pair::<R, _, _>(a, b);`.
///
/// Each conversion is ONNX `Cast` with its default options, so it is exact wherever
/// the promoted type holds the value (every promotion that widens); where it does
/// not (i64 with f32 is f32 in most frameworks), it rounds to nearest even once.
///
/// ```
/// use promo_core::rules::openvino::OpenVinoUnsafe;
/// use promo_core::{f16, promote_pair};
/// let (x, y) = promote_pair::<OpenVinoUnsafe, _, _>(-3i8, 200u8);
/// assert_eq!((x, y), (-3i16, 200i16));
/// let (x, y) = promote_pair::<OpenVinoUnsafe, _, _>(7u8, f16::from_f32(0.5));
/// assert_eq!((x, y), (f16::from_f32(7.0), f16::from_f32(0.5)));
/// ```
pub fn promote_pair<R, A, B>(a: A, b: B) -> (Promoted<R, A, B>, Promoted<R, A, B>)
where
    A: Element,
    B: Element,
    R: Promote<A, B>,
    Promoted<R, A, B>: CastFrom<A> + CastFrom<B>,
{
    let options = CastOptions::default();
    (CastFrom::cast_from(a, &options), CastFrom::cast_from(b, &options))
}

/// The `Output` of a pair a rule set refuses. No value of it exists, and it has
/// what generic code asks of a promoted type (arithmetic, comparison, casts,
/// [`Element`]), so that the refusal's reason is the first and only error a user
/// sees. Code that names it for a refused pair does not compile, so none of its
/// impls ever runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Refused {}

impl promo_table::HasDType for Refused {
    /// Never read: code that reaches a refused pair does not compile.
    const DTYPE: DType = DType::String;
}

impl crate::element::sealed::Sealed for Refused {
    // No row has a column for it.
    type __Column = crate::rows::Col<{ usize::MAX }>;
}
impl Element for Refused {}

macro_rules! refused_ops {
    ($($op:ident $method:ident),*) => {$(
        impl core::ops::$op for Refused {
            type Output = Refused;
            fn $method(self, _: Refused) -> Refused {
                match self {}
            }
        }
    )*};
}
refused_ops!(Add add, Sub sub, Mul mul, Div div, Rem rem, BitAnd bitand, BitOr bitor, BitXor bitxor);

impl core::ops::Neg for Refused {
    type Output = Refused;
    fn neg(self) -> Refused {
        match self {}
    }
}

impl crate::cast::CastSource for Refused {
    fn value(self) -> crate::cast::Value {
        match self {}
    }
}

impl crate::cast::CastTarget for Refused {
    /// Unreachable in any program that compiles: only a refused pair names
    /// `Refused`, and a refused pair is a compile error.
    fn from_value(_: crate::cast::Value, _: &CastOptions) -> Refused {
        unreachable!("a refused promotion does not compile")
    }
}
