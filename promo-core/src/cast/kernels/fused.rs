//! Fused `a OP b` kernels: both operands decoded by the cast kernels' decode
//! blocks into f32 lanes, the operation computed on the lanes, the result encoded
//! by an encode block (or written as bools), one pass, nothing in memory between.
//!
//! A kernel is made for a pair `(X, Y)`: `X` is the dtype the operation's values
//! take (the result dtype for arithmetic, the promoted pair's for comparisons) and
//! is one operand's dtype, `Y` the other operand's. The caller
//! ([`Computation`](crate::compute::Computation)) asks for one only where it
//! computes exactly what the framework does: `Y`'s every value exact in `X`, `X`
//! at most 32 bits wide (f32 lanes then hold every value and give the correctly
//! rounded result), and none of the framework's special cases in play. The
//! kernels compute whole blocks from the start of the slices; the caller does the
//! rest.

use super::backend::{Backend, Plan};
use super::formats::{Lanes, Sink, Source, Target};
use crate::compute::ZeroTie;
use crate::element::for_each_element;
use crate::narrow::Reference;
use crate::DType;
use core::marker::PhantomData;

/// The operation a fused kernel computes on f32 lanes, `lhs OP rhs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FusedOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    /// `maximum`: NaN wins, ties as the tie rule says.
    Maximum(ZeroTie),
    /// `minimum`: NaN wins, ties as the tie rule says.
    Minimum(ZeroTie),
    /// A comparison (false where an operand is NaN, but `!=`).
    Compare(Comparison),
}

/// The six comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

/// What a fused body needs at run time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FusedPlan {
    /// The operation.
    pub(crate) op: FusedOp,
    /// Whether the `X` operand is the right-hand one.
    pub(crate) x_is_rhs: bool,
    /// One operand is a single element, this value: `(on the X side, value)`.
    pub(crate) splat: Option<(bool, f32)>,
    /// The encoder's options (saturation of the narrow formats).
    pub(crate) encode: Plan,
}

/// A fused body: whole blocks of the first `count` elements from the start of
/// the `X` operand, the `Y` operand and the output; returns how many elements it
/// computed.
///
/// # Safety
/// The CPU has the backend's features; the slices hold the same number of
/// elements (but a splat side's, which is not read).
pub(crate) type FusedBody =
    unsafe fn(x: &[u8], y: &[u8], dst: &mut [u8], count: usize, plan: &FusedPlan) -> usize;

/// The fused bodies of one pair: arithmetic (the result in `X`) and comparisons
/// (bools).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FusedKernels {
    pub(crate) arithmetic: Option<FusedBody>,
    pub(crate) compare: Option<FusedBody>,
}

/// Mantissa bits of a float sink the fused kernels write, if they write it.
const fn sink_mantissa(t: Sink) -> Option<u32> {
    match t {
        Sink::F32 => Some(23),
        Sink::Float(spec) if matches!(spec.reference, Reference::Triton) => None,
        Sink::Float(spec) => Some(spec.man_bits),
        _ => None,
    }
}

/// Whether the decode blocks read `s` into f32 lanes exactly.
const fn decodes(s: Source) -> bool {
    match s {
        Source::F32 | Source::F16 | Source::BF16 | Source::Nibble(_) => true,
        Source::Byte { nibbles, .. } => nibbles.is_some(),
        Source::Int(i) => i.bytes <= 2,
        _ => false,
    }
}

/// Whether a kernel for `(x, y)` is compiled: both decode, `x` is a float the
/// encoders write, and `y` may be exact in `x` (the caller checks that exactly;
/// this only keeps out the pairs that never are, and pairs of two different
/// narrow formats).
const fn compiled(x: Source, x_sink: Sink, y: Source) -> bool {
    let Some(man) = sink_mantissa(x_sink) else {
        return false;
    };
    if !decodes(x) || !decodes(y) {
        return false;
    }
    let wide = matches!(x, Source::F32 | Source::F16 | Source::BF16);
    match y {
        Source::Int(i) if i.bool => true,
        Source::Int(i) => (8 * i.bytes as u32) - i.signed as u32 <= man + 1,
        Source::F32 => matches!(x, Source::F32),
        Source::F16 => matches!(x, Source::F32 | Source::F16),
        Source::BF16 => matches!(x, Source::F32 | Source::BF16),
        Source::Nibble(_) => wide || man >= 3 || same(x, y),
        Source::Byte { .. } => wide || same(x, y),
        _ => false,
    }
}

/// Whether two byte or nibble sources are one format.
const fn same(a: Source, b: Source) -> bool {
    match (a, b) {
        (Source::Byte { spec: sa, .. }, Source::Byte { spec: sb, .. }) => {
            sa.exp_bits == sb.exp_bits
                && sa.man_bits == sb.man_bits
                && sa.bias == sb.bias
                && sa.nan.0 == sb.nan.0
                && sa.nan.1 == sb.nan.1
        }
        (Source::Nibble(ta), Source::Nibble(tb)) => {
            let mut i = 0;
            while i < 16 {
                if ta[i] != tb[i] {
                    return false;
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

/// The kernels of one pair on the AVX2 blocks, chosen at compile time (only the
/// pairs [`compiled`] accepts are instantiated).
struct Pick<X, Y>(PhantomData<(X, Y)>);

impl<X: Lanes + Target, Y: Lanes> Pick<X, Y> {
    #[cfg(target_arch = "x86_64")]
    const KERNELS: Option<FusedKernels> = if compiled(X::SOURCE, X::SINK, Y::SOURCE) {
        Some(FusedKernels {
            arithmetic: Some(super::x86_avx2::fused::arithmetic::<X, Y>),
            compare: Some(super::x86_avx2::fused::compare::<X, Y>),
        })
    } else {
        None
    };
    #[cfg(not(target_arch = "x86_64"))]
    const KERNELS: Option<FusedKernels> = None;
}

macro_rules! find_pair {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        /// The AVX2 kernels of the pair `(x, y)`, if compiled.
        fn find_pair(x: DType, y: DType) -> Option<FusedKernels> {
            match x {
                $(DType::$dtype => find_y::<$t>(y),)*
                _ => None,
            }
        }

        /// The AVX2 kernels of `(X, y)`, if compiled.
        fn find_y<X: Lanes + Target>(y: DType) -> Option<FusedKernels> {
            match y {
                $(DType::$dtype => Pick::<X, $t>::KERNELS,)*
                _ => None,
            }
        }
    };
}
for_each_element!(find_pair);

/// The fused kernels of `(x, y)` on `backend`, if it has them (AVX2 and AVX-512,
/// which runs AVX2's blocks here) and the CPU runs it.
pub(crate) fn find(x: DType, y: DType, backend: Backend) -> Option<FusedKernels> {
    if !backend.is_available() || backend == Backend::Portable {
        return None;
    }
    find_pair(x, y)
}

/// What the encoders need of `options` for results of `result`, as the driver's
/// `plan` gives the cast kernels.
pub(crate) fn encode_plan(result: DType, options: &super::CastOptions) -> Plan {
    let (saturate, fnuz_inf_is_nan) = match crate::narrow::spec_of(result) {
        Some(spec) if spec.bits() > 8 => (false, false),
        Some(spec) => (
            options.saturates(spec.reference),
            options.fnuz_inf_is_nan() && matches!(spec.reference, Reference::Onnx),
        ),
        None => (options.saturates(Reference::Onnx), false),
    };
    Plan {
        saturate,
        fnuz_inf_is_nan,
        round_mode: options.round_mode,
    }
}
