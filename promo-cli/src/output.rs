//! Writing to standard output the way `cat` and `grep` do: a reader that goes away
//! (a closed pipe) ends the output quietly; any other write error is reported.

use std::io::{self, Write};
use std::process::ExitCode;

/// The exit status for a failed write: `status` when the reader closed the pipe
/// (the output simply ends), 2 with a message for any other error.
pub fn write_failed(e: &io::Error, status: ExitCode) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        status
    } else {
        eprintln!("promo: cannot write the output: {e}");
        ExitCode::from(2)
    }
}

/// Writes `text` to standard output and flushes it; the command then exits with
/// `status`, or as [`write_failed`] says when the write fails.
pub fn emit(text: &str, status: ExitCode) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) => write_failed(&e, status),
    }
}
