//! The rules of the rule language, checked on the resolved model: a flat list of
//! `check_*` functions, each opened by the rule it checks, applied in order by
//! [`check`].

use super::ctxt::Ctxt;
use super::resolve::{Resolved, Text};
use crate::model::{index_map, Derivation, OptionDefKind, RuleFile};
use crate::properties;
use promo_table::{Cell, DType, OptionValue, PyScalar, Side, ABSENT};

/// The most refusal reasons a rule set may declare (the compiled cell code has room
/// for 49,152; a framework needs a handful).
pub const MAX_REASONS: usize = 4096;

/// Rust's keywords, which cannot name a module or a type the macro generates.
const RUST_KEYWORDS: &[&str] = &[
    "_", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Applies every check to a resolved rule file (read from `src`), in order.
///
/// The checks across layers run only while no error was reported: after errors
/// they would only repeat them (and take long on a broken file). The declared
/// properties are checked last, on a table known to be complete.
pub(super) fn check(cx: &mut Ctxt, src: &str, resolved: &Resolved) {
    let rules = &resolved.rules;
    check_rule_set_name(cx, rules);
    check_marker_type(cx, rules);
    check_option_names(cx, rules);
    check_choice_words(cx, rules);
    check_dtype_option_defaults(cx, rules);
    check_mode_markers(cx, rules);
    check_reason_count(cx, rules);
    check_reason_keys(cx, rules);
    check_unused_reasons(cx, rules, &resolved.used_reasons);
    check_text_fields(cx, &resolved.texts);
    check_mirrored_layers(cx, rules);
    if cx.has_errors() {
        return;
    }
    check_commutative(cx, src, rules);
    check_base_layers(cx, rules);
    if cx.has_errors() {
        return;
    }
    check_declared_properties(cx, rules);
}

/// A rule set's name is lowercase letters, digits and `_`, does not start with a
/// digit, and is not a Rust keyword (it names the generated module).
fn check_rule_set_name(cx: &mut Ctxt, rules: &RuleFile) {
    check_identifier(cx, &rules.name, &rules.spans.name, "rule set name", |c| {
        c.is_ascii_lowercase() || c == '_'
    });
}

/// The marker type is letters and digits, starts with an uppercase letter, and is
/// not a Rust keyword (it names the generated type).
fn check_marker_type(cx: &mut Ctxt, rules: &RuleFile) {
    let span = &rules.spans.marker;
    check_identifier(cx, &rules.marker, span, "marker type", |c| {
        c.is_ascii_alphanumeric()
    });
    if !rules.marker.starts_with(|c: char| c.is_ascii_uppercase()) {
        cx.error(
            format!(
                "marker type `{}` must start with an uppercase letter",
                rules.marker
            ),
            span.clone(),
        );
    }
}

/// `name` is made of the characters `ok` allows and digits, does not start with a
/// digit, and is not a Rust keyword.
fn check_identifier(
    cx: &mut Ctxt,
    name: &str,
    span: &std::ops::Range<usize>,
    what: &str,
    ok: impl Fn(char) -> bool,
) {
    if name.is_empty()
        || !name.chars().all(|c| ok(c) || c.is_ascii_digit())
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        cx.error(format!("bad {what} `{name}`"), span.clone());
    } else if RUST_KEYWORDS.contains(&name) {
        cx.error(
            format!("{what} `{name}` is a Rust keyword: choose another name"),
            span.clone(),
        );
    }
}

/// An option's name is lowercase ASCII letters, digits and `_`, and does not start
/// with a digit: `--set KEY=VALUE` and a `--stdin` line must be able to name it.
fn check_option_names(cx: &mut Ctxt, rules: &RuleFile) {
    for option in &rules.options {
        let name = &option.name;
        let word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
        if name.is_empty() || !name.chars().all(word) || name.starts_with(|c: char| c.is_ascii_digit()) {
            cx.error(
                format!("bad option name `{name}`: expected lowercase ASCII letters, digits and `_`, not starting with a digit (`--set KEY=VALUE` names it)"),
                option.name_span.clone(),
            );
        }
    }
}

/// The words of a `choice` option are distinct, non-empty, and made of ASCII
/// letters, digits, `_`, `.`, `+` and `-`: a value `--set KEY=VALUE` and a `--stdin`
/// line can give.
fn check_choice_words(cx: &mut Ctxt, rules: &RuleFile) {
    for option in &rules.options {
        let OptionDefKind::Choice(words) = &option.kind else {
            continue;
        };
        let allowed = |c: char| c.is_ascii_alphanumeric() || "_.+-".contains(c);
        for (i, (word, span)) in words.iter().zip(&option.choice_spans).enumerate() {
            if word.is_empty() || !word.chars().all(allowed) {
                cx.error(
                    format!(
                        "bad choice `{word}` of option `{}`: expected ASCII letters, digits, `_`, `.`, `+` and `-`",
                        option.name
                    ),
                    span.clone(),
                );
            } else if words[..i].contains(word) {
                cx.error(
                    format!("option `{}` lists the choice `{word}` twice", option.name),
                    span.clone(),
                );
            }
        }
    }
}

/// A dtype option's default is one of the rule set's dtypes (the only values
/// `--set` accepts).
fn check_dtype_option_defaults(cx: &mut Ctxt, rules: &RuleFile) {
    for option in &rules.options {
        if let OptionValue::DType(d) = option.default {
            if !rules.dtypes.contains(&d) {
                cx.error(
                    format!(
                        "default `{d}` of option `{}` is not in `rules.dtypes`",
                        option.name
                    ),
                    option.default_span.clone(),
                );
            }
        }
    }
}

/// Each marker type of `[modes]` is a CamelCase identifier, not a Rust keyword, and
/// distinct from the header's marker type.
fn check_mode_markers(cx: &mut Ctxt, rules: &RuleFile) {
    for (i, mode) in rules.modes.iter().enumerate().skip(1) {
        let marker = &mode.marker;
        if !marker.starts_with(|c: char| c.is_ascii_uppercase())
            || !marker.chars().all(|c| c.is_ascii_alphanumeric())
            || RUST_KEYWORDS.contains(&marker.as_str())
        {
            cx.error(
                format!("bad marker type `{marker}`: expected a CamelCase identifier"),
                mode.span.clone(),
            );
        }
        if rules.modes[..i].iter().any(|m| &m.marker == marker) {
            cx.error(format!("duplicate marker type `{marker}`"), mode.span.clone());
        }
    }
}

/// A rule set declares at most [`MAX_REASONS`] refusal reasons.
fn check_reason_count(cx: &mut Ctxt, rules: &RuleFile) {
    if let Some(span) = rules.spans.reasons.get(MAX_REASONS) {
        cx.error(
            format!(
                "{} reasons: at most {MAX_REASONS} are supported",
                rules.reasons.len()
            ),
            span.clone(),
        );
    }
}

/// No two reason keys differ only in `_` and `-` (they would name the same
/// generated diagnostic trait).
fn check_reason_keys(cx: &mut Ctxt, rules: &RuleFile) {
    let mut seen = std::collections::BTreeMap::new();
    for ((key, _), span) in rules.reasons.iter().zip(&rules.spans.reasons) {
        if let Some(first) = seen.insert(key.replace('-', "_"), key) {
            cx.error(
                format!("reason keys `{first}` and `{key}` differ only in `_` and `-`: rename one"),
                span.clone(),
            );
        }
    }
}

/// Every declared reason is named by some cell.
fn check_unused_reasons(cx: &mut Ctxt, rules: &RuleFile, used: &[bool]) {
    for (((key, _), span), used) in rules.reasons.iter().zip(&rules.spans.reasons).zip(used) {
        if !used {
            cx.error(format!("reason `{key}` is never used"), span.clone());
        }
    }
}

/// The texts that reach output (title, version, `verified`, option docs, reasons and
/// their keys, layer names and `where` conditions) are one line of printable text:
/// none holds a control character, a line or paragraph separator, or a
/// bidirectional control ([`promo_table::text::is_unsafe_char`]).
fn check_text_fields(cx: &mut Ctxt, texts: &[Text]) {
    for Text { what, text, span } in texts {
        if let Some(c) = text.chars().find(|&c| promo_table::text::is_unsafe_char(c)) {
            cx.error(
                format!(
                    "{what} contains the control character U+{:04X}: rule-file texts are one line of printable text",
                    c as u32
                ),
                span.clone(),
            );
        }
    }
}

/// A layer with `mirrored = true` and the same operand kind on both sides does not
/// contradict its mirror image: where it gives both (a, b) and (b, a), the one is
/// the other with the operands exchanged (else the mirror image of the one is
/// silently shadowed by the other).
fn check_mirrored_layers(cx: &mut Ctxt, rules: &RuleFile) {
    for (layer, next) in rules.layers.iter().zip(rules.layers.iter().skip(1)) {
        if layer.mirror || !next.mirror || layer.lhs != layer.rhs {
            continue;
        }
        let side = layer.lhs;
        let (row_of, col_of) = (
            index_map(&layer.rows, side.domain_len()),
            index_map(&layer.cols, side.domain_len()),
        );
        let width = layer.cols.len();
        for (ri, &a) in layer.rows.iter().enumerate() {
            for (ci, &b) in layer.cols.iter().enumerate() {
                let (rj, cj) = (row_of[b], col_of[a]);
                if a == b || rj == ABSENT || cj == ABSENT {
                    continue;
                }
                let (here, there) = (ri * width + ci, rj as usize * width + cj as usize);
                // Reported once, at the one of the two written last.
                if (layer.spans[here].start, here) < (layer.spans[there].start, there) {
                    continue;
                }
                // The mirror image of the cell of (b, a) answers (a, b) as it does.
                let given = answer(layer.cells[here], side, a, b);
                let mirrored = answer(layer.cells[there], side, b, a);
                if given == Cell::Defer || mirrored == Cell::Defer || given == mirrored {
                    continue;
                }
                let name = |k| key_name(side, k);
                cx.error(
                    format!(
                        "contradictory cells under `mirrored = true`: ({}, {}) is `{}`, but the mirror image of ({}, {}) makes it `{}`",
                        name(a),
                        name(b),
                        cell_text(rules, given),
                        name(b),
                        name(a),
                        cell_text(rules, mirrored)
                    ),
                    layer.spans[here].clone(),
                );
            }
        }
    }
}

/// What `cell` answers at the keys (`a`, `b`) of a layer with `side` on both sides:
/// `lhs` and `rhs` as the type they name, so that one answer written two ways
/// compares equal; [`Cell::Defer`] for a Python scalar's, which names no type.
fn answer(cell: Cell, side: Side, a: usize, b: usize) -> Cell {
    let operand = |k: usize| match side {
        Side::Tensor | Side::Scalar | Side::Dimensioned => DType::from_index(k).map_or(Cell::Defer, Cell::Is),
        Side::Weak => DType::from_index(k).map_or(Cell::Defer, Cell::Weak),
        Side::Any if k < DType::COUNT => DType::from_index(k).map_or(Cell::Defer, Cell::Is),
        Side::Any if k >= DType::COUNT + 4 => {
            DType::from_index(k - DType::COUNT - 4).map_or(Cell::Defer, Cell::Weak)
        }
        Side::Any | Side::Python => Cell::Defer,
    };
    match cell {
        Cell::Lhs => operand(a),
        Cell::Rhs => operand(b),
        other => other,
    }
}

/// A key of `side` as a rule file writes it: a dtype, a Python kind, or a weak type.
fn key_name(side: Side, key: usize) -> String {
    let python = |k: usize| PyScalar::ALL.get(k).map_or("?", |p| p.name()).to_owned();
    let dtype = |k: usize| DType::from_index(k).map_or("?", DType::name).to_owned();
    match side {
        Side::Python => python(key),
        Side::Any if key >= DType::COUNT + 4 => format!("{}*", dtype(key - DType::COUNT - 4)),
        Side::Any if key >= DType::COUNT => python(key - DType::COUNT),
        _ => dtype(key),
    }
}

/// A cell as a rule file writes it: `f32`, `f64*`, `!reason`, `$option`, `lhs`.
fn cell_text(rules: &RuleFile, cell: Cell) -> String {
    match cell {
        Cell::Defer => ".".to_owned(),
        Cell::Is(d) => d.name().to_owned(),
        Cell::Weak(d) => format!("{d}*"),
        Cell::Lhs => "lhs".to_owned(),
        Cell::Rhs => "rhs".to_owned(),
        Cell::Option(i) => format!("${}", rules.options.get(i as usize).map_or("?", |o| &o.name)),
        Cell::Refuse(i) => format!("!{}", rules.reasons.get(i as usize).map_or("?", |(k, _)| k)),
    }
}

/// In a commutative rule set, a layer with the same kind on both sides is symmetric:
/// the cell of (b, a) is the cell of (a, b) with `lhs` and `rhs` swapped. A derived
/// or listed layer may leave one of the two to the other (the lookup tries both
/// orders); a matrix lists both.
fn check_commutative(cx: &mut Ctxt, src: &str, rules: &RuleFile) {
    if !rules.commutative {
        return;
    }
    for layer in &rules.layers {
        // Operations whose operands play different parts are never read swapped.
        let asymmetric_only = !layer.ops.is_empty() && layer.ops.iter().all(|op| !op.symmetric());
        if layer.lhs != layer.rhs || asymmetric_only {
            continue;
        }
        let literal = layer.how == Derivation::Matrix;
        for (ri, &a) in layer.rows.iter().enumerate() {
            for (ci, &b) in layer.cols.iter().enumerate() {
                let at = ri * layer.cols.len() + ci;
                let here = layer.cells[at];
                let mirrored = match here {
                    Cell::Lhs => Cell::Rhs,
                    Cell::Rhs => Cell::Lhs,
                    other => other,
                };
                match layer.cell(b, a) {
                    Some(there) if there == mirrored => {}
                    Some(there) if !literal && (there == Cell::Defer || here == Cell::Defer) => {}
                    Some(_) if (b, a) < (a, b) => {} // reported from the other cell
                    Some(_) => {
                        let span = layer.spans[at].clone();
                        // A row or column key of the layer's side: a dtype, a Python
                        // kind or a weak type.
                        let name = |k: usize| key_name(layer.lhs, k);
                        cx.error(
                            format!(
                                "asymmetric cell: ({}, {}) is `{}` but ({}, {}) differs, and `rules.commutative` is true",
                                name(a),
                                name(b),
                                src.get(span.clone()).unwrap_or("?"),
                                name(b),
                                name(a)
                            ),
                            span,
                        );
                    }
                    None => {}
                }
            }
        }
    }
}

/// The base: the layers without `when`, `ops` or `promoted`, with tensor operands,
/// give a result or a refusal for every ordered pair of accepted dtypes.
fn check_base_layers(cx: &mut Ctxt, rules: &RuleFile) {
    let Some(last) = rules.layers.last() else {
        cx.error(
            "no `[[layer]]`: the layers must cover every pair of `rules.dtypes`",
            rules.spans.name.clone(),
        );
        return;
    };
    let base: Vec<_> = rules
        .layers
        .iter()
        .filter(|l| {
            l.when.is_empty()
                && l.ops.is_empty()
                && l.promoted.is_empty()
                && l.lhs == Side::Tensor
                && l.rhs == Side::Tensor
        })
        .collect();
    let decided = |a: usize, b: usize| {
        base.iter().any(|l| {
            l.cell(a, b).is_some_and(|c| c != Cell::Defer)
                || (rules.commutative && l.cell(b, a).is_some_and(|c| c != Cell::Defer))
        })
    };
    let mut missing = Vec::new();
    for &a in &rules.dtypes {
        for &b in &rules.dtypes {
            if !decided(a.index(), b.index()) {
                missing.push(format!("({a}, {b})"));
            }
        }
    }
    if !missing.is_empty() {
        let shown: Vec<_> = missing.iter().take(6).cloned().collect();
        let more = if missing.len() > 6 {
            format!(" and {} more", missing.len() - 6)
        } else {
            String::new()
        };
        cx.error(
            format!(
                "missing cell: no layer without `when` or `ops` has a result for {}{more}",
                shown.join(", ")
            ),
            last.span.clone(),
        );
    }
}

/// A declared property (`associative = true`, `lattice = true`) holds for the
/// `add` table under every marker's options; the error gives a counterexample.
fn check_declared_properties(cx: &mut Ctxt, rules: &RuleFile) {
    for (property, span) in &rules.declared {
        rules.with_table(|table| {
            for mode in &rules.modes {
                let options = promo_table::Options::from_values(&mode.values);
                if let Err(counterexample) = properties::check(table, &options, *property) {
                    cx.error(
                        format!(
                            "`{}` is declared, but under `{}`: {counterexample}",
                            property.name(),
                            mode.marker
                        ),
                        span.clone(),
                    );
                    break;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mode;
    use crate::properties::Property;
    use crate::validate::resolve::resolve;

    /// Three integers, one reason, a symmetric base matrix: a file every check passes.
    const GOOD: &str = r#"
[rules]
name = "t"
marker = "T"
title = "t"
version = "1"
commutative = true
dtypes = ["i8", "u8", "i16"]

[reasons]
mixed = "mixed signedness"

[[layer]]
name = "base"
matrix = '''
       i8      u8      i16
i8     i8      !mixed  i16
u8     !mixed  u8      i16
i16    i16     i16     i16
'''
"#;

    /// `src` resolved without errors.
    fn resolved(src: &str) -> Resolved {
        let raw = crate::parse::parse_file(src).unwrap().file;
        let mut cx = Ctxt::default();
        let resolved = resolve(&mut cx, &raw);
        assert!(!cx.has_errors(), "{:?}", cx.finish());
        resolved
    }

    /// The messages one check reports on a resolved file.
    fn errors(resolved: &Resolved, check: impl FnOnce(&mut Ctxt, &Resolved)) -> Vec<String> {
        let mut cx = Ctxt::default();
        check(&mut cx, resolved);
        cx.finish().into_iter().map(|d| d.message).collect()
    }

    /// The messages one check that reads only the model reports on `rules`.
    fn model_errors(rules: RuleFile, check: fn(&mut Ctxt, &RuleFile)) -> Vec<String> {
        let resolved = Resolved {
            used_reasons: vec![true; rules.reasons.len()],
            rules,
            texts: Vec::new(),
        };
        errors(&resolved, |cx, r| check(cx, &r.rules))
    }

    fn good() -> RuleFile {
        resolved(GOOD).rules
    }

    #[test]
    fn a_good_file_passes_every_check() {
        assert_eq!(
            errors(&resolved(GOOD), |cx, r| check(cx, GOOD, r)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn rule_set_names_are_lowercase_identifiers_and_not_keywords() {
        let named = |name: &str| {
            let rules = RuleFile {
                name: name.to_owned(),
                ..good()
            };
            model_errors(rules, check_rule_set_name)
        };
        assert!(named("paddle_2").is_empty());
        assert_eq!(named("Paddle"), ["bad rule set name `Paddle`"]);
        assert_eq!(named("2d"), ["bad rule set name `2d`"]);
        assert_eq!(named(""), ["bad rule set name ``"]);
        assert_eq!(
            named("mod"),
            ["rule set name `mod` is a Rust keyword: choose another name"]
        );
    }

    #[test]
    fn marker_types_start_uppercase_and_are_not_keywords() {
        let marked = |marker: &str| {
            let rules = RuleFile {
                marker: marker.to_owned(),
                ..good()
            };
            model_errors(rules, check_marker_type)
        };
        assert!(marked("OpenVino2").is_empty());
        assert_eq!(
            marked("openVino"),
            ["marker type `openVino` must start with an uppercase letter"]
        );
        assert_eq!(marked("Open_Vino"), ["bad marker type `Open_Vino`"]);
        assert_eq!(
            marked("Self"),
            ["marker type `Self` is a Rust keyword: choose another name"]
        );
    }

    #[test]
    fn a_dtype_options_default_is_a_dtype_of_the_rule_set() {
        let src = format!("{GOOD}\n[options.out]\ntype = \"dtype\"\ndefault = \"f32\"\n");
        let rules = resolved(&src).rules;
        let span = rules.options[0].default_span.clone();
        assert_eq!(&src[span], "\"f32\"");
        assert_eq!(
            model_errors(rules, check_dtype_option_defaults),
            ["default `f32` of option `out` is not in `rules.dtypes`"]
        );
        let src = format!("{GOOD}\n[options.out]\ntype = \"dtype\"\ndefault = \"i16\"\n");
        assert!(model_errors(resolved(&src).rules, check_dtype_option_defaults).is_empty());
    }

    #[test]
    fn mode_markers_are_camel_case_and_distinct() {
        let with_modes = |markers: &[&str]| {
            let mut rules = good();
            for marker in markers {
                rules.modes.push(Mode {
                    marker: (*marker).to_owned(),
                    values: Vec::new(),
                    span: 0..0,
                });
            }
            model_errors(rules, check_mode_markers)
        };
        assert!(with_modes(&["TStrict", "TLoose"]).is_empty());
        assert_eq!(
            with_modes(&["t_strict"]),
            ["bad marker type `t_strict`: expected a CamelCase identifier"]
        );
        assert_eq!(with_modes(&["T"]), ["duplicate marker type `T`"]);
        assert_eq!(
            with_modes(&["Self"]),
            ["bad marker type `Self`: expected a CamelCase identifier"]
        );
    }

    #[test]
    fn at_most_max_reasons_are_declared() {
        let with_reasons = |n: usize| {
            let mut rules = good();
            rules.reasons = (0..n).map(|i| (format!("r{i}"), String::new())).collect();
            rules.spans.reasons = (0..n).map(|i| i..i + 1).collect();
            model_errors(rules, check_reason_count)
        };
        assert!(with_reasons(MAX_REASONS).is_empty());
        assert_eq!(
            with_reasons(MAX_REASONS + 1),
            [format!(
                "{} reasons: at most {MAX_REASONS} are supported",
                MAX_REASONS + 1
            )]
        );
    }

    #[test]
    fn reason_keys_differ_in_more_than_underscores_and_dashes() {
        let keyed = |keys: &[&str]| {
            let mut rules = good();
            rules.reasons = keys.iter().map(|k| ((*k).to_owned(), String::new())).collect();
            rules.spans.reasons = vec![0..0; keys.len()];
            model_errors(rules, check_reason_keys)
        };
        assert!(keyed(&["a_b", "ab"]).is_empty());
        assert_eq!(
            keyed(&["a-b", "a_b"]),
            ["reason keys `a-b` and `a_b` differ only in `_` and `-`: rename one"]
        );
    }

    #[test]
    fn every_reason_is_used() {
        let r = resolved(GOOD);
        assert_eq!(r.used_reasons, [true]);
        let unused = Resolved {
            used_reasons: vec![false],
            rules: r.rules,
            texts: Vec::new(),
        };
        assert_eq!(
            errors(&unused, |cx, r| check_unused_reasons(
                cx,
                &r.rules,
                &r.used_reasons
            )),
            ["reason `mixed` is never used"]
        );
    }

    #[test]
    fn a_commutative_rule_sets_layers_are_symmetric() {
        let src = GOOD.replace("u8     !mixed  u8", "u8     i16     u8");
        let r = resolved(&src);
        assert_eq!(
            errors(&r, |cx, r| check_commutative(cx, &src, &r.rules)),
            ["asymmetric cell: (i8, u8) is `!mixed` but (u8, i8) differs, and `rules.commutative` is true"]
        );
        // Not commutative: nothing to check.
        let src = src.replace("commutative = true", "commutative = false");
        assert!(errors(&resolved(&src), |cx, r| check_commutative(cx, &src, &r.rules)).is_empty());
        // A listed layer may give one order and leave the other to the lookup.
        let listed = GOOD.replace(
            "[[layer]]\nname = \"base\"",
            "[[layer]]\nname = \"one order\"\ncells = [\"u8 i8 = i16\"]\n\n[[layer]]\nname = \"base\"",
        );
        assert!(errors(&resolved(&listed), |cx, r| check_commutative(
            cx, &listed, &r.rules
        ))
        .is_empty());
    }

    #[test]
    fn the_base_layers_decide_every_pair() {
        assert!(model_errors(good(), check_base_layers).is_empty());
        let src = GOOD.replace("i16    i16     i16     i16\n", "");
        assert_eq!(
            model_errors(resolved(&src).rules, check_base_layers),
            // (i16, i8) and (i16, u8) are answered by the swapped pairs.
            ["missing cell: no layer without `when` or `ops` has a result for (i16, i16)"]
        );
        // A layer under a condition is not the base.
        let src = GOOD
            .replace("dtypes = [", "ops = [\"add\"]\ndtypes = [")
            .replace("name = \"base\"", "name = \"base\"\nops = [\"add\"]");
        let missing = model_errors(resolved(&src).rules, check_base_layers);
        assert!(missing[0].ends_with("(u8, i16) and 3 more"), "{missing:?}");
        // Nor is a result filter.
        let mut filtered = good();
        filtered.layers[0].promoted = vec![DType::I16];
        let missing = model_errors(filtered, check_base_layers);
        assert!(missing[0].ends_with("(u8, i16) and 3 more"), "{missing:?}");
        let none = RuleFile {
            layers: Vec::new(),
            ..good()
        };
        assert_eq!(
            model_errors(none, check_base_layers),
            ["no `[[layer]]`: the layers must cover every pair of `rules.dtypes`"]
        );
    }

    #[test]
    fn declared_properties_hold_under_every_marker() {
        // (i8 + u8) + i16 is refused, i8 + (u8 + i16) is i16.
        let declared = |property| {
            let rules = RuleFile {
                declared: vec![(property, 0..0)],
                ..good()
            };
            model_errors(rules, check_declared_properties)
        };
        assert_eq!(
            declared(Property::Associative),
            ["`associative` is declared, but under `T`: (i8 + u8) + i16 = refused but i8 + (u8 + i16) = i16"]
        );
        assert!(declared(Property::Commutative).is_empty());
    }
}
