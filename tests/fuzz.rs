//! Fuzz targets for every input a user gives promo, run for a bounded time on
//! stable Rust: rule files (parse → validate → compiled table), `promo cast`
//! strings, `promo convert` buffers and the buffers and scalars of `compute`
//! (`promo query --stdin` lines are fuzzed in
//! `promo-cli/tests/fuzz/query.rs`, beside the binary). Each asserts no
//! panic, output linear in the input, and (rule files) that the precomputed table
//! agrees with the layer walk.
//!
//! `PROMO_FUZZ_SECONDS` sets each target's budget (default 15); `PROMO_FUZZ_SEED`
//! its starting seed (default: from the clock, printed, so a failure can be
//! replayed). A case that fails becomes a named regression test below.

use promo_core::cast::{convert, element_size, parse_str, CastOptions, ConvertError};
use std::time::Instant;

#[path = "fuzz_support.rs"]
mod fuzz_support;

use fuzz_support::{budget, check_flat_agrees, seed, Rng};

/// Words a rule file is made of, to splice into mutated files.
const RULE_WORDS: &[&str] = &[
    "i8",
    "u8",
    "f32",
    "bf16",
    "f8e4m3fn",
    "c64",
    "string",
    "nf4",
    ".",
    "lhs",
    "rhs",
    "!",
    "!x",
    "$",
    "$promote_unsafe",
    "[[layer]]",
    "[rules]",
    "[reasons]",
    "[options.x]",
    "[modes]",
    "[python]",
    "[aliases]",
    "float = \"f32\"",
    "\"x.half\" = \"f16\"",
    "int = [\"i8\", \"u8\"]",
    "i4 = \"i8\"",
    "matrix = '''",
    "'''",
    "\"",
    "=",
    "{",
    "}",
    "[",
    "]",
    "true",
    "false",
    "when = { promote_unsafe = true }",
    "ops = [\"divide\"]",
    "operands = [\"python\", \"tensor\"]",
    "commutative = true",
    "dtypes = []",
    "\r",
    "\r\n",
    "\t",
    "#",
    "é",
    "\u{0}",
    "fn",
    "Self",
    "a-b",
    "a_b",
    "9999999999999999999",
];

/// One structured mutation of a rule file's text.
fn mutate(rng: &mut Rng, src: &str) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_owned).collect();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(lines.len());
        match rng.below(8) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let line = lines[i].clone();
                lines.insert(i, line);
            }
            2 => {
                let words: Vec<&str> = lines[i].split(' ').collect();
                let j = rng.below(words.len());
                let mut words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                words[j] = rng.pick(RULE_WORDS).to_string();
                lines[i] = words.join(" ");
            }
            3 => lines.insert(i, rng.pick(RULE_WORDS).to_string()),
            4 => lines.truncate(i.max(1)),
            5 => {
                let cut = rng.below(lines[i].len() + 1);
                let mut line = lines[i].clone();
                let cut = (0..=cut).rev().find(|&c| line.is_char_boundary(c)).unwrap_or(0);
                line.truncate(cut);
                lines[i] = line;
            }
            6 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            _ => {
                let bytes: Vec<u8> = (0..1 + rng.below(8)).map(|_| rng.next() as u8).collect();
                lines[i].push_str(&String::from_utf8_lossy(&bytes));
            }
        }
        if lines.is_empty() {
            lines.push(String::new());
        }
    }
    let ending = if rng.below(10) == 0 { "\r\n" } else { "\n" };
    lines.join(ending) + ending
}

/// Runs `f`; if it panics, writes `input` to `target/fuzz-failure.txt` (to become a
/// regression test) and fails naming that file.
fn keep_if_it_panics(input: &str, f: impl FnOnce() + std::panic::UnwindSafe) {
    if std::panic::catch_unwind(f).is_err() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/fuzz-failure.txt");
        let _ = std::fs::write(path, input);
        panic!("a fuzz case panicked; its input is in {path}");
    }
}

#[test]
fn fuzz_rule_files() {
    let mut rng = seed("rule files");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules");
    let sources: Vec<String> = ["kernel_float", "dali", "openvino", "tensorflow"]
        .iter()
        .map(|n| std::fs::read_to_string(format!("{root}/{n}.toml")).unwrap())
        .collect();
    let (start, mut cases, mut accepted, mut compared) = (Instant::now(), 0u64, 0u64, 0usize);
    while start.elapsed() < budget() {
        let original = rng.pick(&sources).clone();
        let src = mutate(&mut rng, &original);
        keep_if_it_panics(&src, || {
            let _ = promo_rules::load("fuzz.toml", &src).map_err(|d| d.to_string());
        });
        match promo_rules::load("fuzz.toml", &src) {
            Ok(rules) => {
                accepted += 1;
                if accepted % 8 == 1 {
                    compared += rules.with_table(check_flat_agrees);
                }
            }
            Err(d) => {
                let report = d.to_string();
                assert!(!d.errors.is_empty());
                assert!(
                    report.len() < 64 * src.len() + 16_384,
                    "report of {} bytes for {} bytes",
                    report.len(),
                    src.len()
                );
            }
        }
        cases += 1;
    }
    println!("fuzz rule files: {cases} cases, {accepted} accepted, {compared} flat-vs-walk comparisons");
    assert!(cases > 100);
}

#[test]
fn fuzz_cast_strings() {
    let mut rng = seed("cast strings");
    let pieces = [
        "1", "0", "-", "+", ".", "e", "E", "5", "inf", "nan", "_", " ", "0x", "1e400", "١", "é", "\u{0}",
        "9", "2.5",
    ];
    let targets: Vec<_> = promo_core::DType::ALL.to_vec();
    let options = CastOptions::default();
    let (start, mut cases) = (Instant::now(), 0u64);
    while start.elapsed() < budget() {
        let text: String = (0..rng.below(12)).map(|_| *rng.pick(&pieces)).collect();
        let to = *rng.pick(&targets);
        let _ = parse_str(&text, to, &options);
        cases += 1;
    }
    println!("fuzz cast strings: {cases} cases");
    assert!(cases > 1000);
}

#[test]
fn fuzz_convert_buffers_of_every_length() {
    let mut rng = seed("convert buffers");
    let castable: Vec<_> = promo_core::DType::ALL
        .iter()
        .copied()
        .filter(|&d| element_size(d).is_some())
        .collect();
    let (start, mut cases) = (Instant::now(), 0u64);
    while start.elapsed() < budget() {
        let (from, to) = (*rng.pick(&castable), *rng.pick(&castable));
        let len = rng.below(70);
        let src: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let options = CastOptions {
            saturate: Some(rng.below(2) == 0),
            ..CastOptions::default()
        };
        // Storage widths: a 6-bit float takes a byte.
        let (from_bits, to_bits) = (element_size(from).unwrap(), element_size(to).unwrap());
        match convert(from, to, &src, &options) {
            Ok(out) => {
                let count = len * 8 / from_bits;
                assert_eq!(
                    out.len(),
                    (count * to_bits).div_ceil(8),
                    "{from} -> {to}, {len} bytes"
                );
            }
            Err(ConvertError::PartialElement { offset, size }) => {
                assert!(from_bits >= 16 && !len.is_multiple_of(size) && offset as usize == len - len % size);
            }
            Err(e) => panic!("{from} -> {to}: {e}"),
        }
        cases += 1;
    }
    println!("fuzz convert buffers: {cases} cases");
    assert!(cases > 1000);
}

#[test]
fn fuzz_compute_buffers_and_scalars() {
    use promo_core::cast::Backend;
    use promo_core::compute::{Computation, ComputeError, Scalar, Side, OPS};
    let mut rng = seed("compute buffers");
    let tables: Vec<_> = promo_core::rules::ALL
        .iter()
        .copied()
        .filter(|t| promo_core::compute::Semantics::of(t.name).is_some())
        .collect();
    let dtypes = promo_core::DType::ALL;
    let scalars = [
        Scalar::Bool(true),
        Scalar::Int(-1),
        Scalar::Int(300),
        Scalar::Int(1 << 70),
        Scalar::Int(i128::MIN),
        Scalar::Float(0.1),
        Scalar::Float(f64::NAN),
        Scalar::Float(-0.0),
        Scalar::Float(1e300),
    ];
    let (start, mut cases, mut computed) = (Instant::now(), 0u64, 0u64);
    while start.elapsed() < budget() {
        let table = *rng.pick(&tables);
        let options = table.default_options();
        let (op, lhs, rhs) = (*rng.pick(&OPS), *rng.pick(dtypes), *rng.pick(dtypes));
        let scalar = (rng.below(4) == 0).then(|| {
            (
                *rng.pick(&scalars),
                if rng.below(2) == 0 { Side::Lhs } else { Side::Rhs },
            )
        });
        let made = |backend| match scalar {
            Some((s, side)) => Computation::with_scalar_on(table, &options, op, lhs, s, side, backend),
            None => Computation::with_backend(table, &options, op, lhs, rhs, backend),
        };
        cases += 1;
        let Ok(plain) = made(Backend::Portable) else {
            continue;
        };
        let bytes = |rng: &mut fuzz_support::Rng| -> Vec<u8> {
            (0..rng.below(150)).map(|_| rng.next() as u8).collect()
        };
        let (mut a, mut b) = (bytes(&mut rng), bytes(&mut rng));
        match scalar {
            Some((_, Side::Lhs)) if rng.below(3) > 0 => a.clear(),
            Some((_, Side::Rhs)) if rng.below(3) > 0 => b.clear(),
            _ => {}
        }
        let count = rng.below(300);
        if rng.below(2) == 0 {
            // Lengths that fit: every element, or one.
            let size = |d: promo_core::DType, rng: &mut fuzz_support::Rng, len: &mut Vec<u8>| {
                let bits = element_size(d).unwrap_or(8);
                let n = if rng.below(4) == 0 { 1 } else { count };
                len.resize((n * bits).div_ceil(8), 0x5a);
            };
            if !matches!(scalar, Some((_, Side::Lhs))) {
                size(lhs, &mut rng, &mut a);
            }
            if scalar.is_none() {
                size(rhs, &mut rng, &mut b);
            }
        }
        let mut want = vec![0u8; rng.below(1200)];
        let expected = plain.apply(&a, &b, &mut want, count);
        match &expected {
            Ok(written) => {
                assert_eq!(
                    *written,
                    (count * element_size(plain.result()).unwrap()).div_ceil(8)
                );
                computed += 1;
            }
            Err(
                ComputeError::Length { .. }
                | ComputeError::OutputTooSmall { .. }
                | ComputeError::ScalarBytes { .. },
            ) => {}
            Err(e) => panic!("{} {} {lhs} {rhs} {scalar:?}: {e}", table.name, op.name()),
        }
        for backend in Backend::available() {
            let m = made(backend).expect("made on the portable backend");
            let mut got = vec![0u8; want.len()];
            let result = m.apply(&a, &b, &mut got, count);
            assert_eq!(
                result.is_ok(),
                expected.is_ok(),
                "{} {} {lhs} {rhs} on {backend}",
                table.name,
                op.name()
            );
        }
    }
    println!("fuzz compute: {cases} cases, {computed} computed");
    assert!(cases > 1000 && computed > 0);
}
