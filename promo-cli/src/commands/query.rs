//! `promo query` (one pair, or one pair per line of standard input) and
//! `promo explain` (the statement of the rule file that decided a pair).

use promo_query::question::{Question, QuestionError};
use promo_table::{Op, Options, RuleTable};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use crate::args::{bad_input, options_and_op, refused, with_rules, RuleSet};
use crate::escape::{visible, visible_lines};
use crate::write::{emit, write_failed};

/// Arguments of `promo query`.
#[derive(clap::Args)]
pub struct QueryArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// The operands, as many as the operation takes (two for `add`, one for `sqrt`
    /// or `sum`, two or more for `concatenate`): each DTYPE (a tensor), scalar:DTYPE
    /// (rank 0) or python:bool|int|float|complex. (Required without --stdin; checked
    /// after RULES, so that a rule set left out is named as such.)
    #[arg(value_name = "OPERAND")]
    operands: Vec<String>,
    /// Set an option, e.g. `--set pytorch_scalar_promotion=true` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide` or `sqrt`, or an operator such as
    /// `/` or `+=`).
    #[arg(long, default_value = "add")]
    op: String,
    /// Write the result into an existing array of this dtype (`out=`): its dtype
    /// where the framework casts the result into it, else the framework's refusal.
    #[arg(long, value_name = "DTYPE")]
    out: Option<String>,
    /// A reduction's `dtype=` argument (`sum`, `prod`, `mean`, `cumsum`, `cumprod`).
    #[arg(long, value_name = "DTYPE")]
    dtype: Option<String>,
    /// Answer one query per input line: `OPERAND... [KEY=VALUE]...` (`op=OP` sets the
    /// operation, `out=DTYPE` and `dtype=DTYPE` as the flags); each output line is
    /// the result or `!REASON`.
    #[arg(long, conflicts_with_all = ["operands", "out", "dtype"])]
    stdin: bool,
}

/// Arguments of `promo explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// The operands, as many as the operation takes: each DTYPE (a tensor),
    /// scalar:DTYPE (rank 0) or python:bool|int|float|complex. (Required; checked
    /// after RULES, so that a rule set left out is named as such.)
    #[arg(value_name = "OPERAND")]
    operands: Vec<String>,
    /// Set an option, e.g. `--set mode=static` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The operation (an API name such as `divide` or `sqrt`, or an operator such as
    /// `/` or `+=`).
    #[arg(long, default_value = "add")]
    op: String,
    /// Write the result into an existing array of this dtype (`out=`).
    #[arg(long, value_name = "DTYPE")]
    out: Option<String>,
    /// A reduction's `dtype=` argument.
    #[arg(long, value_name = "DTYPE")]
    dtype: Option<String>,
}

/// `promo query`.
pub fn run_query(args: &QueryArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        if args.stdin {
            return Ok(query_lines(table, &options, op));
        }
        let words: Vec<&str> = args.operands.iter().map(String::as_str).collect();
        let asked = question(table, op, &words, args.out.as_deref(), args.dtype.as_deref())?
            .map_err(|e| e.message(&format!("promo query {} ", args.rules), true))?;
        // A weakly typed result prints as the operand it is (`weak:i32`).
        Ok(
            match table.apply(&options, asked.op, &asked.operands, asked.out) {
                Ok(o) => emit(&format!("{}\n", o.result), ExitCode::SUCCESS),
                Err(e) => refused(promo_query::names::refusal(table, &e)),
            },
        )
    });
    match result.and_then(|r| r) {
        Ok(code) => code,
        Err(e) => bad_input(e),
    }
}

/// `promo explain`: the statement of the rule file that decided a pair.
pub fn run_explain(args: &ExplainArgs) -> ExitCode {
    let set = match RuleSet::named(&args.rules) {
        Ok(set) => set,
        Err(e) => return bad_input(e),
    };
    let (model, path, src) = match set.source() {
        Ok(source) => source,
        Err(e) => return bad_input(e),
    };
    let answer = model.with_table(|table| -> Result<String, String> {
        let (options, op) = options_and_op(table, &args.set, &args.op)?;
        let words: Vec<&str> = args.operands.iter().map(String::as_str).collect();
        let asked = question(table, op, &words, args.out.as_deref(), args.dtype.as_deref())?
            .map_err(|e| e.message(&format!("promo explain {} ", args.rules), true))?;
        Ok(promo_rules::explain_operation(
            &model,
            &path,
            &src,
            &options,
            asked.op,
            &asked.operands,
            asked.out,
        ))
    });
    match answer {
        Ok(text) => emit(&visible_lines(&text), ExitCode::SUCCESS),
        Err(e) => bad_input(e),
    }
}

use promo_query::names::operand;

/// The question a command line or a `--stdin` line asks: its operand words,
/// `dtype=` and `out=` read under the rule set, then checked against what the
/// operation takes.
fn question(
    table: &RuleTable<'_>,
    op: Op,
    words: &[&str],
    out: Option<&str>,
    dtype: Option<&str>,
) -> Result<Result<Question, QuestionError>, String> {
    let operands = words
        .iter()
        .map(|w| operand(table, w))
        .collect::<Result<Vec<_>, _>>()?;
    let dtype = dtype
        .map(|d| promo_query::names::dtype(Some(table), d))
        .transpose()?;
    let out = out.map(|o| operand(table, o)).transpose()?;
    Ok(Question::new(op, operands, dtype, out))
}

/// The longest query line read whole; a longer line is answered as too long, and
/// read past in pieces, so memory stays bounded whatever the input.
const MAX_LINE: usize = 64 * 1024;

/// One line of input: its text, or why it has none.
enum Line {
    Text(String),
    NotUtf8,
    /// Longer than [`MAX_LINE`]; `blank_or_comment` if its first byte other than a
    /// blank is `#`, or it has none (a comment or blank line at any length).
    TooLong {
        blank_or_comment: bool,
    },
}

/// Reads the next line (without its `\n` or `\r\n`), holding at most [`MAX_LINE`]
/// bytes of it; `None` at the end of the input.
fn next_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    // The line's first byte other than a blank, once seen.
    let mut first: Option<u8> = None;
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
        if first.is_none() {
            first = piece.iter().copied().find(|b| !b.is_ascii_whitespace());
        }
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
        let blank_or_comment = matches!(first, None | Some(b'#'));
        return Ok(Some(Line::TooLong { blank_or_comment }));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8(bytes).map_or(Line::NotUtf8, Line::Text)))
}

/// Answers one query per line of standard input, one answer line per query line:
/// the dtype, or `!` and why (a refusal, a bad line). Blank lines and comment lines
/// (`#` first, after any blanks) are skipped and answered by nothing. Exit 0 when
/// every query got a dtype, 1 when some got a `!` answer, 2 when the input could not
/// be read.
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
            Line::Text(text) if is_blank_or_comment(&text) => continue,
            Line::Text(text) => answer_line(table, base, base_op, &text),
            Line::NotUtf8 => Err(format!("line {n}: not UTF-8")),
            Line::TooLong {
                blank_or_comment: true,
            } => continue,
            Line::TooLong { .. } => Err(format!("line {n}: longer than {MAX_LINE} bytes")),
        };
        // One line per answer, whatever a reason holds.
        let answer = answer.unwrap_or_else(|e| format!("!{}", visible(&e)));
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

/// Whether a line of `--stdin` input holds no query: blank, or a `#` comment.
fn is_blank_or_comment(line: &str) -> bool {
    let line = line.trim_start();
    line.is_empty() || line.starts_with('#')
}

fn answer_line(table: &RuleTable<'_>, base: &Options, base_op: Op, line: &str) -> Result<String, String> {
    // The operands, then `KEY=VALUE` settings (a key is a word: NumPy's `=i8`, the
    // native byte order, is an operand).
    let is_setting = |w: &&str| {
        w.split_once('=')
            .is_some_and(|(k, _)| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    };
    let mut words = line.split_whitespace().peekable();
    let mut operand_words = Vec::new();
    while let Some(w) = words.next_if(|w| !is_setting(w)) {
        operand_words.push(w);
    }
    // `op=OP`, `out=DTYPE`, `dtype=DTYPE` and each option at most once on a line.
    let (mut op, mut out, mut dtype) = (None, None, None);
    let mut settings = Vec::new();
    for setting in words {
        let slot = match setting.split_once('=') {
            Some(("op", value)) => Some((&mut op, "op", value)),
            Some(("out", value)) => Some((&mut out, "out", value)),
            Some(("dtype", value)) => Some((&mut dtype, "dtype", value)),
            _ => None,
        };
        match slot {
            Some((slot, key, _)) if slot.is_some() => {
                return Err(promo_table::OptionError::SetTwice(key.to_owned()).to_string())
            }
            Some((slot, _, value)) => *slot = Some(value),
            None => settings.push(setting),
        }
    }
    let op = match op {
        Some(name) => promo_query::names::op(table, name)?,
        None => base_op,
    };
    let asked = question(table, op, &operand_words, out, dtype)?.map_err(|e| match e {
        QuestionError::Count(_, 0) => {
            format!("expected `OPERAND... [KEY=VALUE]...`: {}", e.message("", false))
        }
        e => e.message("", false),
    })?;
    let options = table
        .options_over(base, settings)
        .map_err(|e| promo_query::names::option_error(table, e))?;
    Ok(
        match table.apply(&options, asked.op, &asked.operands, asked.out) {
            Ok(o) => o.result.to_string(),
            Err(e) => format!("!{}", visible(&promo_query::names::refusal(table, &e))),
        },
    )
}
