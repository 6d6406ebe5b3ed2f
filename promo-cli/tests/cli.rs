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

/// Runs `promo ARGS`, which must fail with bad input (exit 2), and gives its message.
fn bad(args: &[&str]) -> String {
    let out = promo(args, None);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stdout));
    text(&out.stderr)
}

#[test]
fn a_misspelt_name_gets_the_closest_known_one() {
    for (args, message) in [
        (
            &["query", "kernel_float", "flaot32", "i8"][..],
            "promo: unknown dtype `flaot32` (did you mean `f32`?)\n",
        ),
        (
            &["query", "torch", "torch.flaot", "i8"],
            "promo: unknown dtype `torch.flaot` (did you mean `torch.float`?)\n",
        ),
        (
            &["query", "jax", "python:flaot", "i8"],
            "promo: bad operand `python:flaot`: expected python:bool|int|float|complex (did you mean `python:float`?)\n",
        ),
        (
            &["query", "nmpy", "i8", "i8"],
            "promo: unknown rule set `nmpy` (did you mean `numpy`?): expected one of openvino, kernel_float, paddle, dali, numpy, torch, array_api, tensorflow, jax, keras, tinygrad, mlx, triton, mindspore or a rule file path\n",
        ),
        (
            &["query", "openvino", "i8", "u8", "--set", "promote_unsaf=true"],
            "promo: unknown option `promote_unsaf` for openvino: expected one of `promote_unsafe`, `pytorch_scalar_promotion`, `u64_integer_promotion_target` (did you mean `promote_unsafe`?)\n",
        ),
        (
            &["query", "paddle", "i8", "u8", "--set", "mode=statc"],
            "promo: bad value `statc` for `mode`: expected one of `eager`, `static` (did you mean `static`?)\n",
        ),
        (
            &["query", "openvino", "u64", "i8", "--set", "promote_unsafe=true", "--set", "u64_integer_promotion_target=flaot64"],
            "promo: bad value `flaot64` for `u64_integer_promotion_target`: expected a dtype name (did you mean `f64`?)\n",
        ),
    ] {
        assert_eq!(bad(args), message, "{args:?}");
    }
    // No suggestion for a name near nothing.
    assert_eq!(
        bad(&["query", "kernel_float", "i8", "f9"]),
        "promo: unknown dtype `f9`: an operand is DTYPE, scalar:DTYPE, weak:DTYPE or python:bool|int|float|complex\n"
    );
    // `promo cast` and `promo convert`, where no rule set is in play.
    let e = bad(&["cast", "--from", "flaot32", "--to", "f16", "1"]);
    assert!(e.contains("unknown dtype `flaot32` (did you mean `f32`?)"), "{e}");
}

#[test]
fn an_unknown_op_lists_the_rule_sets_operations() {
    assert_eq!(
        bad(&["query", "dali", "i8", "i8", "--op", "divde"]),
        "promo: unknown operation `divde` (did you mean `divide`?): the operations of dali are add subtract multiply divide floor_divide bitwise_and bitwise_or bitwise_xor remainder pow equal not_equal less_than less_equal greater_than greater_equal\n"
    );
    let e = bad(&["table", "jax", "--op", "fmin"]);
    assert!(
        e.starts_with("promo: promo's jax rule set does not cover `fmin` (its elementwise operations: add "),
        "{e}"
    );
    let e = bad(&["query", "kernel_float", "i8", "i8", "--op", "frobnicate"]);
    assert!(
        e.contains("kernel_float answers every elementwise operation alike"),
        "{e}"
    );
}

#[test]
fn dtype_names_follow_the_rule_set() {
    let answer = |args: &[&str]| {
        let out = promo(args, None);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    // NumPy: `np.dtype(float)` is float64, `np.dtype(int)` int64.
    assert_eq!(answer(&["query", "numpy", "float", "f32"]), "f64\n");
    assert_eq!(answer(&["query", "numpy", "int", "i8"]), "i64\n");
    assert_eq!(answer(&["query", "numpy", "complex", "f32"]), "c128\n");
    assert_eq!(answer(&["query", "numpy", "scalar:single", "ubyte"]), "f32\n");
    // PyTorch: its own spellings; a bare `float` is ambiguous there.
    assert_eq!(answer(&["query", "torch", "torch.half", "torch.long"]), "f16\n");
    assert_eq!(
        answer(&["query", "torch", "torch.float", "torch.cdouble"]),
        "c128\n"
    );
    assert_eq!(
        bad(&["query", "torch", "float", "i8"]),
        "promo: dtype `float` is ambiguous under torch: write `f32` (`torch.float`) or `f64` (`torch.double`)\n"
    );
    // TensorFlow: `tf.as_dtype(float)` is float32.
    assert_eq!(answer(&["query", "tensorflow", "float", "f32"]), "f32\n");
    // A dtype option's value is spelled the same way.
    assert_eq!(
        answer(&[
            "query",
            "openvino",
            "u64",
            "i8",
            "--set",
            "promote_unsafe=true",
            "--set",
            "u64_integer_promotion_target=double"
        ]),
        "f64\n"
    );
    // Where no rule set says, `float` and `int` are refused with the choices.
    assert_eq!(
        bad(&["query", "openvino", "float", "i8"]),
        "promo: dtype `float` is ambiguous without a rule set: f32 in C and PyTorch (`torch.float`), f64 in Python, NumPy and JAX (`dtype=float`); write `f32` or `f64`\n"
    );
    let e = bad(&["convert", "--from", "f32", "--to", "int"]);
    assert!(e.contains("dtype `int` is ambiguous without a rule set"), "{e}");
    assert!(e.contains("write `i32` or `i64`"), "{e}");
}

#[test]
fn diff_all_compares_the_operation_it_is_given() {
    let out = promo(&["diff", "--all", "--op", "divide"], None);
    assert_eq!(out.status.code(), Some(0));
    let divide = text(&out.stdout);
    assert!(
        divide.starts_with("# Agreement of the bundled rule sets on divide,"),
        "{divide}"
    );
    let add = text(&promo(&["diff", "--all"], None).stdout);
    assert_ne!(divide, add);
    // A rule set without the operation is left out, and says so.
    let out = promo(&["diff", "--all", "--op", "huber_loss", "--format", "json"], None);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["op"], "huber_loss");
    assert_eq!(
        doc["rules"],
        serde_json::json!(["openvino", "kernel_float", "paddle", "torch"])
    );
    let e = bad(&["diff", "--all", "--op", "divde"]);
    assert!(e.contains("(did you mean `divide`?)"), "{e}");
}

#[test]
fn check_takes_bundled_names() {
    let out = promo(&["check", "numpy", "rules/dali.toml"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.starts_with("bundled rules/numpy.toml: ok ("), "{report}");
    assert!(report.contains("\nrules/dali.toml: ok ("), "{report}");
}

#[test]
fn an_opset_before_a_type_is_refused() {
    for (to, opset, since) in [
        ("f8e4m3fn", "18", "19"),
        ("f4e2m1", "22", "23"),
        ("f8e8m0", "23", "24"),
        ("i4", "20", "21"),
    ] {
        assert_eq!(
            bad(&["cast", "--from", "f32", "--to", to, "--opset", opset, "1"]),
            format!("promo: opset {opset} has no `{to}`: ONNX `Cast` takes it from opset {since}\n")
        );
        let out = promo(
            &["cast", "--from", "f32", "--to", to, "--opset", since, "1"],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stderr));
    }
    let e = bad(&["convert", "--from", "bf16", "--to", "f32", "--opset", "12"]);
    assert_eq!(
        e,
        "promo: opset 12 has no `bf16`: ONNX `Cast` takes it from opset 13\n"
    );
}

#[test]
fn booleans_take_pythons_spelling() {
    for value in ["True", "true", "1"] {
        let out = promo(
            &[
                "query",
                "openvino",
                "i8",
                "u8",
                "--set",
                &format!("promote_unsafe={value}"),
            ],
            None,
        );
        assert_eq!(text(&out.stdout), "i16\n", "{value}");
    }
    let out = promo(
        &["query", "openvino", "i8", "u8", "--set", "promote_unsafe=False"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        bad(&["query", "openvino", "i8", "u8", "--set", "promote_unsafe=yes"]),
        "promo: bad value `yes` for `promote_unsafe`: expected `true` or `false`\n"
    );
    let out = promo(
        &[
            "cast",
            "--from",
            "f32",
            "--to",
            "f8e5m2",
            "--saturate",
            "False",
            "1e9",
        ],
        None,
    );
    assert_eq!(text(&out.stdout), "1e9 -> f8e5m2 0x7c (inf)\n");
}

#[test]
fn stdin_skips_comments_and_blank_lines() {
    let out = promo(
        &["query", "kernel_float", "--stdin"],
        Some("# kernel_float pairs\ni8 i16\n\n   # indented comment\n  \nbool f16\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "i16\nf16\n");
}

#[test]
fn explain_names_the_bundled_file() {
    // Run from a directory without the repository's rules/: the bundled copy is meant.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(["explain", "dali", "u16", "i8"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = text(&out.stdout);
    assert!(text.contains("(bundled rules/dali.toml:"), "{text}");
}

#[test]
fn explain_prints_the_result_as_query_does() {
    // Weakly typed results (TensorFlow's `all` mode, JAX's Python scalars) among them.
    let questions: [&[&str]; 4] = [
        &[
            "tensorflow",
            "i8",
            "u64",
            "--op",
            "result_type",
            "--set",
            "dtype_conversion_mode=all",
        ],
        &["jax", "python:int", "python:float"],
        &["jax", "bf16", "python:float"],
        &["torch", "i8", "u8"],
    ];
    let mut weak = 0;
    for question in questions {
        let query = promo(&[&["query"], question].concat(), None);
        assert_eq!(
            query.status.code(),
            Some(0),
            "{question:?}: {}",
            text(&query.stderr)
        );
        let answer = text(&query.stdout);
        let answer = answer.trim_end();
        weak += usize::from(answer.starts_with("weak:"));
        let explain = promo(&[&["explain"], question].concat(), None);
        assert_eq!(
            explain.status.code(),
            Some(0),
            "{question:?}: {}",
            text(&explain.stderr)
        );
        let explained = text(&explain.stdout);
        let first = explained.lines().next().unwrap_or_default();
        assert!(
            first.ends_with(&format!(" = {answer}")),
            "{question:?}: query `{answer}`, explain `{first}`"
        );
    }
    assert!(weak >= 2, "the questions should include weakly typed results");
}

#[test]
fn one_operand_operations_are_compared_and_tabulated_by_dtype() {
    // numpy's sqrt of an 8-bit integer is f16, PyTorch's the default float.
    let out = promo(&["diff", "numpy", "torch", "--op", "sqrt"], None);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with("numpy vs torch, op sqrt, one operand: 28 dtypes in common: "),
        "{shown}"
    );
    assert!(shown.contains("\ni8    f16    f32\n"), "{shown}");
    // One line per dtype, with the dtype it computes in where that differs.
    let out = promo(&["table", "torch", "--op", "sum"], None);
    assert_eq!(out.status.code(), Some(0));
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with("# torch (2.15.0), op sum, device=any; one operand, x refused\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\nu8    i64\n") && shown.contains("\nf16   f16 (computed in f32)\n"),
        "{shown}"
    );
    // A map of one operand: a row per dtype, one column; the compute dtype and a
    // refusal's reason on hover.
    let out = promo(&["table", "torch", "--op", "sum", "--format", "html"], None);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(
        page.contains("<th>x \\ op</th><th scope=\"col\">sum</th>"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"k-signed\" title=\"sum(u8): i64\">i64</td>")
            && page.contains("title=\"sum(f16) (computed in f32): f16\""),
        "{page}"
    );
    let out = promo(&["table", "torch", "--op", "mean", "--format", "svg"], None);
    let image = text(&out.stdout);
    assert!(
        image.starts_with("<svg ")
            && image.contains("<title>mean(i32): refused: mean(): could not infer output dtype"),
        "{image}"
    );
    // A diff of one operand outlines the dtypes that differ, and exits 1.
    let out = promo(
        &["diff", "numpy", "torch", "--op", "mean", "--format", "html"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let page = text(&out.stdout);
    assert_eq!(page.matches("<td class=\"k-float differ\"").count(), 9, "{page}");
    assert!(
        page.contains("title=\"mean(i8): differs. a: f64; b: refused: mean(): could not infer output dtype"),
        "{page}"
    );
}
