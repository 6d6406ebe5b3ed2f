//! Fused `a OP b` on the AVX2 blocks: two [`Reader`]s decode 32 elements of each
//! operand into f32 lanes, the operation runs on the lanes, and an encode block
//! (or a pack into bool bytes) writes the 32 results. The encoder is chosen at
//! compile time from the result's format; the operation at run time, once per
//! block (a branch the predictor always takes the same way).

use super::super::backend::Plan;
use super::super::formats::{Lanes, Rounding, Sink, Target};
use super::super::fused::{Comparison, FusedOp, FusedPlan};
use super::super::x86::{array, prefetch, PREFETCH_FROM};
use super::decode::Reader;
use super::encode::{ToBf16, ToF16, ToF32, ToNarrow};
use super::lanes::{put, streams, unpack_order, Encode, F32x32, BLOCK};
use crate::compute::ZeroTie;
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// `lhs OP rhs` on eight lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn op8(op: FusedOp, a: __m256, b: __m256) -> __m256 {
    match op {
        FusedOp::Add => _mm256_add_ps(a, b),
        FusedOp::Subtract => _mm256_sub_ps(a, b),
        FusedOp::Multiply => _mm256_mul_ps(a, b),
        FusedOp::Divide => _mm256_div_ps(a, b),
        FusedOp::Maximum(tie) => nan_wins(
            match tie {
                ZeroTie::Rhs => _mm256_max_ps(a, b),
                ZeroTie::Lhs => _mm256_max_ps(b, a),
                // Equal values: `and` keeps +0 of ±0 (and equal bits otherwise).
                ZeroTie::Ordered => _mm256_blendv_ps(
                    _mm256_max_ps(a, b),
                    _mm256_and_ps(a, b),
                    _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b),
                ),
            },
            a,
            b,
        ),
        FusedOp::Minimum(tie) => nan_wins(
            match tie {
                ZeroTie::Rhs => _mm256_min_ps(a, b),
                ZeroTie::Lhs => _mm256_min_ps(b, a),
                // Equal values: `or` keeps -0 of ±0.
                ZeroTie::Ordered => _mm256_blendv_ps(
                    _mm256_min_ps(a, b),
                    _mm256_or_ps(a, b),
                    _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b),
                ),
            },
            a,
            b,
        ),
        FusedOp::Compare(comparison) => compare8(comparison, a, b),
    }
}

/// `r`, but the NaN of either operand where there is one, the left one's if both
/// are NaN (`maxps`/`minps` give their second operand for ties and NaN).
#[inline]
#[target_feature(enable = "avx2")]
fn nan_wins(r: __m256, a: __m256, b: __m256) -> __m256 {
    let nan_a = _mm256_cmp_ps::<_CMP_UNORD_Q>(a, a);
    let nan_b = _mm256_cmp_ps::<_CMP_UNORD_Q>(b, b);
    _mm256_blendv_ps(_mm256_blendv_ps(r, b, nan_b), a, nan_a)
}

/// A comparison's lanes: all ones where it holds.
#[inline]
#[target_feature(enable = "avx2")]
fn compare8(comparison: Comparison, a: __m256, b: __m256) -> __m256 {
    match comparison {
        Comparison::Equal => _mm256_cmp_ps::<_CMP_EQ_OQ>(a, b),
        Comparison::NotEqual => _mm256_cmp_ps::<_CMP_NEQ_UQ>(a, b),
        Comparison::Less => _mm256_cmp_ps::<_CMP_LT_OQ>(a, b),
        Comparison::LessEqual => _mm256_cmp_ps::<_CMP_LE_OQ>(a, b),
        Comparison::Greater => _mm256_cmp_ps::<_CMP_GT_OQ>(a, b),
        Comparison::GreaterEqual => _mm256_cmp_ps::<_CMP_GE_OQ>(a, b),
    }
}

/// 32 comparison masks as 32 bool bytes (0 or 1), in element order.
#[inline]
#[target_feature(enable = "avx2")]
fn bools(m: F32x32) -> __m256i {
    let m = array!(4, |k| _mm256_castps_si256(m[k]));
    let bytes = _mm256_packs_epi16(_mm256_packs_epi32(m[0], m[1]), _mm256_packs_epi32(m[2], m[3]));
    _mm256_and_si256(unpack_order(bytes), _mm256_set1_epi8(1))
}

/// Writes 32 bool bytes.
struct ToBools;

impl Encode for ToBools {
    const OUT: usize = 32;

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn encode(&self, x: F32x32, dst: *mut u8, stream: bool) {
        // SAFETY: the caller guarantees 32 writable bytes, aligned when `stream`.
        unsafe { put(dst, bools(x), stream) }
    }
}

/// The block: both operands decoded (or one of them a splat), the operation, the
/// encoder.
struct Fused<X, Y, E> {
    x: Reader<X>,
    y: Reader<Y>,
    encode: E,
    op: FusedOp,
    x_is_rhs: bool,
    splat: Option<(bool, __m256)>,
}

impl<X: Lanes, Y: Lanes, E: Encode> Fused<X, Y, E> {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(encode: E, plan: &FusedPlan) -> Self {
        Fused {
            x: Reader::new(false),
            y: Reader::new(false),
            encode,
            op: plan.op,
            x_is_rhs: plan.x_is_rhs,
            splat: plan.splat.map(|(on_x, v)| (on_x, _mm256_set1_ps(v))),
        }
    }

    /// One block.
    ///
    /// # Safety
    /// AVX2 and F16C; a block of `X` at `px` and of `Y` at `py` readable (but
    /// the splat side's) and `E::OUT` bytes at `dst` writable, aligned when
    /// `stream`.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn block(&self, px: *const u8, py: *const u8, dst: *mut u8, stream: bool) {
        // SAFETY: the caller guarantees the blocks' bytes.
        let (x, y) = unsafe {
            match self.splat {
                Some((true, v)) => ([v; 4], self.y.decode(py)),
                Some((false, v)) => (self.x.decode(px), [v; 4]),
                None => (self.x.decode(px), self.y.decode(py)),
            }
        };
        let (lhs, rhs) = if self.x_is_rhs { (y, x) } else { (x, y) };
        let r = array!(4, |k| op8(self.op, lhs[k], rhs[k]));
        // SAFETY: the caller guarantees `E::OUT` writable bytes.
        unsafe { self.encode.encode(r, dst, stream) }
    }
}

/// The loop: whole blocks from the start of the slices; returns the elements done.
///
/// # Safety
/// AVX2 and F16C.
#[target_feature(enable = "avx2,f16c")]
unsafe fn run2<X: Lanes, Y: Lanes, E: Encode>(
    block: &Fused<X, Y, E>,
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
) -> usize {
    let (bx, by, bo) = (Reader::<X>::BLOCK, Reader::<Y>::BLOCK, E::OUT);
    let splat = block.splat.map(|(on_x, _)| on_x);
    // Whole blocks of `count` (a packed slice's last byte may hold a partial one).
    let mut steps = (count / BLOCK).min(dst.len() / bo);
    if splat != Some(true) {
        steps = steps.min(x.len() / bx);
    }
    if splat != Some(false) {
        steps = steps.min(y.len() / by);
    }
    let stream = streams(dst);
    let far = dst.len() >= PREFETCH_FROM;
    for step in 0..steps {
        let (px, py) = (
            x.as_ptr().wrapping_add(bx * step),
            y.as_ptr().wrapping_add(by * step),
        );
        if far {
            prefetch(px, bx);
            prefetch(py, by);
        }
        // SAFETY: `step < steps`: each read side's block lies inside its slice (the
        // splat side is not read) and the output's inside `dst`, 32-byte aligned
        // when `stream` (every block is a multiple of 32 bytes but the nibble
        // formats', 16, whose stores are 16 bytes).
        unsafe { block.block(px, py, dst.as_mut_ptr().add(bo * step), stream) }
    }
    if stream {
        _mm_sfence();
    }
    steps * BLOCK
}

/// The encoder of `X`, chosen at compile time.
struct Encoders<X, Y>(PhantomData<(X, Y)>);

/// A body taking the plan.
type Body = unsafe fn(&[u8], &[u8], &mut [u8], usize, &FusedPlan) -> usize;

impl<X: Lanes + Target, Y: Lanes> Encoders<X, Y> {
    const ARITHMETIC: Body = match X::SINK {
        Sink::F32 => into_f32::<X, Y>,
        Sink::Float(spec) if spec.bits() == 16 && spec.man_bits == 10 => into_f16::<X, Y>,
        Sink::Float(spec) if spec.bits() == 16 => into_bf16::<X, Y>,
        _ => into_narrow::<X, Y>,
    };
}

/// `x OP y` (or `y OP x`) in `X`, whole blocks.
///
/// # Safety
/// AVX2 and F16C.
pub(crate) unsafe fn arithmetic<X: Lanes + Target, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    // SAFETY: the caller's guarantee.
    unsafe { (Encoders::<X, Y>::ARITHMETIC)(x, y, dst, count, plan) }
}

/// A comparison of `x` and `y` in f32 lanes, bool bytes, whole blocks.
///
/// # Safety
/// AVX2 and F16C.
#[target_feature(enable = "avx2,f16c")]
pub(crate) unsafe fn compare<X: Lanes + Target, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    unsafe { run2(&Fused::<X, Y, _>::new(ToBools, plan), x, y, dst, count) }
}

// SAFETY (each body below): AVX2 and F16C, as `run2` needs.

#[target_feature(enable = "avx2,f16c")]
unsafe fn into_f32<X: Lanes, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    unsafe { run2(&Fused::<X, Y, _>::new(ToF32, plan), x, y, dst, count) }
}

#[target_feature(enable = "avx2,f16c")]
unsafe fn into_f16<X: Lanes, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    unsafe { run2(&Fused::<X, Y, _>::new(ToF16, plan), x, y, dst, count) }
}

#[target_feature(enable = "avx2,f16c")]
unsafe fn into_bf16<X: Lanes, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    unsafe { run2(&Fused::<X, Y, _>::new(ToBf16, plan), x, y, dst, count) }
}

#[target_feature(enable = "avx2,f16c")]
unsafe fn into_narrow<X: Lanes + Target, Y: Lanes>(
    x: &[u8],
    y: &[u8],
    dst: &mut [u8],
    count: usize,
    plan: &FusedPlan,
) -> usize {
    let Sink::Float(spec) = X::SINK else { return 0 };
    let Plan {
        saturate,
        fnuz_inf_is_nan,
        ..
    } = plan.encode;
    let r = Rounding::new(&spec, saturate, fnuz_inf_is_nan);
    unsafe {
        if ToNarrow::<X>::INF_MAY_BE_NAN && r.inf_is_nan {
            run2(
                &Fused::<X, Y, _>::new(ToNarrow::<X, true>::new(&r), plan),
                x,
                y,
                dst,
                count,
            )
        } else {
            run2(
                &Fused::<X, Y, _>::new(ToNarrow::<X>::new(&r), plan),
                x,
                y,
                dst,
                count,
            )
        }
    }
}
