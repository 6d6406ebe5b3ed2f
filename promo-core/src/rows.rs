//! The type-level tables the `rules!` macro writes, and what reads them.
//!
//! A rule set's answers for one operation are one row per left operand, not one
//! impl per pair: `impl<B> Jax_Add<B> for i8 { type Row = (TENSORS, SCALARS,
//! PYTHON, WEAK); }`, each part a tuple with an entry per right operand of that
//! kind (in [`DType`](crate::DType) or [`PyScalar`](promo_table::PyScalar) order),
//! or [`Nothing`] when no operand of the kind has an answer. An entry is the
//! result's element type, [`Weak<T>`] for a weakly typed result, a refusal's tag
//! (which implements [`PromoteAnswer`] only where the reason's diagnostic trait
//! holds, never), or the marker type itself where there is no answer (which
//! implements neither answer trait, so the compiler names the marker, the pair and
//! the reason in its error). `Promote` and `PromoteOp` are one impl per marker that
//! reads the row ([`Entry`]).
//!
//! So a rule set costs the compiler a row per operand instead of an impl per pair:
//! the check that no two impls overlap compares impls of one self type pairwise,
//! which for tens of thousands of pair impls on one marker took most of
//! promo-core's build.

use crate::operand_types::{OperandType, Weak};
use crate::Element;
use core::marker::PhantomData;

/// Short names of the element types, for the rows the macro writes (`t::f16`).
pub mod types {
    pub use crate::narrow::*;
    pub use crate::operand_types::Weak as W;
    pub use half::{bf16, f16};
    pub use num_complex::Complex;
}

/// The column of an operand in its row part: its dtype's index, or its Python
/// kind's.
pub struct Col<const N: usize>;

/// The part of a row that holds tensors with dimensions.
pub enum Tensors {}
/// The part of a row that holds rank-0 tensors.
pub enum Scalars {}
/// The part of a row that holds Python scalars.
pub enum Pythons {}
/// The part of a row that holds weakly typed tensors.
pub enum Weaks {}

/// The part of a row for operands of kind `K`.
pub trait Part<K> {
    /// That part: a tuple, or [`Nothing`].
    type Part;
}

impl<D, S, P, W> Part<Tensors> for (D, S, P, W) {
    type Part = D;
}
impl<D, S, P, W> Part<Scalars> for (D, S, P, W) {
    type Part = S;
}
impl<D, S, P, W> Part<Pythons> for (D, S, P, W) {
    type Part = P;
}
impl<D, S, P, W> Part<Weaks> for (D, S, P, W) {
    type Part = W;
}

/// A row part in which no operand has an answer: every entry is `M`, the marker.
pub struct Nothing<M>(PhantomData<M>);

/// The entry at column `C` of a row part.
pub trait At<C> {
    /// The entry.
    type Entry;
}

impl<M, const N: usize> At<Col<N>> for Nothing<M> {
    type Entry = M;
}

// The tuples of a part's width: every dtype, and the four Python kinds.
promo_macros::__row_access!();

/// The entry of a row for right operand `B`.
pub trait Entry<B> {
    /// The entry.
    type Entry;
}

impl<R, B: OperandType> Entry<B> for R
where
    R: Part<B::__Kind>,
    <R as Part<B::__Kind>>::Part: At<B::__Column>,
{
    type Entry = <<R as Part<B::__Kind>>::Part as At<B::__Column>>::Entry;
}

/// What an entry answers to `Promote<A, B, Why>`. The marker type, an entry with
/// no answer, implements none.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no promotion of `{A}` with `{B}`",
    label = "no promotion of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes or operand kinds; see `promo table` and `promo query`"
)]
pub trait PromoteAnswer<Why, A, B> {
    /// The result's element type.
    type Output: Element;
    /// Whether it is weakly typed.
    const WEAK: bool = false;
}

/// What an entry answers to `PromoteOp<O, A, B, Why>`. The marker type, an entry
/// with no answer, implements none.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no result for `{O}` of `{A}` with `{B}`",
    label = "no result for `{O}` of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes or this operation; see `promo table --op`"
)]
pub trait OpAnswer<Why, O, A, B> {
    /// The result's element type.
    type Output: Element;
    /// Whether it is weakly typed.
    const WEAK: bool = false;
}

/// A rule set's answers of one-operand operation `O` (a unary operation or a
/// reduction with its default arguments) for a tensor of each dtype, in
/// [`DType`](crate::DType) order: the result and the dtype the framework computes
/// in. What [`PromoteOne`](crate::PromoteOne) reads; the `rules!` macro writes one
/// impl per operation the rule set lists.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no one-operand answers for `{O}`",
    label = "`{Self}` does not answer `{O}` of one operand",
    note = "the rule set does not list this operation, or the operation takes two operands (`PromotedOp`); see `promo list` and `promo query RULES DTYPE --op OP`"
)]
pub trait OneRow<O> {
    /// The result for each dtype: a tuple with an entry per dtype.
    type Results;
    /// The compute dtype for each dtype, as [`OneRow::Results`].
    type Computes;
}

/// What an entry of a [`OneRow`] answers to `PromoteOne<O, A, Why>`. The marker
/// type, an entry with no answer, implements none.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no result for `{O}` of `{A}`",
    label = "no result for `{O}` of `{A}` in `{Self}`",
    note = "the rule set does not accept this dtype for this operation; see `promo query RULES DTYPE --op OP`"
)]
pub trait OneAnswer<Why, O, A> {
    /// The element type.
    type Output: Element;
}

impl<T: Element, A, B> PromoteAnswer<(), A, B> for Weak<T> {
    type Output = T;
    const WEAK: bool = true;
}

impl<T: Element, O, A, B> OpAnswer<(), O, A, B> for Weak<T> {
    type Output = T;
    const WEAK: bool = true;
}

/// Each element type answers itself: an impl per type, not a blanket impl over
/// `Element`, so that a marker type in an entry (no answer) is reported as such and
/// not as a type that is not an element.
macro_rules! answers_itself {
    ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {
        $(answers_itself!(@one $home [$($ty)*]);)*
    };
    (@one std [$ty:ty]) => { answers_itself!(@impl $ty); };
    (@one half [$ty:ident]) => { answers_itself!(@impl half::$ty); };
    (@one num_complex [$($ty:tt)*]) => { answers_itself!(@impl num_complex::$($ty)*); };
    (@one narrow [$ty:ident]) => { answers_itself!(@impl crate::narrow::$ty); };
    (@impl $ty:ty) => {
        impl<A, B> PromoteAnswer<(), A, B> for $ty {
            type Output = $ty;
        }
        impl<O, A, B> OpAnswer<(), O, A, B> for $ty {
            type Output = $ty;
        }
        impl<O, A> OneAnswer<(), O, A> for $ty {
            type Output = $ty;
        }
    };
}
promo_table::for_each_element_type!(answers_itself);
