//! `promo cast` (values given on the command line) and `promo convert` (a raw
//! little-endian buffer, streamed), both ONNX `Cast` as `promo_core::cast` does it.

use promo_core::cast::{
    cast_bits, convert_stream, convert_stream_exact, format_bits, par_convert_stream,
    par_convert_stream_exact, parse_str, CastOptions, Converter, StreamError, NEWEST_OPSET,
};
use promo_core::narrow::RoundMode;
use promo_core::DType;
use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use crate::args::bad_input;
use crate::write::{check_stdout, identity, regular_identity, shown, write_failed, Identity, Output};

/// The attributes of ONNX `Cast`, shared by both commands.
#[derive(clap::Args, Clone, Debug)]
pub struct CastAttributes {
    /// Clamp out-of-range values to the largest finite value (float8 and f8e8m0
    /// targets) instead of giving infinity or NaN. Without it, each target's own
    /// rule: ONNX formats saturate (ONNX's default), the ml_dtypes formats
    /// (f8e4m3, f8e3m4, f8e4m3b11fnuz) do not (ml_dtypes' conversion). Triton's
    /// f8e4m3b15 always clamps to ±1.75, as Triton's conversion does.
    #[arg(long, value_name = "BOOL", value_parser = parse_bool, action = clap::ArgAction::Set)]
    saturate: Option<bool>,
    /// The model's opset (before 24, ±inf becomes NaN in the FNUZ formats even with
    /// saturation, as the Cast-19..23 tables say).
    #[arg(long, value_name = "N", default_value_t = NEWEST_OPSET)]
    opset: u32,
    /// How a value becomes a power of two for f8e8m0 targets: up, down or nearest.
    #[arg(long, value_name = "MODE", default_value = "up")]
    round_mode: RoundMode,
}

/// The command's one boolean vocabulary, as `--set KEY=VALUE` reads it too:
/// `true`, `True` (Python's spelling) or `1`; `false`, `False` or `0`.
fn parse_bool(text: &str) -> Result<bool, String> {
    match text {
        "true" | "True" | "1" => Ok(true),
        "false" | "False" | "0" => Ok(false),
        _ => Err(format!("expected `true` or `false` (or `1`, `0`), not `{text}`")),
    }
}

impl CastAttributes {
    fn options(&self) -> CastOptions {
        CastOptions {
            saturate: self.saturate,
            opset: self.opset,
            round_mode: self.round_mode,
        }
    }
}

/// Arguments of `promo cast`.
#[derive(clap::Args, Clone, Debug)]
pub struct CastArgs {
    /// The source dtype: each VALUE is first read as a value of this type (rounded
    /// to it if needed); `string` casts the text itself.
    #[arg(long, value_name = "DTYPE", value_parser = promo_query::names::dtype_arg)]
    from: DType,
    /// The target dtype (`string` prints the text ONNX would produce).
    #[arg(long, value_name = "DTYPE", value_parser = promo_query::names::dtype_arg)]
    to: DType,
    #[command(flatten)]
    attributes: CastAttributes,
    /// Values: numbers (`1.5`, `-2e-3`, `inf`, `nan`, `300`) or, with a `0x`
    /// prefix, the bit pattern of a value of the source type (`0x7e`).
    #[arg(required = true, allow_hyphen_values = true, value_name = "VALUE")]
    values: Vec<String>,
}

/// Arguments of `promo convert`.
#[derive(clap::Args, Clone, Debug)]
pub struct ConvertArgs {
    /// The dtype of the input elements.
    #[arg(long, value_name = "DTYPE", value_parser = promo_query::names::dtype_arg)]
    from: DType,
    /// The dtype of the output elements.
    #[arg(long, value_name = "DTYPE", value_parser = promo_query::names::dtype_arg)]
    to: DType,
    #[command(flatten)]
    attributes: CastAttributes,
    /// Read the input from this file instead of standard input.
    #[arg(long, value_name = "FILE")]
    input: Option<std::path::PathBuf>,
    /// Write the output to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    /// The number of elements: the input must hold exactly the bytes they take
    /// (ceil(N × bits / 8)). A packed input (i4, u4, f4e2m1, i2, u2) then gives N
    /// elements, its last byte's unused high bits being padding; without it every
    /// element slot of every byte is an element.
    #[arg(long, value_name = "N")]
    count: Option<u64>,
}

impl ConvertArgs {
    /// Converts `input` into `output`, exactly `--count` elements if given: from a
    /// regular file (`file`) in large blocks converted on every core, else (a pipe,
    /// a terminal) in small chunks on one, so that a pipeline keeps flowing.
    fn stream(
        &self,
        converter: &Converter,
        input: &mut impl Read,
        output: &mut impl Write,
        file: bool,
    ) -> Result<u64, StreamError> {
        match (self.count, file) {
            (Some(n), true) => par_convert_stream_exact(converter, input, output, n),
            (Some(n), false) => convert_stream_exact(converter, input, output, n),
            (None, true) => par_convert_stream(converter, input, output),
            (None, false) => convert_stream(converter, input, output),
        }
    }
}

/// Runs `promo cast`: one line per value, `VALUE -> DTYPE BITS (VALUE)`.
pub fn run_cast(args: &CastArgs) -> ExitCode {
    let options = args.attributes.options();
    if let Err(e) = options.check_opset(args.from, args.to) {
        return bad_input(e);
    }
    let mut failed = false;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for text in &args.values {
        match cast_line(text, args.from, args.to, &options) {
            Ok(line) => {
                if let Err(e) = writeln!(out, "{line}") {
                    return write_failed(&e, ExitCode::SUCCESS);
                }
            }
            Err(message) => {
                bad_input(message);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `text` as a value of `from`: its bit pattern (4-bit types as their code).
fn source_bits(text: &str, from: DType, options: &CastOptions) -> Result<u64, String> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let bits = u64::from_str_radix(hex, 16).map_err(|_| format!("bad bit pattern `{text}`"))?;
        let width = from.bits();
        if width < 64 && bits >> width != 0 {
            return Err(format!(
                "bit pattern `{text}` is wider than {from} ({width} bits)"
            ));
        }
        return Ok(bits);
    }
    parse_str(text, from, options).map_err(|e| format!("{e} (as {from})"))
}

/// The value `bits` of `dtype` stands for, for people: integers in decimal, floats
/// with the digits needed to be exact (scientific outside 1e-4..1e16).
fn describe(dtype: DType, bits: u64) -> String {
    if dtype == DType::Bool {
        return (if bits != 0 { "true" } else { "false" }).to_owned();
    }
    if dtype.is_integer() {
        return format_bits(dtype, bits).unwrap_or_default();
    }
    let Ok(x) = cast_bits(dtype, DType::F64, bits, &CastOptions::default()) else {
        return String::new();
    };
    let x = f64::from_bits(x);
    if x == 0.0 || !x.is_finite() || (1e-4..1e16).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// One line of `promo cast` output, or why the value cannot be cast.
pub fn cast_line(text: &str, from: DType, to: DType, options: &CastOptions) -> Result<String, String> {
    if from == DType::String {
        if to == DType::String {
            return Ok(format!("{text} -> string {text:?}"));
        }
        let bits = parse_str(text, to, options).map_err(|e| match e {
            promo_core::cast::ParseValueError::NoCast(_) => e.to_string(),
            e => format!("{e} (as {to})"),
        })?;
        return Ok(format!(
            "{text} -> {to} {} ({})",
            hex(to, bits),
            describe(to, bits)
        ));
    }
    let bits = source_bits(text, from, options)?;
    if to == DType::String {
        let s = format_bits(from, bits).ok_or_else(|| format!("no ONNX Cast from {from} to string"))?;
        return Ok(format!("{text} -> string {s:?}"));
    }
    let result = cast_bits(from, to, bits, options).map_err(|e| e.to_string())?;
    Ok(format!(
        "{text} -> {to} {} ({})",
        hex(to, result),
        describe(to, result)
    ))
}

/// `bits` in hex, padded to the width of `dtype` (`0x7e`, `0x7c00`, `0x8`).
fn hex(dtype: DType, bits: u64) -> String {
    let digits = (dtype.bits() as usize).div_ceil(4);
    format!("{bits:#0width$x}", width = digits + 2)
}

/// Runs `promo convert`.
pub fn run_convert(args: &ConvertArgs) -> ExitCode {
    if let Err(e) = args.attributes.options().check_opset(args.from, args.to) {
        return bad_input(e);
    }
    let converter = match Converter::new(args.from, args.to, args.attributes.options()) {
        Ok(c) => c,
        Err(e) => return bad_input(e),
    };
    let (mut input, file): (Box<dyn Read>, bool) = match &args.input {
        Some(path) => match File::open(path) {
            Ok(f) => {
                let regular = f.metadata().is_ok_and(|m| m.is_file());
                (Box::new(f), regular)
            }
            Err(e) => return bad_input(format_args!("cannot read {}: {e}", shown(path))),
        },
        None => (Box::new(io::stdin().lock()), false),
    };
    // The input, by device and inode: the file named, or what standard input is.
    let inputs: Vec<Identity> = match &args.input {
        Some(path) => identity(path).ok().into_iter().collect(),
        None => regular_identity(io::stdin()).into_iter().collect(),
    };
    let Some(path) = &args.output else {
        if let Err(e) = check_stdout(&inputs) {
            return bad_input(e);
        }
        let mut output = io::stdout().lock();
        return match args.stream(&converter, &mut input, &mut output, file) {
            Ok(_) => ExitCode::SUCCESS,
            Err(StreamError::Write(e)) => write_failed(&e, ExitCode::SUCCESS),
            Err(e) => bad_input(e),
        };
    };
    let mut output = match Output::open(path, &inputs) {
        Ok(output) => output,
        Err(e) => return bad_input(e),
    };
    match args.stream(&converter, &mut input, output.writer(), file) {
        Ok(_) => match output.commit() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => bad_input(e),
        },
        Err(StreamError::Write(e)) => bad_input(format_args!("cannot write {}: {e}", shown(path))),
        Err(e) if output.replaces() => bad_input(format_args!("{e}; {} is left as it was", shown(path))),
        Err(e) => bad_input(format_args!(
            "{e}; {} holds what was converted before it",
            shown(path)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> CastOptions {
        CastOptions::default()
    }

    #[test]
    fn cast_lines() {
        let line = |t, f: &str, to: &str| cast_line(t, f.parse().unwrap(), to.parse().unwrap(), &opts());
        assert_eq!(
            line("464", "f32", "f8e4m3fn").unwrap(),
            "464 -> f8e4m3fn 0x7e (448)"
        );
        assert_eq!(line("200", "i16", "i8").unwrap(), "200 -> i8 0xc8 (-56)");
        assert_eq!(line("-1", "f32", "f4e2m1").unwrap(), "-1 -> f4e2m1 0xa (-1)");
        assert_eq!(
            line("0x7c00", "f16", "f32").unwrap(),
            "0x7c00 -> f32 0x7f800000 (inf)"
        );
        assert_eq!(
            line("nan", "f32", "f8e4m3fnuz").unwrap(),
            "nan -> f8e4m3fnuz 0x80 (NaN)"
        );
        assert_eq!(line("1e-5", "f64", "string").unwrap(), "1e-5 -> string \"1e-05\"");
        assert_eq!(line("3", "string", "u4").unwrap(), "3 -> u4 0x3 (3)");
        assert_eq!(line("0.1", "f32", "bool").unwrap(), "0.1 -> bool 0x01 (true)");
        assert!(line("abc", "f32", "f16").is_err());
        assert!(line("0x1ff", "f8e4m3fn", "f32").is_err());
        assert!(line("1", "f32", "c64").is_err());
    }

    #[test]
    fn round_mode_and_saturate_apply() {
        let down = CastOptions {
            round_mode: RoundMode::Down,
            ..opts()
        };
        assert_eq!(
            cast_line("3", DType::F32, DType::F8E8M0, &down).unwrap(),
            "3 -> f8e8m0 0x80 (2)"
        );
        assert_eq!(
            cast_line("3", DType::F32, DType::F8E8M0, &opts()).unwrap(),
            "3 -> f8e8m0 0x81 (4)"
        );
        let wrap = CastOptions {
            saturate: Some(false),
            ..opts()
        };
        assert_eq!(
            cast_line("1e9", DType::F32, DType::F8E5M2, &wrap).unwrap(),
            "1e9 -> f8e5m2 0x7c (inf)"
        );
    }

    use promo_core::cast::{ConvertError, CHUNK_BYTES};

    fn stream(from: DType, to: DType, input: &[u8]) -> (Result<u64, StreamError>, Vec<u8>) {
        let converter = Converter::new(from, to, opts()).unwrap();
        let mut out = Vec::new();
        let result = convert_stream(&converter, &mut &input[..], &mut out);
        (result, out)
    }

    #[test]
    fn streams_match_whole_buffer_conversion() {
        // Several chunks, the last one partial, every f32 → f8e5m2 code path.
        let count = CHUNK_BYTES / 4 * 2 + 12345;
        let input: Vec<u8> = (0..count as u32)
            .flat_map(|i| i.wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
        let (result, out) = stream(DType::F32, DType::F8E5M2, &input);
        assert_eq!(result.unwrap(), count as u64);
        let whole = promo_core::cast::convert(DType::F32, DType::F8E5M2, &input, &opts()).unwrap();
        assert_eq!(out, whole);
        // 4-bit targets stay packed across chunk boundaries.
        let (result, out) = stream(DType::F32, DType::F4E2M1, &input);
        assert_eq!(result.unwrap(), count as u64);
        let whole = promo_core::cast::convert(DType::F32, DType::F4E2M1, &input, &opts()).unwrap();
        assert_eq!(out, whole);
    }

    #[test]
    fn partial_element_names_its_offset() {
        let mut input = vec![0u8; CHUNK_BYTES + 6];
        input[CHUNK_BYTES] = 0x3c; // arbitrary
        let (result, out) = stream(DType::F32, DType::F16, &input);
        let err = result.unwrap_err();
        assert!(
            matches!(err, StreamError::Convert(ConvertError::PartialElement { offset, size: 4 }) if offset == CHUNK_BYTES as u64 + 4),
            "{err}"
        );
        assert!(err.to_string().contains(&format!("{}", CHUNK_BYTES + 4)), "{err}");
        assert_eq!(out.len(), (CHUNK_BYTES / 4 + 1) * 2);
        let (result, out) = stream(DType::I4, DType::I8, &[0x21, 0xf3]);
        assert_eq!(result.unwrap(), 4);
        assert_eq!(out, [1, 2, 3, 0xff]);
        let (result, _) = stream(DType::F64, DType::F32, &[]);
        assert_eq!(result.unwrap(), 0);
    }
}
