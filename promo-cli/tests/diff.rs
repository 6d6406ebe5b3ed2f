//! `promo diff`: the cells two rule sets (or two settings of one) disagree on.

use std::process::{Command, Output};

fn promo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_promo"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

const TINY: &str = r#"
[rules]
name = "NAME"
marker = "M"
title = "t"
version = "1"
commutative = true
dtypes = ["bool", "i8", "u8", "i16", "f32"]

[options.strict]
type = "bool"
default = false
doc = "refuse mixed signedness"

[reasons]
mixed = "mixed signedness"

[lattice]
edges = '''
bool -> i8 u8
i8 u8 -> i16 -> f32
'''

[[layer]]
name = "strict"
when = { strict = true }
cells = ["i8 u8 = !mixed"]

EXTRA
[[layer]]
name = "the common type"
result = "lub"
"#;

fn write(dir: &std::path::Path, name: &str, extra: &str, dtypes: Option<&str>) -> String {
    let mut text = TINY.replace("NAME", name).replace("EXTRA", extra);
    if let Some(d) = dtypes {
        text = text
            .replace(r#"dtypes = ["bool", "i8", "u8", "i16", "f32"]"#, d)
            .replace("bool -> i8 u8\n", "");
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn lists_exactly_the_cells_that_differ_over_the_common_dtypes() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a", "", None);
    // b: i8 with u8 gives f32 (both orders: commutative), and b lacks bool.
    let b = write(
        dir.path(),
        "b",
        "[[layer]]\nname = \"x\"\ncells = [\"i8 u8 = f32\"]\n",
        Some(r#"dtypes = ["i8", "u8", "i16", "f32"]"#),
    );
    let out = promo(&["diff", &a, &b]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "a vs b, op add, tensor with tensor: 4 dtypes in common, 16 cells: 14 agree, 2 differ"
    );
    let cells: Vec<Vec<&str>> = lines.skip(2).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(cells, [["i8", "u8", "i16", "f32"], ["u8", "i8", "i16", "f32"]]);

    // Strict on one side only: that side refuses i8 with u8 where the other gives i16.
    let out = promo(&["diff", &a, &a, "--set", "b:strict=true", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["a"], "a");
    assert_eq!(doc["b"], "a [strict=true]");
    assert_eq!(doc["differ"], 2);
    assert_eq!(doc["differences"][0]["b"]["refused"], "mixed signedness");
    assert_eq!(doc["differences"][0]["a"]["dtype"], "i16");
    // The same in text: a refusal is numbered in its column and its reason written
    // out whole, once, under the table; every row's columns start where the header's do.
    let out = promo(&["diff", &a, &a, "--set", "b:strict=true"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().skip(2).take(3).collect();
    let column = rows[0].find("a [strict=true]").unwrap();
    assert_eq!(&rows[1][column..], "refused [1]", "{text}");
    assert_eq!(&rows[2][column..], "refused [1]", "{text}");
    assert!(
        text.ends_with("\nrefused because:\n  [1] mixed signedness\n"),
        "{text}"
    );
    // With strict on both sides, both refuse i8 with u8 before b's f32: no difference.
    let out = promo(&["diff", &a, &b, "--set", "strict=true"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("16 cells: 16 agree, 0 differ"));
    let out = promo(&["diff", &a, &a]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn two_settings_of_a_bundled_rule_set_differ_where_their_tables_do() {
    // The count `promo diff` gives against a cell-by-cell comparison of the two
    // `promo table --format json` outputs.
    let table = |set: &[&str]| -> serde_json::Value {
        let mut args = vec!["table", "openvino", "--format", "json"];
        args.extend(set);
        serde_json::from_slice(&promo(&args).stdout).unwrap()
    };
    let (x, y) = (table(&[]), table(&["--set", "promote_unsafe=true"]));
    let dtypes = x["dtypes"].as_array().unwrap();
    let mut differ = 0;
    for l in dtypes {
        for r in dtypes {
            let (l, r) = (l.as_str().unwrap(), r.as_str().unwrap());
            if x["table"][l][r] != y["table"][l][r] {
                differ += 1;
            }
        }
    }
    assert!(differ > 0);
    let out = promo(&[
        "diff",
        "openvino",
        "openvino",
        "--set",
        "b:promote_unsafe=true",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["differ"], differ);
    assert_eq!(doc["cells"], dtypes.len() * dtypes.len());
}

#[test]
fn the_agreement_matrix_is_symmetric_with_a_full_diagonal() {
    let out = promo(&["diff", "--all", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let grid = doc["agreement"].as_array().unwrap();
    assert_eq!(grid.len(), doc["rules"].as_array().unwrap().len());
    for (i, row) in grid.iter().enumerate() {
        assert_eq!(row[i]["agree"], row[i]["cells"]);
        for (j, cell) in row.as_array().unwrap().iter().enumerate() {
            assert_eq!(cell["cells"], grid[j][i]["cells"]);
        }
    }
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        &["diff", "dali", "dali", "--set", "c:x=1"][..],
        &["diff", "dali", "nosuch"],
        &["diff", "dali", "dali", "--set", "a:nosuch=1"],
        &["diff", "dali"],
    ] {
        let out = promo(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// One rule set's answer to `promo query RULES LHS RHS`: the dtype (diff compares
/// dtypes, so a weakly typed result counts as its dtype), or `refused`.
fn query(rules: &str, lhs: &str, rhs: &str) -> String {
    let out = promo(&["query", rules, lhs, rhs]);
    let text = String::from_utf8(out.stdout).unwrap();
    match out.status.code() {
        Some(0) => text.trim().trim_start_matches("weak:").to_owned(),
        Some(1) => "refused".to_owned(),
        other => panic!("query {rules} {lhs} {rhs}: exit {other:?}: {text}"),
    }
}

#[test]
fn a_python_scalar_side_differs_exactly_where_query_answers_differ() {
    let out = promo(&[
        "diff",
        "torch",
        "jax",
        "--lhs",
        "python:float",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (doc["lhs"].as_str(), doc["rhs"].as_str()),
        (Some("python:float"), Some("tensor"))
    );
    let dtypes: Vec<&str> = doc["dtypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    // One row (the Python float) by every common dtype.
    assert_eq!(doc["cells"].as_u64(), Some(dtypes.len() as u64));
    let listed: Vec<&str> = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(c["lhs"].as_str(), Some("python:float"));
            c["rhs"].as_str().unwrap()
        })
        .collect();
    let differ: Vec<&str> = dtypes
        .iter()
        .copied()
        .filter(|d| {
            let (t, j) = (query("torch", "python:float", d), query("jax", "python:float", d));
            t != j && !(t == "refused" && j == "refused")
        })
        .collect();
    assert!(
        !differ.is_empty(),
        "torch and jax type a Python float differently somewhere"
    );
    assert_eq!(listed, differ);
}

#[test]
fn a_dtype_subset_and_rank0_operands() {
    let out = promo(&[
        "diff",
        "torch",
        "numpy",
        "--lhs",
        "scalar",
        "--dtypes",
        "i8,u8,f16,f32",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let summary = text.lines().next().unwrap();
    assert!(
        summary.starts_with("torch vs numpy, op add, scalar with tensor: 4 dtypes chosen, 16 cells: "),
        "{summary}"
    );
    for line in text.lines().skip(3).take_while(|l| !l.is_empty()) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert!(cols[0].starts_with("scalar:"), "{line}");
        let (l, r) = (cols[0], cols[1]);
        assert!(["i8", "u8", "f16", "f32"].contains(&r), "{line}");
        assert_ne!(query("torch", l, r), query("numpy", l, r), "{line}");
    }
}

#[test]
fn bad_kinds_and_dtypes_exit_2_naming_them() {
    for (args, wanted) in [
        (
            &["diff", "torch", "jax", "--lhs", "python:str"][..],
            "unknown operand kind `python:str`",
        ),
        (&["diff", "torch", "jax", "--dtypes", "f32,f17"][..], "--dtypes: "),
        (
            &["diff", "torch", "jax", "--dtypes", "f6e2m3fn"][..],
            "`f6e2m3fn` is not one torch accepts",
        ),
        (
            &["diff", "torch", "jax", "--rhs", "python:int", "--format", "html"][..],
            "with `python:int` on one side use text, markdown or json",
        ),
    ] {
        let out = promo(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
}
