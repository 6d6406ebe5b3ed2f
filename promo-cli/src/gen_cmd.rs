//! `promo gen`: a rule set's tensor-with-tensor tables as standalone source, a Rust
//! module or a C header, for builds that do not want a proc-macro.

use promo_table::{DType, Op, Operand, Options, Refusal, RuleTable};
use std::fmt::Write;
use std::process::ExitCode;

use crate::output::emit;
use crate::promote_cmd::with_rules;

/// Target languages of `promo gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// A Rust module: `DType` and `Op` enums, `const` tables, a `promote` function.
    Rust,
    /// A C header: enums, `static const` tables, a `static inline` lookup.
    C,
}

/// Arguments of `promo gen`.
#[derive(clap::Args)]
pub struct GenArgs {
    /// A bundled rule set (`promo list`) or the path of a rule file.
    rules: String,
    /// The language of the output.
    #[arg(long, value_enum)]
    lang: Lang,
    /// Set an option, e.g. `--set mode=static` (repeatable); the tables are those
    /// of these settings.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

/// A cell's code in the generated tables: the dtype's position in the rule set's
/// dtype list, or `REFUSED | reason` for a refusal.
const REFUSED: u16 = 0x8000;

/// The tables of one rule set under one option setting, ready to print.
struct Tables {
    /// The rule set's name, for identifiers.
    name: String,
    /// Rule set, version, options: the `@generated` line's facts.
    origin: String,
    dtypes: Vec<DType>,
    /// The operations (empty: one table for every operation).
    ops: Vec<Op>,
    /// Distinct tables, `dtypes.len()`² codes each, row-major.
    tables: Vec<Vec<u16>>,
    /// For each op (or the single table), its index into `tables`.
    table_of_op: Vec<usize>,
    /// Refusal messages, indexed by the low bits of a refused code.
    reasons: Vec<String>,
}

fn collect(table: &RuleTable<'_>, options: &Options, spec: &str) -> Tables {
    let dtypes = table.dtypes.to_vec();
    let ops = table.ops.to_vec();
    // Each distinct refusal once: a rule set's reasons by index, the others by kind.
    let mut refusals: Vec<Refusal<'_>> = Vec::new();
    let mut tables: Vec<Vec<u16>> = Vec::new();
    let mut table_of_op = Vec::new();
    let ops_or_one: Vec<Op> = if ops.is_empty() {
        vec![Op::Add]
    } else {
        ops.clone()
    };
    for &op in &ops_or_one {
        let mut codes = Vec::with_capacity(dtypes.len() * dtypes.len());
        for &l in &dtypes {
            for &r in &dtypes {
                let code = match table.promote(options, op, Operand::Dimensioned(l), Operand::Dimensioned(r))
                {
                    Ok(d) => dtypes.iter().position(|&x| x == d).map_or(REFUSED, |i| i as u16),
                    Err(e) => {
                        let i = refusals.iter().position(|x| *x == e).unwrap_or_else(|| {
                            refusals.push(e);
                            refusals.len() - 1
                        });
                        REFUSED | i as u16
                    }
                };
                codes.push(code);
            }
        }
        let index = tables.iter().position(|t| *t == codes).unwrap_or_else(|| {
            tables.push(codes);
            tables.len() - 1
        });
        table_of_op.push(index);
    }
    let settings: Vec<String> = table
        .options
        .iter()
        .zip(options.values())
        .map(|(o, &v)| format!("{}={}", o.name, o.format_value(v)))
        .collect();
    let origin = format!(
        "{spec} ({}, version {}){}",
        table.title,
        table.version,
        if settings.is_empty() {
            String::new()
        } else {
            format!(", options {}", settings.join(" "))
        }
    );
    Tables {
        name: table.name.to_owned(),
        origin,
        dtypes,
        ops,
        tables,
        table_of_op,
        reasons: refusals.iter().map(Refusal::to_string).collect(),
    }
}

/// `f8e4m3fn` -> `F8e4m3fn`, `add` -> `Add`, `floor_divide` -> `FloorDivide`.
fn camel(name: &str) -> String {
    name.split('_')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A Rust string literal.
fn rust_literal(text: &str) -> String {
    format!("{text:?}")
}

/// A C string literal: non-ASCII bytes as `\xNN` escapes, each closed by `""` so
/// that a following hex digit is not read into it.
fn c_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b' '..=b'~' => out.push(b as char),
            b => {
                let _ = write!(out, "\\x{b:02x}\"\"");
            }
        }
    }
    out.push('"');
    out
}

fn rust(t: &Tables) -> String {
    let n = t.dtypes.len();
    let mut out = format!(
        "// @generated by `promo gen --lang rust` from {}. Do not edit: regenerate.\n\
         // Type promotion of {}: the result dtype of tensor with tensor, as tables.\n\n",
        t.origin, t.name
    );
    out += "/// The dtypes of the rule set, in table order.\n#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum DType {\n";
    for d in &t.dtypes {
        let _ = writeln!(out, "    /// `{d}`\n    {},", camel(d.name()));
    }
    out += "}\n\nimpl DType {\n    /// Every dtype, in table order.\n";
    let _ = writeln!(
        out,
        "    pub const ALL: [DType; {n}] = [{}];",
        t.dtypes
            .iter()
            .map(|d| format!("DType::{}", camel(d.name())))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out += "    /// The canonical name, e.g. `\"bf16\"`.\n    pub const fn name(self) -> &'static str {\n        match self {\n";
    for d in &t.dtypes {
        let _ = writeln!(out, "            DType::{} => \"{d}\",", camel(d.name()));
    }
    out += "        }\n    }\n}\n\n";
    if !t.ops.is_empty() {
        out += "/// The operations the rule set distinguishes.\n#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum Op {\n";
        for o in &t.ops {
            let _ = writeln!(out, "    /// `{o}`\n    {},", camel(o.name()));
        }
        out += "}\n\nimpl Op {\n    /// Every operation, in table order.\n";
        let _ = writeln!(
            out,
            "    pub const ALL: [Op; {}] = [{}];",
            t.ops.len(),
            t.ops
                .iter()
                .map(|o| format!("Op::{}", camel(o.name())))
                .collect::<Vec<_>>()
                .join(", ")
        );
        out += "    /// The operation's name, e.g. `\"floor_divide\"`.\n    pub const fn name(self) -> &'static str {\n        match self {\n";
        for o in &t.ops {
            let _ = writeln!(out, "            Op::{} => \"{o}\",", camel(o.name()));
        }
        out += "        }\n    }\n}\n\n";
    }
    let _ = writeln!(
        out,
        "/// Why a pair is refused, indexed by a table code's low bits.\npub const REASONS: [&str; {}] = [",
        t.reasons.len()
    );
    for r in &t.reasons {
        let _ = writeln!(out, "    {},", rust_literal(r));
    }
    out += "];\n\n";
    let _ = writeln!(
        out,
        "/// A cell: the result's index in [`DType::ALL`], or `{REFUSED:#x} | reason`."
    );
    let _ = writeln!(out, "const TABLES: [[[u16; {n}]; {n}]; {}] = [", t.tables.len());
    for table in &t.tables {
        out += "    [\n";
        for row in table.chunks(n) {
            let _ = writeln!(
                out,
                "        [{}],",
                row.iter()
                    .map(|c| format!("{c:#06x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        out += "    ],\n";
    }
    out += "];\n\n";
    let index = t
        .table_of_op
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if t.ops.is_empty() {
        out += "/// The result dtype of `lhs` with `rhs` (every operation), or why it is refused.\n\
                pub const fn promote(lhs: DType, rhs: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(TABLES[0][lhs as usize][rhs as usize])\n}\n";
    } else {
        let _ = writeln!(
            out,
            "/// The table of each [`Op`].\nconst TABLE_OF_OP: [u8; {}] = [{index}];\n",
            t.ops.len()
        );
        out += "/// The result dtype of `lhs` with `rhs` under `op`, or why it is refused.\n\
                pub const fn promote(op: Op, lhs: DType, rhs: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(TABLES[TABLE_OF_OP[op as usize] as usize][lhs as usize][rhs as usize])\n}\n";
    }
    let _ = write!(
        out,
        "\nconst fn decode(code: u16) -> Result<DType, &'static str> {{\n    if code & {REFUSED:#x} != 0 {{\n        Err(REASONS[(code & !{REFUSED:#x}) as usize])\n    }} else {{\n        Ok(DType::ALL[code as usize])\n    }}\n}}\n"
    );
    out
}

fn c(t: &Tables) -> String {
    let n = t.dtypes.len();
    let p = format!("promo_{}", t.name.to_ascii_lowercase());
    let up = p.to_ascii_uppercase();
    let mut out = format!(
        "/* @generated by `promo gen --lang c` from {}. Do not edit: regenerate. */\n\
         /* Type promotion of {}: the result dtype of tensor with tensor, as tables. */\n\
         #ifndef {up}_H\n#define {up}_H\n\n#include <stdint.h>\n\n",
        t.origin.replace("*/", "* /"),
        t.name
    );
    out += "/* The dtypes of the rule set, in table order. */\ntypedef enum {\n";
    for (i, d) in t.dtypes.iter().enumerate() {
        let _ = writeln!(out, "    {up}_{} = {i},", d.name().to_ascii_uppercase());
    }
    let _ = writeln!(out, "    {up}_DTYPE_COUNT = {n}\n}} {p}_dtype;\n");
    let _ = writeln!(
        out,
        "static const char *const {p}_dtype_names[{n}] = {{{}}};\n",
        t.dtypes
            .iter()
            .map(|d| format!("\"{d}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !t.ops.is_empty() {
        out += "/* The operations the rule set distinguishes. */\ntypedef enum {\n";
        for (i, o) in t.ops.iter().enumerate() {
            let _ = writeln!(out, "    {up}_OP_{} = {i},", o.name().to_ascii_uppercase());
        }
        let _ = writeln!(out, "    {up}_OP_COUNT = {}\n}} {p}_op;\n", t.ops.len());
        let _ = writeln!(
            out,
            "static const char *const {p}_op_names[{}] = {{{}}};\n",
            t.ops.len(),
            t.ops
                .iter()
                .map(|o| format!("\"{o}\""))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(out, "/* Why a pair is refused, indexed by a table code's low bits. */\nstatic const char *const {p}_reasons[{}] = {{", t.reasons.len().max(1));
    for r in &t.reasons {
        let _ = writeln!(out, "    {},", c_literal(r));
    }
    if t.reasons.is_empty() {
        out += "    \"\",\n";
    }
    out += "};\n\n";
    let _ = writeln!(out, "/* A cell: the result's dtype, or {REFUSED:#x} | reason. */\nstatic const uint16_t {p}_tables[{}][{n}][{n}] = {{", t.tables.len());
    for table in &t.tables {
        out += "    {\n";
        for row in table.chunks(n) {
            let _ = writeln!(
                out,
                "        {{{}}},",
                row.iter()
                    .map(|c| format!("{c:#06x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        out += "    },\n";
    }
    out += "};\n\n";
    let index = t
        .table_of_op
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let (params, table) = if t.ops.is_empty() {
        (format!("{p}_dtype lhs, {p}_dtype rhs"), "0".to_owned())
    } else {
        let _ = writeln!(
            out,
            "static const uint8_t {p}_table_of_op[{}] = {{{index}}};\n",
            t.ops.len()
        );
        (
            format!("{p}_op op, {p}_dtype lhs, {p}_dtype rhs"),
            format!("{p}_table_of_op[op]"),
        )
    };
    let _ = write!(
        out,
        "/* The result dtype (>= 0) of lhs with rhs, or -1 - reason index when refused\n   (the message is {p}_reasons[-1 - result]). */\n\
         static inline int {p}_promote({params}) {{\n\
         \x20   uint16_t code = {p}_tables[{table}][lhs][rhs];\n\
         \x20   return (code & {REFUSED:#x}) ? -1 - (int)(code & 0x7fff) : (int)code;\n}}\n\n#endif\n"
    );
    out
}

/// `promo gen`.
pub fn run_gen(args: &GenArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let options = table
            .options_from(args.set.iter().map(String::as_str))
            .map_err(|e| e.to_string())?;
        let tables = collect(table, &options, &args.rules);
        Ok::<_, String>(match args.lang {
            Lang::Rust => rust(&tables),
            Lang::C => c(&tables),
        })
    });
    match result.and_then(|r| r) {
        Ok(text) => emit(&text, ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("promo: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_worded_alike_keep_their_own_codes() {
        let rules = promo_rules::load("twin.toml", TWIN).unwrap();
        rules.with_table(|table| {
            let t = collect(table, &table.default_options(), "twin.toml");
            assert_eq!(t.reasons, ["mixed signedness", "mixed signedness"]);
            // Rows i8, u8: (i8, u8) is refused for the first reason, (u8, i8) for the second.
            assert_eq!(t.tables[0], [0, REFUSED, REFUSED | 1, 1]);
        });
    }

    /// Two reasons worded alike.
    const TWIN: &str = include_str!("../../tests/data/twin_reasons.toml");
}
