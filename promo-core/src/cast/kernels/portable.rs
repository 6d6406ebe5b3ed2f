//! The fast kernels every CPU runs: tables of the scalar cast's results, plain
//! loops. They are also what finishes the tail of a slice after a SIMD kernel.

use super::super::options::CastOptions;
use super::super::values::CastSource;
use super::backend::{Backend, Isa};
use super::formats::Int;

/// The backend every CPU runs: no bodies; the driver's heads and tails (these
/// tables and loops, and the scalar kernel) do all the work.
pub(crate) struct Portable;

impl Isa for Portable {
    const BACKEND: Backend = Backend::Portable;
    type Fallback = Portable;
    const SIMD: bool = false;
}

/// A byte format into f32 through its table, one element at a time.
pub(super) fn bytes_to_f32(table: &[u32; 256], src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.iter().zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&table[*s as usize].to_le_bytes());
    }
}

/// `count` elements of a nibble format (two per byte, the first in the low nibble)
/// into f32 through its table.
pub(super) fn nibbles_to_f32(table: &[u32; 16], src: &[u8], dst: &mut [u8], count: usize) {
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
pub(super) fn bf16_to_f32(src: &[u8], dst: &mut [u8]) {
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

/// One element as the scalar cast computes it, before the target keeps its low bits.
#[inline]
fn to_i32<T: Int>(x: f32) -> i32 {
    if T::U32 && x >= 2147483648.0 {
        cvtt(x - 2147483648.0) ^ i32::MIN
    } else {
        cvtt(x)
    }
}

/// f32 into an integer of 32 bits or fewer, element by element in f32 arithmetic
/// (the scalar cast widens to f64 first, which gives the same integer for every f32).
pub(super) fn f32_to_int<T: Int>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(T::BYTES)) {
        let x = f32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        d.copy_from_slice(&to_i32::<T>(x).to_le_bytes()[..T::BYTES]);
    }
}

/// A float8 format into an integer: each code's f32 value from the format's
/// `table`, then the scalar cast of that f32 (the same value, so the same integer).
pub(super) fn float8_to_int<T: Int>(table: &[u32; 256], src: &[u8], dst: &mut [u8]) {
    let options = CastOptions::default();
    for (s, d) in src.iter().zip(dst.chunks_exact_mut(T::BYTES)) {
        let x = f32::from_bits(table[*s as usize]);
        T::from_value(x.value(), &options).write(d, 0);
    }
}

/// An integer (or bool) into another: sign- or zero-extended, then the low bits
/// kept (bool: 0 or 1 in, nonzero out).
pub(super) fn int_to_int<S: Int, T: Int>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::BYTES).zip(dst.chunks_exact_mut(T::BYTES)) {
        T::from_i64(S::read(s, 0).to_i64()).write(d, 0);
    }
}

/// An integer (or bool) into f32, rounded once to nearest even (what `as` does).
pub(super) fn int_to_f32<S: Int>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::BYTES).zip(dst.chunks_exact_mut(4)) {
        d.copy_from_slice(&S::read(s, 0).to_f32().to_le_bytes());
    }
}

/// An integer (or bool) into f64, rounded once to nearest even (what `as` does).
pub(super) fn int_to_f64<S: Int>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(S::BYTES).zip(dst.chunks_exact_mut(8)) {
        d.copy_from_slice(&S::read(s, 0).to_f64().to_le_bytes());
    }
}
