//! The command's edges: files converted onto themselves, closed pipes, batch
//! queries with bad lines, and exit statuses.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod support;

use support::promo_in;

/// A scratch directory, removed when dropped.
struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

fn scratch(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("promo-robustness-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const F16_1234: [u8; 8] = [0x00, 0x3c, 0x00, 0x40, 0x00, 0x42, 0x00, 0x44];

#[test]
fn converting_a_file_onto_itself_keeps_its_data() {
    let dir = scratch("self");
    std::fs::write(dir.join("x.bin"), f32_bytes(&[1.0, 2.0, 3.0, 4.0])).unwrap();
    let out = promo_in(
        &dir,
        &[
            "convert", "--from", "f32", "--to", "f16", "--input", "x.bin", "--output", "x.bin",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(dir.join("x.bin")).unwrap(), F16_1234);
}

#[cfg(unix)]
#[test]
fn converting_through_a_symlink_onto_itself_replaces_its_target() {
    let dir = scratch("links");
    std::fs::write(dir.join("y.bin"), f32_bytes(&[1.0, 2.0, 3.0, 4.0])).unwrap();
    std::os::unix::fs::symlink("y.bin", dir.join("link")).unwrap();
    let out = promo_in(
        &dir,
        &[
            "convert", "--from", "f32", "--to", "f16", "--input", "y.bin", "--output", "link",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(dir.join("y.bin")).unwrap(), F16_1234);
    assert!(std::fs::symlink_metadata(dir.join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
}

/// A hard-linked output is written through (the links stay one file), so one that
/// is also the input is refused rather than truncated before it is read.
#[cfg(unix)]
#[test]
fn a_hard_linked_output_that_is_the_input_is_refused() {
    let dir = scratch("hard-self");
    let data = f32_bytes(&[1.0, 2.0, 3.0, 4.0]);
    std::fs::write(dir.join("y.bin"), &data).unwrap();
    std::os::unix::fs::symlink("y.bin", dir.join("link")).unwrap();
    std::fs::hard_link(dir.join("y.bin"), dir.join("hard")).unwrap();
    let out = promo_in(
        &dir,
        &[
            "convert", "--from", "f32", "--to", "f16", "--input", "hard", "--output", "link",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("hard link to one of the inputs"), "{stderr}");
    assert_eq!(std::fs::read(dir.join("y.bin")).unwrap(), data);
    assert_eq!(std::fs::read(dir.join("hard")).unwrap(), data);
}

#[test]
fn a_failed_conversion_leaves_the_output_as_it_was() {
    let dir = scratch("partial");
    std::fs::write(dir.join("in.bin"), [1, 2, 3, 4, 5]).unwrap();
    std::fs::write(dir.join("out.bin"), b"keep").unwrap();
    let out = promo_in(
        &dir,
        &[
            "convert", "--from", "f32", "--to", "f16", "--input", "in.bin", "--output", "out.bin",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), b"keep");
    let leftovers: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[cfg(unix)]
#[test]
fn an_input_that_is_also_standard_output_is_refused() {
    let dir = scratch("stdout");
    let path = dir.join("x.bin");
    std::fs::write(&path, f32_bytes(&[1.0])).unwrap();
    let file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(["convert", "--from", "f32", "--to", "f16", "--input"])
        .arg(&path)
        .stdout(file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is one of the inputs"));
    assert_eq!(std::fs::read(&path).unwrap(), f32_bytes(&[1.0]));
}

/// Runs promo with its standard output a pipe whose reader is already gone.
fn into_closed_pipe(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    std::thread::spawn(move || pipe.write_all(&input));
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let many: Vec<u8> = "i8 u8\n".repeat(100_000).into_bytes();
    let cases: [(&[&str], &[u8]); 6] = [
        (&["list"], b""),
        (&["table", "paddle"], b""),
        (&["query", "openvino", "i8", "i16"], b""),
        (&["query", "openvino", "--stdin"], &many),
        (&["check", "rules/dali.toml"], b""),
        (&["cast", "--from", "f32", "--to", "f16", "1", "2"], b""),
    ];
    for (args, stdin) in cases {
        let out = into_closed_pipe(args, stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn batch_queries_answer_every_query_line() {
    let input = b"i8 i16\n\n# a comment\nf9 i8\ndynamic i8\n\xff\xfe\ni8 u8\r\ni8 i32\n";
    let out = promo_in(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        &["query", "openvino", "--stdin"],
        input,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // The blank line and the comment get no answer; line numbers count them.
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0], "i16");
    assert!(lines[1].starts_with("!unknown dtype `f9`"), "{}", lines[1]);
    assert!(lines[2].starts_with("!unknown dtype `dynamic`"), "{}", lines[2]);
    assert_eq!(lines[3], "!line 6: not UTF-8");
    assert!(
        lines[4].starts_with("!Unsigned integer input"),
        "CRLF is a line end: {}",
        lines[4]
    );
    assert_eq!(lines[5], "i32");
    assert_eq!(out.status.code(), Some(1));
    let all_answered = promo_in(
        Path::new("."),
        &["query", "openvino", "--stdin"],
        b"i8 i16\ni16 i8\n",
    );
    assert_eq!(all_answered.status.code(), Some(0));
}

#[test]
fn a_huge_line_is_answered_in_bounded_memory() {
    let mut input = vec![b'x'; 8 << 20];
    input.extend_from_slice(b"\ni8 i16\n");
    let out = promo_in(Path::new("."), &["query", "openvino", "--stdin"], &input);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "!line 1: longer than 65536 bytes\ni16\n"
    );
}

#[test]
fn a_comment_or_blank_line_of_any_length_gets_no_answer() {
    // Past the 64 KiB a line may hold, a `#` line is still a comment, and a line of
    // blanks still blank; each once got a `!line N: longer than` answer.
    for long in [
        format!("# {}", "x".repeat(70_000)),
        format!("   \t# {}", "x".repeat(200_000)),
        " ".repeat(100_000),
    ] {
        let input = format!("{long}\ni8 i16\n");
        let out = promo_in(
            Path::new("."),
            &["query", "openvino", "--stdin"],
            input.as_bytes(),
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "i16\n");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn check_exit_statuses_and_counts() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let missing = promo_in(root, &["check", "no/such/rules.toml"], b"");
    assert_eq!(
        missing.status.code(),
        Some(2),
        "a missing file is bad input, as in every subcommand"
    );
    let one = promo_in(root, &["check", "examples/own-rules/rules/mini.toml"], b"");
    assert_eq!(
        String::from_utf8_lossy(&one.stdout),
        "examples/own-rules/rules/mini.toml: ok (4 dtypes, 1 layer)\n"
    );
}

#[test]
fn cast_speaks_of_the_cast_and_reads_one_boolean_vocabulary() {
    let here = Path::new(".");
    let out = promo_in(here, &["cast", "--from", "string", "--to", "c64", "1"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "promo: no cast from string to c64\n"
    );
    for (word, bits) in [("1", "0x7e"), ("true", "0x7e"), ("0", "0x7f"), ("false", "0x7f")] {
        let out = promo_in(
            here,
            &[
                "cast",
                "--from",
                "f32",
                "--to",
                "f8e4m3fn",
                "--saturate",
                word,
                "1000",
            ],
            b"",
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(bits),
            "--saturate {word}"
        );
    }
    let out = promo_in(
        here,
        &[
            "cast",
            "--from",
            "f32",
            "--to",
            "f8e4m3fn",
            "--saturate",
            "yes",
            "1",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let unicode = promo_in(here, &["cast", "--from", "string", "--to", "f32", "١٢٣"], b"");
    assert_eq!(unicode.status.code(), Some(2), "ASCII digits only, as documented");
}
