//! `promo`: promotion tables, queries and rule-file checks from the command line,
//! and ONNX `Cast` of values and buffers.

mod cast_cmd;
mod convert_promote_cmd;
mod diff_cmd;
mod gen_cmd;
mod grid;
mod output;
mod promote_cmd;

use clap::{Parser, Subcommand};
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
    /// List the bundled rule sets, their options and defaults.
    List,
    /// Print the tensor-with-tensor promotion matrix of a rule set.
    Table(promote_cmd::TableArgs),
    /// Promote one pair of operands (or many, with --stdin).
    Query(promote_cmd::QueryArgs),
    /// Show which statement of the rule file decided a pair: the layer, the lattice
    /// path or the rule, and the exception if one applied.
    Explain(promote_cmd::ExplainArgs),
    /// Every cell where two rule sets, or two option settings of one, disagree; or
    /// with --all the agreement matrix of the bundled rule sets.
    Diff(diff_cmd::DiffArgs),
    /// Write a rule set's tables as standalone source: a Rust module or a C header.
    Gen(gen_cmd::GenArgs),
    /// Validate rule files with the same diagnostics as the compiler.
    Check(promote_cmd::CheckArgs),
    /// Cast values from one dtype to another, as ONNX Cast does.
    Cast(cast_cmd::CastArgs),
    /// Convert a raw little-endian buffer from one dtype to another.
    Convert(cast_cmd::ConvertArgs),
    /// Convert two buffers to the dtype a rule set promotes them to (OpenVINO's ConvertPromoteTypes).
    ConvertPromote(convert_promote_cmd::ConvertPromoteArgs),
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
        Command::List => promote_cmd::run_list(),
        Command::Table(args) => promote_cmd::run_table(&args),
        Command::Query(args) => promote_cmd::run_query(&args),
        Command::Explain(args) => promote_cmd::run_explain(&args),
        Command::Diff(args) => diff_cmd::run_diff(&args),
        Command::Gen(args) => gen_cmd::run_gen(&args),
        Command::Check(args) => promote_cmd::run_check(&args),
        Command::Cast(args) => cast_cmd::run_cast(&args),
        Command::Convert(args) => cast_cmd::run_convert(&args),
        Command::ConvertPromote(args) => convert_promote_cmd::run_convert_promote(&args),
    }
}
