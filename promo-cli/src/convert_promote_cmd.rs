//! `promo convert-promote`: OpenVINO's `ConvertPromoteTypes` on two raw buffers,
//! for any rule set.

use crate::promote_cmd::{options_and_op, with_rules};
use promo_core::convert_promote::{convert_promote, Buffer};
use promo_core::DType;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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

/// `DTYPE:FILE`, read.
fn operand(spec: &str) -> Result<(DType, Vec<u8>), String> {
    let (dtype, file) = spec
        .split_once(':')
        .ok_or_else(|| format!("bad operand `{spec}`: expected DTYPE:FILE"))?;
    let dtype: DType = dtype.parse().map_err(|e| format!("{e}"))?;
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    Ok((dtype, bytes))
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed into place,
/// so an output that names an input never truncates it before it is read.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("`{}` is not a file path", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".promo-{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let write = || -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write `{}`: {e}", path.display())
    })
}

/// Runs `promo convert-promote`: prints the promoted dtype and writes both
/// operands converted to it. Exit 1 when the rule set refuses the pair, 2 on bad input.
pub fn run_convert_promote(args: &ConvertPromoteArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| -> Result<DType, (u8, String)> {
        let (options, op) = options_and_op(table, &args.set, &args.op).map_err(|e| (2, e))?;
        let (lhs_dtype, lhs) = operand(&args.lhs).map_err(|e| (2, e))?;
        let (rhs_dtype, rhs) = operand(&args.rhs).map_err(|e| (2, e))?;
        let lhs = Buffer {
            dtype: lhs_dtype,
            bytes: &lhs,
        };
        let rhs = Buffer {
            dtype: rhs_dtype,
            bytes: &rhs,
        };
        let out = convert_promote(table, &options, op, lhs, rhs).map_err(|e| match e {
            promo_core::convert_promote::ConvertPromoteError::Refused(r) => (1, format!("refused: {r}")),
            other => (2, other.to_string()),
        })?;
        write_atomically(&args.out_lhs, &out.lhs).map_err(|e| (2, e))?;
        write_atomically(&args.out_rhs, &out.rhs).map_err(|e| (2, e))?;
        Ok(out.dtype)
    });
    match result {
        Ok(Ok(dtype)) => {
            let mut stdout = std::io::stdout().lock();
            match writeln!(stdout, "{dtype}") {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("promo: cannot write the output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Ok(Err((code, message))) => {
            eprintln!("{}{message}", if code == 1 { "" } else { "promo: " });
            ExitCode::from(code)
        }
        Err(message) => {
            eprintln!("promo: {message}");
            ExitCode::from(2)
        }
    }
}
