//! The fast kernels: the driver, and the one place that picks them.
//!
//! [`find`] chooses, once per [`Converter`](super::Converter) (so once per slice
//! call), a kernel that computes exactly what the scalar cast computes, faster.
//! Each kernel is a driver function here, generic over a backend ([`Isa`]): a
//! scalar head that aligns the stores, the backend's body for whole blocks, and a
//! scalar (or table) tail. The backend is a type parameter, fixed when the kernel is
//! picked, so the CPU is asked once, by [`Backend::detect`].
//!
//! | conversion | AVX-512 ([`x86_avx512`]) | AVX2 / F16C ([`x86_avx2`]) | every CPU ([`portable`]) |
//! | --- | --- | --- | --- |
//! | f32 → float8, f4e2m1; f16, bf16, integers → float8, f4e2m1 | 16 lanes, `vpmovdb` narrowing | arithmetic on 8 lanes, 32 elements a step | the scalar cast |
//! | f32 → f8e8m0, f16, bf16; integers → f16, bf16 | AVX2's | 8 lanes | the scalar cast |
//! | float8, float6 → f32 | `vpermi2b` lookups of the 256 results, 64 codes a step | nibble lookups on 32 lanes (the ONNX float8 formats) | a 256-entry table of the scalar cast's results |
//! | f4e2m1, i4, u4 → f32 | AVX2's | a 16-entry lookup | the same, two outputs per byte |
//! | bf16 → f32 | 16 lanes, shifted | shift, NaN made quiet | the same, one at a time |
//! | f16 → f32 | `vcvtph2ps` on 16 lanes | `vcvtph2ps` | the scalar cast |
//! | f32 ↔ f64 | AVX2's | `vcvtps2pd` (signalling NaN kept) / `vcvtpd2ps` | the scalar cast |
//! | integer, bool ↔ integer, bool | AVX2's | `vpmovsx` / `vpmovzx`; masked packs; compare with zero | `as`, one at a time (the same bits: a copy) |
//! | integer, bool → f32, f64 | AVX2's | `vcvtdq2ps`, `vcvtdq2pd`; u32 and 64-bit by halves, rounded once | `as`, one at a time |
//! | integer, bool → f8e8m0 | AVX2's | to f32 (past 2^24 rounded to odd), then the f32 encoder | the scalar cast |
//! | f32, f64, f16, bf16, float8, f8e8m0 → integers | AVX2's | `vcvttps2dq` / `vcvttpd2dq`, narrowed by packs; 64-bit by shifting the mantissa | f32 and float8 (through their f32 table) in f32 arithmetic; the rest the scalar cast |
//!
//! Each SIMD body runs its whole loop inside one `#[target_feature]` function and
//! returns how many elements it did; the driver finishes the rest. Outputs of
//! [`STREAM_FROM`](backend::STREAM_FROM) bytes or more are written with non-temporal stores, after a few
//! elements that align the destination. Every backend the CPU has is tested against
//! the scalar cast ([`Backend::available`]).
//!
//! The floor below: [`formats`] (what the kernels know of each type, derived
//! from the formats' `Spec`s and the element table) and the scalar kernel. A new
//! backend is one file: a type implementing [`Isa`], a [`Backend`] variant, and its
//! arm in [`find`].

mod backend;
mod formats;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;

pub use backend::Backend;
use backend::Isa;
use formats::{ByteTable, Int, Lanes, NibbleTable, Source, Target};

use super::options::CastOptions;
use super::scalar::{bytes_for, kernel, Kernel};
use crate::element::for_each_element;
use crate::narrow::{
    f4e2m1, f8e3m4, f8e4m3, f8e4m3b11fnuz, f8e4m3b15, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz,
};
use crate::narrow::{f6e2m3fn, f6e3m2fn, f8e8m0, i4, u4, Reference, RoundMode};
use crate::DType;
use half::{bf16, f16};
use portable::Portable;

/// A backend body, `I::…(…)`, called from a driver function.
macro_rules! body {
    ($call:expr) => {{
        // SAFETY: `find` hands out a driver function generic over `I` only when the
        // CPU has `I`'s features (`I::BACKEND.is_available()`), which is all a body
        // requires; the bodies stay inside the slices they are given.
        debug_assert!(I::BACKEND.is_available());
        unsafe { $call }
    }};
}

/// The fast kernel for `from` into `to` on `backend`, if there is one; `None`
/// when the CPU lacks the backend (see [`Backend::is_available`]).
pub(crate) fn find(from: DType, to: DType, backend: Backend) -> Option<Kernel> {
    if !backend.is_available() {
        return None;
    }
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => find_in::<x86_avx512::Avx512>(from, to),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => find_in::<x86_avx2::Avx2>(from, to),
        _ => find_in::<Portable>(from, to),
    }
}

/// [`find`] on backend `I`.
fn find_in<I: Isa>(from: DType, to: DType) -> Option<Kernel> {
    use DType as D;
    // Integers (bool among them) into anything, floats into integers.
    let int = if from.is_integer() || from.is_bool() {
        from_int::<I>(from, to)
    } else if to.is_integer() {
        match from {
            D::F32 => float_into_int::<f32, I>(to),
            D::F8E4M3FN => float_into_int::<f8e4m3fn, I>(to),
            D::F8E4M3FNUZ => float_into_int::<f8e4m3fnuz, I>(to),
            D::F8E5M2 => float_into_int::<f8e5m2, I>(to),
            D::F8E5M2FNUZ => float_into_int::<f8e5m2fnuz, I>(to),
            _ if !I::SIMD => None,
            D::F64 => float_into_int::<f64, I>(to),
            D::F16 => float_into_int::<f16, I>(to),
            D::BF16 => float_into_int::<bf16, I>(to),
            D::F8E8M0 => float_into_int::<f8e8m0, I>(to),
            _ => None,
        }
    } else {
        None
    };
    if int.is_some() {
        return int;
    }
    let simd = I::SIMD;
    Some(match (from, to) {
        (D::F32, D::F8E4M3FN) if simd => encode::<f32, f8e4m3fn, I>,
        (D::F32, D::F8E4M3FNUZ) if simd => encode::<f32, f8e4m3fnuz, I>,
        (D::F32, D::F8E5M2) if simd => encode::<f32, f8e5m2, I>,
        (D::F32, D::F8E5M2FNUZ) if simd => encode::<f32, f8e5m2fnuz, I>,
        (D::F32, D::F4E2M1) if simd => encode::<f32, f4e2m1, I>,
        (D::F32, D::F8E4M3) if simd => encode::<f32, f8e4m3, I>,
        (D::F32, D::F8E3M4) if simd => encode::<f32, f8e3m4, I>,
        (D::F32, D::F8E4M3B11FNUZ) if simd => encode::<f32, f8e4m3b11fnuz, I>,
        (D::F32, D::F16) if simd => encode::<f32, f16, I>,
        (D::F32, D::BF16) if simd => encode::<f32, bf16, I>,
        (D::F32, D::F8E8M0) if simd => encode_e8m0::<f32, I>,
        (D::F32, D::F64) if simd => f32_to_f64::<I>,
        (D::F64, D::F32) if simd => f64_to_f32::<I>,
        (D::F16, D::F8E4M3FN) if simd => encode::<f16, f8e4m3fn, I>,
        (D::F16, D::F8E4M3FNUZ) if simd => encode::<f16, f8e4m3fnuz, I>,
        (D::F16, D::F8E5M2) if simd => encode::<f16, f8e5m2, I>,
        (D::F16, D::F8E5M2FNUZ) if simd => encode::<f16, f8e5m2fnuz, I>,
        (D::F16, D::F4E2M1) if simd => encode::<f16, f4e2m1, I>,
        (D::F16, D::F8E4M3) if simd => encode::<f16, f8e4m3, I>,
        (D::F16, D::F8E3M4) if simd => encode::<f16, f8e3m4, I>,
        (D::F16, D::F8E4M3B11FNUZ) if simd => encode::<f16, f8e4m3b11fnuz, I>,
        (D::BF16, D::F8E4M3FN) if simd => encode::<bf16, f8e4m3fn, I>,
        (D::BF16, D::F8E4M3FNUZ) if simd => encode::<bf16, f8e4m3fnuz, I>,
        (D::BF16, D::F8E5M2) if simd => encode::<bf16, f8e5m2, I>,
        (D::BF16, D::F8E5M2FNUZ) if simd => encode::<bf16, f8e5m2fnuz, I>,
        (D::BF16, D::F4E2M1) if simd => encode::<bf16, f4e2m1, I>,
        (D::BF16, D::F8E4M3) if simd => encode::<bf16, f8e4m3, I>,
        (D::BF16, D::F8E3M4) if simd => encode::<bf16, f8e3m4, I>,
        (D::BF16, D::F8E4M3B11FNUZ) if simd => encode::<bf16, f8e4m3b11fnuz, I>,
        (D::F8E4M3FN, D::F32) => bytes_to_f32::<f8e4m3fn, I>,
        (D::F8E4M3FNUZ, D::F32) => bytes_to_f32::<f8e4m3fnuz, I>,
        (D::F8E5M2, D::F32) => bytes_to_f32::<f8e5m2, I>,
        (D::F8E5M2FNUZ, D::F32) => bytes_to_f32::<f8e5m2fnuz, I>,
        (D::F8E4M3, D::F32) => bytes_to_f32::<f8e4m3, I>,
        (D::F8E3M4, D::F32) => bytes_to_f32::<f8e3m4, I>,
        (D::F8E4M3B11FNUZ, D::F32) => bytes_to_f32::<f8e4m3b11fnuz, I>,
        (D::F8E4M3B15, D::F32) => bytes_to_f32::<f8e4m3b15, I>,
        (D::F6E2M3FN, D::F32) => bytes_to_f32::<f6e2m3fn, I>,
        (D::F6E3M2FN, D::F32) => bytes_to_f32::<f6e3m2fn, I>,
        (D::F4E2M1, D::F32) => nibbles_to_f32::<f4e2m1, I>,
        (D::I4, D::F32) => nibbles_to_f32::<i4, I>,
        (D::U4, D::F32) => nibbles_to_f32::<u4, I>,
        (D::F8E8M0, D::F32) if simd => e8m0_to_f32::<I>,
        (D::BF16, D::F32) => bf16_to_f32::<I>,
        (D::F16, D::F32) if simd => f16_to_f32::<I>,
        _ => return None,
    })
}

/// The kernel tables of the integer rows of the element table (bool among them):
/// every integer into every other, every integer into the floats, and the floats
/// into every integer.
macro_rules! int_kernels {
    ($($dtype:ident: $t:ty = $layout:ident / $text:ident),* $(,)?) => {
        int_kernels!(@pick [] $($dtype $t, $layout;)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, int; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)* $dtype $t;] $($rest)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, bool; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)* $dtype $t;] $($rest)*);
    };
    (@pick [$($acc:tt)*] $dtype:ident $t:ty, $other:ident; $($rest:tt)*) => {
        int_kernels!(@pick [$($acc)*] $($rest)*);
    };
    (@pick [$($dtype:ident $t:ty;)*]) => {
        /// The kernel from the integer (or bool) `from`, if there is one.
        fn from_int<I: Isa>(from: DType, to: DType) -> Option<Kernel> {
            match from {
                $(DType::$dtype => int_source::<$t, I>(to),)*
                _ => None,
            }
        }

        /// The kernel from `S` into the integer (or bool) `to`, if there is one.
        fn into_int<S: Int, I: Isa>(to: DType) -> Option<Kernel> {
            match to {
                $(DType::$dtype => Some(int_to_int::<S, $t, I>),)*
                _ => None,
            }
        }

        /// The kernel from the float `S` into the integer `to`, if there is one.
        fn float_into_int<S: Lanes, I: Isa>(to: DType) -> Option<Kernel> {
            match to {
                // Floats into bool are left to the scalar kernel.
                $(DType::$dtype if !<$t as Int>::BOOL => Some(to_int::<S, $t, I>),)*
                _ => None,
            }
        }
    };
}
for_each_element!(int_kernels);

/// The kernel from the integer (or bool) `S` into `to`, if there is one.
fn int_source<S: Int, I: Isa>(to: DType) -> Option<Kernel> {
    use DType as D;
    Some(match to {
        D::F32 => int_to_f32::<S, I>,
        D::F64 => int_to_f64::<S, I>,
        _ if !I::SIMD => return into_int::<S, I>(to),
        D::F16 => encode::<S, f16, I>,
        D::BF16 => encode::<S, bf16, I>,
        D::F8E4M3FN => encode::<S, f8e4m3fn, I>,
        D::F8E4M3FNUZ => encode::<S, f8e4m3fnuz, I>,
        D::F8E5M2 => encode::<S, f8e5m2, I>,
        D::F8E5M2FNUZ => encode::<S, f8e5m2fnuz, I>,
        D::F4E2M1 => encode::<S, f4e2m1, I>,
        D::F8E8M0 => encode_e8m0::<S, I>,
        _ => return into_int::<S, I>(to),
    })
}

// ---- the driver: scalar head, backend body, scalar tail ------------------------

/// How many elements of `size` bytes, at most `count`, take `dst` to an `I::ALIGN`
/// boundary (0 if elements cannot reach one, or `I` has no bodies). The bodies then
/// store whole vectors that never straddle two cache lines (about a fifth faster in
/// the cache), and a large output can be written with non-temporal stores.
fn aligned_head<I: Isa>(dst: &[u8], size: usize, count: usize) -> usize {
    let misalign = dst.as_ptr() as usize % I::ALIGN;
    if !I::SIMD || !misalign.is_multiple_of(size) {
        return 0;
    }
    ((I::ALIGN - misalign) % I::ALIGN / size).min(count)
}

/// `S` (f32, f16, bf16 or an integer) into `T`. Each input is widened to f32 in a
/// register: exactly, or, an integer past 2^24, rounded so that `T` rounds once
/// (to odd for bf16; to nearest for the formats that overflow long before).
fn encode<S: Lanes, T: Target, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..bytes_for(T::BITS, count)]);
    let saturate = T::SATURATE.unwrap_or(options.saturates(T::SPEC.reference));
    // f16 and bf16: a few elements first, so that the body's stores are aligned.
    let head = if T::BITS == 16 {
        aligned_head::<I>(dst, 2, count)
    } else {
        0
    };
    kernel::<S, T>(src, dst, head, options);
    let (rest, out) = (&src[head * size..], &mut dst[head * T::BITS / 8..]);
    let done = head
        + match (T::SPEC.bits(), T::SPEC.man_bits) {
            (16, 10) => body!(I::to_f16::<S>(rest, out)),
            (16, _) => body!(I::to_bf16::<S>(rest, out)),
            _ => body!(I::to_minifloat::<S, T>(
                rest,
                out,
                saturate,
                // The Cast-19..23 rule for ±∞ is ONNX's, for ONNX's FNUZ formats.
                options.fnuz_inf_is_nan() && matches!(T::SPEC.reference, Reference::Onnx)
            )),
        };
    kernel::<S, T>(
        &src[done * size..],
        &mut dst[done * T::BITS / 8..],
        count - done,
        options,
    );
}

/// f64 into f32.
fn f64_to_f32<I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 8], &mut dst[..count * 4]);
    let head = aligned_head::<I>(dst, 4, count);
    kernel::<f64, f32>(src, dst, head, options);
    let done = head + body!(I::f64_to_f32(&src[head * 8..], &mut dst[head * 4..]));
    kernel::<f64, f32>(&src[done * 8..], &mut dst[done * 4..], count - done, options);
}

/// f32 into f64.
fn f32_to_f64<I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 4], &mut dst[..count * 8]);
    let head = aligned_head::<I>(dst, 8, count);
    kernel::<f32, f64>(src, dst, head, options);
    let done = head + body!(I::f32_to_f64(&src[head * 4..], &mut dst[head * 8..]));
    kernel::<f32, f64>(&src[done * 4..], &mut dst[done * 8..], count - done, options);
}

/// `S` (f32 or an integer) into f8e8m0.
fn encode_e8m0<S: Lanes, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..count]);
    let saturate = options.saturates(crate::narrow::Reference::Onnx);
    let done = match options.round_mode {
        RoundMode::Up => body!(I::to_e8m0::<S, 0>(src, dst, saturate)),
        RoundMode::Down => body!(I::to_e8m0::<S, 1>(src, dst, saturate)),
        RoundMode::Nearest => body!(I::to_e8m0::<S, 2>(src, dst, saturate)),
    };
    kernel::<S, f8e8m0>(&src[done * size..], &mut dst[done..], count - done, options);
}

/// A byte format (float8, float6) into f32; head and tail through its table.
fn bytes_to_f32<S: ByteTable, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count], &mut dst[..count * 4]);
    let table = const { &S::F32 };
    let head = aligned_head::<I>(dst, 4, count);
    portable::bytes_to_f32(table, &src[..head], &mut dst[..head * 4]);
    let done = head + body!(I::bytes_to_f32::<S>(&src[head..], &mut dst[head * 4..]));
    portable::bytes_to_f32(table, &src[done..], &mut dst[done * 4..]);
}

/// A nibble format into f32; head and tail through its table.
fn nibbles_to_f32<S: NibbleTable, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let table = const { &S::F32 };
    let (src, dst) = (&src[..count.div_ceil(2)], &mut dst[..count * 4]);
    // Bytes 3 and 2 of each result (the low two are zero for every nibble format).
    let t3: [u8; 16] = std::array::from_fn(|n| (table[n] >> 24) as u8);
    let t2: [u8; 16] = std::array::from_fn(|n| (table[n] >> 16) as u8);
    debug_assert!(table.iter().all(|x| x & 0xffff == 0));
    // A few whole bytes first, so that the body's stores are aligned.
    let head = aligned_head::<I>(dst, 4, count);
    let head = if head.is_multiple_of(2) { head } else { 0 };
    portable::nibbles_to_f32(table, &src[..head / 2], &mut dst[..head * 4], head);
    let done = head
        + body!(I::nibbles_to_f32(
            &src[head / 2..count / 2],
            &mut dst[head * 4..],
            &t3,
            &t2
        ));
    portable::nibbles_to_f32(table, &src[done / 2..], &mut dst[done * 4..], count - done);
}

/// f8e8m0 into f32.
fn e8m0_to_f32<I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count], &mut dst[..count * 4]);
    let head = aligned_head::<I>(dst, 4, count);
    kernel::<f8e8m0, f32>(src, dst, head, options);
    let done = head + body!(I::e8m0_to_f32(&src[head..], &mut dst[head * 4..]));
    kernel::<f8e8m0, f32>(&src[done..], &mut dst[done * 4..], count - done, options);
}

/// bf16 into f32.
fn bf16_to_f32<I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * 2], &mut dst[..count * 4]);
    let head = aligned_head::<I>(dst, 4, count);
    portable::bf16_to_f32(&src[..head * 2], &mut dst[..head * 4]);
    let done = head + body!(I::bf16_to_f32(&src[head * 2..], &mut dst[head * 4..]));
    portable::bf16_to_f32(&src[done * 2..], &mut dst[done * 4..]);
}

/// f16 into f32.
fn f16_to_f32<I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let (src, dst) = (&src[..count * 2], &mut dst[..count * 4]);
    let head = aligned_head::<I>(dst, 4, count);
    kernel::<f16, f32>(src, dst, head, options);
    let done = head + body!(I::f16_to_f32(&src[head * 2..], &mut dst[head * 4..]));
    kernel::<f16, f32>(&src[done * 2..], &mut dst[done * 4..], count - done, options);
}

/// An integer (or bool) into another: the same bits when only the sign differs,
/// else widened (sign- or zero-extended) or narrowed (the low bits kept); bool is 0
/// or 1 in, nonzero out.
fn int_to_int<S: Int, T: Int, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * T::BYTES]);
    if S::BYTES == T::BYTES && !S::BOOL && !T::BOOL {
        dst.copy_from_slice(src);
        return;
    }
    let head = aligned_head::<I>(dst, T::BYTES, count);
    portable::int_to_int::<S, T>(&src[..head * S::BYTES], &mut dst[..head * T::BYTES]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * T::BYTES..]);
    let done = head + body!(I::int_to_int::<S, T>(rest, out));
    portable::int_to_int::<S, T>(&src[done * S::BYTES..], &mut dst[done * T::BYTES..]);
}

/// An integer (or bool) into f32, rounded once to nearest even.
fn int_to_f32<S: Int, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * 4]);
    let head = aligned_head::<I>(dst, 4, count);
    portable::int_to_f32::<S>(&src[..head * S::BYTES], &mut dst[..head * 4]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * 4..]);
    let done = head + body!(I::int_to_f32::<S>(rest, out));
    portable::int_to_f32::<S>(&src[done * S::BYTES..], &mut dst[done * 4..]);
}

/// An integer (or bool) into f64, rounded once to nearest even (exact below 2^53).
fn int_to_f64<S: Int, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let (src, dst) = (&src[..count * S::BYTES], &mut dst[..count * 8]);
    let head = aligned_head::<I>(dst, 8, count);
    portable::int_to_f64::<S>(&src[..head * S::BYTES], &mut dst[..head * 8]);
    let (rest, out) = (&src[head * S::BYTES..], &mut dst[head * 8..]);
    let done = head + body!(I::int_to_f64::<S>(rest, out));
    portable::int_to_f64::<S>(&src[done * S::BYTES..], &mut dst[done * 8..]);
}

/// A float into an integer, as x86 `cvtt` gives it (see
/// [`FloatToInt`](super::values::FloatToInt)). Head and tail: f32 into an integer
/// of 32 bits or fewer in f32 arithmetic, a float8 format through its table of
/// f32 values, the rest through the scalar kernel.
fn to_int<S: Lanes, T: Int, I: Isa>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let size = S::SOURCE.size();
    let (src, dst) = (&src[..count * size], &mut dst[..count * T::BYTES]);
    let rest = |src: &[u8], dst: &mut [u8], n: usize| match (S::SOURCE, S::F32_TABLE) {
        (Source::F32, _) if T::BYTES <= 4 => portable::f32_to_int::<T>(src, dst),
        (_, Some(table)) => portable::float8_to_int::<T>(table, src, dst),
        _ => kernel::<S, T>(src, dst, n, options),
    };
    let head = aligned_head::<I>(dst, T::BYTES, count);
    rest(&src[..head * size], &mut dst[..head * T::BYTES], head);
    let (middle, out) = (&src[head * size..], &mut dst[head * T::BYTES..]);
    let done = head + body!(I::to_int::<S, T>(middle, out));
    rest(&src[done * size..], &mut dst[done * T::BYTES..], count - done);
}

#[cfg(test)]
mod tests;
