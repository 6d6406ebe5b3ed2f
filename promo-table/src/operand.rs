//! [`Operand`]: one side of a binary operation, as promotion sees it.

use crate::dtype::DType;
use core::fmt;
use core::str::FromStr;

/// The kind of a Python scalar operand (`x + 1`, `x * 2.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PyScalar {
    /// A Python `bool`.
    Bool,
    /// A Python `int`.
    Int,
    /// A Python `float`.
    Float,
    /// A Python `complex`.
    Complex,
}

impl PyScalar {
    /// Every Python scalar kind.
    pub const ALL: [PyScalar; 4] = [PyScalar::Bool, PyScalar::Int, PyScalar::Float, PyScalar::Complex];

    /// The Python type name: `bool`, `int`, `float` or `complex`.
    pub const fn name(self) -> &'static str {
        match self {
            PyScalar::Bool => "bool",
            PyScalar::Int => "int",
            PyScalar::Float => "float",
            PyScalar::Complex => "complex",
        }
    }

    /// The kind's position in [`PyScalar::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Looks up a Python type name.
    pub fn parse_name(s: &str) -> Option<PyScalar> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl fmt::Display for PyScalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// One operand of a binary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A tensor with at least one dimension (a rule file's `dimensioned`; its
    /// `tensor` side matches this and [`Operand::Scalar`]).
    Dimensioned(DType),
    /// A rank-0 (0-d, "scalar") tensor.
    Scalar(DType),
    /// A Python scalar literal.
    Python(PyScalar),
    /// A weakly typed tensor (JAX's `weak_type` arrays, TensorFlow's `WeakTensor`):
    /// its dtype gives way to a strongly typed operand's, as a Python scalar's does.
    Weak(DType),
}

impl Operand {
    /// The operand's dtype, if it is a tensor (of either rank, weakly typed or not).
    pub const fn dtype(self) -> Option<DType> {
        match self {
            Operand::Dimensioned(d) | Operand::Scalar(d) | Operand::Weak(d) => Some(d),
            Operand::Python(_) => None,
        }
    }

    /// The same kind of operand with another dtype (a Python scalar stays as it is).
    pub const fn with_dtype(self, dtype: DType) -> Operand {
        match self {
            Operand::Dimensioned(_) => Operand::Dimensioned(dtype),
            Operand::Scalar(_) => Operand::Scalar(dtype),
            Operand::Weak(_) => Operand::Weak(dtype),
            Operand::Python(k) => Operand::Python(k),
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Dimensioned(d) => write!(f, "{d}"),
            Operand::Scalar(d) => write!(f, "scalar:{d}"),
            Operand::Python(k) => write!(f, "python:{k}"),
            Operand::Weak(d) => write!(f, "weak:{d}"),
        }
    }
}

/// The error of parsing an operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOperand(pub String);

impl fmt::Display for BadOperand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad operand `{}`: expected DTYPE, scalar:DTYPE, weak:DTYPE or python:bool|int|float|complex",
            self.0
        )
    }
}

impl std::error::Error for BadOperand {}

impl FromStr for Operand {
    type Err = BadOperand;

    /// Parses `DTYPE` (a tensor), `scalar:DTYPE` (a rank-0 tensor), `weak:DTYPE` (a
    /// weakly typed tensor) or `python:bool|int|float|complex` (a Python scalar).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadOperand(s.to_owned());
        match s.split_once(':') {
            None => s.parse().map(Operand::Dimensioned).map_err(|_| bad()),
            Some(("scalar", d)) => d.parse().map(Operand::Scalar).map_err(|_| bad()),
            Some(("python", k)) => PyScalar::parse_name(k).map(Operand::Python).ok_or_else(bad),
            Some(("weak", d)) => d.parse().map(Operand::Weak).map_err(|_| bad()),
            Some(_) => Err(bad()),
        }
    }
}

impl From<DType> for Operand {
    /// A dtype alone names a tensor with at least one dimension.
    fn from(d: DType) -> Self {
        Operand::Dimensioned(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_parse_and_print() {
        for s in ["i32", "scalar:f16", "python:complex", "weak:f64"] {
            assert_eq!(s.parse::<Operand>().unwrap().to_string(), s);
        }
        assert_eq!("float32".parse::<Operand>(), Ok(Operand::Dimensioned(DType::F32)));
        for bad in ["python:str", "rank0:i8", "scalar:f9", ""] {
            assert!(bad.parse::<Operand>().is_err(), "{bad}");
        }
    }
}
