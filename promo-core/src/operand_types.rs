//! Operand kinds at the type level: what [`Operand`] is at run time, as types that
//! [`Promote`](crate::Promote) takes.
//!
//! Frameworks promote a tensor with a rank-0 tensor or a Python number differently
//! from two tensors (PyTorch: an `f32` tensor plus an `f64` zero-dim tensor is
//! `f32`). An element type alone stands for a tensor with dimensions, as
//! [`Tensor<T>`] spells it; the other kinds wrap it:
//!
//! | run time ([`Operand`]) | type level |
//! | --- | --- |
//! | `Dimensioned(d)`, `f32` | `T`, or [`Tensor<T>`] (the same type) |
//! | `Scalar(d)`, `scalar:f32` | [`Scalar<T>`] |
//! | `Weak(d)`, `weak:f32` | [`Weak<T>`] (JAX, TensorFlow) |
//! | `Python(…)`, `python:int` | [`PyBool`], [`PyInt`], [`PyFloat`], [`PyComplex`] |
//!
//! ```
//! use promo_core::operand_types::{PyFloat, Scalar, Tensor};
//! use promo_core::{rules::torch::Torch, Promoted};
//! // A zero-dim f64 tensor gives way to an f32 tensor of the same category...
//! let x: Promoted<Torch, Tensor<f32>, Scalar<f64>> = 1.0f32;
//! // ...and so does a Python float to an f16 one; two tensors promote fully.
//! let y: Promoted<Torch, Tensor<promo_core::f16>, PyFloat> = promo_core::f16::ONE;
//! let z: Promoted<Torch, Tensor<f32>, Tensor<f64>> = 1.0f64;
//! # let _ = (x, y, z);
//! ```
//!
//! The types are markers: no value of [`Scalar`], [`Weak`] or a Python kind is
//! ever made; [`Promoted`](crate::Promoted) names the element type of the result,
//! and [`Promote::WEAK`](crate::Promote::WEAK) says whether the result is weakly
//! typed.

use crate::{rows, Element};
use core::marker::PhantomData;
use promo_table::{Operand, PyScalar};

mod sealed {
    /// Implemented only for the operand kinds of this module and the element types.
    pub trait Sealed {}
}

/// A type that stands for one kind of operand: an [`Element`] type (a tensor with
/// dimensions), [`Scalar<T>`], [`Weak<T>`] or a Python scalar kind.
pub trait OperandType: sealed::Sealed + 'static {
    /// The run-time operand this type stands for.
    const OPERAND: Operand;
    /// The part of a type-level row its answers are in (`rows`).
    #[doc(hidden)]
    type __Kind;
    /// Its column in that part.
    #[doc(hidden)]
    type __Column;
}

/// A tensor with at least one dimension of element type `T`: `T` itself, named
/// for code that reads better with the kind spelt out.
pub type Tensor<T> = T;

/// A rank-0 (zero-dim) tensor of element type `T`.
pub struct Scalar<T: Element>(PhantomData<T>);

/// A weakly typed tensor of element type `T` (JAX's `weak_type`, TensorFlow's
/// `WeakTensor`): its dtype gives way to a strongly typed operand's.
pub struct Weak<T: Element>(PhantomData<T>);

impl<T: Element> sealed::Sealed for T {}
impl<T: Element> OperandType for T {
    const OPERAND: Operand = Operand::Dimensioned(T::DTYPE);
    type __Kind = rows::Tensors;
    type __Column = <T as crate::element::sealed::Sealed>::__Column;
}

impl<T: Element> sealed::Sealed for Scalar<T> {}
impl<T: Element> OperandType for Scalar<T> {
    const OPERAND: Operand = Operand::Scalar(T::DTYPE);
    type __Kind = rows::Scalars;
    type __Column = <T as crate::element::sealed::Sealed>::__Column;
}

impl<T: Element> sealed::Sealed for Weak<T> {}
impl<T: Element> OperandType for Weak<T> {
    const OPERAND: Operand = Operand::Weak(T::DTYPE);
    type __Kind = rows::Weaks;
    type __Column = <T as crate::element::sealed::Sealed>::__Column;
}

macro_rules! python_kinds {
    ($($name:ident $kind:ident $doc:literal),*) => {$(
        #[doc = $doc]
        pub enum $name {}
        impl sealed::Sealed for $name {}
        impl OperandType for $name {
            const OPERAND: Operand = Operand::Python(PyScalar::$kind);
            type __Kind = rows::Pythons;
            type __Column = rows::Col<{ PyScalar::$kind as usize }>;
        }
    )*};
}

python_kinds!(
    PyBool Bool "A Python `bool` operand (`True`).",
    PyInt Int "A Python `int` operand (`2`).",
    PyFloat Float "A Python `float` operand (`2.5`).",
    PyComplex Complex "A Python `complex` operand (`1j`)."
);
