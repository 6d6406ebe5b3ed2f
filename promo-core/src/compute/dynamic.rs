//! [`Computation`]: `a OP b` over byte buffers whose dtypes are known at run time,
//! as one framework computes it, its plan made once.

use super::semantics::{Semantics, ZeroTie};
use crate::cast::kernels::fused::{self, Comparison, FusedBody, FusedOp, FusedPlan};
use crate::cast::{element_size, Backend, CastOptions, Converter};
use crate::DType;
use core::fmt;
use promo_table::{Op, Options, RuleTable};

/// The operations [`Computation`] computes: the arithmetic, `maximum`/`minimum`
/// and the six comparisons (`divide` is true division).
pub const OPS: [Op; 12] = [
    Op::Add,
    Op::Subtract,
    Op::Multiply,
    Op::Divide,
    Op::Maximum,
    Op::Minimum,
    Op::Equal,
    Op::NotEqual,
    Op::LessThan,
    Op::LessEqual,
    Op::GreaterThan,
    Op::GreaterEqual,
];

/// Why a [`Computation`] cannot be made or applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComputeError {
    /// The rule set refuses the operands, with its reason.
    Refused(String),
    /// promo does not compute this rule set's arithmetic (its framework has no
    /// [`Semantics`] here).
    NoSemantics(String),
    /// Not one of [`OPS`].
    UnsupportedOp(Op),
    /// A dtype without buffers or arithmetic here (complex).
    UnsupportedDType(DType),
    /// An operand holds neither `count` elements nor one.
    Length {
        /// Which operand: `lhs` or `rhs`.
        operand: &'static str,
        /// Its length in bytes.
        bytes: usize,
        /// The elements the output is to hold.
        count: usize,
    },
    /// A typed output whose element type is not the operation's result dtype.
    ResultDType {
        /// The operation's result dtype.
        result: DType,
        /// The output's element type.
        out: DType,
    },
    /// The output is shorter than `count` elements of the result dtype.
    OutputTooSmall {
        /// Bytes it needs.
        needed: usize,
        /// Bytes it has.
        len: usize,
    },
    /// The framework refuses the Python scalar's value (an int out of range), in
    /// its words.
    ScalarOutOfRange(String),
    /// The operand that is the Python scalar was given bytes: its slice must be
    /// empty.
    ScalarBytes {
        /// Which operand: `lhs` or `rhs`.
        operand: &'static str,
        /// Its length in bytes.
        bytes: usize,
    },
}

impl fmt::Display for ComputeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComputeError::Refused(reason) => write!(f, "refused: {reason}"),
            ComputeError::NoSemantics(rules) => write!(
                f,
                "promo does not compute {rules}'s arithmetic (it computes numpy, torch, jax, tensorflow and mlx)"
            ),
            ComputeError::UnsupportedOp(op) => write!(
                f,
                "`{}` is not computed: the operations are {}",
                op.name(),
                OPS.map(|o| o.name()).join(", ")
            ),
            ComputeError::UnsupportedDType(d) => write!(f, "{d} has no arithmetic here"),
            ComputeError::Length { operand, bytes, count } => write!(
                f,
                "the {operand} operand's {bytes} bytes hold neither {count} elements nor one"
            ),
            ComputeError::ResultDType { result, out } => write!(
                f,
                "the result is {result}, the output holds {out}: compute into {result}, or use the byte API"
            ),
            ComputeError::OutputTooSmall { needed, len } => {
                write!(f, "the output has {len} bytes; the result needs {needed}")
            }
            ComputeError::ScalarOutOfRange(message) => write!(f, "refused: {message}"),
            ComputeError::ScalarBytes { operand, bytes } => write!(
                f,
                "the {operand} operand is the Python scalar: its slice must be empty, not {bytes} bytes"
            ),
        }
    }
}

impl std::error::Error for ComputeError {}

/// What the values of the operation are, between decoding and encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Work {
    /// Floats, held as `f64` (exact for every float dtype); the operation rounds
    /// to `f32` first when `single`.
    Float { single: bool },
    /// Integers and bools, held as `i64`; `u64` as its bits, compared unsigned.
    Int { u64: bool, bool: bool },
}

impl Work {
    /// The work values of the values' dtype `value`.
    pub(super) fn of(value: DType) -> Work {
        if value.is_float() {
            Work::Float {
                single: value != DType::F64,
            }
        } else {
            Work::Int {
                u64: value == DType::U64,
                bool: value == DType::Bool,
            }
        }
    }
}

/// One operand's way into [`Work`] values.
#[derive(Clone, Copy, Debug)]
pub(super) struct Load {
    pub(super) bits: usize,
    path: Path,
}

/// How an operand's elements become work values.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Cast into the value dtype (unless it is that dtype), then into `f64` or
    /// `i64`: the framework's conversion is ONNX `Cast`'s.
    Cast {
        to_value: Option<Converter>,
        to_work: Converter,
    },
    /// Read into `f64` exactly, then (when flushing) flushed below `own_tiny`,
    /// then (`f8e8m0` values) every value that is not a positive number made NaN,
    /// then rounded into the value dtype and back (`round`, unless it is the
    /// operand's own dtype).
    Straight {
        to_f64: Converter,
        own_tiny: f64,
        e8m0: bool,
        round: Option<(Converter, Converter)>,
    },
    /// A float into an integer value dtype as ml_dtypes converts it: truncated,
    /// wrapped around (through `i64` into the value dtype and back), ±∞ all ones.
    Truncate {
        to_f64: Converter,
        wrap: (Converter, Converter),
    },
}

/// `a OP b` for two dtypes under one rule set and its options, planned once: the
/// result dtype, the dtype it computes in, and the conversions, as
/// [`Semantics`] says the framework does it.
/// [`Computation::with_scalar`] plans `array OP scalar` with a Python scalar
/// operand instead.
///
/// ```
/// use promo_core::compute::Computation;
/// use promo_core::{rules, DType, Op};
/// let numpy = &rules::numpy::TABLE;
/// let add = Computation::new(numpy, &numpy.default_options(), Op::Add, DType::I8, DType::F16)?;
/// assert_eq!((add.result(), add.compute()), (DType::F16, DType::F32));
/// let (a, b) = ([100u8, 0xff], 0x3c00u16.to_le_bytes()); // [100, -1] and [1.0]
/// let mut out = [0u8; 4];
/// add.apply(&a, &b, &mut out, 2)?;
/// assert_eq!(out, [0x50, 0x56, 0x00, 0x00]); // [101.0, 0.0] in f16
/// # Ok::<(), promo_core::compute::ComputeError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Computation {
    pub(super) semantics: Semantics,
    pub(super) op: Op,
    pub(super) lhs: Load,
    pub(super) rhs: Load,
    pub(super) result: DType,
    pub(super) result_bits: usize,
    /// The dtype the operands are converted to (the result's for arithmetic, the
    /// promoted pair's for comparisons).
    pub(super) value: DType,
    pub(super) work: Work,
    /// Work values into the result: `f64` → `f32` (when `single`), then into the
    /// result dtype; or `i64` into it.
    pub(super) store: (Option<Converter>, Option<Converter>),
    pub(super) tie: ZeroTie,
    /// The bool operand of a `bool * x` the framework computes as a select.
    pub(super) select: Option<Side>,
    /// Whether operands and results are flushed to zero below the smallest
    /// normal (the semantics', but for a select).
    pub(super) flush: bool,
    /// Whether each operand's integer work values are `u64` bits (an exact
    /// comparison of `i64` with `u64` reads each as its own dtype).
    pub(super) unsigned: (bool, bool),
    /// The operation the kernel computes: `op`, but `multiply` where a division
    /// is rewritten as a product with a reciprocal.
    pub(super) compute_op: Op,
    /// A Python scalar operand: its side and its work value, converted once.
    pub(super) scalar: Option<(Side, Fixed)>,
    /// The array operand's values are replaced by their reciprocals rounded to
    /// the result dtype (in `f32` first when `single`), through these
    /// conversions (`f64` into the result and back): PyTorch's `s / x`.
    pub(super) reciprocal: Option<(Converter, Converter)>,
    /// The fused kernel, where one computes this exactly.
    pub(super) fused: Option<Fused>,
}

/// A fused kernel and its plan.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fused {
    body: FusedBody,
    plan: FusedPlan,
    backend: Backend,
}

/// A Python scalar's work value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Fixed {
    /// A float work value.
    Float(f64),
    /// An integer work value (`u64` bits where its `unsigned` flag says so).
    Int(i64),
    /// A comparison whose answer is the same for every element (an int beyond
    /// every value of the array's dtype).
    Always(bool),
}

/// Elements per step of the general path: every operand's chunk starts on a byte.
const CHUNK: usize = 1024;

impl Computation {
    /// `op` of `lhs` with `rhs` under `table` with `options`, planned on the
    /// fastest backend this CPU has.
    pub fn new(
        table: &RuleTable<'static>,
        options: &Options,
        op: Op,
        lhs: DType,
        rhs: DType,
    ) -> Result<Self, ComputeError> {
        Self::with_backend(table, options, op, lhs, rhs, Backend::detect())
    }

    /// [`Computation::new`] on the given backend (every backend gives the same
    /// bits; this is for tests and benchmarks).
    pub fn with_backend(
        table: &RuleTable<'static>,
        options: &Options,
        op: Op,
        lhs: DType,
        rhs: DType,
        backend: Backend,
    ) -> Result<Self, ComputeError> {
        let semantics = Semantics::computing(table, op)?;
        for d in [lhs, rhs] {
            if d.is_complex() || element_size(d).is_none() {
                return Err(ComputeError::UnsupportedDType(d));
            }
        }
        let refused = |r: promo_table::Refusal<'_>| ComputeError::Refused(r.to_string());
        let result = table
            .promote(options, op, lhs.into(), rhs.into())
            .map_err(refused)?;
        // A comparison converts both operands to the dtype `maximum` computes in
        // (NumPy's comparison loops are those of `maximum`, not of `add`, whose
        // ml_dtypes loops are asymmetric: `i4 + f8e4m3fn` is `i4`).
        let exact =
            is_comparison(op) && semantics.exact_integer_comparisons && !lhs.is_float() && !rhs.is_float();
        let value = if exact {
            DType::I64
        } else if is_comparison(op) {
            match table.promote(options, Op::Maximum, lhs.into(), rhs.into()) {
                Ok(common) => common,
                Err(_) if lhs == rhs => lhs,
                Err(r) => return Err(refused(r)),
            }
        } else {
            result
        };
        for d in [result, value] {
            if d.is_complex() || element_size(d).is_none() {
                return Err(ComputeError::UnsupportedDType(d));
            }
        }
        let cast = semantics.cast_options(value);
        let conv = |from: DType, to: DType| {
            Converter::new(from, to, cast).map_err(|_| ComputeError::UnsupportedDType(from))
        };
        let work = Work::of(value);
        let select = match (op, lhs, rhs, result) {
            _ if !semantics.bool_multiply_selects => None,
            (Op::Multiply, DType::Bool, DType::Bool, _) => None,
            (Op::Multiply, DType::Bool, _, DType::F16 | DType::F32 | DType::F64) => Some(Side::Lhs),
            (Op::Multiply, _, DType::Bool, DType::F16 | DType::F32 | DType::F64) => Some(Side::Rhs),
            _ => None,
        };
        // A select reads its operand as it is: `True * x` keeps a subnormal `x`.
        let flush = semantics.flush_subnormals && select.is_none();
        let load = |dtype: DType| plan_load(dtype, value, flush, &semantics, &conv);
        let store = plan_store(op, work, result, &conv)?;
        let mut computation = Computation {
            semantics,
            op,
            lhs: load(lhs)?,
            rhs: load(rhs)?,
            result,
            result_bits: element_size(result).ok_or(ComputeError::UnsupportedDType(result))?,
            value,
            work,
            store,
            tie: semantics.tie(result),
            select,
            flush,
            unsigned: if exact {
                (lhs == DType::U64, rhs == DType::U64)
            } else {
                (value == DType::U64, value == DType::U64)
            },
            compute_op: op,
            scalar: None,
            reciprocal: None,
            fused: None,
        };
        computation.fused = computation.find_fused(lhs, rhs, backend, &cast);
        Ok(computation)
    }

    /// The fused kernel for this computation on `backend`, where one gives
    /// exactly what the plain path gives: the values' dtype at most 32 bits wide
    /// and one operand's, the other operand's every value exact in it, and none
    /// of the framework's special cases (a select, flushing that could matter,
    /// `f8e8m0`, XLA's NaN into a format without NaN) in play.
    fn find_fused(&self, lhs: DType, rhs: DType, backend: Backend, cast: &CastOptions) -> Option<Fused> {
        let flush_matters = self.flush
            && [lhs, rhs]
                .iter()
                .any(|d| matches!(d, DType::F32 | DType::BF16 | DType::F64 | DType::F8E8M0));
        if flush_matters || !exact_in(lhs, self.value) || !exact_in(rhs, self.value) {
            return None;
        }
        let (x_is_rhs, y) = if lhs == self.value {
            (false, rhs)
        } else if rhs == self.value {
            (true, lhs)
        } else {
            return None;
        };
        self.fused_kernel(y, x_is_rhs, None, backend, cast)
    }

    /// The fused kernel for an array of the values' dtype with a Python scalar
    /// whose work value `f32` holds, where flushing and a reciprocal rewrite of
    /// the array are not in play: the scalar is a splat, decoded once.
    pub(super) fn find_fused_scalar(
        &self,
        array: DType,
        backend: Backend,
        cast: &CastOptions,
    ) -> Option<Fused> {
        let Some((side, Fixed::Float(v))) = self.scalar else {
            return None;
        };
        let single = v as f32;
        if self.flush
            || self.reciprocal.is_some()
            || array != self.value
            || !(v.is_nan() || f64::from(single) == v)
        {
            return None;
        }
        self.fused_kernel(array, side == Side::Lhs, Some(single), backend, cast)
    }

    /// The fused kernel of the values' dtype with `y` on `backend`, the `X`
    /// operand on the right when `x_is_rhs`, the `Y` operand a splat of
    /// `splat_y` when given; `None` where the values' dtype or the framework's
    /// special cases (a select, `f8e8m0`, XLA's NaN into a format without NaN)
    /// leave it to the plain path.
    fn fused_kernel(
        &self,
        y: DType,
        x_is_rhs: bool,
        splat_y: Option<f32>,
        backend: Backend,
        cast: &CastOptions,
    ) -> Option<Fused> {
        let value = self.value;
        let comparison = is_comparison(self.op);
        let nanless = matches!(value, DType::F4E2M1 | DType::F6E2M3FN | DType::F6E3M2FN);
        if !value.is_float()
            || value == DType::F64
            || value == DType::F8E8M0
            || self.select.is_some()
            || (nanless && self.semantics.nan_into_nanless_is_negative_zero && !comparison)
        {
            return None;
        }
        let kernels = fused::find(value, y, backend)?;
        let body = if comparison {
            kernels.compare
        } else {
            kernels.arithmetic
        }?;
        let op = match self.compute_op {
            Op::Add => FusedOp::Add,
            Op::Subtract => FusedOp::Subtract,
            Op::Multiply => FusedOp::Multiply,
            Op::Divide => FusedOp::Divide,
            Op::Maximum => FusedOp::Maximum(self.tie),
            Op::Minimum => FusedOp::Minimum(self.tie),
            Op::Equal => FusedOp::Compare(Comparison::Equal),
            Op::NotEqual => FusedOp::Compare(Comparison::NotEqual),
            Op::LessThan => FusedOp::Compare(Comparison::Less),
            Op::LessEqual => FusedOp::Compare(Comparison::LessEqual),
            Op::GreaterThan => FusedOp::Compare(Comparison::Greater),
            _ => FusedOp::Compare(Comparison::GreaterEqual),
        };
        Some(Fused {
            body,
            plan: FusedPlan {
                op,
                x_is_rhs,
                splat: splat_y.map(|v| (false, v)),
                encode: fused::encode_plan(value, cast),
            },
            backend,
        })
    }

    /// The backend whose fused kernel this computation runs ([`Backend::Portable`]:
    /// the plain path, chunks through the cast kernels).
    pub fn backend(&self) -> Backend {
        self.fused.map_or(Backend::Portable, |f| f.backend)
    }

    /// The result dtype.
    pub fn result(&self) -> DType {
        self.result
    }

    /// The dtype the operation computes in: `f32` for results narrower than `f32`
    /// (and for comparisons of such dtypes), else the result dtype (the promoted
    /// pair's for comparisons).
    pub fn compute(&self) -> DType {
        match self.work {
            Work::Float { single: true } => DType::F32,
            Work::Float { single: false } => DType::F64,
            Work::Int { .. } => self.value,
        }
    }

    /// The operation.
    pub fn op(&self) -> Op {
        self.op
    }

    /// The framework's semantics it follows.
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// Whether each operand is one element (or the scalar), and the output's
    /// bytes; the errors [`Computation::apply`] names.
    fn check(
        &self,
        lhs: &[u8],
        rhs: &[u8],
        out: &[u8],
        count: usize,
    ) -> Result<(bool, bool, usize), ComputeError> {
        let scalar_side = self.scalar.map(|(side, _)| side);
        let broadcast = |load: &Load, bytes: &[u8], operand| {
            let full = (count * load.bits).div_ceil(8);
            let is_scalar = match operand {
                "lhs" => scalar_side == Some(Side::Lhs),
                _ => scalar_side == Some(Side::Rhs),
            };
            if is_scalar {
                if bytes.is_empty() {
                    Ok(true)
                } else {
                    Err(ComputeError::ScalarBytes {
                        operand,
                        bytes: bytes.len(),
                    })
                }
            } else if bytes.len() == full {
                Ok(false)
            } else if bytes.len() == load.bits.div_ceil(8) {
                Ok(true)
            } else {
                Err(ComputeError::Length {
                    operand,
                    bytes: bytes.len(),
                    count,
                })
            }
        };
        let one_lhs = broadcast(&self.lhs, lhs, "lhs")?;
        let one_rhs = broadcast(&self.rhs, rhs, "rhs")?;
        let needed = (count * self.result_bits).div_ceil(8);
        if out.len() < needed {
            return Err(ComputeError::OutputTooSmall {
                needed,
                len: out.len(),
            });
        }
        Ok((one_lhs, one_rhs, needed))
    }

    /// `count` results of `lhs OP rhs` into the start of `out`; returns the bytes
    /// written. Each operand holds `count` elements of its dtype, or one, which is
    /// used with every element of the other (little-endian; 4-bit types two per
    /// byte, low nibble first; 2-bit types four per byte). Anything else is
    /// [`ComputeError::Length`], never a shorter result. The side of a Python
    /// scalar ([`Computation::with_scalar`]) is the empty slice `&[]`; any bytes
    /// there are [`ComputeError::ScalarBytes`].
    pub fn apply(&self, lhs: &[u8], rhs: &[u8], out: &mut [u8], count: usize) -> Result<usize, ComputeError> {
        let (one_lhs, one_rhs, needed) = self.check(lhs, rhs, out, count)?;
        if let Some((_, Fixed::Always(answer))) = self.scalar {
            out[..needed].fill(u8::from(answer));
            return Ok(needed);
        }
        self.run(
            Operands {
                lhs,
                one_lhs,
                rhs,
                one_rhs,
            },
            &mut out[..needed],
            count,
        );
        Ok(needed)
    }

    /// `count` results into `out` (which holds exactly them): a head by the
    /// plain path up to where `out` is aligned for the fused kernel's stores (and
    /// its streaming stores of a large output), the fused kernel's whole blocks,
    /// and the rest by the plain path.
    fn run(&self, ops: Operands<'_>, out: &mut [u8], count: usize) {
        let fused = self.fused.filter(|_| !(ops.one_lhs && ops.one_rhs));
        let head = match fused {
            Some(_) => self.aligned_head(out, count),
            None => 0,
        };
        let rb = self.result_bits;
        self.general(
            ops.lhs,
            ops.one_lhs,
            ops.rhs,
            ops.one_rhs,
            &mut out[..head * rb / 8],
            head,
        );
        let (ops, out, count) = (ops.skip(head, self), &mut out[head * rb / 8..], count - head);
        let done = match &fused {
            Some(fused) => self.run_fused(fused, ops.lhs, ops.one_lhs, ops.rhs, ops.one_rhs, out, count),
            None => 0,
        };
        let ops = ops.skip(done, self);
        self.general(
            ops.lhs,
            ops.one_lhs,
            ops.rhs,
            ops.one_rhs,
            &mut out[done * rb / 8..],
            count - done,
        );
    }

    /// How many of `count` results take `out` to a 32-byte boundary, whole bytes
    /// of every operand (0 for packed results, or where no count of them does).
    fn aligned_head(&self, out: &[u8], count: usize) -> usize {
        let rb = self.result_bits;
        let bytes = (32 - out.as_ptr() as usize % 32) % 32;
        if rb < 8 || !(bytes * 8).is_multiple_of(rb) {
            return 0;
        }
        let head = bytes * 8 / rb;
        if [self.lhs.bits, self.rhs.bits]
            .iter()
            .any(|b| !(head * b).is_multiple_of(8))
        {
            return 0;
        }
        head.min(count)
    }

    /// [`Computation::apply`] on rayon's threads: from
    /// [`PAR_MIN_ELEMENTS`](crate::cast::PAR_MIN_ELEMENTS) elements on, one part per
    /// thread of the pool, each part starting on a 64-byte line of every operand
    /// and of the output; the same bits as `apply` (feature `rayon`).
    #[cfg(feature = "rayon")]
    pub fn par_apply(
        &self,
        lhs: &[u8],
        rhs: &[u8],
        out: &mut [u8],
        count: usize,
    ) -> Result<usize, ComputeError> {
        use rayon::prelude::*;
        let threads = rayon::current_num_threads();
        if count < crate::cast::PAR_MIN_ELEMENTS
            || threads < 2
            || self.scalar.is_some_and(|(_, f)| matches!(f, Fixed::Always(_)))
        {
            return self.apply(lhs, rhs, out, count);
        }
        // Checks the lengths (and writes nothing: no element).
        let (one_lhs, one_rhs, needed) = self.check(lhs, rhs, out, count)?;
        let narrowest = self.lhs.bits.min(self.rhs.bits).min(self.result_bits);
        let unit = (512 / narrowest).max(32);
        let part = count.div_ceil(threads).next_multiple_of(unit);
        let ops = Operands {
            lhs,
            one_lhs,
            rhs,
            one_rhs,
        };
        out[..needed]
            .par_chunks_mut(part * self.result_bits / 8)
            .enumerate()
            .for_each(|(i, o)| {
                let start = i * part;
                self.run(ops.skip(start, self), o, part.min(count - start));
            });
        Ok(needed)
    }

    /// Whole blocks by the fused kernel; returns how many elements it computed.
    #[allow(clippy::too_many_arguments)]
    fn run_fused(
        &self,
        fused: &Fused,
        lhs: &[u8],
        one_lhs: bool,
        rhs: &[u8],
        one_rhs: bool,
        out: &mut [u8],
        count: usize,
    ) -> usize {
        let mut plan = fused.plan;
        let (x, y) = if plan.x_is_rhs { (rhs, lhs) } else { (lhs, rhs) };
        // A Python scalar's splat is in the plan; an operand of one element is
        // decoded here.
        if self.scalar.is_none() && (one_lhs || one_rhs) {
            // The single element's value, as the plain path reads it (exact in f32).
            let (load, bytes) = if one_lhs {
                (&self.lhs, lhs)
            } else {
                (&self.rhs, rhs)
            };
            let mut v = Values::new(self.work, 1);
            self.load(load, bytes, 1, &mut v, &mut Scratch::new(1));
            plan.splat = Some((one_lhs != plan.x_is_rhs, v.f[0] as f32));
        }
        // SAFETY: `find_fused` took the body from `fused::find` for a backend this
        // CPU runs; the three slices hold the same number of elements (`apply`
        // checked the operands' lengths and cut `out` to them), but the splat
        // side, which the body does not read.
        unsafe { (fused.body)(x, y, out, count, &plan) }
    }

    /// The plain path: chunks of [`CHUNK`] elements decoded into `f64` or `i64`
    /// work values by the cast kernels, computed, and encoded.
    fn general(&self, lhs: &[u8], one_lhs: bool, rhs: &[u8], one_rhs: bool, out: &mut [u8], count: usize) {
        if count == 0 {
            return;
        }
        // Buffers for one chunk, no larger than the elements need (a fused
        // kernel's head and tail are a few).
        let room = CHUNK.min(count);
        let mut a = Values::new(self.work, room);
        let mut b = Values::new(self.work, room);
        let mut scratch = Scratch::new(room);
        if one_lhs {
            self.load_one(Side::Lhs, lhs, &mut a, &mut scratch);
        }
        if one_rhs {
            self.load_one(Side::Rhs, rhs, &mut b, &mut scratch);
        }
        let mut start = 0;
        while start < count {
            let n = CHUNK.min(count - start);
            if !one_lhs {
                self.load(
                    &self.lhs,
                    &lhs[start * self.lhs.bits / 8..],
                    n,
                    &mut a,
                    &mut scratch,
                );
                self.reciprocals(&mut a, n, &mut scratch);
            }
            if !one_rhs {
                self.load(
                    &self.rhs,
                    &rhs[start * self.rhs.bits / 8..],
                    n,
                    &mut b,
                    &mut scratch,
                );
                self.reciprocals(&mut b, n, &mut scratch);
            }
            let at = start * self.result_bits / 8;
            let end = ((start + n) * self.result_bits).div_ceil(8);
            self.compute_chunk(&a, &b, n, &mut out[at..end], &mut scratch);
            start += n;
        }
    }

    /// One operand's one element (or its Python scalar) into work values, used
    /// with every element of the other.
    fn load_one(&self, side: Side, src: &[u8], into: &mut Values, scratch: &mut Scratch) {
        match self.scalar {
            Some((s, fixed)) if s == side => match fixed {
                Fixed::Float(x) => into.f[0] = x,
                Fixed::Int(i) => into.i[0] = i,
                Fixed::Always(_) => {}
            },
            _ => {
                let load = if side == Side::Lhs { &self.lhs } else { &self.rhs };
                self.load(load, src, 1, into, scratch);
                self.reciprocals(into, 1, scratch);
            }
        }
        into.fill();
    }

    /// Replaces the array operand's values by their reciprocals rounded to the
    /// result dtype, where the plan says so (PyTorch's `s / x`).
    fn reciprocals(&self, values: &mut Values, n: usize, scratch: &mut Scratch) {
        let Some((to_result, back)) = self.reciprocal else {
            return;
        };
        let xs = &mut values.f[..n];
        let single = matches!(self.work, Work::Float { single: true });
        for x in xs.iter_mut() {
            let r = 1.0 / *x;
            *x = if single { f64::from(r as f32) } else { r };
        }
        let bytes = &mut scratch.bytes[..8 * n];
        write_f64(xs, bytes);
        to_result.run(bytes, &mut scratch.value, n);
        back.run(&scratch.value, bytes, n);
        read_f64(bytes, xs);
    }

    /// `n` elements of one operand into work values.
    fn load(&self, load: &Load, src: &[u8], n: usize, into: &mut Values, scratch: &mut Scratch) {
        let bytes = &mut scratch.bytes[..8 * n];
        match &load.path {
            Path::Cast { to_value, to_work } => {
                let value_src: &[u8] = match to_value {
                    Some(c) => {
                        c.run(src, &mut scratch.value, n);
                        &scratch.value
                    }
                    None => src,
                };
                to_work.run(value_src, bytes, n);
                match self.work {
                    Work::Float { .. } => read_f64(bytes, &mut into.f[..n]),
                    Work::Int { .. } => read_i64(bytes, &mut into.i[..n]),
                }
            }
            Path::Straight {
                to_f64,
                own_tiny,
                e8m0,
                round,
            } => {
                to_f64.run(src, bytes, n);
                let xs = &mut into.f[..n];
                read_f64(bytes, xs);
                for x in xs.iter_mut() {
                    if x.abs() < *own_tiny {
                        *x = 0.0f64.copysign(*x);
                    }
                    // ml_dtypes: zero, negatives and ±∞ have no f8e8m0 but NaN.
                    if *e8m0 && !(*x > 0.0 && x.is_finite()) {
                        *x = f64::NAN;
                    }
                }
                if let Some((to_value, back)) = round {
                    write_f64(xs, bytes);
                    to_value.run(bytes, &mut scratch.value, n);
                    back.run(&scratch.value, bytes, n);
                    read_f64(bytes, xs);
                }
            }
            Path::Truncate { to_f64, wrap } => {
                to_f64.run(src, bytes, n);
                for c in bytes.chunks_exact_mut(8) {
                    let x = f64::from_le_bytes(c.try_into().expect("8 bytes"));
                    let i: i64 = if x.is_nan() {
                        0
                    } else if x == f64::INFINITY {
                        -1
                    } else if x == f64::NEG_INFINITY {
                        0
                    } else {
                        x.trunc() as i64
                    };
                    c.copy_from_slice(&i.to_le_bytes());
                }
                wrap.0.run(bytes, &mut scratch.value, n);
                wrap.1.run(&scratch.value, bytes, n);
                read_i64(bytes, &mut into.i[..n]);
            }
        }
        if let (Work::Float { single }, true) = (self.work, self.flush) {
            let tiny = if single {
                f32::MIN_POSITIVE as f64
            } else {
                f64::MIN_POSITIVE
            };
            for x in into.f[..n].iter_mut() {
                if x.abs() < tiny {
                    *x = 0.0f64.copysign(*x);
                }
            }
        }
    }

    /// `n` results from work values into `out` (which holds exactly `n` results).
    fn compute_chunk(&self, a: &Values, b: &Values, n: usize, out: &mut [u8], scratch: &mut Scratch) {
        let (a_at, b_at) = (a.index(), b.index());
        if is_comparison(self.op) {
            for (i, o) in out.iter_mut().enumerate().take(n) {
                *o = u8::from(match self.work {
                    Work::Float { .. } => compare_f(self.op, a.f[a_at(i)], b.f[b_at(i)]),
                    Work::Int { .. } => compare_i(self.op, a.i[a_at(i)], b.i[b_at(i)], self.unsigned),
                });
            }
            return;
        }
        match self.work {
            Work::Float { single } => {
                let flush = self.flush;
                let results = &mut scratch.f[..n];
                for (i, r) in results.iter_mut().enumerate() {
                    let (x, y) = (a.f[a_at(i)], b.f[b_at(i)]);
                    *r = match self.select {
                        Some(Side::Lhs) => select(x, y),
                        Some(Side::Rhs) => select(y, x),
                        None => float_op(self.compute_op, x, y, single, flush, self.tie),
                    };
                }
                self.fix_specials(results);
                let bytes = &mut scratch.bytes[..8 * n];
                write_f64(results, bytes);
                match self.store {
                    (Some(to_f32), None) => to_f32.run(bytes, out, n),
                    (Some(to_f32), Some(to_result)) => {
                        to_f32.run(bytes, &mut scratch.value[..4 * n], n);
                        to_result.run(&scratch.value[..4 * n], out, n);
                    }
                    _ => out.copy_from_slice(bytes),
                }
            }
            Work::Int { u64, bool } => {
                let bytes = &mut scratch.bytes[..8 * n];
                for (i, c) in bytes.chunks_exact_mut(8).enumerate() {
                    let r = int_op(self.op, a.i[a_at(i)], b.i[b_at(i)], u64, bool, &self.semantics);
                    c.copy_from_slice(&r.to_le_bytes());
                }
                if let (_, Some(to_result)) = self.store {
                    to_result.run(bytes, out, n);
                }
            }
        }
        if self.result_bits < 8 {
            clear_padding(out, n, self.result_bits);
        }
    }
}

/// One operand's way from its dtype into work values of `value`.
pub(super) fn plan_load(
    dtype: DType,
    value: DType,
    flush: bool,
    semantics: &Semantics,
    conv: &dyn Fn(DType, DType) -> Result<Converter, ComputeError>,
) -> Result<Load, ComputeError> {
    let bits = element_size(dtype).ok_or(ComputeError::UnsupportedDType(dtype))?;
    let own_tiny = match dtype {
        DType::F64 if flush => f64::MIN_POSITIVE,
        DType::F32 | DType::BF16 if flush => f32::MIN_POSITIVE as f64,
        _ => 0.0,
    };
    let path = if dtype.is_float() && !value.is_float() && semantics.float_to_int_wraps {
        Path::Truncate {
            to_f64: conv(dtype, DType::F64)?,
            wrap: (conv(DType::I64, value)?, conv(value, DType::I64)?),
        }
    } else if value.is_float() && (value == DType::F8E8M0 || (dtype.is_float() && own_tiny > 0.0)) {
        Path::Straight {
            to_f64: conv(dtype, DType::F64)?,
            own_tiny,
            e8m0: value == DType::F8E8M0 && dtype != value,
            round: if dtype == value {
                None
            } else {
                Some((conv(DType::F64, value)?, conv(value, DType::F64)?))
            },
        }
    } else {
        let work_dtype = if value.is_float() { DType::F64 } else { DType::I64 };
        Path::Cast {
            to_value: if dtype == value {
                None
            } else {
                Some(conv(dtype, value)?)
            },
            to_work: conv(value, work_dtype)?,
        }
    };
    Ok(Load { bits, path })
}

/// How work values become results of `op` in `result`.
pub(super) fn plan_store(
    op: Op,
    work: Work,
    result: DType,
    conv: &dyn Fn(DType, DType) -> Result<Converter, ComputeError>,
) -> Result<(Option<Converter>, Option<Converter>), ComputeError> {
    Ok(if is_comparison(op) {
        (None, None)
    } else {
        match work {
            Work::Float { single: true } if result == DType::F32 => {
                (Some(conv(DType::F64, DType::F32)?), None)
            }
            Work::Float { single: true } => (
                Some(conv(DType::F64, DType::F32)?),
                Some(conv(DType::F32, result)?),
            ),
            Work::Float { single: false } => (None, None),
            Work::Int { .. } => (None, Some(conv(DType::I64, result)?)),
        }
    })
}

impl Computation {
    /// What a float result becomes where the framework's rounding into the result
    /// dtype is not ONNX `Cast`'s: NaN into a format without NaN (XLA), and the
    /// results `f8e8m0` has no code for (ml_dtypes: NaN).
    fn fix_specials(&self, results: &mut [f64]) {
        let nanless = matches!(self.result, DType::F4E2M1 | DType::F6E2M3FN | DType::F6E3M2FN);
        if nanless && self.semantics.nan_into_nanless_is_negative_zero {
            for r in results.iter_mut().filter(|r| r.is_nan()) {
                *r = -0.0;
            }
        }
        if self.result == DType::F8E8M0 && !self.semantics.saturate_f8e4m3fn {
            for r in results.iter_mut() {
                // In f32, where ml_dtypes computes: 2^-254 is 0 there.
                let single = *r as f32;
                if !(single > 0.0 && single.is_finite()) {
                    *r = f64::NAN;
                }
            }
        }
    }
}

/// `b * x` where `b` is a bool, as a select: `x` or `+0`.
fn select(b: f64, x: f64) -> f64 {
    if b != 0.0 {
        x
    } else {
        0.0
    }
}

/// Which side of the operation an operand stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The left operand: `x` in `x OP y`.
    Lhs,
    /// The right operand: `y` in `x OP y`.
    Rhs,
}

/// Whether every value of `from` is exactly a value of the float `to`.
fn exact_in(from: DType, to: DType) -> bool {
    let Some(t) = crate::finfo(to) else { return false };
    if from == to {
        return true;
    }
    if from.is_bool() {
        return true;
    }
    if from.is_integer() {
        let magnitude = from.bits() - u32::from(crate::iinfo(from).is_some_and(|i| i.min < 0));
        return magnitude <= t.man_bits + 1;
    }
    let Some(f) = crate::finfo(from) else { return false };
    f.signed == t.signed
        && f.man_bits <= t.man_bits
        && f.max <= t.max
        && f.smallest_subnormal >= t.smallest_subnormal
        && (!f.has_infinity || t.has_infinity)
        && (!f.has_nan || t.has_nan)
        && (!f.has_negative_zero || t.has_negative_zero)
}

/// Zeroes the bits after element `n` in the last byte of `out`.
fn clear_padding(out: &mut [u8], n: usize, bits: usize) {
    let used = (n * bits) % 8;
    if used != 0 {
        if let Some(last) = out.last_mut() {
            *last &= (1u8 << used) - 1;
        }
    }
}

/// The operands of one call, checked: each holds the elements, or is one element
/// (or the Python scalar) used with every element of the other.
#[derive(Clone, Copy)]
struct Operands<'a> {
    lhs: &'a [u8],
    one_lhs: bool,
    rhs: &'a [u8],
    one_rhs: bool,
}

impl<'a> Operands<'a> {
    /// The operands from element `start` on (`start` on a byte of both).
    fn skip(self, start: usize, c: &Computation) -> Operands<'a> {
        let from =
            |bytes: &'a [u8], one: bool, bits: usize| if one { bytes } else { &bytes[start * bits / 8..] };
        Operands {
            lhs: from(self.lhs, self.one_lhs, c.lhs.bits),
            rhs: from(self.rhs, self.one_rhs, c.rhs.bits),
            ..self
        }
    }
}

/// Whether `op` is one of the six comparisons.
pub(crate) fn is_comparison(op: Op) -> bool {
    matches!(
        op,
        Op::Equal | Op::NotEqual | Op::LessThan | Op::LessEqual | Op::GreaterThan | Op::GreaterEqual
    )
}

/// One operand's work values for a chunk (or its one value, filled).
struct Values {
    f: Vec<f64>,
    i: Vec<i64>,
    one: bool,
}

impl Values {
    /// Room for `n` work values.
    fn new(work: Work, n: usize) -> Self {
        let (nf, ni) = match work {
            Work::Float { .. } => (n, 0),
            Work::Int { .. } => (0, n),
        };
        Values {
            f: vec![0.0; nf],
            i: vec![0; ni],
            one: false,
        }
    }

    /// Marks the values as one broadcast element.
    fn fill(&mut self) {
        self.one = true;
    }

    /// Element `i`'s index.
    fn index(&self) -> impl Fn(usize) -> usize {
        let one = self.one;
        move |i| if one { 0 } else { i }
    }
}

/// Byte buffers the conversions between work values and dtypes go through.
struct Scratch {
    bytes: Vec<u8>,
    value: Vec<u8>,
    f: Vec<f64>,
}

impl Scratch {
    /// Room for `n` elements (of at most 64 bits).
    fn new(n: usize) -> Self {
        Scratch {
            bytes: vec![0; 8 * n],
            value: vec![0; 8 * n],
            f: vec![0.0; n],
        }
    }
}

fn read_f64(bytes: &[u8], into: &mut [f64]) {
    for (x, c) in into.iter_mut().zip(bytes.chunks_exact(8)) {
        *x = f64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
}

fn read_i64(bytes: &[u8], into: &mut [i64]) {
    for (x, c) in into.iter_mut().zip(bytes.chunks_exact(8)) {
        *x = i64::from_le_bytes(c.try_into().expect("8 bytes"));
    }
}

fn write_f64(xs: &[f64], bytes: &mut [u8]) {
    for (x, c) in xs.iter().zip(bytes.chunks_exact_mut(8)) {
        c.copy_from_slice(&x.to_le_bytes());
    }
}

/// A comparison of two float work values (NaN is unordered: only `!=` holds).
fn compare_f(op: Op, a: f64, b: f64) -> bool {
    match op {
        Op::Equal => a == b,
        Op::NotEqual => a != b,
        Op::LessThan => a < b,
        Op::LessEqual => a <= b,
        Op::GreaterThan => a > b,
        _ => a >= b,
    }
}

/// A comparison of two integer work values, each read as `u64` bits where
/// `unsigned` says so.
fn compare_i(op: Op, a: i64, b: i64, unsigned: (bool, bool)) -> bool {
    let wide = |x: i64, u: bool| if u { i128::from(x as u64) } else { i128::from(x) };
    let ord = wide(a, unsigned.0).cmp(&wide(b, unsigned.1));
    match op {
        Op::Equal => ord.is_eq(),
        Op::NotEqual => ord.is_ne(),
        Op::LessThan => ord.is_lt(),
        Op::LessEqual => ord.is_le(),
        Op::GreaterThan => ord.is_gt(),
        _ => ord.is_ge(),
    }
}

/// One arithmetic result in work values: exact in `f64` for `+ - *` of values
/// that fit `f32` (`single`), correctly rounded otherwise; a result below the
/// computing type's smallest normal is ±0 when flushing.
fn float_op(op: Op, a: f64, b: f64, single: bool, flush: bool, tie: ZeroTie) -> f64 {
    let r = match op {
        Op::Add => a + b,
        Op::Subtract => a - b,
        Op::Multiply => a * b,
        Op::Divide => a / b,
        Op::Maximum | Op::Minimum => return max_min(op == Op::Maximum, a, b, tie),
        _ => f64::NAN,
    };
    if !flush || r == 0.0 || !r.is_finite() {
        return r;
    }
    let tiny = if single {
        r.abs() < f32::MIN_POSITIVE as f64
    } else if r.abs() < f64::MIN_POSITIVE {
        true
    } else if r.abs() == f64::MIN_POSITIVE {
        below_smallest_normal(op, a, b)
    } else {
        false
    };
    if tiny {
        0.0f64.copysign(r)
    } else {
        r
    }
}

/// Whether the exact `a * b` or `a / b`, which rounds to ±`f64::MIN_POSITIVE`,
/// lies below it: computed scaled by 2^64, where the rounding error is a normal
/// number an `fma` gives exactly.
fn below_smallest_normal(op: Op, a: f64, b: f64) -> bool {
    const SCALE: f64 = 18446744073709551616.0; // 2^64
    let (a, b) = if a.abs() < 1e250 {
        (a * SCALE, b)
    } else {
        (a, b * SCALE)
    };
    let limit = f64::MIN_POSITIVE * SCALE;
    match op {
        Op::Multiply => {
            let r = a * b;
            let e = a.mul_add(b, -r);
            r.abs() < limit || (r.abs() == limit && e != 0.0 && e.is_sign_negative() != r.is_sign_negative())
        }
        Op::Divide => {
            let r = a / b;
            let e = (-r).mul_add(b, a);
            r.abs() < limit || (r.abs() == limit && e != 0.0 && e.is_sign_negative() != a.is_sign_negative())
        }
        _ => false,
    }
}

/// `maximum` or `minimum`: a NaN operand wins (the left one if both), equal
/// values by `tie`.
fn max_min(max: bool, a: f64, b: f64, tie: ZeroTie) -> f64 {
    if a.is_nan() {
        return a;
    }
    if b.is_nan() {
        return b;
    }
    if a == b {
        return match tie {
            ZeroTie::Lhs => a,
            ZeroTie::Rhs => b,
            ZeroTie::Ordered if max == a.is_sign_positive() => a,
            ZeroTie::Ordered => b,
        };
    }
    if (a > b) == max {
        a
    } else {
        b
    }
}

/// One integer or bool result in work values (wrapping; the store narrows it).
fn int_op(op: Op, a: i64, b: i64, unsigned: bool, bool: bool, semantics: &Semantics) -> i64 {
    if bool {
        let (a, b) = (a != 0, b != 0);
        return i64::from(match op {
            Op::Add | Op::Maximum => a | b,
            Op::Multiply | Op::Minimum => a & b,
            Op::Subtract if semantics.bool_subtract_is_xor => a ^ b,
            Op::Subtract => a & !b,
            _ => a & b,
        });
    }
    match op {
        Op::Add => a.wrapping_add(b),
        Op::Subtract => a.wrapping_sub(b),
        Op::Multiply => a.wrapping_mul(b),
        // An integer result of `divide` (JAX's int2/uint2): toward zero, x / 0 is
        // all ones.
        Op::Divide if b == 0 => -1,
        Op::Divide if unsigned => ((a as u64) / (b as u64)) as i64,
        Op::Divide => a.wrapping_div(b),
        Op::Maximum | Op::Minimum => {
            let greater = if unsigned { (a as u64) > (b as u64) } else { a > b };
            if greater == (op == Op::Maximum) {
                a
            } else {
                b
            }
        }
        _ => 0,
    }
}
