//! Two candle tensors of different dtypes, promoted as a framework promotes them.
//!
//! candle refuses a binary op whose operands differ in dtype ("dtype mismatch in
//! binary op"). [`promote_pair`] converts both tensors to the dtype a rule set
//! gives for the pair, and [`apply`] (with [`add`], [`sub`], [`mul`], [`div`],
//! [`maximum`] and [`minimum`]) then runs candle's broadcasting op on them: a bf16
//! tensor plus an f32 one is an f32 tensor under PyTorch's rules, as in PyTorch.
//! A pair the rule set refuses is an error naming its reason, and a promoted dtype
//! candle has no variant for (i8 or u16, say) is an error too, never a silent
//! fallback.
//!
//! ```
//! use candle_core::{DType, Device, Tensor};
//! use promo_core::interop::candle;
//! use promo_core::rules::torch::Torch;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let hidden = Tensor::new(&[1.5f32, -2.0], &Device::Cpu)?.to_dtype(DType::BF16)?;
//! let residual = Tensor::new(&[0.25f32, 4.0], &Device::Cpu)?;
//! let sum = candle::add::<Torch>(&hidden, &residual)?;
//! assert_eq!(sum.dtype(), DType::F32);
//! assert_eq!(sum.to_vec1::<f32>()?, [1.75, 2.0]);
//! # Ok(()) }
//! # main().unwrap();
//! ```
//!
//! The conversions are candle's own `to_dtype`. Every promotion a rule set gives
//! between candle's dtypes widens exactly (an integer into a wider integer or a
//! float that holds it, a narrow float into a wider one) except an integer of 32
//! or 64 bits into f32 or f16, which both round to nearest.

use crate::{DType, Op, Refusal, RuleSet};
use candle_core::Tensor;
use std::fmt;

pub use super::{NotInCrate, NotInPromo};

/// Why two tensors could not be promoted or combined.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The rule set refuses the pair for this operation.
    Refused(Refusal<'static>),
    /// The promoted dtype (or an operand's) is one candle has no variant for.
    NotInCandle(NotInCrate),
    /// An operand's candle dtype is one this version of promo does not know.
    NotInPromo(NotInPromo),
    /// The operation is not one [`apply`] computes with candle.
    NotComputed(Op),
    /// candle's own error (shapes that do not broadcast, a device mismatch, ...).
    Candle(candle_core::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(r) => write!(f, "refused: {r}"),
            Error::NotInCandle(e) => write!(f, "{e}"),
            Error::NotInPromo(e) => write!(f, "{e}"),
            Error::NotComputed(op) => write!(
                f,
                "`{op}` is not computed here: apply takes add, subtract, multiply, divide, maximum and minimum"
            ),
            Error::Candle(e) => write!(f, "candle: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Refused(r) => Some(r),
            Error::NotInCandle(e) => Some(e),
            Error::NotInPromo(e) => Some(e),
            Error::Candle(e) => Some(e),
            Error::NotComputed(_) => None,
        }
    }
}

impl From<candle_core::Error> for Error {
    fn from(e: candle_core::Error) -> Error {
        Error::Candle(e)
    }
}

/// The dtype rule set `R` promotes `a` and `b` to under `op`, as a candle dtype.
pub fn promoted_dtype<R: RuleSet>(op: Op, a: &Tensor, b: &Tensor) -> Result<candle_core::DType, Error> {
    let lhs = DType::try_from(a.dtype()).map_err(Error::NotInPromo)?;
    let rhs = DType::try_from(b.dtype()).map_err(Error::NotInPromo)?;
    let to = R::promote(op, lhs, rhs).map_err(Error::Refused)?;
    candle_core::DType::try_from(to).map_err(Error::NotInCandle)
}

/// Both tensors converted to the dtype rule set `R` promotes them to under `op`
/// (a tensor already of that dtype is returned as it is, sharing its storage).
pub fn promote_pair<R: RuleSet>(op: Op, a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor), Error> {
    let to = promoted_dtype::<R>(op, a, b)?;
    Ok((a.to_dtype(to)?, b.to_dtype(to)?))
}

/// `a op b` with both operands promoted by rule set `R` first, broadcasting as
/// candle's `broadcast_*` ops do. `op` is one of add, subtract, multiply, divide
/// (true division: two integer tensors divide in the float dtype the rule set
/// gives, as PyTorch and NumPy do), maximum and minimum.
pub fn apply<R: RuleSet>(op: Op, a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    let run: fn(&Tensor, &Tensor) -> candle_core::Result<Tensor> = match op {
        Op::Add => Tensor::broadcast_add,
        Op::Subtract => Tensor::broadcast_sub,
        Op::Multiply => Tensor::broadcast_mul,
        Op::Divide => Tensor::broadcast_div,
        Op::Maximum => Tensor::broadcast_maximum,
        Op::Minimum => Tensor::broadcast_minimum,
        other => return Err(Error::NotComputed(other)),
    };
    let (a, b) = promote_pair::<R>(op, a, b)?;
    Ok(run(&a, &b)?)
}

/// `a + b` in the dtype rule set `R` promotes them to.
pub fn add<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Add, a, b)
}

/// `a - b` in the dtype rule set `R` promotes them to.
pub fn sub<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Subtract, a, b)
}

/// `a * b` in the dtype rule set `R` promotes them to.
pub fn mul<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Multiply, a, b)
}

/// `a / b` (true division) in the dtype rule set `R` promotes them to under `divide`.
pub fn div<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Divide, a, b)
}

/// The elementwise maximum in the dtype rule set `R` promotes them to.
pub fn maximum<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Maximum, a, b)
}

/// The elementwise minimum in the dtype rule set `R` promotes them to.
pub fn minimum<R: RuleSet>(a: &Tensor, b: &Tensor) -> Result<Tensor, Error> {
    apply::<R>(Op::Minimum, a, b)
}
