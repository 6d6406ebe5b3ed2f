//! What promo does to the file system and the terminal, tried as a hostile or a
//! careless user would: outputs onto devices, FIFOs, `/dev/full`, links and files
//! with a mode and an owner; temporary files and signals; pairs of outputs; endless
//! inputs; and text from rule files in terminal, Markdown and SVG output.
//!
//! Some cases need root (a private device node, `chown`, a small tmpfs): without it
//! they say so and pass, except under CI (`CI` set), where they must run.

use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;

use support::promo_in;

fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("promo-files-{name}-"))
        .tempdir()
        .unwrap()
}

fn promo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_promo"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// 1.0, 2.0, 3.0, 4.0 as f16.
const F16_1234: [u8; 8] = [0x00, 0x3c, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44];

fn convert_args(output: &str) -> Vec<&str> {
    vec!["convert", "--from", "f32", "--to", "f16", "--output", output]
}

/// Whether a case that needs root may be skipped: not under CI.
fn may_skip(what: &str) -> bool {
    if std::env::var_os("CI").is_some() {
        return false;
    }
    eprintln!("skipped: {what} needs root");
    true
}

/// The files in `dir` whose names start with `.`: temporary files left behind.
fn hidden(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect()
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = scratch("fifo");
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        })
    };
    let out = promo_in(
        dir.path(),
        &convert_args("pipe"),
        &f32_bytes(&[1.0, 2.0, 3.0, 4.0]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), F16_1234);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(hidden(dir.path()).is_empty());
}

#[test]
fn dev_full_reports_no_space() {
    let dir = scratch("full");
    let out = promo_in(dir.path(), &convert_args("/dev/full"), &f32_bytes(&[1.0; 1024]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("No space left"), "{}", stderr(&out));
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn dev_stdout_writes_to_the_pipe() {
    let dir = scratch("stdout");
    let out = promo_in(
        dir.path(),
        &convert_args("/dev/stdout"),
        &f32_bytes(&[1.0, 2.0, 3.0, 4.0]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, F16_1234);
}

#[test]
fn a_private_device_node_stays_a_device() {
    let dir = scratch("mknod");
    let node = dir.path().join("null");
    let made = Command::new("mknod").arg(&node).args(["c", "1", "3"]).status();
    if !made.is_ok_and(|s| s.success()) && may_skip("mknod") {
        return;
    }
    let out = promo_in(dir.path(), &convert_args("null"), &f32_bytes(&[1.0; 64]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::symlink_metadata(&node).unwrap();
    assert!(meta.file_type().is_char_device());
    assert_eq!(meta.rdev(), std::fs::metadata("/dev/null").unwrap().rdev());
    assert!(hidden(dir.path()).is_empty());
}

#[test]
fn a_replaced_file_keeps_its_mode_and_owner() {
    let dir = scratch("mode");
    let out_path = dir.path().join("out.bin");
    std::fs::write(&out_path, b"old").unwrap();
    std::fs::set_permissions(&out_path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let owned = Command::new("chown")
        .args(["65534:65534"])
        .arg(&out_path)
        .status();
    let chowned = owned.is_ok_and(|s| s.success());
    if !chowned && may_skip("chown") {
        return;
    }
    let out = promo_in(
        dir.path(),
        &convert_args("out.bin"),
        &f32_bytes(&[1.0, 2.0, 3.0, 4.0]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::metadata(&out_path).unwrap();
    assert_eq!(std::fs::read(&out_path).unwrap(), F16_1234);
    assert_eq!(meta.permissions().mode() & 0o7777, 0o600);
    if chowned {
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    }
}

#[test]
fn a_new_file_gets_the_umask_mode() {
    let dir = scratch("umask");
    let out = Command::new("sh")
        .current_dir(dir.path())
        .arg("-c")
        .arg(format!(
            "umask 027; printf '\\000\\000\\200\\077' | '{}' convert --from f32 --to f16 --output new.bin",
            env!("CARGO_BIN_EXE_promo")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::metadata(dir.path().join("new.bin")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
}

#[test]
fn a_hard_linked_output_is_written_through_and_stays_linked() {
    let dir = scratch("hard");
    let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
    std::fs::write(&a, b"old contents").unwrap();
    std::fs::hard_link(&a, &b).unwrap();
    let out = promo_in(
        dir.path(),
        &convert_args("a.bin"),
        &f32_bytes(&[1.0, 2.0, 3.0, 4.0]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&b).unwrap(), F16_1234);
    assert_eq!(std::fs::metadata(&a).unwrap().nlink(), 2);
    assert_eq!(
        std::fs::metadata(&a).unwrap().ino(),
        std::fs::metadata(&b).unwrap().ino()
    );
}

#[test]
fn a_link_to_nothing_is_refused_and_nothing_is_created() {
    let dir = scratch("dangling");
    std::os::unix::fs::symlink("victim.bin", dir.path().join("link")).unwrap();
    let out = promo_in(dir.path(), &convert_args("link"), &f32_bytes(&[1.0]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!dir.path().join("victim.bin").exists());
}

#[test]
fn a_signal_removes_the_temporary_file() {
    // Ten times, each signal sent the moment the temporary file appears: promo must
    // already be ready to remove it (a handler installed only after the file was
    // created once left it behind, under load).
    for round in 0..10 {
        let dir = scratch("signal");
        let out_path = dir.path().join("out.bin");
        std::fs::write(&out_path, b"keep").unwrap();
        let mut child = promo()
            .args(convert_args("out.bin"))
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(&f32_bytes(&[1.0; 4096])).unwrap();
        // End promo as soon as the temporary file exists, while it waits for more input.
        let start = Instant::now();
        while hidden(dir.path()).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no temporary file appeared"
            );
            std::thread::yield_now();
        }
        let killed = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(input);
        assert!(!status.success(), "round {round}");
        assert_eq!(hidden(dir.path()), Vec::<PathBuf>::new(), "round {round}");
        assert_eq!(std::fs::read(&out_path).unwrap(), b"keep", "round {round}");
    }
}

/// `promo convert-promote openvino` of `lhs.bin` (i8) and `rhs.bin` (f32) in `dir`.
fn convert_promote_args<'a>(out_lhs: &'a str, out_rhs: &'a str) -> [&'a str; 10] {
    [
        "convert-promote",
        "openvino",
        "--lhs",
        "i8:lhs.bin",
        "--rhs",
        "f32:rhs.bin",
        "--out-lhs",
        out_lhs,
        "--out-rhs",
        out_rhs,
    ]
}

fn convert_promote(dir: &Path, out_lhs: &str, out_rhs: &str) -> Output {
    promo_in(dir, &convert_promote_args(out_lhs, out_rhs), b"")
}

#[test]
fn one_file_for_both_outputs_is_refused() {
    let dir = scratch("same");
    std::fs::write(dir.path().join("lhs.bin"), [1u8, 2]).unwrap();
    std::fs::write(dir.path().join("rhs.bin"), f32_bytes(&[1.0, 2.0])).unwrap();
    std::fs::write(dir.path().join("o.bin"), b"keep").unwrap();
    for (a, b) in [("o.bin", "./o.bin"), ("new.bin", "./new.bin")] {
        let out = convert_promote(dir.path(), a, b);
        assert_eq!(out.status.code(), Some(2), "{a} {b}");
        assert!(stderr(&out).contains("are the same file"), "{}", stderr(&out));
    }
    assert_eq!(std::fs::read(dir.path().join("o.bin")).unwrap(), b"keep");
    assert!(!dir.path().join("new.bin").exists());
}

/// A small tmpfs, unmounted when dropped.
struct Tmpfs(tempfile::TempDir);

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

#[test]
fn a_pair_is_written_whole_or_not_at_all() {
    let dir = scratch("pair");
    let small = Tmpfs(scratch("tmpfs"));
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(small.0.path())
        .stderr(Stdio::null())
        .status();
    if !mounted.is_ok_and(|s| s.success()) && may_skip("mounting a tmpfs") {
        return;
    }
    // 32 Ki i8 become 128 KiB of f32: more than the tmpfs holds.
    std::fs::write(dir.path().join("lhs.bin"), vec![1u8; 32 * 1024]).unwrap();
    std::fs::write(dir.path().join("rhs.bin"), f32_bytes(&[1.0, 2.0])).unwrap();
    std::fs::write(dir.path().join("a.bin"), b"keep a").unwrap();
    let b = small.0.path().join("b.bin");
    std::fs::write(&b, b"keep b").unwrap();
    // The lhs output fails on the full tmpfs: the rhs one is not replaced either.
    let full = small.0.path().join("a.bin");
    std::fs::write(&full, b"keep full").unwrap();
    let out = convert_promote(dir.path(), full.to_str().unwrap(), "a.bin");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("No space left"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&full).unwrap(), b"keep full");
    assert_eq!(std::fs::read(dir.path().join("a.bin")).unwrap(), b"keep a");
    // And the other way round: the first output is kept back when the second fails.
    std::fs::write(dir.path().join("lhs.bin"), [1u8, 2]).unwrap();
    std::fs::write(dir.path().join("rhs.bin"), f32_bytes(&[1.0; 32 * 1024])).unwrap();
    let out = convert_promote(dir.path(), "a.bin", b.to_str().unwrap());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(dir.path().join("a.bin")).unwrap(), b"keep a");
    assert_eq!(std::fs::read(&b).unwrap(), b"keep b");
    assert!(hidden(dir.path()).is_empty() && hidden(small.0.path()).is_empty());
}

/// The peak resident memory of a child, read from /proc while it runs, in KiB.
fn peak_kib(mut cmd: Command) -> (u64, std::process::ExitStatus) {
    let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:")) {
                let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
                peak = peak.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (peak, status);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn convert_promote_streams_in_bounded_memory() {
    let dir = scratch("memory");
    // 48 MiB of i8 with f32 become 192 MiB of f32.
    std::fs::write(dir.path().join("lhs.bin"), vec![3u8; 48 << 20]).unwrap();
    std::fs::write(dir.path().join("rhs.bin"), f32_bytes(&[1.0, 2.0])).unwrap();
    let mut cmd = promo();
    cmd.current_dir(dir.path())
        .args(convert_promote_args("a.bin", "b.bin"));
    let (peak, status) = peak_kib(cmd);
    assert!(status.success());
    assert_eq!(
        std::fs::metadata(dir.path().join("a.bin")).unwrap().len(),
        192 << 20
    );
    assert!(peak < 32 * 1024, "peak {peak} KiB");
}

#[test]
fn an_endless_rule_file_is_refused_at_the_limit() {
    let out = promo().args(["check", "/dev/zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("larger than 1048576 bytes"),
        "{}",
        stderr(&out)
    );
}

/// Control characters, line separators and bidi controls.
fn acts_on_a_terminal(c: char) -> bool {
    c < ' ' && c != '\n'
        || ('\u{7f}'..='\u{9f}').contains(&c)
        || "\u{2028}\u{2029}\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}"
            .contains(c)
}

#[test]
fn rule_file_bytes_and_names_reach_the_terminal_visibly() {
    let dir = scratch("terminal");
    // A raw ESC in the file: a TOML error whose snippet shows the line.
    std::fs::write(dir.path().join("esc.toml"), b"[rules]\nname = \"x\x1b[2J\"\n").unwrap();
    let name = "new\nline\u{202e}.toml";
    std::fs::write(dir.path().join(name), b"[rules]\n").unwrap();
    for file in ["esc.toml", name] {
        let out = promo()
            .current_dir(dir.path())
            .args(["check", file])
            .output()
            .unwrap();
        assert_ne!(out.status.code(), Some(0));
        let text = stderr(&out) + &String::from_utf8_lossy(&out.stdout);
        assert!(!text.chars().any(acts_on_a_terminal), "{text:?}");
    }
}

/// A rule file refusing every mixed pair with `reason`.
fn refusing(name: &str, reason: &str) -> String {
    format!(
        "[rules]\nname = \"{name}\"\nmarker = \"M{name}\"\ntitle = \"t\"\nversion = \"1\"\ncommutative = false\n\
         dtypes = [\"i8\", \"u8\"]\n\n[reasons]\nmixed = {}\n\n[[layer]]\nname = \"base\"\n\
         matrix = '''\n     i8      u8\ni8   i8      !mixed\nu8   !mixed  u8\n'''\n",
        toml::Value::String(reason.to_owned())
    )
}

#[test]
fn reasons_keep_to_the_shape_of_each_format() {
    let dir = scratch("formats");
    let reason = "a | b <img src=x> & `c` *d* \"e\" ]]> {f}";
    std::fs::write(dir.path().join("x.toml"), refusing("x", reason)).unwrap();
    // y gives u8 where x refuses.
    let y = refusing("y", "unused")
        .replace("!mixed", "u8")
        .replace("[reasons]\nmixed = \"unused\"\n", "");
    std::fs::write(dir.path().join("y.toml"), y).unwrap();
    let run = |args: &[&str]| {
        let out = promo().current_dir(dir.path()).args(args).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    // Markdown: every row has the header's four columns, and no raw HTML.
    let md = run(&["diff", "x.toml", "y.toml", "--format", "markdown"]);
    let columns = |row: &str| row.matches('|').count() - row.matches("\\|").count();
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    assert!(rows.len() >= 3, "{md}");
    assert!(rows.iter().all(|r| columns(r) == 5), "{md}");
    assert!(!md.contains('<'), "{md}");
    // SVG: well-formed XML whose text holds the reason exactly.
    let svg = run(&["table", "x.toml", "--format", "svg"]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let found = doc.descendants().any(|n| {
        n.text().is_some_and(|t| t.contains(reason)) || n.attributes().any(|a| a.value().contains(reason))
    });
    assert!(found, "the reason is not in the SVG:\n{svg}");
    // HTML: the reason as text, never as markup.
    let html = run(&["table", "x.toml", "--format", "html"]);
    assert!(html.contains("a | b &lt;img src=x&gt; &amp;"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    // A batch query: one answer line per question.
    let mut child = promo()
        .current_dir(dir.path())
        .args(["query", "x.toml", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"i8 u8\nu8 i8\ni8 i8\nu8 i8\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert_eq!(text.lines().next().unwrap(), format!("!{reason}"));
}

/// Runs `script` in `sh` in `dir`, with `$PROMO` the command.
fn sh(dir: &Path, script: &str) -> Output {
    Command::new("sh")
        .args(["-c", script])
        .current_dir(dir)
        .env("PROMO", env!("CARGO_BIN_EXE_promo"))
        .output()
        .unwrap()
}

#[test]
fn an_input_is_never_written_through_whatever_names_it() {
    // Standard input is `g.bin`; the output is `g.bin` again, by standard output
    // (`>>`), by every spelling of a descriptor, through a descriptor opened
    // read-only, or as a hard link: each is refused before a byte is written (they
    // grew the file by gigabytes, or emptied it).
    let dir = scratch("same-inode");
    let original: Vec<u8> = (0..=255).collect();
    for (case, script) in [
        ("stdout", "$PROMO convert --from u8 --to u16 < g.bin >> g.bin"),
        (
            "/dev/stdout",
            "$PROMO convert --from u8 --to u16 --output /dev/stdout < g.bin >> g.bin",
        ),
        (
            "/proc/self/fd/1",
            "$PROMO convert --from u8 --to u16 --output /proc/self/fd/1 < g.bin >> g.bin",
        ),
        (
            "/proc/thread-self/fd/1",
            "$PROMO convert --from u8 --to u16 --output /proc/thread-self/fd/1 < g.bin >> g.bin",
        ),
        (
            "/dev/../dev/stdout",
            "$PROMO convert --from u8 --to u16 --output /dev/../dev/stdout < g.bin >> g.bin",
        ),
        (
            "/dev/fd/3",
            "$PROMO convert --from u8 --to u16 --output /dev/fd/3 < g.bin 3< g.bin",
        ),
        (
            "--input and /dev/fd/3",
            "$PROMO convert --from u8 --to u16 --input g.bin --output /dev/fd/3 3< g.bin",
        ),
        (
            "hard link",
            "ln -f g.bin h2.bin && $PROMO convert --from u8 --to u16 --output h2.bin < g.bin",
        ),
    ] {
        std::fs::write(dir.path().join("g.bin"), &original).unwrap();
        let out = sh(dir.path(), &format!("timeout 20 {script}"));
        assert_eq!(out.status.code(), Some(2), "{case}: {}", stderr(&out));
        assert!(stderr(&out).contains("input"), "{case}: {}", stderr(&out));
        assert_eq!(
            std::fs::read(dir.path().join("g.bin")).unwrap(),
            original,
            "{case}"
        );
    }
}

#[test]
fn a_descriptor_is_appended_to_however_it_is_spelt() {
    let dir = scratch("append");
    std::fs::write(dir.path().join("z.bin"), [1u8, 2]).unwrap();
    for path in [
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/1",
        "/proc/thread-self/fd/1",
        "/dev/../dev/stdout",
        "/dev/./stdout",
    ] {
        std::fs::write(dir.path().join("log"), b"log\n").unwrap();
        let out = sh(
            dir.path(),
            &format!("$PROMO convert --from u8 --to u16 --input z.bin --output {path} >> log"),
        );
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        assert_eq!(
            std::fs::read(dir.path().join("log")).unwrap(),
            b"log\n\x01\x00\x02\x00",
            "{path}"
        );
    }
}

#[test]
fn an_output_name_as_long_as_the_file_system_takes_is_written() {
    // The temporary file beside it has a name of its own that must fit too.
    let dir = scratch("long-name");
    std::fs::write(dir.path().join("z.bin"), [1u8]).unwrap();
    for len in [200, 237, 238, 250, 255] {
        let name = "n".repeat(len);
        let out = promo()
            .args([
                "convert", "--from", "u8", "--to", "u16", "--input", "z.bin", "--output", &name,
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{len}: {}", stderr(&out));
        assert_eq!(std::fs::read(dir.path().join(&name)).unwrap(), [1, 0], "{len}");
        // Written again: replaced through a temporary file of a name that fits.
        let out = promo()
            .args([
                "convert", "--from", "u8", "--to", "u16", "--input", "z.bin", "--output", &name,
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{len} again: {}", stderr(&out));
    }
    assert!(hidden(dir.path()).is_empty());
}

#[test]
fn a_signal_at_any_moment_leaves_a_pair_all_old_or_all_new() {
    // The pair's renames happen with the record of temporary files locked, so a
    // signal that arrives between them waits until both are in place (a backup
    // removed by the handler once left one output new and the other old).
    let dir = scratch("pair-signal");
    std::fs::write(dir.path().join("lhs.bin"), vec![1u8; 4096]).unwrap();
    std::fs::write(dir.path().join("rhs.bin"), f32_bytes(&[2.0; 4096])).unwrap();
    let new_lhs = f32_bytes(&[1.0; 4096]);
    let mut seen = [0usize; 2];
    for round in 0..60u64 {
        std::fs::write(dir.path().join("a.bin"), b"old a").unwrap();
        std::fs::write(dir.path().join("b.bin"), b"old b").unwrap();
        let mut child = promo()
            .args(convert_promote_args("a.bin", "b.bin"))
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Spread over the command's life: from at once to after it has finished.
        std::thread::sleep(Duration::from_micros(round * round * 3));
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let _ = child.wait().unwrap();
        let (a, b) = (
            std::fs::read(dir.path().join("a.bin")).unwrap(),
            std::fs::read(dir.path().join("b.bin")).unwrap(),
        );
        let old = a == b"old a" && b == b"old b";
        let new = a == new_lhs && b.len() == 4096 * 4;
        assert!(
            old || new,
            "round {round}: a {} bytes, b {} bytes",
            a.len(),
            b.len()
        );
        seen[usize::from(new)] += 1;
        assert!(
            hidden(dir.path()).is_empty(),
            "round {round}: {:?}",
            hidden(dir.path())
        );
    }
    eprintln!("pairs left old: {}, new: {}", seen[0], seen[1]);
}
