//! [`ConvertError`]: why a buffer, a slice or a stream could not be converted.

use crate::DType;
use core::fmt;

/// Why a buffer could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// ONNX `Cast` has no such conversion (complex, string, or a type ONNX lacks).
    Unsupported {
        /// The source dtype.
        from: DType,
        /// The target dtype.
        to: DType,
    },
    /// The input ends inside an element.
    PartialElement {
        /// The byte offset where the incomplete element starts.
        offset: u64,
        /// The element size in bytes.
        size: usize,
    },
    /// The input does not hold exactly the bytes a given number of elements take
    /// ([`convert_stream_exact`](crate::cast::convert_stream_exact)).
    ByteCount {
        /// The number of elements asked for.
        count: u64,
        /// Bits per element.
        bits: usize,
        /// The bytes the input holds, or `None` when it holds more than expected.
        found: Option<u64>,
    },
    /// A dtype name that promo does not know.
    UnknownDType(promo_table::UnknownDType),
    /// Typed slices of different lengths ([`cast_slice`](crate::cast::cast_slice)).
    LengthMismatch {
        /// Elements in the source.
        src: usize,
        /// Elements in the destination.
        dst: usize,
    },
    /// The output slice cannot hold the converted elements.
    OutputTooSmall {
        /// Bytes the output needs.
        needed: usize,
        /// Bytes the output has.
        len: usize,
    },
    /// This CPU lacks the instructions of the backend asked for
    /// ([`Converter::with_backend`](crate::cast::Converter::with_backend)).
    BackendUnavailable(crate::cast::Backend),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Unsupported { from, to } => write!(f, "no ONNX Cast from {from} to {to}"),
            ConvertError::PartialElement { offset, size } => write!(
                f,
                "the input ends inside an element: the element at byte offset {offset} is incomplete \
                 (elements are {size} bytes)"
            ),
            ConvertError::ByteCount { count, bits, found } => {
                let expected = (u128::from(*count) * *bits as u128).div_ceil(8);
                let s = if *count == 1 { "" } else { "s" };
                write!(
                    f,
                    "{count} element{s} of {bits} bits take {expected} bytes, but the input holds "
                )?;
                match found {
                    Some(n) => write!(f, "{n}"),
                    None => write!(f, "more"),
                }
            }
            ConvertError::UnknownDType(e) => e.fmt(f),
            ConvertError::OutputTooSmall { needed, len } => {
                write!(f, "the output needs {needed} bytes but has {len}")
            }
            ConvertError::BackendUnavailable(backend) => {
                write!(f, "this CPU lacks the instructions of the {backend} backend")
            }
            ConvertError::LengthMismatch { src, dst } => {
                write!(f, "the source has {src} elements but the destination {dst}")
            }
        }
    }
}

impl std::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConvertError::UnknownDType(e) => Some(e),
            _ => None,
        }
    }
}

impl From<promo_table::UnknownDType> for ConvertError {
    fn from(e: promo_table::UnknownDType) -> Self {
        ConvertError::UnknownDType(e)
    }
}
