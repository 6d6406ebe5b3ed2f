//! OpenVINO's `ConvertPromoteTypes` for any rule set: two operands in, both
//! converted to the type the rule set promotes them to.
//!
//! Run-time typed ([`convert_promote`]): the promotion is one lookup in the rule
//! set's `const` table and each conversion one [`Converter`], a monomorphized kernel
//! picked once from a `const` table, so there is no `match` over dtypes per element.
//! Compile-time typed ([`convert_promote_slices`]): [`Promote`] names the output
//! element type and each element is cast with ONNX `Cast`'s defaults.
//!
//! ```
//! use promo_core::convert_promote::{convert_promote, convert_promote_slices, Buffer};
//! use promo_core::rules::openvino::OpenVinoUnsafe;
//! use promo_core::{rules, DType, Op};
//!
//! // Run time: i8 and u8 under OpenVINO's unsafe mode meet in i16.
//! let table = &rules::openvino::TABLE;
//! let mut options = table.default_options();
//! table.set_option(&mut options, "promote_unsafe", "true").unwrap();
//! let lhs = Buffer { dtype: DType::I8, bytes: &[0xff, 0x02] };   // -1, 2
//! let rhs = Buffer { dtype: DType::U8, bytes: &[0xff, 0x80] };   // 255, 128
//! let out = convert_promote(table, &options, Op::Add, lhs, rhs).unwrap();
//! assert_eq!(out.dtype, DType::I16);
//! assert_eq!(out.lhs, [0xff, 0xff, 0x02, 0x00]);
//! assert_eq!(out.rhs, [0xff, 0x00, 0x80, 0x00]);
//!
//! // Compile time: the output element type is `Promoted<OpenVinoUnsafe, i8, u8>`.
//! let (a, b) = convert_promote_slices::<OpenVinoUnsafe, i8, u8>(&[-1, 2], &[255, 128]);
//! assert_eq!((a, b), (vec![-1i16, 2], vec![255i16, 128]));
//! ```

use crate::cast::{CastFrom, CastOptions, ConvertError, Converter};
use crate::{Element, Promote, Promoted, RuleSet};
use promo_table::{DType, Op, Operand, Options, Refusal, RuleTable};
use std::fmt;

/// A run-time typed operand: little-endian elements of `dtype` (4-bit types two
/// per byte, low nibble first).
#[derive(Clone, Copy, Debug)]
pub struct Buffer<'a> {
    /// The element type.
    pub dtype: DType,
    /// The elements.
    pub bytes: &'a [u8],
}

/// Both operands in their promoted type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotedBuffers {
    /// The promoted dtype.
    pub dtype: DType,
    /// The left operand's elements as `dtype`.
    pub lhs: Vec<u8>,
    /// The right operand's elements as `dtype`.
    pub rhs: Vec<u8>,
}

/// Why two buffers could not be converted to their promoted type.
#[derive(Clone, Debug, PartialEq)]
pub enum ConvertPromoteError<'a> {
    /// The rule set refuses the pair (or does not know a dtype).
    Refused(Refusal<'a>),
    /// The promoted type is one promo's casts do not reach (complex), or an
    /// operand's bytes are not whole elements.
    Convert(ConvertError),
}

impl fmt::Display for ConvertPromoteError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertPromoteError::Refused(r) => write!(f, "refused: {r}"),
            ConvertPromoteError::Convert(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConvertPromoteError<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // A refusal borrows the rule set; its text is in `Display`.
            ConvertPromoteError::Refused(_) => None,
            ConvertPromoteError::Convert(e) => Some(e),
        }
    }
}

/// Promotes `lhs` with `rhs` (as tensors) under `table`, `options` and `op`, and
/// converts both buffers to the result, with ONNX `Cast`'s default options.
pub fn convert_promote<'a>(
    table: &RuleTable<'a>,
    options: &Options,
    op: Op,
    lhs: Buffer<'_>,
    rhs: Buffer<'_>,
) -> Result<PromotedBuffers, ConvertPromoteError<'a>> {
    let dtype = table
        .promote(
            options,
            op,
            Operand::Dimensioned(lhs.dtype),
            Operand::Dimensioned(rhs.dtype),
        )
        .map_err(ConvertPromoteError::Refused)?;
    both_converted(dtype, lhs, rhs)
}

/// The converter a [`convert_promote`] of `lhs` with `rhs` would use for each side,
/// for callers that convert many buffers of the same pair of dtypes.
pub fn converters<'a>(
    table: &RuleTable<'a>,
    options: &Options,
    op: Op,
    lhs: DType,
    rhs: DType,
) -> Result<(DType, Converter, Converter), ConvertPromoteError<'a>> {
    let dtype = table
        .promote(options, op, Operand::Dimensioned(lhs), Operand::Dimensioned(rhs))
        .map_err(ConvertPromoteError::Refused)?;
    let converter =
        |from| Converter::new(from, dtype, CastOptions::default()).map_err(ConvertPromoteError::Convert);
    Ok((dtype, converter(lhs)?, converter(rhs)?))
}

/// Two vectors of one element type: both operands after promotion.
pub type VecPair<T> = (Vec<T>, Vec<T>);

/// Both slices converted to `Promoted<R, A, B>`, element by element with ONNX
/// `Cast`'s defaults (exact wherever the promoted type holds the value).
pub fn convert_promote_slices<R, A, B>(lhs: &[A], rhs: &[B]) -> VecPair<Promoted<R, A, B>>
where
    A: Element,
    B: Element,
    R: Promote<A, B>,
    Promoted<R, A, B>: CastFrom<A> + CastFrom<B>,
{
    let options = CastOptions::default();
    (
        lhs.iter().map(|&a| CastFrom::cast_from(a, &options)).collect(),
        rhs.iter().map(|&b| CastFrom::cast_from(b, &options)).collect(),
    )
}

/// [`convert_promote`] under marker `R`'s options for `add`: the promotion one load
/// from the marker's fixed table ([`RuleSet::promote`]), each conversion one
/// [`Converter`] (a kernel picked once from the `const` table of monomorphized
/// kernels).
///
/// ```
/// use promo_core::convert_promote::{convert_promote_as, Buffer};
/// use promo_core::rules::kernel_float::KernelFloat;
/// use promo_core::DType;
/// let lhs = Buffer { dtype: DType::I8, bytes: &[0xfe] };             // -2
/// let rhs = Buffer { dtype: DType::F32, bytes: &0.5f32.to_le_bytes() };
/// let out = convert_promote_as::<KernelFloat>(lhs, rhs).unwrap();
/// assert_eq!((out.dtype, out.lhs), (DType::F32, (-2.0f32).to_le_bytes().to_vec()));
/// ```
pub fn convert_promote_as<R: RuleSet>(
    lhs: Buffer<'_>,
    rhs: Buffer<'_>,
) -> Result<PromotedBuffers, ConvertPromoteError<'static>> {
    let dtype = R::promote(Op::Add, lhs.dtype, rhs.dtype).map_err(ConvertPromoteError::Refused)?;
    both_converted(dtype, lhs, rhs)
}

/// Both buffers converted to `dtype`, with ONNX `Cast`'s default options.
fn both_converted<'a>(
    dtype: DType,
    lhs: Buffer<'_>,
    rhs: Buffer<'_>,
) -> Result<PromotedBuffers, ConvertPromoteError<'a>> {
    let convert = |b: Buffer<'_>| {
        crate::cast::convert(b.dtype, dtype, b.bytes, &CastOptions::default())
            .map_err(ConvertPromoteError::Convert)
    };
    Ok(PromotedBuffers {
        dtype,
        lhs: convert(lhs)?,
        rhs: convert(rhs)?,
    })
}
