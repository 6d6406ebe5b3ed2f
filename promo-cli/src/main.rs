//! `promo`: promotion tables, queries and rule-file checks from the command line,
//! and ONNX `Cast` of values and buffers.

mod args;
mod commands;
mod escape;
mod grid;
mod write;

use clap::{Parser, Subcommand};
use commands::{cast, check, convert_promote, diff, gen, list, query, table};
use std::process::ExitCode;

/// ML dtype promotion rules as data, and ONNX Cast bit for bit.
#[derive(Parser)]
#[command(name = "promo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the bundled rule sets, their options and defaults; with RULES, that rule
    /// set's spellings of its dtypes too.
    List(list::ListArgs),
    /// Print the tensor-with-tensor promotion matrix of a rule set.
    Table(table::TableArgs),
    /// Promote one pair of operands (or many, with --stdin).
    Query(query::QueryArgs),
    /// Show which statement of the rule file decided a pair: the layer, the lattice
    /// path or the rule, and the exception if one applied.
    Explain(query::ExplainArgs),
    /// Every cell where two rule sets, or two option settings of one, disagree; or
    /// with --all the agreement matrix of the bundled rule sets.
    Diff(diff::DiffArgs),
    /// Write a rule set's tables as standalone source: a Rust module or a C header.
    Gen(gen::GenArgs),
    /// Validate rule files with the same diagnostics as the compiler.
    Check(check::CheckArgs),
    /// Cast values from one dtype to another, as ONNX Cast does.
    Cast(cast::CastArgs),
    /// Convert a raw little-endian buffer from one dtype to another.
    Convert(cast::ConvertArgs),
    /// Convert two buffers to the dtype a rule set promotes them to (OpenVINO's ConvertPromoteTypes).
    ConvertPromote(convert_promote::ConvertPromoteArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::List(args) => list::run_list(&args),
        Command::Table(args) => table::run_table(&args),
        Command::Query(args) => query::run_query(&args),
        Command::Explain(args) => query::run_explain(&args),
        Command::Diff(args) => diff::run_diff(&args),
        Command::Gen(args) => gen::run_gen(&args),
        Command::Check(args) => check::run_check(&args),
        Command::Cast(args) => cast::run_cast(&args),
        Command::Convert(args) => cast::run_convert(&args),
        Command::ConvertPromote(args) => convert_promote::run_convert_promote(&args),
    }
}
