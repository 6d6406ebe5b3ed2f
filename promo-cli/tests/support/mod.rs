//! What the command's test files share: running `promo` with input, and running a
//! command that must succeed.
#![allow(dead_code)] // each test file uses what it needs

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `promo ARGS` in `dir` with `stdin` as its standard input.
pub fn promo_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.to_vec();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || pipe.write_all(&input));
    child.wait_with_output().unwrap()
}

/// Runs `cmd`, which must succeed, and gives its standard output.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
