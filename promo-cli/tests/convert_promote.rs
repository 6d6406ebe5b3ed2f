//! `promo convert-promote`, run as a user runs it, on files in a scratch directory.

use std::path::Path;
use std::process::{Command, Output};

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
            .prefix(&format!("promo-convert-promote-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

fn promo(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn both_operands_land_in_the_promoted_dtype() {
    let dir = scratch("ok");
    std::fs::write(dir.join("a.bin"), [0xff, 0x02]).unwrap(); // i8: -1, 2
    std::fs::write(dir.join("b.bin"), 1.5f32.to_le_bytes()).unwrap();
    let out = promo(
        &dir,
        &[
            "convert-promote",
            "openvino",
            "--lhs",
            "i8:a.bin",
            "--rhs",
            "f32:b.bin",
            "--out-lhs",
            "x.bin",
            "--out-rhs",
            "y.bin",
        ],
    );
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stdout).as_ref()),
        (Some(0), "f32\n")
    );
    let x = std::fs::read(dir.join("x.bin")).unwrap();
    let floats: Vec<f32> = x
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(floats, [-1.0, 2.0]);
    assert_eq!(std::fs::read(dir.join("y.bin")).unwrap(), 1.5f32.to_le_bytes());
}

#[test]
fn an_output_may_name_an_input() {
    let dir = scratch("same");
    std::fs::write(dir.join("a.bin"), [0xff, 0x02]).unwrap();
    std::fs::write(dir.join("b.bin"), [0xff, 0x80]).unwrap();
    let out = promo(
        &dir,
        &[
            "convert-promote",
            "openvino",
            "--set",
            "promote_unsafe=true",
            "--lhs",
            "i8:a.bin",
            "--rhs",
            "u8:b.bin",
            "--out-lhs",
            "a.bin",
            "--out-rhs",
            "b.bin",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("a.bin")).unwrap(),
        [0xff, 0xff, 0x02, 0x00]
    );
    assert_eq!(
        std::fs::read(dir.join("b.bin")).unwrap(),
        [0xff, 0x00, 0x80, 0x00]
    );
}

#[test]
fn refusals_exit_1_and_bad_input_exits_2_without_writing() {
    let dir = scratch("bad");
    std::fs::write(dir.join("a.bin"), [1]).unwrap();
    let refused = promo(
        &dir,
        &[
            "convert-promote",
            "openvino",
            "--lhs",
            "i8:a.bin",
            "--rhs",
            "u8:a.bin",
            "--out-lhs",
            "x",
            "--out-rhs",
            "y",
        ],
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).starts_with("refused: "));
    let partial = promo(
        &dir,
        &[
            "convert-promote",
            "openvino",
            "--lhs",
            "i32:a.bin",
            "--rhs",
            "i32:a.bin",
            "--out-lhs",
            "x",
            "--out-rhs",
            "y",
        ],
    );
    assert_eq!(partial.status.code(), Some(2));
    let missing = promo(
        &dir,
        &[
            "convert-promote",
            "openvino",
            "--lhs",
            "i8:nope.bin",
            "--rhs",
            "i8:a.bin",
            "--out-lhs",
            "x",
            "--out-rhs",
            "y",
        ],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read `nope.bin`"));
    assert!(!dir.join("x").exists() && !dir.join("y").exists());
}
