//! Reading a rule file: at most [`MAX_SOURCE_BYTES`], and only UTF-8 text.

use core::fmt;
use std::io::Read;
use std::path::Path;

/// The largest rule file promo reads, in bytes: 1 MiB. The bundled rule files are
/// under 25 KiB each; a rule file is a framework's rules written once, not data,
/// so a larger input is refused before it is parsed ([`crate::load`]) or read
/// whole ([`read_source`]).
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Why [`read_source`] gave no text.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file holds more than [`MAX_SOURCE_BYTES`].
    TooLarge,
    /// The file is not UTF-8 text.
    NotUtf8 {
        /// The offset of the first byte that is not.
        offset: usize,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::TooLarge => write!(
                f,
                "larger than {MAX_SOURCE_BYTES} bytes (1 MiB), the most a rule file may be"
            ),
            ReadError::NotUtf8 { offset } => {
                write!(f, "not UTF-8 text: the byte at offset {offset} is not")
            }
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads the rule file at `path`: its text, if it is UTF-8 and at most
/// [`MAX_SOURCE_BYTES`] long. At most one byte past the limit is read, so a huge
/// file or an endless stream (`/dev/zero`) is refused at once. The messages name
/// no path: the caller says which file it read.
pub fn read_source(path: &Path) -> Result<String, ReadError> {
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(ReadError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}
