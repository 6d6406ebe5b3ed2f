//! `promo table`: a rule set's tensor-with-tensor matrix as text, Markdown, CSV,
//! JSON, HTML or SVG.

use promo_table::{DType, Op, Operand, Options, RuleTable};
use std::process::ExitCode;

use crate::args::{bad_input, options_and_op, settings, with_rules};
use crate::escape::{csv_field, visible};
use crate::write::emit;

/// Output formats of `promo table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns.
    Text,
    /// A Markdown table.
    Markdown,
    /// Comma-separated, header row first.
    Csv,
    /// `{"rules", "options", "dtypes", "table", "weak", "errors"}`.
    Json,
    /// One self-contained HTML page: the matrix as a coloured grid, one colour per
    /// kind of result, refusals' reasons on hover.
    Html,
    /// The same grid as an SVG image.
    Svg,
}

/// Arguments of `promo table`.
#[derive(clap::Args)]
pub struct TableArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// Set an option, e.g. `--set promote_unsafe=true` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide`, or an operator such as `/`).
    #[arg(long, default_value = "add")]
    op: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `promo table`.
pub fn run_table(args: &TableArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        if op.on_diagonal() {
            return render_column(table, &options, op, args.format);
        }
        Ok::<_, String>(render_table(table, &options, op, args.format))
    });
    match result.and_then(|r| r) {
        Ok(text) => emit(&text, ExitCode::SUCCESS),
        Err(e) => bad_input(e),
    }
}

/// A unary operation's or a reduction's answers: one line per dtype, or a map of one
/// column.
fn render_column(table: &RuleTable<'_>, options: &Options, op: Op, format: Format) -> Result<String, String> {
    let answers: Vec<(DType, String)> = table
        .dtypes
        .iter()
        .map(|&d| {
            let x = Operand::Dimensioned(d);
            let shown = match table.apply(options, op, &[x], None) {
                Ok(o) if o.compute != o.result.dtype => format!("{} (computed in {})", o.result, o.compute),
                Ok(o) => o.result.to_string(),
                Err(_) => "x".to_owned(),
            };
            (d, shown)
        })
        .collect();
    let settings = settings(table, options);
    let heading = format!(
        "# {} ({}), op {op}{}{}; one operand, x refused",
        table.name,
        table.version,
        if settings.is_empty() { "" } else { ", " },
        settings.join(", ")
    );
    Ok(match format {
        Format::Html | Format::Svg => {
            let mut map = crate::grid::Grid::one_operand(
                format!("{} ({}, version {})", table.name, table.title, table.version),
                format!(
                    "op {op}{}{}; a row per dtype of the one operand",
                    if settings.is_empty() { "" } else { ", " },
                    settings.join(", ")
                ),
                op.name(),
                table.dtypes.iter().map(|&d| {
                    let answer = table.apply(options, op, &[Operand::Dimensioned(d)], None);
                    (d, answer.map(|o| o.result.dtype).map_err(|e| e.to_string()), None)
                }),
            );
            // The compute dtype, where it differs, in the hover text.
            for (row, (_, shown)) in map.cells.iter_mut().zip(&answers) {
                if let Some(at) = shown.find(" (computed in ") {
                    row[0].what += &shown[at..];
                }
            }
            if format == Format::Html {
                crate::grid::html(&map)
            } else {
                crate::grid::svg(&map)
            }
        }
        Format::Json => {
            let cells: serde_json::Map<String, serde_json::Value> = answers
                .iter()
                .map(|(d, a)| (d.name().to_owned(), serde_json::Value::String(a.clone())))
                .collect();
            let v = serde_json::json!({"rules": table.name, "op": op.name(), "table": cells});
            format!("{v}\n")
        }
        Format::Csv => {
            let mut out = "x,result\n".to_owned();
            for (d, a) in &answers {
                out += &format!("{d},{}\n", csv_field(a));
            }
            out
        }
        Format::Markdown => {
            let mut out = format!("{heading}\n\n| x | {op} |\n| --- | --- |\n");
            for (d, a) in &answers {
                out += &format!("| {d} | {a} |\n");
            }
            out
        }
        Format::Text => {
            let mut out = format!("{heading}\n");
            for (d, a) in &answers {
                out += &format!("{:<6}{a}\n", d.name());
            }
            out
        }
    })
}

fn render_table(table: &RuleTable<'_>, options: &Options, op: Op, format: Format) -> String {
    let matrix = table.matrix(options, op);
    let names: Vec<&str> = table.dtypes.iter().map(|d| d.name()).collect();
    let cell = |r: &Result<DType, promo_table::Refusal<'_>>| r.map_or("x", |d| d.name());
    // Text and Markdown mark a weakly typed result with `*` (JAX's and TensorFlow's
    // notation); CSV keeps plain names and JSON lists weak results apart.
    let weak = |l: usize, r: usize| {
        let (l, r) = (
            Operand::Dimensioned(table.dtypes[l]),
            Operand::Dimensioned(table.dtypes[r]),
        );
        table.promote_result(options, op, l, r).is_ok_and(|p| p.weak)
    };
    let marked = |l: usize, r: usize, result: &Result<DType, promo_table::Refusal<'_>>| {
        let name = cell(result);
        if weak(l, r) {
            format!("{name}*")
        } else {
            name.to_owned()
        }
    };
    let any_weak = (0..names.len()).any(|l| (0..names.len()).any(|r| weak(l, r)));
    let settings = settings(table, options);
    match format {
        Format::Html | Format::Svg => {
            let map = crate::grid::Grid::pairs(
                format!("{} ({}, version {})", table.name, table.title, table.version),
                format!(
                    "op {op}{}{}; rows are the left operand, columns the right",
                    if settings.is_empty() { "" } else { ", " },
                    settings.join(", ")
                ),
                table.dtypes,
                |i, j| (matrix[i][j].map_err(|e| e.to_string()), None),
            );
            if format == Format::Html {
                crate::grid::html(&map)
            } else {
                crate::grid::svg(&map)
            }
        }
        Format::Json => {
            let mut opts = serde_json::Map::new();
            for (o, &v) in table.options.iter().zip(options.values()) {
                let value = match v {
                    promo_table::OptionValue::Bool(b) => serde_json::Value::Bool(b),
                    _ => serde_json::Value::String(o.format_value(v)),
                };
                opts.insert(o.name.to_owned(), value);
            }
            let mut cells = serde_json::Map::new();
            let mut errors = serde_json::Map::new();
            // Weakly typed results (JAX, TensorFlow), by the same keys as the table.
            let mut weak = serde_json::Map::new();
            for &l in table.dtypes {
                let weak_row: serde_json::Map<String, serde_json::Value> = table
                    .dtypes
                    .iter()
                    .filter(|&&r| {
                        table
                            .promote_result(options, op, Operand::Dimensioned(l), Operand::Dimensioned(r))
                            .is_ok_and(|p| p.weak)
                    })
                    .map(|r| (r.name().to_owned(), serde_json::Value::Bool(true)))
                    .collect();
                if !weak_row.is_empty() {
                    weak.insert(l.name().to_owned(), weak_row.into());
                }
            }
            for (lhs, row) in names.iter().zip(&matrix) {
                let mut cell_row = serde_json::Map::new();
                let mut error_row = serde_json::Map::new();
                for (rhs, result) in names.iter().zip(row) {
                    match result {
                        Ok(d) => cell_row.insert(rhs.to_string(), d.name().into()),
                        Err(e) => {
                            error_row.insert(rhs.to_string(), e.to_string().into());
                            cell_row.insert(rhs.to_string(), serde_json::Value::Null)
                        }
                    };
                }
                cells.insert(lhs.to_string(), cell_row.into());
                if !error_row.is_empty() {
                    errors.insert(lhs.to_string(), error_row.into());
                }
            }
            let doc = serde_json::json!({
                "rules": table.name,
                "options": opts,
                "dtypes": names,
                "table": cells,
                "weak": weak,
                "errors": errors,
            });
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        Format::Csv => {
            let field = |name: &str| csv_field(name).into_owned();
            let header: Vec<String> = names.iter().map(|n| field(n)).collect();
            let mut out = format!("lhs\\rhs,{}\n", header.join(","));
            for (lhs, row) in names.iter().zip(&matrix) {
                let cells: Vec<String> = row.iter().map(|r| field(cell(r))).collect();
                out += &format!("{},{}\n", field(lhs), cells.join(","));
            }
            out
        }
        Format::Markdown => {
            let mut out = format!(
                "| lhs \\ rhs | {} |\n|---|{}\n",
                names.join(" | "),
                "---|".repeat(names.len())
            );
            for (i, (lhs, row)) in names.iter().zip(&matrix).enumerate() {
                let cells: Vec<String> = row.iter().enumerate().map(|(j, r)| marked(i, j, r)).collect();
                out += &format!("| **{lhs}** | {} |\n", cells.join(" | "));
            }
            if any_weak {
                out += "\n`*`: weakly typed\n";
            }
            out
        }
        Format::Text => {
            let width = names.iter().map(|n| n.len()).max().unwrap_or(1).max(3);
            let mut out = format!("# {} ({}), op {op}", table.name, visible(table.version));
            if !settings.is_empty() {
                out += &format!(", {}", settings.join(", "));
            }
            out += "; rows lhs, columns rhs, x refused";
            out += if any_weak { ", * weakly typed\n" } else { "\n" };
            let width = width + usize::from(any_weak);
            out += &format!("{:width$}", "");
            for n in &names {
                out += &format!(" {n:>width$}");
            }
            out += "\n";
            for (i, (lhs, row)) in names.iter().zip(&matrix).enumerate() {
                out += &format!("{lhs:width$}");
                for (j, r) in row.iter().enumerate() {
                    out += &format!(" {:>width$}", marked(i, j, r));
                }
                out += "\n";
            }
            out
        }
    }
}
