//! The fast kernels: the driver, and the one place that picks them.
//!
//! [`find`] chooses, once per [`Converter`](super::Converter) (so once per slice
//! call), a kernel that computes exactly what the scalar cast computes, faster.
//! Every fast kernel is one driver function, [`convert`], generic over the source,
//! the target and a backend ([`Isa`]): a head that aligns the stores, the
//! backend's body for whole blocks, and a tail; the head and the tail run the
//! portable loops ([`portable::rest`]: tables of the scalar cast's results, plain
//! loops) or the scalar kernel. The backend is a type parameter, fixed when the
//! kernel is picked, so the CPU is asked once, by [`Backend::detect`].
//!
//! A body is blocks: each backend reads a block of any source into f32 lanes in
//! registers (a *decode* block), writes f32 lanes into any float target (an
//! *encode* block), and drives a pair of them with one loop, which also
//! prefetches a large input and writes a large output with non-temporal stores.
//! The pairs come from what the element types are ([`formats`]: a [`Source`] and
//! a [`Sink`] each, derived from the element table and the formats' `Spec`s), so
//! no list here names a format: the conversions with a fast kernel are every pair
//! of the element table that a backend's `has` (or the portable loops) accepts.
//! `docs/kernels.md` says how a backend and a format are added, and how fused
//! arithmetic reuses the blocks.
//!
//! | conversion | AVX-512 ([`x86_avx512`]) | AVX2 / F16C ([`x86_avx2`]) | every CPU ([`portable`]) |
//! | --- | --- | --- | --- |
//! | f32, f16, bf16, integers → float8, float6, f4e2m1 | 16 lanes, `vpmovdb`-free packs (the formats with NaN from floats) | the FPU's rounding on 8 lanes, 32 elements a block; f8e4m3b15 by `vcvtps2ph` toward zero | the scalar cast |
//! | f32, integers → f8e8m0, f16, bf16 | AVX2's (bf16: 16 lanes, `vcvtne2ps2bf16` where the CPU has it) | 8 lanes | the scalar cast |
//! | float8, float6, f4e2m1 → f32 | `vpermi2b` lookups of the results, 64 codes a block | nibble lookups on 32 lanes (the float8 formats of four exponent bits or more) | a table of the scalar cast's results |
//! | i4, u4, f8e8m0 → f32 | AVX2's | a 16-entry lookup; shifts | the same |
//! | bf16 → f32 | 16 lanes, shifted | shift, NaN made quiet | the same, one at a time |
//! | f16 → f32 | `vcvtph2ps` on 16 lanes | `vcvtph2ps` | the scalar cast |
//! | f32 ↔ f64 | AVX2's | `vcvtps2pd` (signalling NaN kept) / `vcvtpd2ps` | the scalar cast |
//! | integer, bool ↔ integer, bool | AVX2's | `vpmovsx` / `vpmovzx`; masked packs; compare with zero | a loop (the same bits: a copy) |
//! | integer, bool → f32, f64 | AVX2's | `vcvtdq2ps`, `vcvtdq2pd`; u32 and 64-bit by halves, rounded once | a loop |
//! | f32, f64, f16, bf16, ONNX float8, f8e8m0 → integers | AVX2's | `vcvttps2dq` / `vcvttpd2dq`, narrowed by packs; 64-bit by shifting the mantissa | f32 and ONNX float8 (through their f32 table) in f32 arithmetic; the rest the scalar cast |
//!
//! Every backend the CPU has is tested against the scalar cast
//! ([`Backend::available`]).

mod backend;
mod formats;
pub(crate) mod fused;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

pub(crate) use backend::find;
pub use backend::Backend;
use backend::Isa;
pub(crate) use backend::Plan;
use formats::{Lanes, Sink, Source, Target};

use super::options::CastOptions;
use super::scalar::{bytes_for, Kernel};
use crate::element::for_each_element;
use crate::narrow::Reference;
use crate::DType;
use core::marker::PhantomData;

/// [`find`] on backend `I`: `from` and `to` looked up in the element table, each
/// pair's kernel [`pick`]ed.
macro_rules! find_in {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        /// The fast kernel of `from` into `to` on `I`, if there is one.
        fn find_in<I: Isa>(from: DType, to: DType) -> Option<Kernel> {
            match from {
                $(DType::$dtype => find_into::<$t, I>(to),)*
                _ => None,
            }
        }

        /// The fast kernel of `S` into `to` on `I`, if there is one.
        fn find_into<S: Lanes, I: Isa>(to: DType) -> Option<Kernel> {
            match to {
                $(DType::$dtype => pick::<S, $t, I>(),)*
                _ => None,
            }
        }
    };
}
for_each_element!(find_in);

/// [`convert`] for `S` into `T` on `I`, where it is faster than the scalar kernel:
/// where `I` has a body for the pair, or the portable loops have one.
fn pick<S: Lanes, T: Target, I: Isa>() -> Option<Kernel> {
    Pick::<S, T, I>::KERNEL
}

/// The kernel [`pick`] gives, a constant: only the kernels it names are compiled.
struct Pick<S, T, I>(PhantomData<(S, T, I)>);

impl<S: Lanes, T: Target, I: Isa> Pick<S, T, I> {
    const KERNEL: Option<Kernel> =
        if portable::loops(S::SOURCE, T::SINK) || backend::has(I::BACKEND, S::SOURCE, T::SINK) {
            Some(convert::<S, T, I>)
        } else {
            None
        };
    /// Whether `I` has a body for the pair (else the portable loops do it all).
    const BODY: bool = backend::has(I::BACKEND, S::SOURCE, T::SINK);
}

/// A backend body, `I::body::<S, T>(…)`, called from the driver.
macro_rules! body {
    ($call:expr) => {{
        // SAFETY: `find` hands out a driver function generic over `I` only when the
        // CPU has `I`'s features (`I::BACKEND.is_available()`), and calls the body
        // only when `I` has one for the pair (`backend::has`), which is all a body
        // requires; the bodies stay inside the slices they are given.
        debug_assert!(I::BACKEND.is_available());
        unsafe { $call }
    }};
}

// ---- the driver: head, body, tail ------------------------------------------------

/// `count` elements of `S` into `T` on backend `I`: a head that takes `dst` to the
/// backend's store alignment, the backend's body, and the tail, the head and the
/// tail by [`portable::rest`].
fn convert<S: Lanes, T: Target, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (from_bits, to_bits) = (S::SOURCE.bits(), T::BITS);
    let (src, dst) = (
        &src[..bytes_for(from_bits, count)],
        &mut dst[..bytes_for(to_bits, count)],
    );
    if let (Source::Int(from), Sink::Int(to)) = (S::SOURCE, T::SINK) {
        if from.bytes == to.bytes && !from.bool && !to.bool {
            // Only the sign differs: the same bits.
            dst.copy_from_slice(src);
            return;
        }
    }
    if !Pick::<S, T, I>::BODY {
        return portable::rest::<S, T>(src, dst, count, options);
    }
    let head = aligned_head::<I>(dst, from_bits, to_bits, count);
    portable::rest::<S, T>(src, dst, head, options);
    let plan = plan::<T>(options);
    let (rest, out) = (
        &src[bytes_for(from_bits, head)..],
        &mut dst[bytes_for(to_bits, head)..],
    );
    let done = head + body!(I::body::<S, T>(rest, out, &plan));
    portable::rest::<S, T>(
        &src[bytes_for(from_bits, done)..],
        &mut dst[bytes_for(to_bits, done)..],
        count - done,
        options,
    );
}

/// How many elements, at most `count`, take `dst` to an `I::ALIGN` boundary,
/// whole bytes of both sides (0 if elements cannot reach one). The bodies then
/// store whole vectors that never straddle two cache lines (about a fifth faster
/// in the cache), and a large output can be written with non-temporal stores.
fn aligned_head<I: Isa>(dst: &[u8], from_bits: usize, to_bits: usize, count: usize) -> usize {
    let bytes = (I::ALIGN - dst.as_ptr() as usize % I::ALIGN) % I::ALIGN;
    if !(bytes * 8).is_multiple_of(to_bits) {
        return 0;
    }
    let head = bytes * 8 / to_bits;
    if !(head * from_bits).is_multiple_of(8) {
        return 0;
    }
    head.min(count)
}

/// What a body needs of `options` for target `T`.
fn plan<T: Target>(options: &CastOptions) -> Plan {
    let (saturate, fnuz_inf_is_nan) = match T::SINK {
        // f16 and bf16 never saturate.
        Sink::Float(spec) if spec.bits() == 16 => (false, false),
        Sink::Float(spec) => (
            options.saturates(spec.reference),
            // The Cast-19..23 rule for ±∞ is ONNX's, for ONNX's FNUZ formats.
            options.fnuz_inf_is_nan() && matches!(spec.reference, Reference::Onnx),
        ),
        _ => (options.saturates(Reference::Onnx), false),
    };
    Plan {
        saturate,
        fnuz_inf_is_nan,
        round_mode: options.round_mode,
    }
}

#[cfg(test)]
mod tests;
