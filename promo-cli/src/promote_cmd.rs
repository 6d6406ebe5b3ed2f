//! `promo list`, `promo table`, `promo query` and `promo check`.

use promo_core::rules;
use promo_table::{DType, Op, Operand, OptionKind, Options, RuleTable};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::output::{emit, write_failed};

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

/// Arguments of `promo query`.
#[derive(clap::Args)]
pub struct QueryArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// Left operand: DTYPE (a tensor), scalar:DTYPE (rank 0) or python:bool|int|float|complex.
    #[arg(required_unless_present = "stdin")]
    lhs: Option<String>,
    /// Right operand, as LHS.
    #[arg(required_unless_present = "stdin")]
    rhs: Option<String>,
    /// Set an option, e.g. `--set pytorch_scalar_promotion=true` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide`, or an operator such as `/`).
    #[arg(long, default_value = "add")]
    op: String,
    /// Answer one query per input line: `LHS RHS [KEY=VALUE]...` (`op=OP` sets the
    /// operation); each output line is the result or `!REASON`.
    #[arg(long, conflicts_with_all = ["lhs", "rhs"])]
    stdin: bool,
}

/// Arguments of `promo explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// Left operand: DTYPE (a tensor), scalar:DTYPE (rank 0) or python:bool|int|float|complex.
    lhs: String,
    /// Right operand, as LHS.
    rhs: String,
    /// Set an option, e.g. `--set mode=static` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide`, or an operator such as `/`).
    #[arg(long, default_value = "add")]
    op: String,
}

/// Arguments of `promo check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Rule files to validate (with --properties: bundled rule sets or rule files).
    #[arg(required = true)]
    files: Vec<String>,
    /// Report whether each `add` table is commutative, associative and a lattice,
    /// with a counterexample where it is not.
    #[arg(long)]
    properties: bool,
    /// With --properties: set an option, e.g. `--set promote_unsafe=true` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "properties")]
    set: Vec<String>,
}

fn bad_input(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("promo: {message}");
    ExitCode::from(2)
}

/// Runs `f` on the bundled rule set called `spec`, or on the rule file at path `spec`.
pub(crate) fn with_rules<R>(spec: &str, f: impl FnOnce(&RuleTable<'_>) -> R) -> Result<R, String> {
    if let Some(table) = rules::by_name(spec) {
        return Ok(f(table));
    }
    if !spec.ends_with(".toml") && !std::path::Path::new(spec).exists() {
        let names: Vec<&str> = rules::ALL.iter().map(|t| t.name).collect();
        return Err(format!(
            "unknown rule set `{spec}`: expected one of {} or a rule file path",
            names.join(", ")
        ));
    }
    let src = std::fs::read_to_string(spec).map_err(|e| format!("cannot read `{spec}`: {e}"))?;
    let model = promo_rules::load(spec, &src).map_err(|d| d.to_string())?;
    Ok(model.with_table(f))
}

pub(crate) fn options_and_op(
    table: &RuleTable<'_>,
    set: &[String],
    op: &str,
) -> Result<(Options, Op), String> {
    let options = table
        .options_from(set.iter().map(String::as_str))
        .map_err(|e| e.to_string())?;
    let op: Op = op.parse().map_err(|e: promo_table::UnknownOp| e.to_string())?;
    if !table.ops.is_empty() && !table.ops.contains(&op) {
        let ops: Vec<&str> = table.ops.iter().map(|o| o.name()).collect();
        return Err(format!(
            "operation `{op}` is not covered by {}: expected one of {}",
            table.name,
            ops.join(" ")
        ));
    }
    Ok((options, op))
}

/// `promo list`.
pub fn run_list() -> ExitCode {
    let mut out = String::new();
    for t in rules::ALL {
        out += &format!("{}  {} (version {})\n", t.name, t.title, t.version);
        out += &format!(
            "  dtypes: {}\n",
            t.dtypes.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
        );
        if t.ops.is_empty() {
            out += "  ops: any (the result does not depend on the operation)\n";
        } else {
            out += &format!(
                "  ops: {}\n",
                t.ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(" ")
            );
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
        out += "\n";
    }
    let text = format!("{}\n", out.trim_end_matches('\n'));
    emit(&text, ExitCode::SUCCESS)
}

/// `promo table`.
pub fn run_table(args: &TableArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        Ok::<_, String>(render_table(table, &options, op, args.format))
    });
    match result.and_then(|r| r) {
        Ok(text) => emit(&text, ExitCode::SUCCESS),
        Err(e) => bad_input(e),
    }
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
    let settings: Vec<String> = table
        .options
        .iter()
        .zip(options.values())
        .map(|(o, &v)| format!("{}={}", o.name, o.format_value(v)))
        .collect();
    match format {
        Format::Html | Format::Svg => {
            let map = crate::grid::Grid {
                title: format!("{} ({}, version {})", table.name, table.title, table.version),
                subtitle: format!(
                    "op {op}{}{}; rows are the left operand, columns the right",
                    if settings.is_empty() { "" } else { ", " },
                    settings.join(", ")
                ),
                dtypes: table.dtypes.to_vec(),
                cells: matrix
                    .iter()
                    .map(|row| {
                        row.iter()
                            .map(|r| crate::grid::GridCell {
                                a: r.map_err(|e| e.to_string()),
                                b: None,
                            })
                            .collect()
                    })
                    .collect(),
            };
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
            let mut out = format!("lhs\\rhs,{}\n", names.join(","));
            for (lhs, row) in names.iter().zip(&matrix) {
                let cells: Vec<&str> = row.iter().map(cell).collect();
                out += &format!("{lhs},{}\n", cells.join(","));
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
            let mut out = format!("# {} ({}), op {op}", table.name, table.version);
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

/// `promo query`.
pub fn run_query(args: &QueryArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        if args.stdin {
            return Ok(query_lines(table, &options, op));
        }
        let parse = |s: &Option<String>| -> Result<Operand, String> {
            s.as_deref()
                .unwrap_or("")
                .parse()
                .map_err(|e: promo_table::BadOperand| e.to_string())
        };
        let (lhs, rhs) = (parse(&args.lhs)?, parse(&args.rhs)?);
        Ok(match table.promote(&options, op, lhs, rhs) {
            Ok(d) => emit(&format!("{d}\n"), ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("refused: {e}");
                ExitCode::from(1)
            }
        })
    });
    match result.and_then(|r| r) {
        Ok(code) => code,
        Err(e) => bad_input(e),
    }
}

/// `promo check --properties`: each property of each rule set's `add` table.
fn run_properties(args: &CheckArgs) -> ExitCode {
    let mut out = String::new();
    for spec in &args.files {
        let report = with_rules(spec, |table| -> Result<String, String> {
            let (options, _) = options_and_op(table, &args.set, "add")?;
            let settings: Vec<String> = table
                .options
                .iter()
                .enumerate()
                .map(|(i, o)| format!("{}={}", o.name, o.format_value(options.get(i))))
                .collect();
            let mut text = if settings.is_empty() {
                format!("{}:\n", table.name)
            } else {
                format!("{} ({}):\n", table.name, settings.join(", "))
            };
            for property in promo_rules::properties::Property::ALL {
                let verdict = match promo_rules::properties::check(table, &options, property) {
                    Ok(()) => "yes".to_owned(),
                    Err(counterexample) => format!("no: {counterexample}"),
                };
                text.push_str(&format!("  {}: {verdict}\n", property.name()));
            }
            Ok(text)
        });
        match report.and_then(|r| r) {
            Ok(text) => out.push_str(&text),
            Err(e) => return bad_input(e),
        }
    }
    emit(&out, ExitCode::SUCCESS)
}

/// `promo explain`: the statement of the rule file that decided a pair.
pub fn run_explain(args: &ExplainArgs) -> ExitCode {
    let loaded = match rules::by_name(&args.rules) {
        Some(table) => {
            let index = rules::ALL.iter().position(|t| t.name == table.name).unwrap_or(0);
            let (path, src) = rules::SOURCES[index];
            Ok((path.to_owned(), src.to_owned()))
        }
        None if !args.rules.ends_with(".toml") && !std::path::Path::new(&args.rules).exists() => {
            with_rules(&args.rules, |_| ()).map(|()| (String::new(), String::new()))
        }
        None => std::fs::read_to_string(&args.rules)
            .map(|src| (args.rules.clone(), src))
            .map_err(|e| format!("cannot read `{}`: {e}", args.rules)),
    };
    let (path, src) = match loaded {
        Ok(found) => found,
        Err(e) => return bad_input(e),
    };
    let model = match promo_rules::load(&path, &src) {
        Ok(model) => model,
        Err(d) => return bad_input(d),
    };
    let answer = model.with_table(|table| -> Result<String, String> {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        let parse = |s: &str| -> Result<Operand, String> {
            s.parse().map_err(|e: promo_table::BadOperand| e.to_string())
        };
        let (lhs, rhs) = (parse(&args.lhs)?, parse(&args.rhs)?);
        Ok(promo_rules::explain(&model, &path, &src, &options, op, lhs, rhs))
    });
    match answer {
        Ok(text) => emit(&text, ExitCode::SUCCESS),
        Err(e) => bad_input(e),
    }
}

/// The longest query line read whole; a longer line is answered as too long, and
/// read past in pieces, so memory stays bounded whatever the input.
const MAX_LINE: usize = 64 * 1024;

/// One line of input: its text, or why it has none.
enum Line {
    Text(String),
    NotUtf8,
    TooLong,
}

/// Reads the next line (without its `\n` or `\r\n`), holding at most [`MAX_LINE`]
/// bytes of it; `None` at the end of the input.
fn next_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (piece, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long && bytes.len() + piece.len() <= MAX_LINE {
            bytes.extend_from_slice(piece);
        } else {
            too_long = true;
            bytes.clear();
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8(bytes).map_or(Line::NotUtf8, Line::Text)))
}

/// Answers one query per line of standard input, one answer line per input line:
/// the dtype, or `!` and why (a refusal, a bad line, `!empty line`). Exit 0 when
/// every line got a dtype, 1 when some got a `!` answer, 2 when the input could
/// not be read.
fn query_lines(table: &RuleTable<'_>, base: &Options, base_op: Op) -> ExitCode {
    let mut input = io::BufReader::new(io::stdin().lock());
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut refused = false;
    let mut n = 0usize;
    loop {
        let line = match next_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let _ = out.flush();
                return bad_input(format!("cannot read standard input after line {n}: {e}"));
            }
        };
        n += 1;
        let answer = match line {
            Line::Text(text) if text.trim().is_empty() => Err("empty line".to_owned()),
            Line::Text(text) => answer_line(table, base, base_op, &text),
            Line::NotUtf8 => Err(format!("line {n}: not UTF-8")),
            Line::TooLong => Err(format!("line {n}: longer than {MAX_LINE} bytes")),
        };
        let answer = answer.unwrap_or_else(|e| format!("!{e}"));
        refused |= answer.starts_with('!');
        if let Err(e) = writeln!(out, "{answer}") {
            return write_failed(&e, ExitCode::from(u8::from(refused)));
        }
    }
    let status = if refused {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    match out.flush() {
        Ok(()) => status,
        Err(e) => write_failed(&e, status),
    }
}

fn answer_line(table: &RuleTable<'_>, base: &Options, base_op: Op, line: &str) -> Result<String, String> {
    let mut words = line.split_whitespace();
    let mut operand = || -> Result<Operand, String> {
        let w = words.next().ok_or("expected `LHS RHS [KEY=VALUE]...`")?;
        w.parse().map_err(|e: promo_table::BadOperand| e.to_string())
    };
    let (lhs, rhs) = (operand()?, operand()?);
    // `op=OP` and each option at most once on a line.
    let mut op = None;
    let mut settings = Vec::new();
    for setting in words {
        match setting.split_once('=') {
            Some(("op", _)) if op.is_some() => {
                return Err(promo_table::OptionError::SetTwice("op".to_owned()).to_string())
            }
            Some(("op", value)) => {
                op = Some(value.parse().map_err(|e: promo_table::UnknownOp| e.to_string())?);
            }
            _ => settings.push(setting),
        }
    }
    let options = table.options_over(base, settings).map_err(|e| e.to_string())?;
    let op = op.unwrap_or(base_op);
    Ok(match table.promote(&options, op, lhs, rhs) {
        Ok(d) => d.name().to_owned(),
        Err(e) => format!("!{e}"),
    })
}

/// `promo check`.
pub fn run_check(args: &CheckArgs) -> ExitCode {
    if args.properties {
        return run_properties(args);
    }
    let (mut failed, mut unreadable) = (false, false);
    for path in &args.files {
        let src = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("promo: cannot read `{path}`: {e}");
                unreadable = true;
                continue;
            }
        };
        match promo_rules::load(path, &src) {
            Ok(rules) => {
                let layers = rules.layers.len();
                let line = format!(
                    "{path}: ok ({} dtypes, {layers} layer{})\n",
                    rules.dtypes.len(),
                    if layers == 1 { "" } else { "s" }
                );
                if let Err(e) = io::stdout().write_all(line.as_bytes()) {
                    return write_failed(&e, ExitCode::SUCCESS);
                }
            }
            Err(d) => {
                eprintln!("{d}\n");
                eprintln!(
                    "{path}: {} error{}",
                    d.errors.len(),
                    if d.errors.len() == 1 { "" } else { "s" }
                );
                failed = true;
            }
        }
    }
    if unreadable {
        ExitCode::from(2)
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
