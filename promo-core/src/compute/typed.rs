//! The typed side: [`Arithmetic`], [`PromoteArith`] and [`zip_promoted`].

use super::{Computation, ComputeError};
use crate::cast::{CastFrom, CastOptions};
use crate::element::sealed::Sealed;
use crate::narrow::{f8e8m0, i2, i4, u2, u4, Format, Minifloat, RoundMode};
use crate::{DType, Element, HasDType, Op, Promote, Promoted, RuleSet};
use half::{bf16, f16};
use num_complex::Complex;
use std::fmt;

/// `add`, `sub` and `mul` of two values of one element type, as ML frameworks
/// compute them on tensors of that dtype:
///
/// - integers (`i8`…`u64`, and `i2`/`i4`/`u2`/`u4` in their width) wrap around;
/// - `f16`, `bf16`, `f32`, `f64` and complex round once, as IEEE 754 says;
/// - the narrow floats compute in `f32` and round to the format once, without
///   saturation, as ml_dtypes does (see [`narrow`](crate::narrow#arithmetic));
///   `f8e8m0`, which has no zero and no sign, gives NaN for a result that is not
///   positive, as ml_dtypes' `float8_e8m0fnu` does;
/// - `bool` saturates in {0, 1}: `add` is `or`, `mul` is `and`, and `sub` is
///   `a and not b` (`true + true` is `true` in NumPy and PyTorch).
///
/// The method names are the operators': with `std::ops::Add` also in scope, call
/// `Arithmetic::add(x, y)`.
pub trait Arithmetic: Element {
    /// `self + rhs`.
    fn add(self, rhs: Self) -> Self;
    /// `self - rhs`.
    fn sub(self, rhs: Self) -> Self;
    /// `self * rhs`.
    fn mul(self, rhs: Self) -> Self;
}

impl Arithmetic for bool {
    #[inline]
    fn add(self, rhs: bool) -> bool {
        self | rhs
    }
    #[inline]
    fn sub(self, rhs: bool) -> bool {
        self & !rhs
    }
    #[inline]
    fn mul(self, rhs: bool) -> bool {
        self & rhs
    }
}

macro_rules! wrapping {
    ($($t:ty),*) => {$(
        impl Arithmetic for $t {
            #[inline]
            fn add(self, rhs: $t) -> $t {
                self.wrapping_add(rhs)
            }
            #[inline]
            fn sub(self, rhs: $t) -> $t {
                self.wrapping_sub(rhs)
            }
            #[inline]
            fn mul(self, rhs: $t) -> $t {
                self.wrapping_mul(rhs)
            }
        }
    )*};
}
wrapping!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! small_ints {
    ($($t:ty),*) => {$(
        impl Arithmetic for $t {
            #[inline]
            fn add(self, rhs: $t) -> $t {
                <$t>::wrapping_from(self.get() as i64 + rhs.get() as i64)
            }
            #[inline]
            fn sub(self, rhs: $t) -> $t {
                <$t>::wrapping_from(self.get() as i64 - rhs.get() as i64)
            }
            #[inline]
            fn mul(self, rhs: $t) -> $t {
                <$t>::wrapping_from(self.get() as i64 * rhs.get() as i64)
            }
        }
    )*};
}
small_ints!(i2, i4, u2, u4);

/// The types whose `+ - *` operators are already the frameworks' arithmetic.
macro_rules! operators {
    ($([$($generics:tt)*] $t:ty),*) => {$(
        impl<$($generics)*> Arithmetic for $t where $t: Element {
            #[inline]
            fn add(self, rhs: $t) -> $t {
                self + rhs
            }
            #[inline]
            fn sub(self, rhs: $t) -> $t {
                self - rhs
            }
            #[inline]
            fn mul(self, rhs: $t) -> $t {
                self * rhs
            }
        }
    )*};
}
operators!([] f32, [] f64, [] f16, [] bf16, [F: Format] Minifloat<F>, [] Complex<f32>, [] Complex<f64>);

impl Arithmetic for f8e8m0 {
    #[inline]
    fn add(self, rhs: f8e8m0) -> f8e8m0 {
        e8m0_result(self.to_f32() + rhs.to_f32())
    }
    #[inline]
    fn sub(self, rhs: f8e8m0) -> f8e8m0 {
        e8m0_result(self.to_f32() - rhs.to_f32())
    }
    #[inline]
    fn mul(self, rhs: f8e8m0) -> f8e8m0 {
        e8m0_result(self.to_f32() * rhs.to_f32())
    }
}

/// An `f32` result in `f8e8m0` as ml_dtypes rounds it: to nearest, NaN past the
/// largest power of two and for a result that is not positive.
fn e8m0_result(x: f32) -> f8e8m0 {
    if x > 0.0 {
        f8e8m0::from_f32_with(x, false, RoundMode::Nearest)
    } else {
        f8e8m0::NAN
    }
}

/// `Self` (a rule set's marker type) promotes element types `A` and `B` to
/// [`PromoteArith::Common`], a type both convert to with ONNX `Cast`
/// ([`CastFrom`]) and that has [`Arithmetic`]: the one bound generic code needs
/// to compute in the promoted type.
///
/// Implemented wherever `Self: Promote<A, B>` holds for element types; every pair
/// every bundled rule set accepts has it (a test instantiates each). A refused pair
/// fails to compile with the framework's reason, as with [`Promote`].
///
/// ```
/// use promo_core::compute::{Arithmetic, PromoteArith};
/// use promo_core::rules::{numpy::NumPy, torch::Torch};
/// use promo_core::f16;
///
/// fn add<R: PromoteArith<A, B>, A, B>(a: A, b: B) -> R::Common {
///     let (x, y) = R::convert(a, b);
///     x.add(y)
/// }
/// assert_eq!(add::<Torch, _, _>(3i32, f16::from_f32(0.5)), f16::from_f32(3.5));
/// assert_eq!(add::<NumPy, _, _>(200u8, 100u8), 44u8); // wraps, as NumPy does
/// assert!(add::<Torch, _, _>(true, true));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no promotion of `{A}` with `{B}`",
    label = "no promotion of `{A}` with `{B}` in `{Self}`",
    note = "the rule set does not accept one of these dtypes; see `promo table` and `promo query`"
)]
pub trait PromoteArith<A, B> {
    /// The promoted element type: `Promoted<Self, A, B>`.
    type Common: Arithmetic + CastFrom<A> + CastFrom<B>;

    /// Both operands cast to [`Common`](PromoteArith::Common) with ONNX `Cast`'s
    /// default options: exact wherever the promoted type holds the value; otherwise
    /// (i64 with f32 is f32 in most frameworks) rounded to nearest even once.
    #[inline]
    fn convert(a: A, b: B) -> (Self::Common, Self::Common) {
        let options = CastOptions::default();
        (CastFrom::cast_from(a, &options), CastFrom::cast_from(b, &options))
    }
}

impl<R, A, B> PromoteArith<A, B> for R
where
    A: Element,
    B: Element,
    R: Promote<A, B>,
    Promoted<R, A, B>: Arithmetic + CastFrom<A> + CastFrom<B>,
{
    type Common = Promoted<R, A, B>;
}

/// Two slices of different lengths, neither of length one, given to
/// [`zip_promoted`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// The first slice's length.
    pub lhs: usize,
    /// The second slice's length.
    pub rhs: usize,
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "slices of {} and {} elements do not broadcast: the lengths must be equal, or one of them 1",
            self.lhs, self.rhs
        )
    }
}

impl std::error::Error for LengthMismatch {}

/// `f(a[i], b[i])` for each `i`, both operands first cast to the type `R` promotes
/// `A` and `B` to (see [`PromoteArith::convert`]).
///
/// The lengths must be equal, or one of them 1: a single element is used with every
/// element of the other slice, as NumPy broadcasts an axis of length 1. Anything
/// else is a [`LengthMismatch`], never a silently shorter result.
///
/// ```
/// use promo_core::compute::{zip_promoted, Arithmetic};
/// use promo_core::rules::jax::Jax;
/// use promo_core::bf16;
///
/// // JAX: u8 with bf16 is bf16.
/// let p = zip_promoted::<Jax, _, _, _>(&[2u8, 3], &[bf16::from_f32(1.5), bf16::ONE], |x, y| x.mul(y));
/// assert_eq!(p.unwrap(), [bf16::from_f32(3.0), bf16::from_f32(3.0)]);
/// // Any result type: a comparison in the promoted type.
/// let gt = zip_promoted::<Jax, _, _, _>(&[1i8, 5], &[3u8], |x, y| x > y).unwrap();
/// assert_eq!(gt, [false, true]);
/// assert!(zip_promoted::<Jax, _, _, _>(&[1i8, 5], &[3u8, 4, 5], |x, y| x > y).is_err());
/// ```
pub fn zip_promoted<R, A, B, T>(
    a: &[A],
    b: &[B],
    mut f: impl FnMut(R::Common, R::Common) -> T,
) -> Result<Vec<T>, LengthMismatch>
where
    R: PromoteArith<A, B>,
    A: Element,
    B: Element,
{
    let len = match (a.len(), b.len()) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        (lhs, rhs) => return Err(LengthMismatch { lhs, rhs }),
    };
    let (step_a, step_b) = (usize::from(a.len() != 1), usize::from(b.len() != 1));
    Ok((0..len)
        .map(|i| {
            let (x, y) = R::convert(a[i * step_a], b[i * step_b]);
            f(x, y)
        })
        .collect())
}

/// `a OP b` over typed slices, as rule set `R`'s framework computes it (see
/// [`Computation`](super::Computation)), into `out`, whose element type is the
/// one `R` promotes `A` and `B` to.
///
/// Each operand holds `out.len()` elements, or one, which is used with every
/// element of the other. An operation whose result dtype is not that type (`divide`
/// of two integers, a comparison: see [`compare`]) is
/// [`ComputeError::ResultDType`](super::ComputeError::ResultDType); element types
/// of 2 and 4 bits, one value per byte in a typed slice, take the byte API, which
/// packs them.
///
/// ```
/// use promo_core::compute;
/// use promo_core::rules::{jax::Jax, torch::Torch};
/// use promo_core::{bf16, f16, Op};
///
/// let (a, b) = ([f16::from_f32(1.5), f16::MAX], [f16::from_f32(2.0)]);
/// let mut out = [f16::ZERO; 2];
/// compute::apply::<Torch, _, _>(Op::Multiply, &a, &b, &mut out)?;
/// assert_eq!(out, [f16::from_f32(3.0), f16::INFINITY]);
/// // JAX: u8 with bf16 is bf16, computed in f32 and rounded once.
/// let mut sums = [bf16::ZERO; 2];
/// compute::apply::<Jax, _, _>(Op::Add, &[200u8, 255], &[bf16::from_f32(0.5)], &mut sums)?;
/// assert_eq!(sums, [bf16::from_f32(200.0), bf16::from_f32(256.0)]);
/// # Ok::<(), promo_core::compute::ComputeError>(())
/// ```
pub fn apply<R, A, B>(op: Op, a: &[A], b: &[B], out: &mut [Promoted<R, A, B>]) -> Result<(), ComputeError>
where
    R: RuleSet + Promote<A, B>,
    A: Element,
    B: Element,
    Promoted<R, A, B>: Element,
{
    let computation = Computation::new(R::TABLE, &R::OPTIONS, op, A::DTYPE, B::DTYPE)?;
    let want = <Promoted<R, A, B> as HasDType>::DTYPE;
    if computation.result() != want {
        return Err(ComputeError::ResultDType {
            result: computation.result(),
            out: want,
        });
    }
    let count = out.len();
    let (lhs, rhs) = (bytes_of(a)?, bytes_of(b)?);
    let dst = Sealed::__promo_bytes_mut(out).ok_or(ComputeError::UnsupportedDType(want))?;
    computation.apply(lhs, rhs, dst, count).map(|_| ())
}

/// A comparison (`equal`, `less_than`, ...) of typed slices as rule set `R`'s
/// framework computes it, into `out`; lengths as [`apply`] takes them.
///
/// ```
/// use promo_core::compute;
/// use promo_core::rules::numpy::NumPy;
/// use promo_core::Op;
///
/// // NumPy compares i64 with u64 exactly, though both promote to f64.
/// let mut out = [false; 2];
/// compute::compare::<NumPy, _, _>(Op::LessThan, &[i64::MAX - 1, -1], &[1u64 << 63], &mut out)?;
/// assert_eq!(out, [true, true]);
/// # Ok::<(), promo_core::compute::ComputeError>(())
/// ```
pub fn compare<R, A, B>(op: Op, a: &[A], b: &[B], out: &mut [bool]) -> Result<(), ComputeError>
where
    R: RuleSet,
    A: Element,
    B: Element,
{
    let computation = Computation::new(R::TABLE, &R::OPTIONS, op, A::DTYPE, B::DTYPE)?;
    if computation.result() != DType::Bool {
        return Err(ComputeError::ResultDType {
            result: computation.result(),
            out: DType::Bool,
        });
    }
    let mut bytes = vec![0u8; out.len()];
    computation.apply(bytes_of(a)?, bytes_of(b)?, &mut bytes, out.len())?;
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = b != 0;
    }
    Ok(())
}

/// A typed slice's buffer bytes, for element types of whole bytes.
fn bytes_of<T: Element>(s: &[T]) -> Result<&[u8], ComputeError> {
    Sealed::__promo_bytes(s).ok_or(ComputeError::UnsupportedDType(T::DTYPE))
}
