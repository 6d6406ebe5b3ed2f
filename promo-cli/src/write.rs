//! Every byte promo writes goes through this module: standard output, and the
//! files named on the command line.
//!
//! - Standard output is written the way `cat` and `grep` write it: a reader that
//!   goes away (a closed pipe) ends the output quietly; any other error is reported.
//! - A file is **replaced atomically** when it is a regular file with one name (or
//!   does not exist yet): the new contents go to an exclusive temporary file with an
//!   unpredictable name beside it, which takes the old file's mode and owner and is
//!   renamed over it only when every byte is written and synced. A failure, or
//!   SIGINT, SIGTERM or SIGHUP, leaves the old file as it was and removes the
//!   temporary one. Named through a symbolic link, the file the link names is
//!   replaced and the link stays; a link to nothing is refused.
//! - Anything else is **written through**, never replaced: a character or block
//!   device, a FIFO, a socket, a regular file with more than one hard link (so the
//!   links stay one file), and a file the shell opened for promo (`/dev/stdout`,
//!   `/dev/fd/N`: appended to, so `>>` keeps what was there). A regular file written
//!   through is truncated first. A write error such as ENOSPC is reported, with
//!   exit status 2.
//! - A file written through may not be one of the command's inputs (it would be
//!   truncated before it is read), and one command never writes the same file twice.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, Once};

use crate::escape::visible;

/// The exit status for a failed write to standard output: `status` when the reader
/// closed the pipe (the output simply ends), 2 with a message for any other error.
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

/// A path as messages show it: in backticks, control characters visible.
pub fn shown(path: &Path) -> String {
    format!("`{}`", visible(&path.to_string_lossy()))
}

/// Where a file is: the same file has the same identity under any of its names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// An existing file: its device and inode.
    Inode(u64, u64),
    /// A file not created yet: its directory, resolved, and its name.
    Path(PathBuf),
}

/// The identity of the file `path` names (through symbolic links).
pub fn identity(path: &Path) -> io::Result<Identity> {
    match fs::metadata(path) {
        Ok(meta) => Ok(inode(&meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let name = path
                .file_name()
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
            let dir = parent(path);
            Ok(Identity::Path(fs::canonicalize(dir)?.join(name)))
        }
        Err(e) => Err(e),
    }
}

#[cfg(unix)]
fn inode(meta: &Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    Identity::Inode(meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn inode(_: &Metadata) -> Identity {
    Identity::Path(PathBuf::new())
}

/// The directory a file named `path` is in.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Whether standard output is the regular file `path` names, as when a shell
/// redirects a command's output onto its input.
pub fn stdout_is(path: &Path) -> bool {
    let (Ok(file), Ok(stdout)) = (fs::metadata(path), fs::metadata("/dev/stdout")) else {
        return false;
    };
    stdout.is_file() && inode(&file) == inode(&stdout)
}

/// Temporary files not yet renamed into place, removed if a signal ends promo.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

/// Creates a temporary file with `create` (which gives it and its path) and records
/// it for removal on SIGINT, SIGTERM or SIGHUP. The handler is installed first, and the
/// record is locked while the file is created, so a signal at any moment finds every
/// file that exists: the handler waits for the lock, then sees the new one.
fn create_registered<T>(
    create: impl FnOnce() -> io::Result<T>,
    path_of: impl Fn(&T) -> &Path,
) -> io::Result<T> {
    HANDLER.call_once(|| {
        // The handler runs on its own thread, so it may lock and remove files.
        let _ = ctrlc::set_handler(|| {
            let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
            for path in live.iter() {
                let _ = fs::remove_file(path);
            }
            std::process::exit(130);
        });
    });
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    let created = create()?;
    live.push(path_of(&created).to_path_buf());
    Ok(created)
}

fn unregister(path: &Path) {
    LIVE.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|p| p != path);
}

/// How a file written through is opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Through {
    /// A regular file: truncated first.
    Truncate,
    /// A file the shell opened for promo (`/dev/stdout`): appended to.
    Append,
    /// A device, FIFO or socket: written as it is.
    Stream,
}

/// Whether `path` names one of promo's own open descriptors (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`), which only a write through reaches.
fn is_descriptor(path: &Path) -> bool {
    ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"]
        .iter()
        .any(|p| path.starts_with(p))
}

/// How an [`Output`] reaches its file.
enum Mode {
    /// Through a temporary file renamed over the output's path at the end.
    Replace { temp: tempfile::TempPath },
    /// Straight into the file.
    Through(Through),
}

/// A file being written: [`Output::open`], write to [`Output::writer`], then
/// [`Output::commit`] (or [`commit_all`] for several that stand or fall together).
/// Dropped uncommitted, a replaced file stays as it was.
pub struct Output {
    path: PathBuf,
    mode: Mode,
    writer: BufWriter<File>,
}

impl Output {
    /// Opens `path` for writing as the module's rules say; `inputs` are the files
    /// the command reads, which it may not write through.
    pub fn open(path: &Path, inputs: &[Identity]) -> Result<Output, String> {
        let fail = |e: io::Error| format!("cannot write {}: {e}", shown(path));
        let link = match fs::symlink_metadata(path) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(e)),
        };
        let Some(link) = link else {
            return Output::replace(path, None);
        };
        let target = match fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(format!(
                    "cannot write {}: it is a symbolic link to a file that does not exist, and promo writes through links without creating their targets",
                    shown(path)
                ))
            }
            Err(e) => return Err(fail(e)),
        };
        if target.is_dir() {
            return Err(format!("cannot write {}: it is a directory", shown(path)));
        }
        if !target.is_file() {
            return Output::through(path, Through::Stream);
        }
        if is_descriptor(path) {
            // The shell opened it: add to what it holds (`>` left it empty, `>>` not).
            return Output::through(path, Through::Append);
        }
        if links(&target) == 1 {
            // Through a symbolic link, the file it names is replaced; the link stays.
            let real = if link.file_type().is_symlink() {
                fs::canonicalize(path).map_err(fail)?
            } else {
                path.to_path_buf()
            };
            return Output::replace(&real, Some(&target));
        }
        if inputs.contains(&inode(&target)) {
            return Err(format!(
                "cannot write {}: it is a hard link to one of the inputs, and writing through it would destroy that input before it is read (renaming a new file over it would split the links)",
                shown(path)
            ));
        }
        Output::through(path, Through::Truncate)
    }

    /// Writes straight into `path`.
    fn through(path: &Path, how: Through) -> Result<Output, String> {
        let file = OpenOptions::new()
            .write(true)
            .truncate(how == Through::Truncate)
            .append(how == Through::Append)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", shown(path)))?;
        Ok(Output {
            path: path.to_path_buf(),
            mode: Mode::Through(how),
            writer: BufWriter::with_capacity(1 << 17, file),
        })
    }

    /// Writes a temporary file beside `path`, to be renamed over it; `old` is the
    /// file there now, whose mode and owner the new one keeps.
    fn replace(path: &Path, old: Option<&Metadata>) -> Result<Output, String> {
        let fail = |e: io::Error| format!("cannot write {}: {e}", shown(path));
        let name = path
            .file_name()
            .ok_or_else(|| format!("cannot write {}: not a file path", shown(path)))?;
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".promo-tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // A new file gets 0666 less the umask, as `File::create` would give it.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temp = create_registered(|| builder.tempfile_in(parent(path)), |t| t.path()).map_err(fail)?;
        let (file, temp) = temp.into_parts();
        if let Some(old) = old {
            if let Err(e) = keep_mode_and_owner(&file, old) {
                // The new file could not be the old one's: write into the old one.
                drop(file);
                unregister(&temp);
                drop(temp);
                eprintln!(
                    "promo: {} will be written through, not replaced: {e}",
                    shown(path)
                );
                return Output::through(path, Through::Truncate);
            }
        }
        Ok(Output {
            path: path.to_path_buf(),
            mode: Mode::Replace { temp },
            writer: BufWriter::with_capacity(1 << 17, file),
        })
    }

    /// Where the bytes go.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        &mut self.writer
    }

    /// Whether the file is replaced at [`Output::commit`] (and left as it was until
    /// then), rather than written through.
    pub fn replaces(&self) -> bool {
        matches!(self.mode, Mode::Replace { .. })
    }

    /// Flushes and syncs every byte; what remains is the rename.
    fn finish(self) -> Result<(Mode, PathBuf), String> {
        let path = self.path;
        let fail = |e: io::Error| format!("cannot write {}: {e}", shown(&path));
        let file = self.writer.into_inner().map_err(|e| fail(e.into_error()))?;
        // A device, FIFO or terminal has nothing to sync (and may refuse to).
        if !matches!(self.mode, Mode::Through(Through::Stream)) {
            file.sync_all().map_err(fail)?;
        }
        Ok((self.mode, path))
    }

    /// Finishes the file: renames the temporary file into place, or, written
    /// through, flushes it.
    pub fn commit(self) -> Result<(), String> {
        commit_all(vec![self])
    }
}

/// Finishes every output, or none: all are written and synced first, then each
/// replaced file is renamed into place; if a rename fails, the files already
/// renamed get their old contents back. (Files written through are written as the
/// command goes and cannot be taken back.)
pub fn commit_all(outputs: Vec<Output>) -> Result<(), String> {
    let mut finished = Vec::with_capacity(outputs.len());
    for output in outputs {
        finished.push(output.finish()?);
    }
    // (a renamed file, its old contents kept under a temporary name, if any)
    let mut done: Vec<(PathBuf, Option<tempfile::TempPath>)> = Vec::new();
    let mut result = Ok(());
    let renames = finished
        .iter()
        .filter(|(mode, _)| matches!(mode, Mode::Replace { .. }))
        .count();
    for (mode, path) in finished {
        let Mode::Replace { temp } = mode else {
            continue;
        };
        let target = path;
        // With another rename to come, keep the old file to restore it.
        let backup = if renames > 1 && target.exists() {
            backup_of(&target).ok()
        } else {
            None
        };
        let temp_path = temp.to_path_buf();
        match temp.persist(&target) {
            Ok(()) => {
                unregister(&temp_path);
                done.push((target, backup));
            }
            Err(e) => {
                unregister(&temp_path);
                result = Err(format!("cannot write {}: {}", shown(&target), e.error));
                break;
            }
        }
    }
    for (target, backup) in done {
        let Some(backup) = backup else { continue };
        unregister(&backup);
        if result.is_err() {
            let _ = backup.persist(&target);
        }
        // Otherwise dropped: the old contents are removed.
    }
    result
}

/// A hard link to `target` under an unpredictable name beside it, removed when
/// dropped: the old contents, kept until every output of a command is in place.
fn backup_of(target: &Path) -> io::Result<tempfile::TempPath> {
    let backup = create_registered(
        || {
            tempfile::Builder::new()
                .prefix(".promo-old.")
                .make_in(parent(target), |p| fs::hard_link(target, p))
        },
        |b| b.path(),
    )?;
    Ok(backup.into_temp_path())
}

#[cfg(unix)]
fn links(meta: &Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

#[cfg(not(unix))]
fn links(_: &Metadata) -> u64 {
    1
}

/// Gives `file` the mode of `old` and, where they differ, its owner and group.
#[cfg(unix)]
fn keep_mode_and_owner(file: &File, old: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let new = file.metadata()?;
    if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
        std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()))?;
    }
    file.set_permissions(old.permissions())
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &File, old: &Metadata) -> io::Result<()> {
    file.set_permissions(old.permissions())
}
