//! Parallel casts (feature `rayon`): [`par_cast_slice`], [`par_cast_vec`],
//! [`par_convert_to_slice`] and [`par_convert_stream`] split the elements into
//! four chunks per thread of rayon's pool and run the same
//! [`Converter`], chosen once, on every chunk, so the bits are those of the
//! one-thread cast. Below
//! [`PAR_MIN_ELEMENTS`] elements, where waking a second thread costs more than it
//! saves, they run on the calling thread.
//!
//! Chunks start at a whole byte of a packed buffer (two 4-bit or four 2-bit
//! elements per byte) and at a 64-byte line of both sides: no two threads write
//! the same byte or cache line.

use super::buffer::Converter;
use super::error::ConvertError;
use super::options::CastOptions;
use super::scalar::bytes_for;
use super::stream::{stream, StreamError};
use super::typed::{cast_slice, cast_vec};
use super::values::{CastSource, CastTarget};
use crate::element::sealed::Sealed;
use crate::{DType, Element};
use rayon::prelude::*;
use std::io::{Read, Write};

/// Elements from which the parallel casts use more than one thread: 512 Ki.
///
/// Below it, handing a chunk to a second thread (about 12 µs to wake it and join)
/// costs more than the chunk takes. Measured with `cargo bench -p promo-core
/// --features rayon --bench par_cast -- threshold` (two threads against one, 4 Ki
/// to 4 Mi elements, medians; 2-core AMD EPYC VM, AVX2 kernels, the other core
/// partly busy with other jobs): two threads ÷ one thread was
///
/// | elements | 128 Ki | 256 Ki | 512 Ki | 1 Mi | 2 Mi |
/// | --- | --- | --- | --- | --- | --- |
/// | f32 → f8e4m3fn (5.9 G el/s on one thread) | 0.72× | 1.05× | 1.33× | 1.58× | 1.71× |
/// | f32 → bf16 (9.4 G el/s) | 0.51× | 0.66× | 0.80× (best run 1.51×) | 1.42× | 1.69× |
/// | f8e4m3fn → f32 (12.7 G el/s) | 0.44× | 0.60× | 0.74× | 0.84× | 0.91× |
///
/// so the pool starts to win between 256 Ki and 1 Mi elements for the encoders,
/// later for the fastest decoders: 512 Ki.
pub const PAR_MIN_ELEMENTS: usize = 1 << 19;

/// Chunks per thread of the pool. With one, a thread slowed by another job holds
/// back the whole call; with four, the other thread takes over the rest. On the
/// 2-core AMD EPYC, f32 → f8e4m3fn over 4 Mi elements ran 1.38–1.55× one thread with
/// four chunks per thread, against 1.05–1.36× with one, alternating in one process.
const CHUNKS_PER_THREAD: usize = 4;

/// The larger side of a block of [`par_convert_stream`]: 8 MiB, so input and
/// output together stay under 16 MiB whatever the types, and every block is
/// large enough to be worth splitting.
pub const PAR_BLOCK_BYTES: usize = 8 << 20;

/// Elements per chunk when `count` elements of `from_bits` bits become elements of
/// `to_bits` bits: [`CHUNKS_PER_THREAD`] chunks per thread of the pool, a whole number of 64-byte
/// lines of each side; `None` when one thread is the faster (a small `count`, a
/// pool of one thread).
fn chunk_elements(count: usize, from_bits: usize, to_bits: usize) -> Option<usize> {
    let threads = rayon::current_num_threads();
    if count < PAR_MIN_ELEMENTS || threads < 2 {
        return None;
    }
    // 512 bits of the narrower side: whole lines (and whole bytes) of both.
    let unit = 512 / from_bits.min(to_bits);
    Some(count.div_ceil(threads * CHUNKS_PER_THREAD).next_multiple_of(unit))
}

/// Converts `count` elements of `src` (which holds them) into the start of `out`
/// (which has room for them) on the pool, in chunks as [`par_cast_slice`] cuts them; the bytes written,
/// as [`Converter::convert_to`] gives them.
pub(super) fn par_convert_to(converter: &Converter, src: &[u8], count: usize, out: &mut [u8]) -> usize {
    let (from_bits, to_bits) = (converter.from_bits(), converter.to_bits());
    let Some(per) = chunk_elements(count, from_bits, to_bits) else {
        return converter.convert_to(src, count, out);
    };
    let needed = bytes_for(to_bits, count);
    let src = &src[..bytes_for(from_bits, count)];
    // `per` is a multiple of 8 elements: every chunk but the last is whole bytes
    // of both sides, and the last clears its own padding.
    src.par_chunks(bytes_for(from_bits, per))
        .zip(out[..needed].par_chunks_mut(bytes_for(to_bits, per)))
        .enumerate()
        .for_each(|(i, (s, d))| {
            converter.convert_to(s, per.min(count - i * per), d);
        });
    needed
}

/// [`cast_slice`] on rayon's pool: every element of `src` converted into `dst`
/// (`src.len() == dst.len()`), four chunks per thread, each chunk through the same
/// kernel, so `dst` holds exactly the bits [`cast_slice`] gives. Below
/// [`PAR_MIN_ELEMENTS`] it is [`cast_slice`].
///
/// ```
/// use promo_core::cast::{par_cast_slice, CastOptions};
/// use promo_core::narrow::f8e4m3fn;
/// let src: Vec<f32> = (0..100_000).map(|i| i as f32 / 64.0).collect();
/// let mut dst = vec![f8e4m3fn::default(); src.len()];
/// par_cast_slice(&src, &mut dst, &CastOptions::default()).unwrap();
/// assert_eq!(f32::from(dst[80]), 1.25);
/// assert_eq!(f32::from(dst[99_999]), 448.0); // saturating by default
/// ```
///
/// A length mismatch is [`ConvertError::LengthMismatch`], never a panic, and
/// leaves `dst` as it was.
pub fn par_cast_slice<S, T>(src: &[S], dst: &mut [T], options: &CastOptions) -> Result<(), ConvertError>
where
    S: Element + CastSource,
    T: Element + CastTarget,
{
    // One byte per element of a 4- or 2-bit type in a typed slice.
    let (from_bits, to_bits) = (8 * size_of::<S>(), 8 * size_of::<T>());
    let per = match chunk_elements(src.len(), from_bits, to_bits) {
        Some(per) if src.len() == dst.len() => per,
        _ => return cast_slice(src, dst, options),
    };
    let converter = Converter::new(S::DTYPE, T::DTYPE, *options)?;
    if let (Some(from), Some(to)) = (Sealed::__promo_bytes(src), Sealed::__promo_bytes_mut(dst)) {
        from.par_chunks(per * size_of::<S>())
            .zip(to.par_chunks_mut(per * size_of::<T>()))
            .for_each(|(s, d)| converter.run(s, d, s.len() / size_of::<S>()));
        return Ok(());
    }
    src.par_chunks(per)
        .zip(dst.par_chunks_mut(per))
        .for_each(|(s, d)| each(s, d, options));
    Ok(())
}

/// The scalar cast, element by element (types without a byte view).
fn each<S: CastSource, T: CastTarget>(src: &[S], dst: &mut [T], options: &CastOptions) {
    for (s, d) in src.iter().zip(dst.iter_mut()) {
        *d = T::from_value(s.value(), options);
    }
}

/// [`cast_vec`] on rayon's pool: `src` converted into a new vector of `T`, the
/// vector filled and converted four chunks per thread (see [`par_cast_slice`]).
///
/// ```
/// use promo_core::cast::{par_cast_vec, CastOptions};
/// use promo_core::bf16;
/// let src: Vec<i32> = (0..100_000).collect();
/// let v: Vec<bf16> = par_cast_vec(&src, &CastOptions::default());
/// assert_eq!(v[257].to_f32(), 256.0);
/// ```
pub fn par_cast_vec<S, T>(src: &[S], options: &CastOptions) -> Vec<T>
where
    S: Element + CastSource,
    T: Element + CastTarget + Default,
{
    if chunk_elements(src.len(), 8 * size_of::<S>(), 8 * size_of::<T>()).is_none() {
        return cast_vec(src, options);
    }
    let mut out = Vec::with_capacity(src.len());
    (0..src.len())
        .into_par_iter()
        .map(|_| T::default())
        .collect_into_vec(&mut out);
    // Both are element types ONNX Cast converts, and the lengths agree.
    if par_cast_slice(src, &mut out, options).is_err() {
        let per = src.len().div_ceil(rayon::current_num_threads());
        src.par_chunks(per)
            .zip(out.par_chunks_mut(per))
            .for_each(|(s, d)| each(s, d, options));
    }
    out
}

/// [`convert_to_slice`](super::convert_to_slice) on rayon's pool: converts every
/// element of `src` (little-endian bytes of `from`; packed types two or four per
/// byte) into the start of `dst`, four chunks per thread, and returns the number of
/// bytes written. The bytes and the errors are those of
/// [`convert_to_slice`](super::convert_to_slice): a trailing partial element is
/// [`ConvertError::PartialElement`], a `dst` too short
/// [`ConvertError::OutputTooSmall`], and either leaves `dst` untouched.
///
/// ```
/// use promo_core::cast::{par_convert_to_slice, CastOptions};
/// use promo_core::DType;
/// let src: Vec<u8> = (0..100_000).flat_map(|i| (i as f32).to_le_bytes()).collect();
/// let mut dst = vec![0u8; 100_000 / 2];
/// let o = CastOptions::default();
/// assert_eq!(par_convert_to_slice(DType::F32, DType::F4E2M1, &src, &mut dst, &o), Ok(50_000));
/// assert_eq!(dst[..2], [0x20, 0x54]); // 0, 1, 2, 3 (low nibble first)
/// ```
pub fn par_convert_to_slice(
    from: DType,
    to: DType,
    src: &[u8],
    dst: &mut [u8],
    options: &CastOptions,
) -> Result<usize, ConvertError> {
    let converter = Converter::new(from, to, *options)?;
    let count = converter.slice_count(src, dst.len())?;
    Ok(par_convert_to(&converter, src, count, dst))
}

/// Input bytes per block: [`PAR_BLOCK_BYTES`] on the larger side, a power of two
/// and so a whole number of elements of every type.
fn block_bytes(converter: &Converter) -> usize {
    let (from, to) = (converter.from_bits(), converter.to_bits());
    PAR_BLOCK_BYTES / from.max(to) * from
}

/// [`convert_stream`](super::convert_stream) in blocks of [`PAR_BLOCK_BYTES`] (on
/// the larger side) converted on rayon's pool: the same output, the same errors
/// at the same offsets, in bounded memory; what `promo convert` runs on a file.
/// Reading and writing stay on the calling thread, a block at a time.
///
/// ```
/// use promo_core::cast::{par_convert_stream, CastOptions, Converter};
/// use promo_core::DType;
/// let converter = Converter::new(DType::F32, DType::F8E4M3FN, CastOptions::default()).unwrap();
/// let input: Vec<u8> = [1.0f32, 464.0].iter().flat_map(|x| x.to_le_bytes()).collect();
/// let mut output = Vec::new();
/// assert_eq!(par_convert_stream(&converter, &mut &input[..], &mut output).unwrap(), 2);
/// assert_eq!(output, [0x38, 0x7e]);
/// ```
pub fn par_convert_stream(
    converter: &Converter,
    input: &mut impl Read,
    output: &mut impl Write,
) -> Result<u64, StreamError> {
    let block = block_bytes(converter);
    stream(converter, input, output, None, block, par_convert_to)
}

/// [`convert_stream_exact`](super::convert_stream_exact) (exactly `count`
/// elements) converted as [`par_convert_stream`] converts: the same output and
/// errors.
pub fn par_convert_stream_exact(
    converter: &Converter,
    input: &mut impl Read,
    output: &mut impl Write,
    count: u64,
) -> Result<u64, StreamError> {
    let block = block_bytes(converter);
    stream(converter, input, output, Some(count), block, par_convert_to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_whole_lines_of_both_sides() {
        let threads = rayon::current_num_threads();
        for (from, to) in [(32, 8), (8, 32), (4, 64), (2, 8), (16, 4), (64, 2)] {
            let count = PAR_MIN_ELEMENTS * 3 + 5;
            match chunk_elements(count, from, to) {
                None => assert!(threads < 2),
                Some(per) => {
                    assert_eq!(per * from % 512, 0, "{from} -> {to}");
                    assert_eq!(per * to % 512, 0, "{from} -> {to}");
                    assert!(count.div_ceil(per) <= threads * CHUNKS_PER_THREAD);
                    assert!(count.div_ceil(per) > threads);
                }
            }
            assert_eq!(chunk_elements(PAR_MIN_ELEMENTS - 1, from, to), None);
        }
    }

    #[test]
    fn blocks_are_whole_elements() {
        for (from, to) in [
            (DType::F32, DType::F8E4M3FN),
            (DType::U2, DType::F64),
            (DType::F64, DType::I4),
        ] {
            let c = Converter::new(from, to, CastOptions::default()).unwrap();
            let block = block_bytes(&c);
            assert_eq!(block % 8, 0);
            let larger = block * 8 / c.from_bits() * c.from_bits().max(c.to_bits()) / 8;
            assert_eq!(larger, PAR_BLOCK_BYTES, "{from} -> {to}");
        }
    }
}
