//! Streams: [`convert_stream`] converts everything a [`Read`] holds into a
//! [`Write`], a chunk at a time, in bounded memory (what `promo convert` runs).

use super::buffer::{bytes_for, Converter};
use super::error::ConvertError;
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
/// (everything before it has been converted and written).
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
    let from_bits = converter.from_bits();
    let mut buf = vec![0u8; CHUNK_BYTES];
    // Zeroed once: the kernels overwrite every byte they are given.
    let mut out = vec![0u8; bytes_for(converter.to_bits(), CHUNK_BYTES * 8 / from_bits)];
    let (mut offset, mut elements) = (0u64, 0u64);
    loop {
        let filled = fill(input, &mut buf).map_err(StreamError::Read)?;
        let partial = converter.whole_elements(&buf[..filled]).err();
        let count = filled * 8 / from_bits;
        let whole = bytes_for(from_bits, count);
        let written = converter.convert_to(&buf[..whole], count, &mut out);
        output.write_all(&out[..written]).map_err(StreamError::Write)?;
        elements += count as u64;
        if let Some(ConvertError::PartialElement { offset: at, size }) = partial {
            output.flush().map_err(StreamError::Write)?;
            return Err(StreamError::Convert(ConvertError::PartialElement {
                offset: offset + at,
                size,
            }));
        }
        offset += whole as u64;
        if filled < buf.len() {
            output.flush().map_err(StreamError::Write)?;
            return Ok(elements);
        }
    }
}
