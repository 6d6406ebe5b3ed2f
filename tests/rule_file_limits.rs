//! Rule files at the edges of what the model holds: many reasons, many choices,
//! colliding reason keys, Rust keywords as names, huge or CRLF files. Each gives
//! the same answer in `promo check` and in the macro, since both call
//! `promo_rules::load`; the macro's side is pinned in `tests/ui`.

use std::fmt::Write;

/// A two-dtype rule file with `reasons` extra reasons (all used) and one choice
/// option of `choices` words, the default the last.
fn rule_file(reasons: usize, choices: usize) -> String {
    let mut src = String::from(
        "[rules]\nname = \"edge\"\nmarker = \"Edge\"\ntitle = \"edge\"\nversion = \"0\"\ncommutative = false\ndtypes = [\"i8\", \"i16\"]\n",
    );
    if choices > 0 {
        let words: Vec<String> = (0..choices).map(|i| format!("\"c{i:03}\"")).collect();
        writeln!(
            src,
            "\n[options.m]\ntype = \"choice\"\nchoices = [{}]\ndefault = \"c{:03}\"",
            words.join(", "),
            choices - 1
        )
        .unwrap();
    }
    src += "\n[reasons]\n";
    for i in 0..reasons {
        writeln!(src, "r{i} = \"reason {i}\"").unwrap();
    }
    for i in 0..reasons {
        writeln!(
            src,
            "\n[[layer]]\nname = \"l{i}\"\nops = []\nmatrix = '''\n   i8\ni8 !r{i}\n'''"
        )
        .unwrap();
    }
    src += "\n[[layer]]\nname = \"base\"\nmatrix = '''\n    i8   i16\ni8  i8   i16\ni16 i16  i16\n'''\n";
    src
}

fn errors(src: &str) -> Vec<String> {
    match promo_rules::load("edge.toml", src) {
        Ok(_) => Vec::new(),
        Err(d) => d.errors.iter().map(|e| e.message.clone()).collect(),
    }
}

#[test]
fn too_many_reasons_is_an_error_not_an_overflow() {
    assert!(
        errors(&rule_file(3, 0)).is_empty(),
        "{:?}",
        errors(&rule_file(3, 0))
    );
    let e = errors(&rule_file(promo_rules::validate::MAX_REASONS + 1, 0));
    assert!(
        e.iter().any(|m| m.contains("at most 4096 are supported")),
        "{e:?}"
    );
}

#[test]
fn too_many_choices_is_an_error_not_a_wrong_answer() {
    assert!(errors(&rule_file(1, promo_rules::validate::MAX_CHOICES)).is_empty());
    for n in [65, 256, 300] {
        let e = errors(&rule_file(1, n));
        assert!(
            e.iter().any(|m| m.contains(&format!("has {n} choices"))),
            "{n}: {e:?}"
        );
    }
}

#[test]
fn reason_keys_may_not_differ_only_in_dash_and_underscore() {
    let src = rule_file(1, 0)
        .replace("r0 = \"reason 0\"", "a_b = \"one\"\na-b = \"two\"")
        .replace("!r0", "!a_b");
    let e = errors(&src);
    assert!(
        e.iter()
            .any(|m| m.contains("`a-b` and `a_b` differ only in `_` and `-`")),
        "{e:?}"
    );
}

#[test]
fn rust_keywords_are_not_names() {
    let src =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/ui/rules/keywords.toml")).unwrap();
    let e = errors(&src);
    assert!(
        e.iter()
            .any(|m| m == "rule set name `fn` is a Rust keyword: choose another name"),
        "{e:?}"
    );
    assert!(
        e.iter()
            .any(|m| m == "marker type `Self` is a Rust keyword: choose another name"),
        "{e:?}"
    );
    for name in ["self", "_", "crate", "super"] {
        let e = errors(&src.replace("name = \"fn\"", &format!("name = \"{name}\"")));
        assert!(
            e.iter()
                .any(|m| m.contains("Rust keyword") || m.starts_with("bad rule set name")),
            "{name}: {e:?}"
        );
    }
}

#[test]
fn diagnostics_stay_linear_in_the_input() {
    // 25,000 extra cells on one row: a short report, not one full line per cell.
    let extra = " i8".repeat(25_000);
    let src = rule_file(0, 0).replace("i8  i8   i16\n", &format!("i8  i8   i16{extra}\n"));
    let d = promo_rules::load("edge.toml", &src).unwrap_err();
    let report = d.to_string();
    assert!(d.errors.len() <= 21, "{} diagnostics", d.errors.len());
    assert!(report.len() < 20_000, "{} bytes of report", report.len());
    assert!(report.contains("and 24980 more errors like"), "{report}");
    // 80,000 duplicate rows: checked in linear time (this ran 96 s when quadratic).
    let rows = "i8  i8   i16\n".repeat(80_000);
    let src = rule_file(0, 0).replace("i8  i8   i16\n", &rows);
    let e = errors(&src);
    assert!(
        e.iter()
            .any(|m| m.starts_with("and 79979 more errors like `duplicate row _`")),
        "{:?}",
        &e[e.len().saturating_sub(2)..]
    );
}

#[test]
fn crlf_files_read_like_lf_files() {
    let lf = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/dali.toml")).unwrap();
    let crlf = lf.replace('\n', "\r\n");
    let (a, b) = (
        promo_rules::load("dali.toml", &lf).unwrap(),
        promo_rules::load("dali.toml", &crlf).unwrap(),
    );
    // The same layers, cell for cell; only the byte offsets differ.
    let shape = |r: &promo_rules::RuleFile| -> Vec<_> {
        r.layers
            .iter()
            .map(|l| {
                (
                    l.name.clone(),
                    l.ops.clone(),
                    l.rows.clone(),
                    l.cols.clone(),
                    l.cells.clone(),
                    l.how.clone(),
                )
            })
            .collect()
    };
    assert_eq!(shape(&a), shape(&b));
    assert_eq!(a.reasons, b.reasons);
    assert_eq!(a.lattice.map(|l| l.nodes), b.lattice.map(|l| l.nodes));
    // Every span of the CRLF model points at the same text as the LF model's.
    for (la, lb) in a.layers.iter().zip(&b.layers) {
        for (sa, sb) in la.spans.iter().zip(&lb.spans) {
            assert_eq!(lf[sa.clone()], crlf[sb.clone()]);
        }
    }
}

/// Found by the rule-file fuzzer (`tests/data/fuzz/crlf_span_past_line.toml`, a
/// mutated CRLF copy of a bundled file): a diagnostic whose span starts on the `\r`
/// of a line end panicked when rendered.
#[test]
fn fuzz_found_diagnostics_render() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/fuzz/crlf_span_past_line.toml");
    let src = std::fs::read_to_string(path).unwrap();
    let report = promo_rules::load("crlf.toml", &src).unwrap_err().to_string();
    assert!(report.contains("--> crlf.toml:"), "{report}");
}

/// `rule_file(0, 0)` padded with a comment to exactly `len` bytes.
fn padded_to(len: usize) -> String {
    let src = rule_file(0, 0);
    let padded = format!("{src}#{}\n", "x".repeat(len - src.len() - 2));
    assert_eq!(padded.len(), len);
    padded
}

#[test]
fn a_rule_file_past_one_mib_is_refused_with_the_limit_named() {
    // The limit is 1 MiB, and the bundled rule files are far below it.
    assert_eq!(promo_rules::MAX_SOURCE_BYTES, 1 << 20);
    let bundled = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules");
    for entry in std::fs::read_dir(bundled).unwrap() {
        let path = entry.unwrap().path();
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        assert!(
            len < promo_rules::MAX_SOURCE_BYTES / 16,
            "{}: {len} bytes",
            path.display()
        );
    }
    let limit = promo_rules::MAX_SOURCE_BYTES;
    assert!(promo_rules::load("edge.toml", &padded_to(limit)).is_ok());
    let d = promo_rules::load("edge.toml", &padded_to(limit + 1)).unwrap_err();
    assert_eq!(
        d.errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(),
        ["the rule file is 1048577 bytes: at most 1048576 (1 MiB) are read"]
    );
    // The error keeps no copy of the text it refused.
    let huge = padded_to(16 * limit);
    let d = promo_rules::load("edge.toml", &huge).unwrap_err();
    assert!(d.src.len() < 1000, "{} bytes kept", d.src.len());
    assert!(d.to_string().contains("--> edge.toml:1:1"), "{d}");
}

/// A file of `bytes` in the test's scratch directory.
fn scratch_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn read_source_reads_at_most_the_limit_and_only_utf8() {
    let limit = promo_rules::MAX_SOURCE_BYTES;
    let at_limit = padded_to(limit);
    let path = scratch_file("at_limit.toml", at_limit.as_bytes());
    assert_eq!(promo_rules::read_source(&path).unwrap(), at_limit);
    let path = scratch_file("over_limit.toml", padded_to(limit + 1).as_bytes());
    let e = promo_rules::read_source(&path).unwrap_err().to_string();
    assert_eq!(
        e,
        "larger than 1048576 bytes (1 MiB), the most a rule file may be"
    );
    // Not UTF-8: the offset of the first byte that is not.
    let latin1 = b"[rules]\ntitle = \"caf\xe9\"\n";
    let path = scratch_file("latin1.toml", latin1);
    let e = promo_rules::read_source(&path).unwrap_err().to_string();
    let offset = latin1.iter().position(|&b| b == 0xe9).unwrap();
    assert_eq!(e, format!("not UTF-8 text: the byte at offset {offset} is not"));
    let missing = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no such file.toml");
    let e = promo_rules::read_source(&missing).unwrap_err();
    assert!(matches!(e, promo_rules::ReadError::Io(_)), "{e:?}");
}

/// An endless stream is refused after the limit, not read to the end.
#[cfg(unix)]
#[test]
fn read_source_stops_reading_an_endless_stream() {
    let e = promo_rules::read_source(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(matches!(e, promo_rules::ReadError::TooLarge), "{e:?}");
}

/// `n` op classes written in reverse dependency order, each naming the next: the
/// last is `add`, the one before adds `divide`, the first adds `equal`; with
/// `closed`, the last names the first instead of `add`, closing a cycle. A layer
/// names the first class.
fn op_class_chain(n: usize, closed: bool) -> String {
    let mut src = String::from(
        "[rules]\nname = \"chain\"\nmarker = \"Chain\"\ntitle = \"chain\"\nversion = \"0\"\ncommutative = false\ndtypes = [\"i8\", \"i16\"]\nops = [\"add\", \"divide\", \"equal\", \"maximum\"]\n\n[op_classes]\n",
    );
    let name = |k: usize| format!("c{k:05}");
    for k in 0..n {
        let members = match k {
            _ if k == n - 1 && closed => format!("\"{}\"", name(0)),
            _ if k == n - 1 => "\"add\"".to_owned(),
            0 => format!("\"{}\", \"equal\"", name(1)),
            _ if k == n - 2 => format!("\"{}\", \"divide\"", name(k + 1)),
            _ => format!("\"{}\"", name(k + 1)),
        };
        writeln!(src, "{} = [{members}]", name(k)).unwrap();
    }
    writeln!(
        src,
        "\n[[layer]]\nname = \"the first class\"\nops = [\"{}\"]\nresult = \"i8\"\n\n[[layer]]\nname = \"base\"\nresult = \"i16\"",
        name(0)
    )
    .unwrap();
    src
}

/// A long chain of op classes resolves in linear time (2,000 took 4.6 s when the
/// classes were resolved by repeated scans), every class to the operations it
/// names through the others; a cycle through all of them is still an error.
#[test]
fn a_long_chain_of_op_classes_resolves_every_class() {
    use promo_table::Op;
    for n in [2_000, 20_000] {
        let rules = promo_rules::load("chain.toml", &op_class_chain(n, false)).unwrap();
        assert_eq!(rules.op_classes.len(), n);
        for (name, ops) in &rules.op_classes {
            let k: usize = name[1..].parse().unwrap();
            let expected: &[Op] = match k {
                0 => &[Op::Add, Op::Divide, Op::Equal],
                _ if k == n - 1 => &[Op::Add],
                _ => &[Op::Add, Op::Divide],
            };
            assert_eq!(ops, expected, "{name}");
        }
        assert_eq!(rules.layers[0].ops, [Op::Add, Op::Divide, Op::Equal]);
        rules.with_table(|t| {
            let (i8, options) = (
                promo_table::Operand::Dimensioned(promo_table::DType::I8),
                t.default_options(),
            );
            assert_eq!(t.promote(&options, Op::Equal, i8, i8), Ok(promo_table::DType::I8));
            assert_eq!(
                t.promote(&options, Op::Maximum, i8, i8),
                Ok(promo_table::DType::I16)
            );
        });
        let d = promo_rules::load("chain.toml", &op_class_chain(n, true)).unwrap_err();
        let messages: Vec<&str> = d.errors.iter().map(|e| e.message.as_str()).collect();
        assert!(
            messages.contains(&"op class `c00000` names itself through other classes"),
            "{n}: {messages:?}"
        );
        let rest = format!(
            "and {} more errors like `op class _ names itself through other classes`",
            n - 20
        );
        assert!(messages.contains(&rest.as_str()), "{n}: {messages:?}");
    }
}

/// A two-dtype rule file with `extra` added to `[rules]` and `tail` after it.
fn with_header(extra: &str, tail: &str) -> String {
    format!(
        "[rules]\nname = \"edge\"\nmarker = \"Edge\"\ntitle = \"edge\"\nversion = \"0\"\ncommutative = true\ndtypes = [\"i8\", \"f32\"]\n{extra}\n{tail}\n[[layer]]\nname = \"base\"\nresult = \"f32\"\n"
    )
}

/// Found by the structure-aware rule-file fuzzer (`promo-cli/tests/fuzz/rule_language.rs`):
/// a commutative rule set with a `promoted` layer giving `lhs` reports its
/// asymmetric cells, Python and weak keys among them, by name; naming them once
/// indexed past the dtype list (a panic in every command, the macro and Python).
#[test]
fn an_asymmetric_cell_of_any_operand_kind_is_named() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/fuzz/commutative_promoted_lhs.toml"
    );
    let src = std::fs::read_to_string(path).unwrap();
    let e = errors(&src);
    assert!(
        e.iter().any(|m| m == "asymmetric cell: (i8, u8) is `\"lhs\"` but (u8, i8) differs, and `rules.commutative` is true"),
        "{e:?}"
    );
    assert!(
        e.iter().any(|m| m.starts_with("asymmetric cell: (i8, i8*)")),
        "weak keys are named as weak types: {e:?}"
    );
}

#[test]
fn aliases_and_prefixes_may_not_take_operand_syntax_or_rename_a_dtype() {
    for (extra, tail, message) in [
        (
            "",
            "[aliases]\n\"python:int\" = \"i8\"\n",
            "alias `python:int` holds `:`",
        ),
        (
            "",
            "[aliases]\n\"scalar:x\" = \"f32\"\n",
            "alias `scalar:x` holds `:`",
        ),
        ("", "[aliases]\n\"a=b\" = \"f32\"\n", "alias `a=b` holds `=`"),
        (
            "alias_prefix = \"python:\"",
            "",
            "`rules.alias_prefix` `python:` holds `:`",
        ),
        (
            "alias_prefix = \"u\"",
            "",
            "`rules.alias_prefix` `u` makes `uint8` a name of `i8`, but `uint8` is `u8`",
        ),
    ] {
        let e = errors(&with_header(extra, tail));
        assert!(e.iter().any(|m| m.starts_with(message)), "{message}: {e:?}");
    }
    assert!(errors(&with_header("alias_prefix = \"fw.\"", "")).is_empty());
}

#[test]
fn an_alias_prefix_is_a_namespace_not_a_megabyte() {
    // A long prefix made `promo gen` write every generated name with it (103 MB
    // from a 1 MiB file) and every unknown name wait on its edit distances.
    let prefix = "p".repeat(promo_rules::validate::MAX_PREFIX_BYTES + 1);
    let e = errors(&with_header(&format!("alias_prefix = \"{prefix}\""), ""));
    assert!(
        e.iter().any(|m| m.contains("`rules.alias_prefix` is 33 bytes")),
        "{e:?}"
    );
    let fits = "p".repeat(promo_rules::validate::MAX_PREFIX_BYTES);
    assert!(errors(&with_header(&format!("alias_prefix = \"{fits}.\""), "")).len() == 1);
    assert!(errors(&with_header(&format!("alias_prefix = \"{}.\"", &fits[1..]), "")).is_empty());
    // A list of namespaces is as bounded: each spells every dtype again.
    let list = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("\"p{i}.\"")).collect();
        format!("alias_prefix = [{}]", names.join(", "))
    };
    let max = promo_rules::validate::MAX_PREFIXES;
    assert!(errors(&with_header(&list(max), "")).is_empty());
    let e = errors(&with_header(&list(max + 1), ""));
    assert!(
        e.iter()
            .any(|m| m.contains(&format!("`rules.alias_prefix` lists {} prefixes", max + 1))),
        "{e:?}"
    );
}

#[test]
fn a_line_feed_in_a_rule_file_string_reaches_the_terminal_escaped() {
    // A dtype name holding a line feed once printed a second line that forged
    // `promo check`'s "ok" (while it exited 1).
    let src = with_header("", "").replace(
        "dtypes = [\"i8\", \"f32\"]",
        "dtypes = [\"i8\\nedge.toml: ok (2 dtypes, 1 layers)\", \"f32\"]",
    );
    let report = promo_rules::load("edge.toml", &src).unwrap_err().to_string();
    assert!(
        report.starts_with("error: unknown dtype `i8\\u{a}edge.toml: ok (2 dtypes, 1 layers)`\n"),
        "{report}"
    );
    assert!(
        !report.lines().any(|l| l.starts_with("edge.toml: ok")),
        "{report}"
    );
    // The line shown under the message, and the path, escape their control
    // characters too, the caret under the escaped span.
    let src = with_header("", "").replace("version = \"0\"", "version = \"0\"\nx\u{1b}[31m = 1");
    let report = promo_rules::load("e\u{1b}.toml", &src).unwrap_err().to_string();
    assert!(!report.contains('\u{1b}'), "{report}");
    assert!(report.contains("--> e\\u{1b}.toml:6:2\n"), "{report}");
    assert!(report.ends_with("6 | x\\u{1b}[31m = 1\n  |  ^^^^^^"), "{report}");
}
