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
//! - A file is known by its device and inode wherever it appears: a path, a hard
//!   link, standard input and output, a descriptor (`/dev/stdout`, `/dev/fd/N`,
//!   `/proc/self/fd/N`, `/proc/thread-self/fd/N`, however the path is spelt). A file
//!   written through (or standard output) may not be one of the command's inputs,
//!   standard input among them: it would be truncated before it is read, or grow
//!   for as long as promo reads what it appends. That is refused before any byte is
//!   written. One command never writes the same file twice.
//! - A pair of files ([`commit_all`]) is renamed into place while the record of
//!   temporary files is locked, so a signal waits until both are in place or both
//!   are back as they were.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard, Once};

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

/// The identity of standard input or output when it is a regular file (a shell's
/// `< file`, `> file`, `>> file`): the only kind a conversion could destroy or feed
/// back into itself.
#[cfg(unix)]
pub fn regular_identity(fd: impl std::os::fd::AsFd) -> Option<Identity> {
    let file = File::from(fd.as_fd().try_clone_to_owned().ok()?);
    file.metadata()
        .ok()
        .filter(Metadata::is_file)
        .map(|meta| inode(&meta))
}

#[cfg(not(unix))]
pub fn regular_identity<T>(_: T) -> Option<Identity> {
    None
}

/// The directory a file named `path` is in.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Refuses to write standard output when it is a regular file among `inputs` (the
/// shell redirected the command's output onto its input: `> in.bin` emptied it,
/// `>> in.bin` would grow it for as long as promo reads what it appends).
pub fn check_stdout(inputs: &[Identity]) -> Result<(), String> {
    match regular_identity(io::stdout()) {
        Some(out) if inputs.contains(&out) => Err(
            "standard output is one of the inputs: converting a file onto itself would destroy it, or grow it without end"
                .to_owned(),
        ),
        _ => Ok(()),
    }
}

/// Temporary files not yet renamed into place, removed if a signal ends promo.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

/// The record of temporary files, locked, with the signal handler installed first.
/// The handler takes the same lock, so while it is held a signal waits: a file
/// created under it is recorded before the handler can look, and a pair renamed
/// under it ([`commit_all`]) is whole, or back as it was, before the handler runs.
fn live() -> MutexGuard<'static, Vec<PathBuf>> {
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
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates a temporary file with `create` (which gives it and its path) and records
/// it in `live` (the record, locked) for removal on SIGINT, SIGTERM or SIGHUP.
fn create_registered<T>(
    live: &mut Vec<PathBuf>,
    create: impl FnOnce() -> io::Result<T>,
    path_of: impl Fn(&T) -> &Path,
) -> io::Result<T> {
    let created = create()?;
    live.push(path_of(&created).to_path_buf());
    Ok(created)
}

fn unregister(live: &mut Vec<PathBuf>, path: &Path) {
    live.retain(|p| p != path);
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

/// Whether `path` names one of promo's own open descriptors, which only a write
/// through reaches: however it is spelt (`/dev/stdout`, `/dev/fd/1`,
/// `/proc/self/fd/1`, `/proc/thread-self/fd/1`, `/dev/../dev/stdout`), its links
/// are followed one at a time until one lies in a descriptor directory of this
/// process (`/proc/PID/fd`, `/proc/PID/task/TID/fd`). Where there is no `/proc`,
/// the usual spellings.
fn is_descriptor(path: &Path) -> bool {
    if ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"]
        .iter()
        .any(|p| path.starts_with(p))
    {
        return true;
    }
    let pid = std::process::id().to_string();
    let in_fd_dir = |dir: &Path| {
        let Ok(rest) = dir.strip_prefix(Path::new("/proc").join(&pid)) else {
            return false;
        };
        let parts: Vec<_> = rest.components().collect();
        match parts.as_slice() {
            [fd] => fd.as_os_str() == "fd",
            [task, _, fd] => task.as_os_str() == "task" && fd.as_os_str() == "fd",
            _ => false,
        }
    };
    let mut at = path.to_path_buf();
    // As many links as the kernel follows.
    for _ in 0..40 {
        let Ok(dir) = fs::canonicalize(parent(&at)) else {
            return false;
        };
        if in_fd_dir(&dir) {
            return true;
        }
        match fs::read_link(&at) {
            Ok(target) => at = dir.join(target),
            Err(_) => return false,
        }
    }
    false
}

/// The longest file name the file systems promo writes on take (NAME_MAX).
const NAME_MAX: usize = 255;

/// The bytes a temporary name adds to the output's name: `.`, `.`, six random
/// characters and `.promo-tmp`.
const TEMP_EXTRA: usize = 18;

/// The part of the output's `name` its temporary file's name keeps: all of it, or,
/// for a name near [`NAME_MAX`], its first bytes, so that the temporary name fits.
#[cfg(unix)]
fn temp_stem(name: &std::ffi::OsStr) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    std::ffi::OsStr::from_bytes(&bytes[..bytes.len().min(NAME_MAX - TEMP_EXTRA)]).to_owned()
}

#[cfg(not(unix))]
fn temp_stem(name: &std::ffi::OsStr) -> std::ffi::OsString {
    name.to_owned()
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
            if inputs.contains(&inode(&target)) {
                return Err(format!(
                    "cannot write {}: it is a descriptor of one of the inputs, and appending to a file while reading it grows it without end",
                    shown(path)
                ));
            }
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
        prefix.push(temp_stem(name));
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".promo-tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // A new file gets 0666 less the umask, as `File::create` would give it.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temp = create_registered(&mut live(), || builder.tempfile_in(parent(path)), |t| t.path())
            .map_err(fail)?;
        let (file, temp) = temp.into_parts();
        if let Some(old) = old {
            if let Err(e) = keep_mode_and_owner(&file, old) {
                // The new file could not be the old one's: write into the old one.
                drop(file);
                unregister(&mut live(), &temp);
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
/// renamed get their old contents back. The renames happen with the record of
/// temporary files locked, so a signal waits until the outputs are all new or all
/// old. (Files written through are written as the command goes and cannot be taken
/// back.)
pub fn commit_all(outputs: Vec<Output>) -> Result<(), String> {
    let mut finished = Vec::with_capacity(outputs.len());
    for output in outputs {
        finished.push(output.finish()?);
    }
    let mut live = live();
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
            backup_of(&mut live, &target).ok()
        } else {
            None
        };
        let temp_path = temp.to_path_buf();
        match temp.persist(&target) {
            Ok(()) => {
                unregister(&mut live, &temp_path);
                done.push((target, backup));
            }
            Err(e) => {
                unregister(&mut live, &temp_path);
                result = Err(format!("cannot write {}: {}", shown(&target), e.error));
                break;
            }
        }
    }
    for (target, backup) in done {
        let Some(backup) = backup else { continue };
        unregister(&mut live, &backup);
        if result.is_err() {
            let _ = backup.persist(&target);
        }
        // Otherwise dropped: the old contents are removed.
    }
    result
}

/// A hard link to `target` under an unpredictable name beside it, removed when
/// dropped: the old contents, kept until every output of a command is in place.
fn backup_of(live: &mut Vec<PathBuf>, target: &Path) -> io::Result<tempfile::TempPath> {
    let backup = create_registered(
        live,
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
