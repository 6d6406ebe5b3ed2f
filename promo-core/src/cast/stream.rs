//! Streams: [`convert_stream`] (and [`convert_stream_exact`], for a known element
//! count) converts everything a [`Read`] holds into a
//! [`Write`], a chunk at a time, in bounded memory (what `promo convert` runs).

use super::buffer::Converter;
use super::error::ConvertError;
use super::scalar::bytes_for;
use std::fmt;
use std::io::{self, Read, Write};

/// Input bytes converted per step: 128 KiB, a whole number of elements of every
/// type. Small enough that reading, converting and writing overlap with the
/// processes on either side of a pipe; large enough that the system calls stay few.
pub const CHUNK_BYTES: usize = 1 << 17;

/// Why a stream could not be converted.
#[derive(Debug)]
pub enum StreamError {
    /// The input could not be read.
    Read(io::Error),
    /// The output could not be written.
    Write(io::Error),
    /// The input is not a whole number of elements.
    Convert(ConvertError),
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Read(e) => write!(f, "cannot read the input: {e}"),
            StreamError::Write(e) => write!(f, "cannot write the output: {e}"),
            StreamError::Convert(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StreamError::Read(e) | StreamError::Write(e) => Some(e),
            StreamError::Convert(e) => Some(e),
        }
    }
}

/// Reads until `buf` is full or the input ends; the number of bytes read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Converts everything `input` holds, [`CHUNK_BYTES`] at a time, and writes it to
/// `output`; returns the number of elements. Memory stays bounded whatever the
/// input's size. Input that ends inside an element is
/// [`ConvertError::PartialElement`] naming the byte offset of that element
/// (everything before it has been converted and written). Every element slot of a
/// packed input is an element: 3 bytes of `i4` are 6 elements (see
/// [`convert_stream_exact`] for a count that does not fill the last byte).
///
/// ```
/// use promo_core::cast::{convert_stream, CastOptions, Converter};
/// use promo_core::DType;
/// let converter = Converter::new(DType::F32, DType::F8E4M3FN, CastOptions::default()).unwrap();
/// let input: Vec<u8> = [1.0f32, 464.0].iter().flat_map(|x| x.to_le_bytes()).collect();
/// let mut output = Vec::new();
/// assert_eq!(convert_stream(&converter, &mut &input[..], &mut output).unwrap(), 2);
/// assert_eq!(output, [0x38, 0x7e]);
/// ```
pub fn convert_stream(
    converter: &Converter,
    input: &mut impl Read,
    output: &mut impl Write,
) -> Result<u64, StreamError> {
    stream(converter, input, output, None, CHUNK_BYTES, Converter::convert_to)
}

/// [`convert_stream`] of exactly `count` elements: the input must hold exactly
/// the bytes they take, `ceil(count × bits / 8)`, or the result is
/// [`ConvertError::ByteCount`] (after the elements it does hold have been
/// converted and written; when it holds more, after all `count`). This is how a
/// packed input (`i4`, `u4`, `f4e2m1`, `i2`, `u2`) says how many elements its
/// last byte holds; the unused high bits of that byte are ignored. Into a packed
/// target the unused high bits of the last byte are zero, as ONNX pads.
///
/// ```
/// use promo_core::cast::{convert_stream_exact, CastOptions, Converter};
/// use promo_core::DType;
/// let decode = Converter::new(DType::I4, DType::I8, CastOptions::default()).unwrap();
/// let mut output = Vec::new();
/// // Three elements in two bytes: the last high nibble is padding.
/// assert_eq!(convert_stream_exact(&decode, &mut &[0x21, 0xf3][..], &mut output, 3).unwrap(), 3);
/// assert_eq!(output, [1, 2, 3]);
/// assert!(convert_stream_exact(&decode, &mut &[0x21][..], &mut Vec::new(), 3).is_err());
/// ```
pub fn convert_stream_exact(
    converter: &Converter,
    input: &mut impl Read,
    output: &mut impl Write,
    count: u64,
) -> Result<u64, StreamError> {
    stream(
        converter,
        input,
        output,
        Some(count),
        CHUNK_BYTES,
        Converter::convert_to,
    )
}

/// The bytes `count` elements of `bits` bits take, if a `u64` can count them.
fn bytes_for_count(bits: usize, count: u64) -> Option<u64> {
    u64::try_from((u128::from(count) * bits as u128).div_ceil(8)).ok()
}

/// Converts `count` elements of `src` into the start of `out` and returns the
/// bytes written, as [`Converter::convert_to`] does (on one thread or several).
pub(super) type ConvertBlock = fn(&Converter, &[u8], usize, &mut [u8]) -> usize;

/// The stream loop: `block` input bytes at a time (a whole number of elements of
/// every type), each converted by `convert`.
pub(super) fn stream(
    converter: &Converter,
    input: &mut impl Read,
    output: &mut impl Write,
    count: Option<u64>,
    block: usize,
    convert: ConvertBlock,
) -> Result<u64, StreamError> {
    let from_bits = converter.from_bits();
    // An input that would have to hold more than `u64::MAX` bytes is always short.
    let expected = count.map(|n| bytes_for_count(from_bits, n).unwrap_or(u64::MAX));
    let mut buf = vec![0u8; block];
    // Zeroed once: the kernels overwrite every byte they are given.
    let mut out = vec![0u8; bytes_for(converter.to_bits(), block * 8 / from_bits)];
    let (mut offset, mut elements) = (0u64, 0u64);
    loop {
        let want = match expected {
            Some(total) => (total - offset).min(block as u64) as usize,
            None => block,
        };
        let filled = fill(input, &mut buf[..want]).map_err(StreamError::Read)?;
        let partial = converter.whole_elements(&buf[..filled]).err();
        let mut n = filled * 8 / from_bits;
        if let Some(total) = count {
            n = n.min((total - elements) as usize);
        }
        let whole = bytes_for(from_bits, n);
        let written = convert(converter, &buf[..whole], n, &mut out);
        output.write_all(&out[..written]).map_err(StreamError::Write)?;
        elements += n as u64;
        let ended = filled < want;
        let failure = match (count, partial) {
            (Some(total), _) if ended => Some(ConvertError::ByteCount {
                count: total,
                bits: from_bits,
                found: Some(offset + filled as u64),
            }),
            (Some(total), _) if Some(offset + filled as u64) == expected => {
                // Exactly the bytes expected so far: anything after them is too much.
                let more = fill(input, &mut buf[..1]).map_err(StreamError::Read)? > 0;
                more.then_some(ConvertError::ByteCount {
                    count: total,
                    bits: from_bits,
                    found: None,
                })
            }
            (None, Some(ConvertError::PartialElement { offset: at, size })) => {
                Some(ConvertError::PartialElement {
                    offset: offset + at,
                    size,
                })
            }
            _ => None,
        };
        if let Some(e) = failure {
            output.flush().map_err(StreamError::Write)?;
            return Err(StreamError::Convert(e));
        }
        offset += filled as u64;
        if ended || Some(offset) == expected {
            output.flush().map_err(StreamError::Write)?;
            return Ok(elements);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::CastOptions;
    use crate::DType;

    fn exact(from: DType, to: DType, input: &[u8], count: u64) -> (Result<u64, StreamError>, Vec<u8>) {
        let converter = Converter::new(from, to, CastOptions::default()).unwrap();
        let mut out = Vec::new();
        let result = convert_stream_exact(&converter, &mut &input[..], &mut out, count);
        (result, out)
    }

    #[test]
    fn exact_counts_cross_chunk_boundaries() {
        // i4 codes 0..15 repeated; an odd count ending one byte into the third chunk.
        let count = 2 * CHUNK_BYTES as u64 * 2 + 3;
        let codes: Vec<u8> = (0..count).map(|i| (i % 16) as u8).collect();
        let mut packed: Vec<u8> = codes
            .chunks(2)
            .map(|p| p[0] | p.get(1).map_or(0xf0, |c| c << 4))
            .collect();
        assert_eq!(packed.len() as u64, count.div_ceil(2));
        let (result, out) = exact(DType::U4, DType::U8, &packed, count);
        assert_eq!(result.unwrap(), count);
        assert_eq!(out, codes);
        // Back into u4: the padding nibble (0xf above) becomes zero.
        let (result, repacked) = exact(DType::U8, DType::U4, &codes, count);
        assert_eq!(result.unwrap(), count);
        *packed.last_mut().unwrap() &= 0x0f;
        assert_eq!(repacked, packed);
        // One byte short, one byte long.
        let (result, out) = exact(DType::U4, DType::U8, &packed[..packed.len() - 1], count);
        let err = result.unwrap_err();
        assert!(
            matches!(err, StreamError::Convert(ConvertError::ByteCount { found: Some(n), bits: 4, .. }) if n == count / 2),
            "{err}"
        );
        assert_eq!(out.len() as u64, count - 1, "the whole elements it held");
        packed.push(0);
        let (result, out) = exact(DType::U4, DType::U8, &packed, count);
        assert!(matches!(
            result,
            Err(StreamError::Convert(ConvertError::ByteCount { found: None, .. }))
        ));
        assert_eq!(out.len() as u64, count);
    }

    #[test]
    fn exact_counts_of_wide_types_and_of_none() {
        let input: Vec<u8> = [1.0f32, 2.0, 3.0].iter().flat_map(|x| x.to_le_bytes()).collect();
        let (result, out) = exact(DType::F32, DType::I4, &input, 3);
        assert_eq!((result.unwrap(), out), (3, vec![0x21, 0x03]));
        // Ends inside an element: the count is what is wrong, not the element.
        let (result, _) = exact(DType::F32, DType::I4, &input[..10], 3);
        let err = result.unwrap_err();
        assert_eq!(
            err.to_string(),
            "3 elements of 32 bits take 12 bytes, but the input holds 10"
        );
        let (result, out) = exact(DType::F32, DType::I4, &[], 0);
        assert_eq!((result.unwrap(), out), (0, vec![]));
        let (result, _) = exact(DType::F32, DType::I4, &[0], 0);
        assert!(result.is_err());
        // More elements than a u64 of bytes can hold: always short.
        let (result, _) = exact(DType::F64, DType::F32, &input, u64::MAX);
        assert!(result
            .unwrap_err()
            .to_string()
            .contains("147573952589676412920 bytes"));
    }
}
