//! `promo convert-promote`: OpenVINO's `ConvertPromoteTypes` on two raw buffers,
//! for any rule set, streamed in bounded memory.

use promo_core::cast::{convert_stream, StreamError};
use promo_core::convert_promote::{converters, ConvertPromoteError};
use promo_core::DType;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::args::{bad_input, options_and_op, refused, with_rules};
use crate::write::{commit_all, emit, identity, shown, Identity, Output};

/// Arguments of `promo convert-promote`.
#[derive(clap::Args, Clone, Debug)]
pub struct ConvertPromoteArgs {
    /// A bundled rule set (`openvino`, …) or a rule file path.
    rules: String,
    /// The left operand: its dtype and a file of its little-endian elements.
    #[arg(long, value_name = "DTYPE:FILE")]
    lhs: String,
    /// The right operand, as `--lhs`.
    #[arg(long, value_name = "DTYPE:FILE")]
    rhs: String,
    /// Where the left operand goes, converted to the promoted dtype.
    #[arg(long, value_name = "FILE")]
    out_lhs: PathBuf,
    /// Where the right operand goes, converted to the promoted dtype.
    #[arg(long, value_name = "FILE")]
    out_rhs: PathBuf,
    /// Set an option: KEY=VALUE (the framework's own option names).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation whose promotion applies.
    #[arg(long, default_value = "add")]
    op: String,
}

/// `DTYPE:FILE`, split, the dtype spelled as `table` spells it.
fn operand<'s>(table: &promo_table::RuleTable<'_>, spec: &'s str) -> Result<(DType, &'s Path), String> {
    let (dtype, file) = spec
        .split_once(':')
        .ok_or_else(|| format!("bad operand `{spec}`: expected DTYPE:FILE"))?;
    Ok((promo_query::names::dtype(Some(table), dtype)?, Path::new(file)))
}

/// Why the command stopped: refused (exit 1) or bad input (exit 2).
enum Stop {
    Refused(String),
    Bad(String),
}

/// Converts both operands into their outputs, then commits both or neither.
fn run(args: &ConvertPromoteArgs) -> Result<DType, Stop> {
    let found = with_rules(&args.rules, |table| -> Result<_, Stop> {
        let (lhs_dtype, lhs_path) = operand(table, &args.lhs).map_err(Stop::Bad)?;
        let (rhs_dtype, rhs_path) = operand(table, &args.rhs).map_err(Stop::Bad)?;
        let (options, op) = options_and_op(table, &args.set, &args.op).map_err(Stop::Bad)?;
        let converters = converters(table, &options, op, lhs_dtype, rhs_dtype).map_err(|e| match e {
            ConvertPromoteError::Refused(r) => Stop::Refused(r.to_string()),
            other => Stop::Bad(other.to_string()),
        })?;
        Ok((converters, lhs_path, rhs_path))
    });
    let ((dtype, lhs_converter, rhs_converter), lhs_path, rhs_path) = found.map_err(Stop::Bad)??;
    let out_ids = [&args.out_lhs, &args.out_rhs].map(|p| identity(p));
    if let (Ok(a), Ok(b)) = (&out_ids[0], &out_ids[1]) {
        if a == b {
            return Err(Stop::Bad(format!(
                "{} and {} are the same file: each operand needs an output of its own",
                shown(&args.out_lhs),
                shown(&args.out_rhs)
            )));
        }
    }
    let inputs: Vec<Identity> = [lhs_path, rhs_path]
        .iter()
        .filter_map(|p| identity(p).ok())
        .collect();
    let mut outputs = Vec::with_capacity(2);
    for (converter, input_path, out) in [
        (&lhs_converter, lhs_path, &args.out_lhs),
        (&rhs_converter, rhs_path, &args.out_rhs),
    ] {
        let read_failed = |e| Stop::Bad(format!("cannot read {}: {e}", shown(input_path)));
        let mut input = File::open(input_path).map_err(read_failed)?;
        let mut output = Output::open(out, &inputs).map_err(Stop::Bad)?;
        convert_stream(converter, &mut input, output.writer()).map_err(|e| match e {
            StreamError::Write(e) => Stop::Bad(format!("cannot write {}: {e}", shown(out))),
            StreamError::Read(e) => read_failed(e),
            e => Stop::Bad(format!("{}: {e}", shown(input_path))),
        })?;
        outputs.push(output);
    }
    commit_all(outputs).map_err(Stop::Bad)?;
    Ok(dtype)
}

/// Runs `promo convert-promote`: writes both operands converted to the promoted
/// dtype and prints it. Exit 1 when the rule set refuses the pair, 2 on bad input;
/// outputs that are regular files are then left as they were.
pub fn run_convert_promote(args: &ConvertPromoteArgs) -> ExitCode {
    match run(args) {
        Ok(dtype) => emit(&format!("{dtype}\n"), ExitCode::SUCCESS),
        Err(Stop::Refused(reason)) => refused(reason),
        Err(Stop::Bad(message)) => bad_input(message),
    }
}
