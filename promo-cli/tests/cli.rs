//! The `promo` command, run as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn promo(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run promo");
    let input = stdin.unwrap_or("").to_owned();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    child.wait_with_output().expect("promo output")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn query_prints_the_result_or_the_refusal() {
    let out = promo(&["query", "kernel_float", "i8", "i32"], None);
    assert_eq!(
        (out.status.code(), text(&out.stdout).as_str()),
        (Some(0), "i32\n")
    );

    let out = promo(&["query", "kernel_float", "u16", "i8"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("refused: "),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for args in [
        &["query", "kernel_float", "i8", "f9"][..],
        &["query", "nonesuch", "i8", "i8"],
        &["query", "kernel_float", "i8", "i8", "--op", "frobnicate"],
        &["query", "kernel_float", "i8", "i8", "--set", "nonesuch=1"],
        &["table", "kernel_float", "--format", "yaml"],
    ] {
        let out = promo(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn stdin_answers_one_line_per_query() {
    let out = promo(
        &["query", "kernel_float", "--stdin"],
        Some("i8 i16\nu8 i8\nbool f16\n"),
    );
    // Every line answered, one refused: exit 1.
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], "i16");
    assert!(lines[1].starts_with('!'));
    assert_eq!(lines[2], "f16");
}

#[test]
fn json_table_has_the_documented_shape() {
    let out = promo(&["table", "kernel_float", "--format", "json"], None);
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let keys: Vec<&str> = doc.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["rules", "options", "dtypes", "table", "weak", "errors"]);
    // kernel_float has no weak types.
    assert_eq!(doc["weak"], serde_json::json!({}));
    assert_eq!(doc["rules"], "kernel_float");
    let dtypes = doc["dtypes"].as_array().unwrap();
    assert_eq!(doc["table"].as_object().unwrap().len(), dtypes.len());
    assert!(doc["table"]["i8"]["u8"].is_null());
    assert!(doc["errors"]["i8"]["u8"].is_string());
    assert_eq!(doc["table"]["f16"]["bf16"], "f32");
}

#[test]
fn check_reports_file_line_col() {
    let out = promo(&["check", "tests/ui/rules/unknown_dtype.toml"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("error: unknown dtype `f9`"), "{err}");
    assert!(
        err.contains("--> tests/ui/rules/unknown_dtype.toml:13:13"),
        "{err}"
    );

    let out = promo(&["check", "rules/kernel_float.toml"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_rule_file_path_works_like_a_bundled_name() {
    let bundled = promo(&["table", "kernel_float", "--format", "csv"], None);
    let from_file = promo(&["table", "rules/kernel_float.toml", "--format", "csv"], None);
    assert_eq!(bundled.status.code(), Some(0));
    assert_eq!(text(&bundled.stdout), text(&from_file.stdout));
}

#[test]
fn the_readme_example_rule_file_is_valid_and_shown_verbatim() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let example = std::fs::read_to_string(format!("{root}/tests/data/example_rules.toml")).unwrap();
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    assert!(
        readme.contains(&example),
        "README's rule-file example differs from tests/data/example_rules.toml"
    );
    let out = promo(&["check", "tests/data/example_rules.toml"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = promo(
        &[
            "query",
            "tests/data/example_rules.toml",
            "i8",
            "u8",
            "--set",
            "strict=true",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let out = promo(
        &["query", "tests/data/example_rules.toml", "i8", "u8", "--op", "/"],
        None,
    );
    assert_eq!(text(&out.stdout), "f32\n");
}

/// `promo query --stdin` answers JAX's `jnp.result_type` for every pair the oracle
/// dumped (default options), in the oracle's own notation: a weakly typed result as
/// `weak:DTYPE`, the operand syntax, and a refusal as `!reason`.
#[test]
fn query_prints_weak_results_as_the_framework_gives_them() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let data = std::fs::read(format!("{root}/tests/data/promotion/functions/jax.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&data).expect("json");
    let group = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| {
            g["op"] == "result_type"
                && g["options"]["jax_enable_x64"] == false
                && g["options"]["jax_numpy_dtype_promotion"] == "standard"
        })
        .expect("the default group");
    let cases = group["cases"].as_array().unwrap();
    let input: String = cases
        .iter()
        .map(|c| format!("{} {}\n", c[0].as_str().unwrap(), c[1].as_str().unwrap()))
        .collect();
    let out = promo(&["query", "jax", "--op", "result_type", "--stdin"], Some(&input));
    // Exit status 1: some lines are refusals.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let answers = text(&out.stdout);
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), cases.len());
    let mut weak = 0;
    for (case, answer) in cases.iter().zip(answers) {
        match case[2].as_str() {
            Some(expected) => {
                assert_eq!(answer, expected, "{case:?}");
                weak += usize::from(expected.starts_with("weak:"));
            }
            None => assert!(answer.starts_with('!'), "{case:?}: {answer}"),
        }
    }
    assert!(weak > 100, "only {weak} weak results");
}
