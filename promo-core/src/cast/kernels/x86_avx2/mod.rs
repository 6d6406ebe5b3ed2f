//! The AVX2 and F16C backend: blocks of 32 elements, and the one loop that drives
//! them.
//!
//! Below this file, nothing imports it: [`lanes`] is the floor (loads, stores,
//! byte orders, the [`Block`] and [`Encode`] traits), [`decode`] reads any source
//! into f32 lanes (or f64, i32, i64 lanes), [`encode`] writes f32 lanes into any
//! float target, [`ints`] holds the blocks that do not pass through f32 lanes.
//! Here: which conversions the backend has ([`has`]), each one's body
//! ([`Bodies`], chosen at compile time), and [`run`], the loop. Every block computes exactly what the scalar
//! cast computes: `kernels/tests.rs` compares them on every input of every 8- and
//! 16-bit format and on edge, random and odd-length wider inputs, and
//! `tests/cast_exhaustive.rs` checks every f32 input against the ONNX reference.

pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod fused;
pub(crate) mod ints;
pub(crate) mod lanes;

use super::backend::{Backend, Isa, Plan};
use super::formats::{Lanes, Rounding, Sink, Source, Target};
use super::x86::{prefetch, PREFETCH_FROM};
use crate::narrow::{Reference, RoundMode};
use core::arch::x86_64::_mm_sfence;
use core::marker::PhantomData;
use decode::Reader;
use encode::{ToBf16, ToE8m0, ToF16, ToF32, ToNarrow, ToTriton};
use ints::{F32ToF64, IntToInt, ToF64, ToInt};
use lanes::{streams, Block, Encode, BLOCK};

/// The AVX2 and F16C backend.
pub(crate) struct Avx2;

impl Isa for Avx2 {
    const BACKEND: Backend = Backend::Avx2;
    const ALIGN: usize = 32;

    unsafe fn body<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize {
        // SAFETY: the caller guarantees AVX2 and F16C.
        unsafe { (Bodies::<S, T>::BODY)(src, dst, plan) }
    }
}

/// Whether the backend has a block for `s` into `t` (beyond the portable loops the
/// driver's head and tail run).
pub(crate) const fn has(s: Source, t: Sink) -> bool {
    let float_source = matches!(s, Source::F32 | Source::F16 | Source::BF16 | Source::Int(_));
    match t {
        Sink::Float(spec) if spec.bits() <= 8 => float_source,
        // f16, bf16: from f32 and the integers.
        Sink::Float(_) | Sink::E8M0 => matches!(s, Source::F32 | Source::Int(_)),
        Sink::F32 => matches!(
            s,
            Source::F16
                | Source::BF16
                | Source::F64
                | Source::Byte { nibbles: Some(_), .. }
                | Source::Nibble(_)
                | Source::E8M0
                | Source::Int(_)
        ),
        Sink::F64 => matches!(s, Source::F32 | Source::Int(_)),
        Sink::Int(to) => match s {
            Source::Int(_) => true,
            // Floats into bool are left to the scalar kernel.
            Source::F32 | Source::F64 | Source::F16 | Source::BF16 | Source::E8M0 => !to.bool,
            Source::Byte { nibbles: Some(_), .. } => !to.bool && s.is_onnx_float8(),
            _ => false,
        },
        Sink::None => false,
    }
}

/// A body: whole blocks of one source into one target; returns how many
/// elements it converted.
///
/// # Safety
/// The CPU has the backend's features.
pub(crate) type Body = unsafe fn(&[u8], &mut [u8], &Plan) -> usize;

/// The body of `S` into `T`, chosen at compile time (only the chosen one is
/// compiled for the pair).
pub(crate) struct Bodies<S, T>(PhantomData<(S, T)>);

impl<S: Lanes, T: Target> Bodies<S, T> {
    /// The body [`has`] promises for the pair (one that does nothing where it
    /// promises none).
    pub(crate) const BODY: Body = match (S::SOURCE, T::SINK) {
        _ if !has(S::SOURCE, T::SINK) => nothing,
        (_, Sink::F32) => to_f32::<S>,
        (Source::F32, Sink::F64) => f32_to_f64,
        (_, Sink::F64) => to_f64::<S>,
        (Source::Int(_), Sink::Int(_)) => int_to_int::<S, T>,
        (_, Sink::Int(_)) => to_int::<S, T>,
        (_, Sink::E8M0) => to_e8m0::<S>,
        (_, Sink::Float(spec)) if spec.bits() == 16 && spec.man_bits == 10 => to_f16::<S>,
        (_, Sink::Float(spec)) if spec.bits() == 16 => to_bf16::<S>,
        (_, Sink::Float(spec)) if matches!(spec.reference, Reference::Triton) => to_triton::<S, T>,
        (_, Sink::Float(_)) => to_narrow::<S, T>,
        _ => nothing,
    };
}

/// No body: no element converted.
unsafe fn nothing(_: &[u8], _: &mut [u8], _: &Plan) -> usize {
    0
}

// SAFETY (each `run` below): the bodies run with AVX2 and F16C, as `run` needs.

/// Decoded into f32 lanes, stored.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_f32<S: Lanes>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&Through::<S, _>::new(ToF32), src, dst) }
}

/// f32 into f64.
#[target_feature(enable = "avx2,f16c")]
unsafe fn f32_to_f64(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&F32ToF64, src, dst) }
}

/// Read as f64 lanes, stored.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_f64<S: Lanes>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&ToF64(Reader::<S>::new(false)), src, dst) }
}

/// An integer into another.
#[target_feature(enable = "avx2,f16c")]
unsafe fn int_to_int<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&IntToInt::<S, T>::NEW, src, dst) }
}

/// A float into an integer.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_int<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&ToInt::<S, T>::new(), src, dst) }
}

/// Through f32 lanes into f8e8m0.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_e8m0<S: Lanes>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize {
    let saturate = plan.saturate;
    unsafe {
        match plan.round_mode {
            RoundMode::Up => run(&Through::<S, _>::new(ToE8m0::<0> { saturate }), src, dst),
            RoundMode::Down => run(&Through::<S, _>::new(ToE8m0::<1> { saturate }), src, dst),
            RoundMode::Nearest => run(&Through::<S, _>::new(ToE8m0::<2> { saturate }), src, dst),
        }
    }
}

/// Through f32 lanes into f16.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_f16<S: Lanes>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&Through::<S, _>::new(ToF16), src, dst) }
}

/// Through f32 lanes into bf16.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&Through::<S, _>::new(ToBf16), src, dst) }
}

/// Through f32 lanes into a format Triton rounds (f8e4m3b15).
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_triton<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], _: &Plan) -> usize {
    unsafe { run(&Through::<S, _>::new(ToTriton::<T>::NEW), src, dst) }
}

/// Through f32 lanes into a narrow float by the FPU's rounding.
#[target_feature(enable = "avx2,f16c")]
unsafe fn to_narrow<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize {
    let Sink::Float(spec) = T::SINK else { return 0 };
    let r = Rounding::new(&spec, plan.saturate, plan.fnuz_inf_is_nan);
    // SAFETY: as above; the second loop is compiled only for a format that has it.
    unsafe {
        if ToNarrow::<T>::INF_MAY_BE_NAN && r.inf_is_nan {
            run(&Through::<S, _>::new(ToNarrow::<T, true>::new(&r)), src, dst)
        } else {
            run(&Through::<S, _>::new(ToNarrow::<T>::new(&r)), src, dst)
        }
    }
}

/// A decode block and an encode block: a source into f32 lanes, the lanes into a
/// target, nothing in memory between.
pub(crate) struct Through<S, E> {
    reader: Reader<S>,
    encode: E,
}

impl<S: Lanes, E: Encode> Through<S, E> {
    /// `S` read as `encode` wants it (integers rounded to odd or to nearest).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(encode: E) -> Self {
        Through {
            reader: Reader::new(E::ODD),
            encode,
        }
    }
}

impl<S: Lanes, E: Encode> Block for Through<S, E> {
    #[inline(always)]
    fn sizes(&self) -> (usize, usize) {
        (Reader::<S>::BLOCK, E::OUT)
    }

    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    unsafe fn convert(&self, src: *const u8, dst: *mut u8, stream: bool) {
        // SAFETY: the caller guarantees the block's bytes at `src` and `dst`.
        unsafe { self.encode.encode(self.reader.decode(src), dst, stream) }
    }
}

/// The loop: whole blocks from the start of `src` into the start of `dst`, a large
/// input prefetched, a large output written with non-temporal stores (then
/// fenced); returns how many elements it converted.
///
/// # Safety
/// AVX2 and F16C.
#[target_feature(enable = "avx2,f16c")]
unsafe fn run<B: Block>(block: &B, src: &[u8], dst: &mut [u8]) -> usize {
    let (i, o) = block.sizes();
    let steps = (src.len() / i).min(dst.len() / o);
    // One loop for each kind of store, so that no block tests which it makes.
    // SAFETY: as `blocks` needs: `steps` whole blocks fit both buffers, and
    // `streams` said `dst` is aligned for the streaming loop.
    unsafe {
        if streams(dst) {
            blocks::<B, true>(block, src, dst, steps);
            _mm_sfence();
        } else {
            blocks::<B, false>(block, src, dst, steps);
        }
    }
    steps * BLOCK
}

/// `steps` blocks from the start of `src` into the start of `dst`, stored with
/// non-temporal stores when `STREAM`.
///
/// # Safety
/// AVX2 and F16C; `steps` whole blocks lie inside `src` and `dst`; `dst` is
/// 32-byte aligned when `STREAM`.
#[inline]
#[target_feature(enable = "avx2,f16c")]
unsafe fn blocks<B: Block, const STREAM: bool>(block: &B, src: &[u8], dst: &mut [u8], steps: usize) {
    let (i, o) = block.sizes();
    let (stream, far) = (STREAM, src.len() >= PREFETCH_FROM);
    for step in 0..steps {
        let at = src.as_ptr().wrapping_add(i * step);
        if far {
            prefetch(at, i);
        }
        // SAFETY: `step < steps`: the block's `i` bytes lie inside `src` and its `o`
        // inside `dst`; `dst` is 32-byte aligned when `stream`, and so is every
        // block of it (`o` is a multiple of 32, or 16 for a nibble target, whose
        // stores are 16 bytes).
        unsafe { block.convert(at, dst.as_mut_ptr().add(o * step), stream) }
    }
}
