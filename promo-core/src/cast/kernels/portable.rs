//! The fast kernels every CPU runs: tables of the scalar cast's results, plain
//! loops. They are also what converts the head and the tail of a slice around a
//! SIMD body ([`rest`]).

use super::super::options::CastOptions;
use super::super::scalar::kernel;
use super::super::values::CastSource;
use super::backend::{Backend, Isa, Plan};
use super::formats::{IntLayout, Lanes, Sink, Source, Target};

/// The backend every CPU runs: no bodies; the driver's heads and tails (these
/// tables and loops, and the scalar kernel) do all the work.
pub(crate) struct Portable;

impl Isa for Portable {
    const BACKEND: Backend = Backend::Portable;
    const ALIGN: usize = 1;

    unsafe fn body<S: Lanes, T: Target>(_: &[u8], _: &mut [u8], _: &Plan) -> usize {
        0
    }
}

/// The portable backend has no bodies.
pub(crate) const fn has(_: Source, _: Sink) -> bool {
    false
}

/// Whether [`rest`] has a loop of its own for `s` into `t` (else it runs the
/// scalar kernel).
pub(crate) const fn loops(s: Source, t: Sink) -> bool {
    match (s, t) {
        (Source::Byte { .. } | Source::Nibble(_) | Source::BF16 | Source::Int(_), Sink::F32) => true,
        (Source::Int(_), Sink::Int(_) | Sink::F64) => true,
        (Source::F32, Sink::Int(to)) => to.bytes <= 4 && !to.bool,
        (Source::Byte { .. }, Sink::Int(to)) => s.is_onnx_float8() && !to.bool,
        _ => false,
    }
}

/// `count` elements of `S` into `T` by [`loops`]'s loop, or the scalar kernel.
/// The loops are inlined into it, so each pair's sees its integer layouts as
/// constants (through a call, f32 → i32 read its width per element, 5 ns each).
#[inline(always)]
pub(crate) fn rest<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    if count == 0 {
        return;
    }
    match (S::SOURCE, T::SINK) {
        (Source::Byte { f32, .. }, Sink::F32) => bytes_to_f32(f32, &src[..count], dst),
        (Source::Nibble(table), Sink::F32) => nibbles_to_f32(table, src, dst, count),
        (Source::BF16, Sink::F32) => bf16_to_f32(&src[..2 * count], dst),
        (Source::Int(from), Sink::F32) => int_to_f32(from, &src[..from.bytes * count], dst),
        (Source::Int(from), Sink::F64) => int_to_f64(from, &src[..from.bytes * count], dst),
        (Source::Int(from), Sink::Int(to)) => int_to_int(from, to, &src[..from.bytes * count], dst),
        (Source::F32, Sink::Int(to)) if to.bytes <= 4 && !to.bool => f32_to_int(to, &src[..4 * count], dst),
        (Source::Byte { f32, .. }, Sink::Int(to)) if loops(S::SOURCE, T::SINK) => {
            float8_to_int::<T>(f32, to, &src[..count], dst)
        }
        _ => kernel::<S, T>(src, dst, count, options),
    }
}

/// A byte format into f32 through its table, one element at a time.
fn bytes_to_f32(table: &[u32; 256], src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.iter().zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&table[*s as usize].to_le_bytes());
    }
}

/// `count` elements of a nibble format (two per byte, the first in the low nibble)
/// into f32 through its table.
fn nibbles_to_f32(table: &[u32; 16], src: &[u8], dst: &mut [u8], count: usize) {
    let pairs = count / 2;
    for (s, d) in src[..pairs].iter().zip(dst[..pairs * 8].chunks_exact_mut(8)) {
        d[..4].copy_from_slice(&table[(*s & 0xf) as usize].to_le_bytes());
        d[4..].copy_from_slice(&table[(*s >> 4) as usize].to_le_bytes());
    }
    if count % 2 == 1 {
        let last = table[(src[pairs] & 0xf) as usize];
        dst[pairs * 8..pairs * 8 + 4].copy_from_slice(&last.to_le_bytes());
    }
}

/// bf16 into f32: the bits shifted up (exact); a NaN becomes the quiet NaN of its
/// sign, as the scalar cast gives.
fn bf16_to_f32(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(2).zip(dst.chunks_exact_mut(4)) {
        let h = u16::from_le_bytes([s[0], s[1]]) as u32;
        let bits = if h & 0x7fff > 0x7f80 {
            (h & 0x8000) << 16 | 0x7fc0_0000
        } else {
            h << 16
        };
        d.copy_from_slice(&bits.to_le_bytes());
    }
}

/// x86 `cvttss2si` to 32 bits, in f32: truncate, `i32::MIN` out of range or NaN.
#[inline]
fn cvtt(x: f32) -> i32 {
    if (-2147483648.0..2147483648.0).contains(&x) {
        x as i32
    } else {
        i32::MIN
    }
}

/// f32 into an integer of 32 bits or fewer, element by element in f32 arithmetic
/// (the scalar cast widens to f64 first, which gives the same integer for every
/// f32): `cvtt`, and into u32 values at or above 2^31 less 2^31 first.
#[inline(always)]
fn f32_to_int(to: IntLayout, src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(to.bytes)) {
        let x = f32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let v = if to.is_u32() && x >= 2147483648.0 {
            cvtt(x - 2147483648.0) ^ i32::MIN
        } else {
            cvtt(x)
        };
        d.copy_from_slice(&v.to_le_bytes()[..to.bytes]);
    }
}

/// A float8 format into an integer: each code's f32 value from the format's
/// `table`, then the scalar cast of that f32 (the same value, so the same integer).
#[inline(always)]
fn float8_to_int<T: Target>(table: &[u32; 256], to: IntLayout, src: &[u8], dst: &mut [u8]) {
    let options = CastOptions::default();
    for (s, d) in src.iter().zip(dst.chunks_exact_mut(to.bytes)) {
        let x = f32::from_bits(table[*s as usize]);
        T::from_value(x.value(), &options).write(d, 0);
    }
}

/// An integer (or bool) into another: sign- or zero-extended, then the low bits
/// kept (bool: 0 or 1 in, nonzero out).
#[inline(always)]
fn int_to_int(from: IntLayout, to: IntLayout, src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(from.bytes).zip(dst.chunks_exact_mut(to.bytes)) {
        to.write(from.read(s), d);
    }
}

/// An integer (or bool) into f32, rounded once to nearest even (what `as` does).
#[inline(always)]
fn int_to_f32(from: IntLayout, src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(from.bytes).zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&from.to_f32(from.read(s)).to_le_bytes());
    }
}

/// An integer (or bool) into f64, rounded once to nearest even (what `as` does).
#[inline(always)]
fn int_to_f64(from: IntLayout, src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(from.bytes).zip(dst.chunks_exact_mut(8)) {
        d.copy_from_slice(&from.to_f64(from.read(s)).to_le_bytes());
    }
}
