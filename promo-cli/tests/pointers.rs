//! Messages that point a newcomer the right way: a rule set left out, a `--set`
//! on the wrong side of `promo diff`, a value typed where a dtype belongs, a family
//! name (`float8`) where a format is meant, a common operation name that is not
//! promo's, an operation a rule set does not cover, a dtype a rule set does not
//! have; and `promo list RULES`, a rule set's spellings.

mod support;

use std::path::Path;
use support::promo_in;

/// Runs `promo ARGS` from the workspace root: exit status, stdout, stderr.
fn promo(args: &[&str]) -> (Option<i32>, String, String) {
    let out = promo_in(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")), args, b"");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Runs a command that must be bad input (exit 2, nothing on stdout): its message.
fn bad(args: &[&str]) -> String {
    let (code, out, err) = promo(args);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}: {err}");
    err
}

const RULE_SETS: &str = "openvino, kernel_float, paddle, dali, numpy, torch, array_api, tensorflow, jax, keras, tinygrad, mlx, triton, mindspore";

#[test]
fn a_dtype_where_the_rule_set_belongs_is_named_as_such() {
    let expected = format!(
        "promo: `f32` is an operand, not a rule set: the rule set comes first, one of {RULE_SETS} or a rule file path\n"
    );
    // Not "the argument <RHS> is missing": the rule set is.
    assert_eq!(bad(&["query", "f32", "f16"]), expected);
    assert_eq!(bad(&["explain", "f32", "f16"]), expected);
    assert_eq!(bad(&["table", "f32"]), expected);
    assert_eq!(bad(&["list", "f32"]), expected);
    assert!(
        bad(&["query", "python:int", "f16"]).starts_with("promo: `python:int` is an operand, not a rule set")
    );
    // A name that is neither keeps the suggestion among rule sets.
    assert!(bad(&["query", "nmpy", "i8", "i8"]).contains("(did you mean `numpy`?)"));
    // With the rule set given, a missing operand is named.
    assert_eq!(
        bad(&["query", "numpy", "i8"]),
        "promo: missing the right operand: `promo query numpy LHS RHS`\n"
    );
    assert_eq!(
        bad(&["explain", "numpy"]),
        "promo: missing the left operand: `promo explain numpy LHS RHS`\n"
    );
    // --stdin still needs none.
    let (code, out, _) = promo(&["query", "numpy", "--stdin"]);
    assert_eq!((code, out.as_str()), (Some(0), ""));
}

#[test]
fn a_diff_setting_for_one_side_names_its_prefix() {
    let e = bad(&["diff", "torch", "jax", "--set", "jax_enable_x64=true"]);
    assert!(
        e.starts_with("promo: unknown option `jax_enable_x64` for torch"),
        "{e}"
    );
    assert!(e.contains("`--set b:jax_enable_x64=true`"), "{e}");
    assert!(e.contains("without `a:` or `b:` sets both"), "{e}");
    // Given to the wrong side: the right one is named; the setting went to one side only.
    let e = bad(&["diff", "torch", "jax", "--set", "a:jax_enable_x64=true"]);
    assert!(
        e.contains("`--set b:jax_enable_x64=true`") && !e.contains("sets both"),
        "{e}"
    );
    // The other way round: jax first.
    let e = bad(&[
        "diff",
        "jax",
        "torch",
        "--set",
        "device=cpu",
        "--set",
        "b:jax_enable_x64=1",
    ]);
    assert!(e.contains("`--set a:jax_enable_x64=1`"), "{e}");
    // The hinted command works.
    let (code, out, err) = promo(&["diff", "torch", "jax", "--set", "b:jax_enable_x64=true"]);
    assert!(matches!(code, Some(0 | 1)), "{err}");
    assert!(
        out.starts_with("torch vs jax [jax_enable_x64=true], op add"),
        "{out}"
    );
    // An option neither side has gets no side hint.
    let e = bad(&["diff", "torch", "jax", "--set", "nonesuch=1"]);
    assert!(!e.contains("--set b:") && !e.contains("--set a:"), "{e}");
}

#[test]
fn a_value_where_a_dtype_belongs_points_to_python_scalars() {
    for (value, kind) in [
        ("1.0", "float"),
        ("3", "int"),
        ("10", "int"),
        ("1e3", "float"),
        ("2j", "complex"),
        ("True", "bool"),
    ] {
        let e = bad(&["query", "numpy", value, "i8"]);
        assert!(e.starts_with(&format!("promo: unknown dtype `{value}`")), "{e}");
        assert!(e.contains(&format!("`python:{kind}`")), "{value}: {e}");
        // And the operand it names is one promo takes.
        let (code, _, err) = promo(&["query", "numpy", &format!("python:{kind}"), "i8"]);
        assert_eq!(code, Some(0), "{err}");
    }
    // A word is no number: `inf` gets no Python scalar pointer.
    assert!(!bad(&["query", "numpy", "inf", "i8"]).contains("python:"));
}

#[test]
fn a_family_name_lists_its_formats() {
    // Without a rule set (`promo cast`), every float8 format.
    let (code, _, e) = promo(&["cast", "--from", "float32", "--to", "float8", "1.0"]);
    assert_eq!(code, Some(2));
    assert!(!e.contains("did you mean `float`"), "{e}");
    for name in [
        "f8e4m3fn",
        "f8e5m2",
        "f8e4m3fnuz",
        "f8e5m2fnuz",
        "f8e8m0",
        "f8e4m3",
        "f8e3m4",
    ] {
        assert!(e.contains(&format!("`{name}`")), "{name}: {e}");
    }
    // Each name listed is one `--to` takes.
    let (code, out, err) = promo(&["cast", "--from", "float32", "--to", "f8e4m3fn", "1.0"]);
    assert_eq!(code, Some(0), "{err}{out}");
    // Under a rule set, its own float8 formats only: torch has no IEEE-style f8e4m3.
    let e = bad(&["query", "torch", "float8", "f32"]);
    assert!(
        e.contains("`f8e4m3fn`") && !e.contains("`f8e4m3`") && !e.contains("`f8e3m4`"),
        "{e}"
    );
    // A slip still gets the closest name.
    assert!(bad(&["query", "numpy", "flaot16", "i8"]).contains("(did you mean `f16`?)"));
}

#[test]
fn common_operation_names_point_to_promos() {
    // `max` is the reduction; with two operands, the element-wise one is pointed at.
    let e = bad(&["query", "numpy", "i8", "u8", "--op", "max"]);
    assert!(
        e.starts_with("promo: `max` takes one operand, not 2: `promo query numpy X --op max` (the element-wise max of two is `maximum`)"),
        "{e}"
    );
    let e = bad(&["query", "openvino", "i8", "u8", "--op", "min"]);
    assert!(
        e.contains("does not cover `min` (did you mean `minimum`?)"),
        "{e}"
    );
    let e = bad(&["query", "numpy", "i8", "u8", "--op", "plus"]);
    assert!(
        e.starts_with("promo: unknown operation `plus` (did you mean `add`?)"),
        "{e}"
    );
    // A reduction promo does not have is named as one.
    let e = bad(&["query", "numpy", "i8", "--op", "argmin"]);
    assert!(
        e.contains("`argmin` is a reduction (one array to fewer elements) promo does not have"),
        "{e}"
    );
    // A slip of promo's own name is still suggested.
    assert!(bad(&["query", "numpy", "i8", "u8", "--op", "maximun"]).contains("(did you mean `maximum`?)"));
}

#[test]
fn an_uncovered_operation_is_the_rule_sets_gap_not_the_frameworks() {
    let e = bad(&["query", "jax", "i8", "u8", "--op", "fmax"]);
    assert!(!e.contains("not covered by jax"), "{e}");
    assert!(
        e.starts_with(
            "promo: promo's jax rule set does not cover `fmax` (its elementwise operations: add subtract "
        ),
        "{e}"
    );
    assert!(e.contains(" maximum ") && e.ends_with("result_type)\n"), "{e}");
    // An operation of another kind lists the rule set's operations of that kind.
    let e = bad(&["query", "numpy", "i8", "--op", "erf"]);
    assert!(
        e.contains("does not cover `erf` (its unary operations: negative "),
        "{e}"
    );
    let e = bad(&["query", "openvino", "i8", "--op", "sqrt"]);
    assert!(
        e.contains("(it covers no unary operations; `promo list openvino` lists what it covers)"),
        "{e}"
    );
}

#[test]
fn a_dtype_the_rule_set_lacks_names_the_one_meant() {
    // ml_dtypes' IEEE-style float8_e4m3 under torch, which has float8_e4m3fn.
    let (code, _, e) = promo(&["query", "torch", "float8_e4m3", "f32"]);
    assert_eq!(code, Some(1));
    assert!(
        e.starts_with("refused: dtype `f8e4m3` is not supported by torch"),
        "{e}"
    );
    assert!(e.contains("float8_e4m3fn"), "{e}");
    // Never a format of another kind or width: dali has no f16, and no u16 is meant.
    let (code, _, e) = promo(&["query", "dali", "f16", "f32"]);
    assert_eq!(code, Some(1));
    assert_eq!(e, "refused: dtype `f16` is not supported by dali\n");
}

#[test]
fn list_with_a_rule_set_shows_its_spellings() {
    let (code, out, err) = promo(&["list", "torch"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("torch  PyTorch type promotion"), "{out}");
    assert!(out.contains("\n  ops: add subtract "), "{out}");
    let line = |dtype: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(dtype))
            .unwrap_or_else(|| panic!("no line for {dtype}:\n{out}"))
            .to_owned()
    };
    // promo's names, then torch's own.
    let f32_names: Vec<String> = line("f32").split_whitespace().map(str::to_owned).collect();
    assert!(f32_names.contains(&"float32".to_owned()), "{f32_names:?}");
    assert!(f32_names.contains(&"torch.float".to_owned()), "{f32_names:?}");
    assert!(out.contains("`float` may mean f32 or f64"), "{out}");
    assert!(out.contains("prefixes: torch."), "{out}");
    // Every name the listing gives reads as its dtype under torch.
    for dtype in ["f16", "i64", "f8e4m3fn"] {
        for name in line(dtype).split_whitespace() {
            let (code, got, err) = promo(&["query", "torch", name, name, "--op", "result_type"]);
            assert_eq!((code, got.trim()), (Some(0), dtype), "{name}: {err}");
        }
    }
    // Only that rule set.
    assert!(!out.contains("numpy"), "{out}");
    // Without one, every rule set, as before.
    let (_, all, _) = promo(&["list"]);
    assert!(all.contains("\nnumpy  ") && !all.contains("prefixes:"));
    assert!(bad(&["list", "nmpy"]).contains("did you mean `numpy`"));
}
