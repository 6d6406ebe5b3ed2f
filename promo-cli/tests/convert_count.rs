//! `promo convert --count N`: how many elements a packed input holds, ONNX's
//! padding in a packed output, and inputs of the wrong length.
//!
//! The expected bytes are written out by hand from ONNX's layout (element 0 in the
//! low bits of byte 0) and the formats' codes, not computed by promo.

use std::path::Path;
use std::process::Output;

mod support;

use support::promo_in;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `promo convert --from FROM --to TO [--count N]` of `input` from standard input.
fn convert(from: &str, to: &str, count: Option<&str>, input: &[u8]) -> Output {
    let mut args = vec!["convert", "--from", from, "--to", to];
    if let Some(n) = count {
        args.extend(["--count", n]);
    }
    promo_in(here(), &args, input)
}

/// The output of a conversion that must succeed.
fn converted(from: &str, to: &str, count: Option<&str>, input: &[u8]) -> Vec<u8> {
    let out = convert(from, to, count, input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{from} -> {to} {count:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn decoding_an_odd_count_drops_the_padding() {
    // i4 1, 2, 3 and a last high nibble that is not an element (0xf).
    assert_eq!(converted("i4", "i8", Some("3"), &[0x21, 0xf3]), [1, 2, 3]);
    // Without --count every nibble is an element: 0xf is i4 -1.
    assert_eq!(converted("i4", "i8", None, &[0x21, 0xf3]), [1, 2, 3, 0xff]);
    // u4 15, 0, 9 → u8.
    assert_eq!(converted("u4", "u8", Some("3"), &[0x0f, 0x09]), [15, 0, 9]);
    // f4e2m1 1.0 (0x2), -1.0 (0xa), 6.0 (0x7) → f32.
    assert_eq!(
        converted("f4e2m1", "f32", Some("3"), &[0xa2, 0x07]),
        f32_bytes(&[1.0, -1.0, 6.0])
    );
    // i2 codes 1, 2, 3, 0, 1 (values 1, -2, -1, 0, 1), four per byte, element 0 in
    // the low bits; the last byte's six high bits are padding (all ones here).
    assert_eq!(
        converted("i2", "i8", Some("5"), &[0b00_11_10_01, 0b1111_1101]),
        [1, 0xfe, 0xff, 0, 1]
    );
    assert_eq!(converted("u2", "u8", Some("3"), &[0b11_01_10_11]), [3, 2, 1]);
    // One element: the whole high nibble is padding.
    assert_eq!(converted("u4", "u8", Some("1"), &[0x5c]), [12]);
    // No elements, no bytes.
    assert_eq!(converted("i4", "i8", Some("0"), &[]), [0u8; 0]);
}

#[test]
fn encoding_an_odd_count_writes_onnx_padding() {
    // 1, -2, 3 as i4: codes 0x1, 0xe, 0x3; the last byte's high nibble is zero.
    assert_eq!(
        converted("f32", "i4", Some("3"), &f32_bytes(&[1.0, -2.0, 3.0])),
        [0xe1, 0x03]
    );
    assert_eq!(
        converted("f32", "f4e2m1", Some("3"), &f32_bytes(&[1.0, -1.0, 6.0])),
        [0xa2, 0x07]
    );
    assert_eq!(converted("u8", "u4", Some("3"), &[7, 8, 9]), [0x87, 0x09]);
    assert_eq!(
        converted("f32", "i2", Some("5"), &f32_bytes(&[1.0, -2.0, -1.0, 0.0, 1.0])),
        [0b00_11_10_01, 0b01]
    );
    assert_eq!(converted("u8", "u2", Some("3"), &[3, 2, 1]), [0b01_10_11]);
    // Packed to packed: the source's padding (0xf) is not carried over.
    assert_eq!(converted("i4", "i4", Some("3"), &[0x21, 0xf3]), [0x21, 0x03]);
    assert_eq!(converted("i4", "u4", Some("3"), &[0x21, 0xf3]), [0x21, 0x03]);
    // Whole-byte types take --count too: the input must hold count × size bytes.
    assert_eq!(
        converted("f32", "f16", Some("2"), &f32_bytes(&[1.0, 2.0])),
        [0x00, 0x3c, 0x00, 0x40]
    );
}

fn fails_with(out: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(message), "expected {message:?} in {stderr:?}");
}

#[test]
fn a_wrong_byte_count_is_an_error() {
    // Three i4 take two bytes: one is too few, three too many.
    fails_with(
        &convert("i4", "i8", Some("3"), &[0x21]),
        "promo: 3 elements of 4 bits take 2 bytes, but the input holds 1",
    );
    fails_with(
        &convert("i4", "i8", Some("3"), &[0x21, 0x03, 0x00]),
        "promo: 3 elements of 4 bits take 2 bytes, but the input holds more",
    );
    fails_with(
        &convert("i2", "i8", Some("5"), &[0, 0, 0]),
        "5 elements of 2 bits take 2 bytes, but the input holds more",
    );
    fails_with(
        &convert("u2", "u8", Some("5"), &[0]),
        "5 elements of 2 bits take 2 bytes, but the input holds 1",
    );
    // Four i4 fill two bytes exactly.
    assert_eq!(converted("i4", "i8", Some("4"), &[0x21, 0x43]), [1, 2, 3, 4]);
    fails_with(
        &convert("f32", "i4", Some("2"), &f32_bytes(&[1.0, 2.0, 3.0])),
        "2 elements of 32 bits take 8 bytes, but the input holds more",
    );
    fails_with(
        &convert("f32", "i4", Some("3"), &f32_bytes(&[1.0, 2.0])),
        "3 elements of 32 bits take 12 bytes, but the input holds 8",
    );
    // Not a number of elements at all.
    let out = convert("i4", "i8", Some("-1"), &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_wrong_byte_count_leaves_an_output_file_as_it_was() {
    let dir = tempfile::Builder::new()
        .prefix("promo-convert-count-")
        .tempdir()
        .unwrap();
    std::fs::write(dir.path().join("in.bin"), [0x21, 0xf3, 0x00]).unwrap();
    std::fs::write(dir.path().join("out.bin"), b"keep").unwrap();
    let args = |count| {
        [
            "convert", "--from", "i4", "--to", "i8", "--count", count, "--input", "in.bin", "--output",
            "out.bin",
        ]
    };
    let out = promo_in(dir.path(), &args("3"), b"");
    fails_with(&out, "`out.bin` is left as it was");
    assert_eq!(std::fs::read(dir.path().join("out.bin")).unwrap(), b"keep");
    let out = promo_in(dir.path(), &args("5"), b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.path().join("out.bin")).unwrap(),
        [1, 2, 3, 0xff, 0]
    );
}

/// `promo convert ARGS --input FILE` (converted in large blocks on every core),
/// `FILE` holding `input`, with `--output` a file or standard output.
fn convert_file(args: &[&str], input: &[u8], to_file: bool) -> (Output, Option<Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.bin");
    std::fs::write(&path, input).unwrap();
    let mut all = vec!["convert", "--input", "in.bin"];
    all.extend(args);
    if to_file {
        all.extend(["--output", "out.bin"]);
    }
    let out = promo_in(dir.path(), &all, &[]);
    let written = std::fs::read(dir.path().join("out.bin")).ok();
    (out, written)
}

#[test]
fn a_file_converts_as_standard_input_does() {
    // Past one parallel block (8 MiB on the larger side), with odd counts and a
    // trailing partial element; noise as input.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..(12 << 20) + 6)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect();
    let odd = ((5 << 20) * 2 - 1).to_string();
    let cases: [(&[&str], &[u8]); 5] = [
        (&["--from", "f32", "--to", "f8e4m3fn"], &noise[..12 << 20]),
        (&["--from", "f8e4m3fn", "--to", "f32"], &noise[..(3 << 20) + 1]),
        (
            &["--from", "f32", "--to", "i4", "--count", "3000001"],
            &noise[..12_000_004],
        ),
        (
            &["--from", "i4", "--to", "bf16", "--count", &odd],
            &noise[..5 << 20],
        ),
        // Ends inside an element: an error at the same offset, after the same output.
        (&["--from", "f32", "--to", "bf16"], &noise[..]),
    ];
    for (args, input) in cases {
        let mut piped = vec!["convert"];
        piped.extend(args);
        let expected = promo_in(here(), &piped, input);
        let (to_stdout, _) = convert_file(args, input, false);
        assert_eq!(to_stdout.status.code(), expected.status.code(), "{args:?}");
        assert_eq!(to_stdout.stderr, expected.stderr, "{args:?}");
        assert!(to_stdout.stdout == expected.stdout, "{args:?}: the bytes differ");
        let (to_file, written) = convert_file(args, input, true);
        assert_eq!(to_file.status.code(), expected.status.code(), "{args:?}");
        if expected.status.success() {
            assert!(written.unwrap() == expected.stdout, "{args:?}: the file differs");
        }
    }
}
