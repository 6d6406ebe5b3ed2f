//! `promo diff`: where two rule sets, or two option settings of one, disagree.

use promo_core::rules;
use promo_table::{DType, Op, Operand, Options, RuleTable};
use std::process::ExitCode;

use promo_query::diff::{self, compare, compare_in, label, Answer, Comparison, Kind, Scope};

use crate::args::{bad_input, options_and_op, with_rules};
use crate::escape::markdown_cell;
use crate::write::emit;

/// Output formats of `promo diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A summary line, then one aligned line per differing cell.
    Text,
    /// A summary line and a Markdown table of the differing cells.
    Markdown,
    /// `{"a", "b", "op", "dtypes", "cells", "agree", "differ", "differences"}`.
    Json,
    /// One self-contained HTML page: the first rule set's matrix as a coloured
    /// grid with the differing cells outlined (both answers on hover).
    Html,
    /// The same grid as an SVG image.
    Svg,
}

/// Arguments of `promo diff`.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The first rule set: a bundled name (`promo list`) or a rule file.
    #[arg(required_unless_present = "all")]
    a: Option<String>,
    /// The second rule set (the first again, to compare two option settings).
    #[arg(required_unless_present = "all")]
    b: Option<String>,
    /// Set an option on both sides (`KEY=VALUE`) or on one (`a:KEY=VALUE`,
    /// `b:KEY=VALUE`); repeatable.
    #[arg(long = "set", value_name = "[a:|b:]KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide`, or an operator such as `/`).
    #[arg(long, default_value = "add")]
    op: String,
    /// The left operands' kind: `tensor`, `scalar` (rank-0), `weak`, or one Python
    /// scalar (`python:int`, `python:float`, `python:bool`, `python:complex`).
    #[arg(long, value_name = "KIND", default_value = "tensor", conflicts_with = "all")]
    lhs: String,
    /// The right operands' kind, as `--lhs`.
    #[arg(long, value_name = "KIND", default_value = "tensor", conflicts_with = "all")]
    rhs: String,
    /// Compare only these dtypes (comma-separated, each as the first rule set
    /// spells it), instead of every dtype both accept.
    #[arg(long, value_name = "DTYPE,...", value_delimiter = ',', conflicts_with = "all")]
    dtypes: Vec<String>,
    /// The agreement matrix of every pair of bundled rule sets instead (on `--op`,
    /// among the rule sets that answer it): the share of the cells both define
    /// (dtypes both accept) that agree.
    #[arg(long, conflicts_with_all = ["a", "b", "set"])]
    all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
}

use crate::grid::{self, Grid};

/// Splits `--set` values into the first side's and the second side's.
fn split_settings(set: &[String]) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for s in set {
        match s.split_once(':') {
            Some(("a", rest)) => a.push(rest.to_owned()),
            Some(("b", rest)) => b.push(rest.to_owned()),
            Some((side, _)) => {
                return Err(format!(
                    "bad --set `{s}`: a side prefix is `a:` or `b:`, not `{side}:`"
                ))
            }
            None => {
                a.push(s.clone());
                b.push(s.clone());
            }
        }
    }
    Ok((a, b))
}

/// For `--set` settings that reached side `side` but name an option only the
/// other rule set (`other`) has: how to give each to the other side alone
/// (`--set b:jax_enable_x64=true`). Empty when there are none.
fn side_hint(set: &[String], side: char, other: &str) -> String {
    let other_side = if side == 'a' { 'b' } else { 'a' };
    let Ok(other_options) = with_rules(other, |t| {
        t.options.iter().map(|o| o.name.to_owned()).collect::<Vec<_>>()
    }) else {
        return String::new();
    };
    let this_side = format!("{side}:");
    let mut both = false;
    let hints: Vec<String> = set
        .iter()
        .filter_map(|s| {
            let setting = s.strip_prefix(&this_side).unwrap_or(s);
            if setting.starts_with("a:") || setting.starts_with("b:") {
                return None;
            }
            let key = setting.split_once('=').map_or(setting, |(k, _)| k);
            if !other_options.iter().any(|o| o == key) {
                return None;
            }
            both |= setting.len() == s.len();
            Some(format!(
                "`{key}` is {other}'s option: write `--set {other_side}:{setting}`"
            ))
        })
        .collect();
    if hints.is_empty() {
        return String::new();
    }
    let both = if both {
        " (a --set without `a:` or `b:` sets both rule sets)"
    } else {
        ""
    };
    format!("; {}{both}", hints.join("; "))
}

fn shown(answer: &Answer) -> String {
    match answer {
        Ok(d) => d.name().to_owned(),
        Err(reason) => format!("refused: {reason}"),
    }
}

fn render(
    la: &str,
    lb: &str,
    op: Op,
    c: &Comparison,
    scope: &Scope,
    format: DiffFormat,
) -> Result<String, String> {
    let differ = c.differences.len();
    let agree = c.cells() - differ;
    let summary = diff::summary_in(la, lb, op, c, scope);
    Ok(match format {
        DiffFormat::Html | DiffFormat::Svg => {
            if let Some(k) = [scope.lhs, scope.rhs]
                .into_iter()
                .find(|k| matches!(k, Kind::Python(_)))
            {
                return Err(format!(
                    "--format html and svg draw a matrix of dtypes by dtypes; with `{k}` on one side use text, markdown or json"
                ));
            }
            let n = c.dtypes.len();
            let theirs: std::collections::HashMap<(Option<DType>, Option<DType>), &Answer> = c
                .differences
                .iter()
                .map(|(l, r, _, b)| ((l.dtype(), r.dtype()), b))
                .collect();
            let map = Grid::pairs(
                format!("{la} vs {lb}"),
                format!(
                    "op {op}, {} with {}: {} cells, {agree} agree, {differ} differ (outlined); colours are {la}'s results",
                    scope.lhs,
                    scope.rhs,
                    c.cells()
                ),
                &c.dtypes,
                |i, j| {
                    let b = theirs
                        .get(&(Some(c.dtypes[i]), Some(c.dtypes[j])))
                        .map(|&b| b.clone());
                    (c.first[i * n + j].clone(), b)
                },
            );
            if format == DiffFormat::Html {
                grid::html(&map)
            } else {
                grid::svg(&map)
            }
        }
        DiffFormat::Json => {
            let cells: Vec<serde_json::Value> = c
                .differences
                .iter()
                .map(|(l, r, x, y)| {
                    let side = |a: &Answer| match a {
                        Ok(d) => serde_json::json!({ "dtype": d.name() }),
                        Err(reason) => serde_json::json!({ "refused": reason }),
                    };
                    serde_json::json!({ "lhs": l.to_string(), "rhs": r.to_string(), "a": side(x), "b": side(y) })
                })
                .collect();
            let names: Vec<&str> = c.dtypes.iter().map(|d| d.name()).collect();
            let doc = serde_json::json!({
                "a": la, "b": lb, "op": op.name(), "lhs": scope.lhs.to_string(), "rhs": scope.rhs.to_string(), "dtypes": names,
                "cells": c.cells(), "agree": agree, "differ": differ, "differences": cells,
            });
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        DiffFormat::Markdown => {
            let mut out = format!("{summary}\n");
            if differ > 0 {
                out += &format!(
                    "\n| lhs | rhs | {} | {} |\n|---|---|---|---|\n",
                    markdown_cell(la),
                    markdown_cell(lb)
                );
                for (l, r, x, y) in &c.differences {
                    out += &format!(
                        "| {l} | {r} | {} | {} |\n",
                        markdown_cell(&shown(x)),
                        markdown_cell(&shown(y))
                    );
                }
            }
            out
        }
        DiffFormat::Text => diff::text(&summary, la, lb, &c.differences),
    })
}

/// The bundled rule sets that answer `op`: those that cover it, and those whose
/// result does not depend on the operation; and the names of the others.
fn covering(op: Op) -> (Vec<&'static RuleTable<'static>>, Vec<&'static str>) {
    let (tables, others): (Vec<_>, Vec<_>) = rules::ALL
        .iter()
        .copied()
        .partition(|t| t.ops.is_empty() || t.ops.contains(&op));
    (tables, others.iter().map(|t| t.name).collect())
}

fn render_all(format: DiffFormat, op_name: &str) -> Result<String, String> {
    let op: Op = op_name.parse().map_err(|e: promo_table::UnknownOp| {
        let candidates = Op::ALL.iter().flat_map(|o| {
            std::iter::once(o.name())
                .chain(o.aliases().iter().copied())
                .map(|s| (s, o.name()))
        });
        match promo_query::names::closest(op_name, candidates) {
            Some(s) => format!("{e} (did you mean `{s}`?)"),
            None => e.to_string(),
        }
    })?;
    let (tables, left_out) = covering(op);
    if tables.len() < 2 {
        return Err(format!(
            "operation `{op}` is covered by fewer than two bundled rule sets: nothing to compare"
        ));
    }
    let mut grid = Vec::new();
    for &a in &tables {
        let mut row = Vec::new();
        for &b in &tables {
            let c = compare(a, &a.default_options(), b, &b.default_options(), op);
            row.push((c.cells() - c.differences.len(), c.cells()));
        }
        grid.push(row);
    }
    let names: Vec<&str> = tables.iter().map(|t| t.name).collect();
    let share = |(agree, cells): (usize, usize)| {
        if cells == 0 {
            "-".to_owned()
        } else {
            format!("{:.0}%", 100.0 * agree as f64 / cells as f64)
        }
    };
    let mut title = format!(
        "Agreement of the bundled rule sets on {op}, tensor with tensor, default options: \
         the share of the cells both define (dtypes both accept) that agree"
    );
    if !left_out.is_empty() {
        title += &format!(" ({} left out: no {op})", left_out.join(", "));
    }
    let title = title.as_str();
    Ok(match format {
        DiffFormat::Html => grid::agreement_html(title, &names, &grid),
        DiffFormat::Svg => return Err("promo diff --all prints text, markdown, json or html".to_owned()),
        DiffFormat::Json => {
            let rows: Vec<serde_json::Value> = grid
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|&(agree, cells)| serde_json::json!({ "agree": agree, "cells": cells }))
                        .collect()
                })
                .collect();
            serde_json::to_string_pretty(
                &serde_json::json!({ "op": op.name(), "rules": names, "agreement": rows }),
            )
            .unwrap_or_default()
                + "\n"
        }
        DiffFormat::Markdown => {
            let mut out = format!(
                "{title}.\n\n| | {} |\n|---|{}\n",
                names.join(" | "),
                "---|".repeat(names.len())
            );
            for (name, row) in names.iter().zip(&grid) {
                let cells: Vec<String> = row.iter().map(|&c| format!("{} of {}", share(c), c.1)).collect();
                out += &format!("| **{name}** | {} |\n", cells.join(" | "));
            }
            out
        }
        DiffFormat::Text => {
            // Wide enough for every name and every "100% of 1156" cell.
            let cell_width = grid
                .iter()
                .flatten()
                .map(|&c| format!("{} of {}", share(c), c.1).len())
                .max()
                .unwrap_or(0);
            let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(cell_width);
            let mut out = format!("# {title}\n{:width$}", "");
            for n in &names {
                out += &format!(" {n:>width$}");
            }
            out += "\n";
            for (name, row) in names.iter().zip(&grid) {
                out += &format!("{name:width$}");
                for &c in row {
                    out += &format!(" {:>width$}", format!("{} of {}", share(c), c.1));
                }
                out += "\n";
            }
            out
        }
    })
}

/// The operand kinds and dtypes of `--lhs`, `--rhs` and `--dtypes`, the dtypes read
/// as the first rule set `table` spells them.
fn scope(args: &DiffArgs, table: &RuleTable<'_>) -> Result<Scope, String> {
    let kind = |flag: &str, text: &str| text.parse::<Kind>().map_err(|e| format!("--{flag}: {e}"));
    let dtypes = if args.dtypes.is_empty() {
        None
    } else {
        let mut chosen = Vec::new();
        for name in &args.dtypes {
            let d =
                promo_query::names::dtype(Some(table), name.trim()).map_err(|e| format!("--dtypes: {e}"))?;
            if !chosen.contains(&d) {
                chosen.push(d);
            }
        }
        Some(chosen)
    };
    Ok(Scope {
        lhs: kind("lhs", &args.lhs)?,
        rhs: kind("rhs", &args.rhs)?,
        dtypes,
    })
}

/// A unary operation or a reduction compared on each dtype both accept: one line
/// per dtype where the two differ (text, Markdown or JSON), or a map of one column
/// with every common dtype, those that differ outlined.
fn one_operand(
    ta: &RuleTable<'_>,
    oa: &Options,
    tb: &RuleTable<'_>,
    ob: &Options,
    op: Op,
    format: DiffFormat,
) -> Result<(String, bool), String> {
    let (mut la, mut lb) = (label(ta, oa), label(tb, ob));
    if la == lb {
        (la, lb) = (format!("a: {la}"), format!("b: {lb}"));
    }
    let dtypes: Vec<DType> = ta.dtypes.iter().copied().filter(|d| tb.accepts(*d)).collect();
    let shown = |a: &Answer| a.as_ref().map_or("x".to_owned(), |d| d.name().to_owned());
    let mut rows = Vec::new();
    let mut every = Vec::new();
    for &d in &dtypes {
        let x = Operand::Dimensioned(d);
        let (a, b) = (
            diff::answer_for(ta, oa, op, x, x),
            diff::answer_for(tb, ob, op, x, x),
        );
        let differ = !diff::agree(&a, &b);
        every.push((d, a.clone(), differ.then(|| b.clone())));
        if differ {
            rows.push((d, a, b));
        }
    }
    let summary = format!(
        "{la} vs {lb}, op {op}, one operand: {} dtypes in common: {} agree, {} differ",
        dtypes.len(),
        dtypes.len() - rows.len(),
        rows.len()
    );
    let text = match format {
        DiffFormat::Html | DiffFormat::Svg => {
            let map = Grid::one_operand(
                format!("{la} vs {lb}"),
                format!("{summary} (outlined); colours are {la}'s results"),
                op.name(),
                every,
            );
            if format == DiffFormat::Html {
                grid::html(&map)
            } else {
                grid::svg(&map)
            }
        }
        DiffFormat::Json => {
            let differences: Vec<serde_json::Value> = rows
                .iter()
                .map(|(d, a, b)| serde_json::json!({"x": d.name(), "a": shown(a), "b": shown(b)}))
                .collect();
            let v = serde_json::json!({"a": la, "b": lb, "op": op.name(), "dtypes": dtypes.len(),
                "agree": dtypes.len() - rows.len(), "differ": rows.len(), "differences": differences});
            format!("{v}\n")
        }
        DiffFormat::Markdown => {
            let mut out = format!("{summary}\n\n| x | {la} | {lb} |\n| --- | --- | --- |\n");
            for (d, a, b) in &rows {
                out += &format!("| {d} | {} | {} |\n", shown(a), shown(b));
            }
            out
        }
        DiffFormat::Text => {
            let width = la.len().max(lb.len()).max(5);
            let mut out = format!("{summary}\n");
            if !rows.is_empty() {
                out += &format!("\n{:<6}{la:<width$}  {lb}\n", "x");
                for (d, a, b) in &rows {
                    out += &format!("{:<6}{:<width$}  {}\n", d.name(), shown(a), shown(b));
                }
            }
            out
        }
    };
    Ok((text, rows.is_empty()))
}

/// `promo diff`: exit 0 when the two agree on every common cell, 1 when some
/// differ, 2 on bad input (`--all` exits 0).
pub fn run_diff(args: &DiffArgs) -> ExitCode {
    if args.all {
        return match render_all(args.format, &args.op) {
            Ok(text) => emit(&text, ExitCode::SUCCESS),
            Err(e) => bad_input(e),
        };
    }
    let (Some(a), Some(b)) = (&args.a, &args.b) else {
        return bad_input("two rule sets to compare, or --all");
    };
    let result = (|| {
        let (set_a, set_b) = split_settings(&args.set)?;
        with_rules(a, |ta| {
            let (oa, op) =
                options_and_op(ta, &set_a, &args.op).map_err(|e| e + &side_hint(&args.set, 'a', b))?;
            with_rules(b, |tb| {
                let (ob, op_b) =
                    options_and_op(tb, &set_b, &args.op).map_err(|e| e + &side_hint(&args.set, 'b', a))?;
                debug_assert_eq!(op, op_b);
                if op.on_diagonal() {
                    return one_operand(ta, &oa, tb, &ob, op, args.format);
                }
                let scope = scope(args, ta)?;
                let c = compare_in(ta, &oa, tb, &ob, op, &scope)?;
                let (mut la, mut lb) = (label(ta, &oa), label(tb, &ob));
                if la == lb {
                    (la, lb) = (format!("a: {la}"), format!("b: {lb}"));
                }
                Ok::<_, String>((
                    render(&la, &lb, op, &c, &scope, args.format)?,
                    c.differences.is_empty(),
                ))
            })?
        })?
    })();
    match result {
        Ok((text, same)) => emit(
            &text,
            if same {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            },
        ),
        Err(e) => bad_input(e),
    }
}
