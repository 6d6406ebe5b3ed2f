//! Fuzzes `promo query --stdin` with random lines (operands, settings, bad
//! bytes, CRLF, comments, blank lines, aliases and misspelt names) for a bounded
//! time: one answer per query line (none for a blank or `#` comment line), no
//! panic, exit 0 or 1, output linear in the input. `PROMO_FUZZ_SECONDS` and `PROMO_FUZZ_SEED` as in
//! `tests/fuzz.rs`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::fuzz_support::{budget, seed};

#[test]
fn fuzz_query_stdin_lines() {
    let mut rng = seed("query lines");
    let words = [
        "i8",
        "u8",
        "f16",
        "bf16",
        "scalar:i64",
        "python:int",
        "python:float",
        "python:complex",
        "dynamic",
        "f9",
        "op=divide",
        "op=nope",
        "mode=static",
        "mode=x",
        "promote_unsafe=true",
        "=",
        "",
        " ",
        "\t",
        "é",
        "scalar:",
        "python:",
        "#",
        "# a comment",
        "float",
        "int",
        "torch.half",
        "flaot32",
        "op=divde",
        "promote_unsafe=True",
    ];
    let budget = budget();
    let (start, mut cases, mut lines_sent) = (Instant::now(), 0u64, 0usize);
    while start.elapsed() < budget {
        let mut input = Vec::new();
        let lines = 1 + rng.below(400);
        // The lines that hold a query: not blank, no `#` first, or not UTF-8.
        let mut queries = 0;
        for _ in 0..lines {
            let mut line = Vec::new();
            for _ in 0..rng.below(5) {
                line.extend_from_slice(rng.pick(&words).as_bytes());
                line.push(b' ');
            }
            if rng.below(50) == 0 {
                line.extend((0..rng.below(6)).map(|_| rng.next() as u8 | 0x80));
            }
            queries += usize::from(match std::str::from_utf8(&line) {
                Ok(text) => !(text.trim_start().is_empty() || text.trim_start().starts_with('#')),
                Err(_) => true,
            });
            input.extend_from_slice(&line);
            input.extend_from_slice(if rng.below(8) == 0 { b"\r\n" } else { b"\n" });
        }
        let rules = *rng.pick(&["openvino", "paddle", "dali", "kernel_float", "numpy", "torch"]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_promo"))
            .args(["query", rules, "--stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let sent = input.clone();
        std::thread::spawn(move || pipe.write_all(&sent));
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            stdout.lines().count(),
            queries,
            "{rules}: one answer per query line"
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{rules}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.len() < 400 * lines + input.len() * 4,
            "output linear in the input"
        );
        cases += 1;
        lines_sent += lines;
    }
    println!("fuzz query lines: {cases} runs, {lines_sent} lines");
    assert!(cases > 3);
}

/// Random argument lists for `promo diff`, `promo gen` and `promo table`'s map
/// formats: every run ends with status 0, 1 or 2 (never a panic's 101), and a
/// status 2 comes with a message.
#[test]
fn fuzz_diff_gen_and_map_arguments() {
    let mut rng = seed("diff gen args");
    let commands: [&[&str]; 4] = [&["diff"], &["gen"], &["table"], &["diff", "--all"]];
    let words = [
        "openvino",
        "paddle",
        "dali",
        "kernel_float",
        "nosuch",
        "../tests/data/example_rules.toml",
        "--set",
        "a:promote_unsafe=true",
        "b:mode=static",
        "c:x=1",
        "a:",
        "b:=",
        "strict=true",
        "mode=eager",
        "--op",
        "divide",
        "/",
        "nope",
        "--format",
        "html",
        "svg",
        "json",
        "markdown",
        "text",
        "--lang",
        "rust",
        "c",
        "",
        "é",
        "-",
    ];
    let budget = budget();
    let (start, mut cases) = (Instant::now(), 0u64);
    while start.elapsed() < budget {
        let mut args: Vec<&str> = rng.pick(&commands).to_vec();
        for _ in 0..rng.below(7) {
            args.push(*rng.pick(&words));
        }
        let out = Command::new(env!("CARGO_BIN_EXE_promo"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if code == Some(2) {
            assert!(!out.stderr.is_empty(), "{args:?}: status 2 without a message");
        }
        cases += 1;
    }
    println!("fuzz diff/gen/table arguments: {cases} runs");
    assert!(cases > 3);
}
