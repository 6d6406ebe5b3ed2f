//! `promo list`: the bundled rule sets, their dtypes, operations and options; and
//! with a rule set named, that rule set's spellings of its dtypes too.

use promo_core::rules;
use promo_table::{DType, OpKind, OptionKind, RuleTable};
use std::process::ExitCode;

use crate::args::{bad_input, with_rules};
use crate::escape::visible_lines;
use crate::write::emit;

/// Arguments of `promo list`.
#[derive(clap::Args)]
pub struct ListArgs {
    /// A rule set (bundled, or the path of a rule file) to show with every name it
    /// reads: its dtypes by promo's names and the framework's, the prefixes of its
    /// namespaced names, its operations and options.
    rules: Option<String>,
}

/// `promo list [RULES]`.
pub fn run_list(args: &ListArgs) -> ExitCode {
    let Some(spec) = &args.rules else {
        let out: Vec<String> = rules::ALL.iter().map(|t| summary(t)).collect();
        return emit(
            &format!("{}\n", out.join("\n").trim_end_matches('\n')),
            ExitCode::SUCCESS,
        );
    };
    match with_rules(spec, |t| format!("{}{}", summary(t), spellings(t))) {
        Ok(text) => emit(&visible_lines(&text), ExitCode::SUCCESS),
        Err(e) => bad_input(e),
    }
}

/// A rule set's heading, dtypes, operations, Python scalar types and options.
fn summary(t: &RuleTable<'_>) -> String {
    let mut out = format!("{}  {} (version {})\n", t.name, t.title, t.version);
    out += &format!(
        "  dtypes: {}\n",
        t.dtypes.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
    );
    if t.ops.is_empty() {
        out += "  ops: any elementwise (the result does not depend on the operation)\n";
    } else {
        // The elementwise operations, then one line per other kind (docs/operations.md).
        let names = |keep: &dyn Fn(OpKind) -> bool| -> String {
            let names: Vec<&str> = t
                .ops
                .iter()
                .filter(|o| keep(o.kind()))
                .map(|o| o.name())
                .collect();
            names.join(" ")
        };
        out += &format!("  ops: {}\n", names(&|k| k == OpKind::Elementwise));
        let kinds: [(&str, &dyn Fn(OpKind) -> bool); 3] = [
            ("unary", &|k| k == OpKind::Unary),
            ("reductions", &|k| {
                matches!(k, OpKind::Reduction | OpKind::ReductionDtype(_))
            }),
            ("more", &|k| {
                !matches!(
                    k,
                    OpKind::Elementwise | OpKind::Unary | OpKind::Reduction | OpKind::ReductionDtype(_)
                )
            }),
        ];
        for (label, keep) in kinds {
            let listed = names(keep);
            if !listed.is_empty() {
                out += &format!("  {label}: {listed}\n");
            }
        }
    }
    let python: Vec<String> = promo_table::PyScalar::ALL
        .iter()
        .filter_map(|k| t.python[k.index()].map(|d| format!("{k}={d}")))
        .collect();
    if !python.is_empty() {
        out += &format!("  python scalars typed as: {}\n", python.join(" "));
    }
    for o in t.options {
        let kind = match o.kind {
            OptionKind::Bool => "bool".to_owned(),
            OptionKind::DType => "dtype".to_owned(),
            OptionKind::Choice(words) => words.join("|"),
        };
        out += &format!(
            "  --set {}=<{kind}>  default {}  {}\n",
            o.name,
            o.format_value(o.default),
            o.doc
        );
    }
    out
}

/// Every name of `d` promo reads anywhere: its canonical name and common spellings.
fn promo_names(d: DType) -> impl Iterator<Item = &'static str> {
    std::iter::once(d.name()).chain(d.aliases().iter().copied())
}

/// The namespace prefixes of a rule set (`torch.`): those that, put before the
/// canonical name of each of its dtypes, make one of its aliases for that dtype.
pub fn prefixes<'a>(t: &RuleTable<'a>) -> Vec<&'a str> {
    let Some(&first) = t.dtypes.first() else {
        return Vec::new();
    };
    let mut found: Vec<&'a str> = t
        .aliases
        .iter()
        .filter(|&&(a, d)| d == first && a.len() > first.name().len() && a.ends_with(first.name()))
        .map(|&(a, _)| &a[..a.len() - first.name().len()])
        .filter(|p| {
            t.dtypes.iter().all(|d| {
                t.aliases
                    .iter()
                    .any(|&(a, ad)| ad == *d && a.strip_prefix(p) == Some(d.name()))
            })
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// A rule set's spellings: each dtype by promo's names and then the framework's
/// own (its `[aliases]`, less the names its prefixes make), the ambiguous names,
/// and the prefixes.
fn spellings<'a>(t: &RuleTable<'a>) -> String {
    let prefixes = prefixes(t);
    let made_by_prefix = |alias: &str, d: DType| {
        prefixes.iter().any(|p| {
            alias
                .strip_prefix(p)
                .is_some_and(|n| promo_names(d).any(|m| m == n))
        })
    };
    let ambiguous = |alias: &str| t.aliases.iter().filter(|(a, _)| *a == alias).count() > 1;
    let width = t.dtypes.iter().map(|d| d.name().len()).max().unwrap_or(0);
    let mut out = format!("  names (promo's, then {}'s own):\n", t.name);
    for &d in t.dtypes {
        let own = t
            .aliases
            .iter()
            .filter(|&&(a, ad)| ad == d && !ambiguous(a) && !made_by_prefix(a, d))
            .map(|&(a, _)| a);
        let mut names: Vec<&'a str> = promo_names(d).skip(1).collect();
        names.extend(own);
        out += format!("    {:width$}  {}\n", d.name(), names.join(" ")).trim_end();
        out += "\n";
    }
    let mut seen: Vec<&str> = Vec::new();
    for &(a, _) in t.aliases {
        if ambiguous(a) && !seen.contains(&a) {
            seen.push(a);
            let meant: Vec<&str> = t
                .aliases
                .iter()
                .filter(|(b, _)| *b == a)
                .map(|(_, d)| d.name())
                .collect();
            out += &format!(
                "  ambiguous: `{a}` may mean {}: refused with the choices\n",
                meant.join(" or ")
            );
        }
    }
    if !prefixes.is_empty() {
        let example = t.dtypes.first().map_or("", |d| d.name());
        let examples: Vec<String> = prefixes.iter().map(|p| format!("{p}{example}")).collect();
        out += &format!(
            "  prefixes: {} (before any of promo's names above: {})\n",
            prefixes.join(" "),
            examples.join(", ")
        );
    }
    out
}
