//! `promo gen`: a rule set's tensor-with-tensor tables, and the results and compute
//! dtypes of its one-operand operations, as standalone source, a Rust module or a C
//! header, for builds that do not want a proc-macro.

use promo_table::{DType, Op, OpKind, Operand, Options, Refusal, RuleTable};
use std::fmt::Write;
use std::process::ExitCode;

use crate::args::{bad_input, options, settings, with_rules};
use crate::escape::{c_comment, c_str, rust_comment, rust_str};
use crate::write::emit;

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
    /// The one-operand operations (unary operations, reductions with their default
    /// arguments) the rule set lists.
    one_ops: Vec<Op>,
    /// For each of `one_ops`, a code per dtype: its result.
    one_results: Vec<Vec<u16>>,
    /// For each of `one_ops`, a code per dtype: the dtype it is computed in.
    one_computes: Vec<Vec<u16>>,
    /// Refusal messages, indexed by the low bits of a refused code.
    reasons: Vec<String>,
    /// Every name the generated parser accepts, with its dtype's index in `dtypes`:
    /// the rule set's aliases, then each dtype's canonical name and common spellings.
    spellings: Vec<(String, usize)>,
}

/// The names a generated parser accepts, as [`RuleTable::dtype_named`] reads them
/// (ASCII case aside), for the rule set's dtypes: its aliases that name one dtype,
/// then each dtype's canonical name and the common spellings no alias of the rule
/// set takes over. A name the aliases make ambiguous is left out, so it parses as
/// nothing.
fn spellings(table: &RuleTable<'_>) -> Vec<(String, usize)> {
    let index = |d: DType| table.dtypes.iter().position(|&x| x == d);
    let aliased = |name: &str| table.aliases.iter().any(|(a, _)| a.eq_ignore_ascii_case(name));
    let mut out: Vec<(String, usize)> = Vec::new();
    for &(alias, _) in table.aliases {
        if out.iter().any(|(n, _)| n.eq_ignore_ascii_case(alias)) {
            continue;
        }
        if let Some(i) = table.dtype_named(alias).ok().and_then(index) {
            out.push((alias.to_owned(), i));
        }
    }
    for (i, d) in table.dtypes.iter().enumerate() {
        for name in std::iter::once(d.name()).chain(d.aliases().iter().copied()) {
            if !aliased(name) {
                out.push((name.to_owned(), i));
            }
        }
    }
    out
}

fn collect<'t>(table: &RuleTable<'t>, options: &Options, spec: &str) -> Tables {
    let dtypes = table.dtypes.to_vec();
    // The elementwise operations: the others (one operand, lists, stores) are asked
    // of the rule set at run time (`RuleTable::apply`, `promo query`).
    let ops: Vec<Op> = table
        .ops
        .iter()
        .copied()
        .filter(|o| o.kind() == promo_table::OpKind::Elementwise)
        .collect();
    // Each distinct refusal once: a rule set's reasons by index, the others by kind.
    let mut refusals: Vec<Refusal<'t>> = Vec::new();
    // A dtype's code, or a refusal's (a result outside the rule set's dtypes, which
    // the tables cannot name, as its own refusal).
    let mut code = |answer: Result<DType, Refusal<'t>>| -> u16 {
        let e = match answer {
            Ok(d) => match dtypes.iter().position(|&x| x == d) {
                Some(i) => return i as u16,
                None => Refusal::UnsupportedDType(d),
            },
            Err(e) => e,
        };
        let i = refusals.iter().position(|x| *x == e).unwrap_or_else(|| {
            refusals.push(e);
            refusals.len() - 1
        });
        REFUSED | i as u16
    };
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
                codes.push(code(table.promote(
                    options,
                    op,
                    Operand::Dimensioned(l),
                    Operand::Dimensioned(r),
                )));
            }
        }
        let index = tables.iter().position(|t| *t == codes).unwrap_or_else(|| {
            tables.push(codes);
            tables.len() - 1
        });
        table_of_op.push(index);
    }
    let one_ops: Vec<Op> = table
        .ops
        .iter()
        .copied()
        .filter(|o| matches!(o.kind(), OpKind::Unary | OpKind::Reduction))
        .collect();
    let (mut one_results, mut one_computes) = (Vec::new(), Vec::new());
    for &op in &one_ops {
        let (mut results, mut computes) = (Vec::new(), Vec::new());
        for &d in &dtypes {
            let outcome = table.apply(options, op, &[Operand::Dimensioned(d)], None);
            results.push(code(outcome.map(|o| o.result.dtype)));
            computes.push(code(outcome.map(|o| o.compute)));
        }
        one_results.push(results);
        one_computes.push(computes);
    }
    let settings = settings(table, options);
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
        one_ops,
        one_results,
        one_computes,
        reasons: refusals.iter().map(Refusal::to_string).collect(),
        spellings: spellings(table),
    }
}

/// What the two languages write differently around the same tables.
struct Syntax {
    /// How an array literal opens and closes (`[`/`]` in Rust, `{`/`}` in C).
    open: char,
    close: char,
}

const RUST: Syntax = Syntax {
    open: '[',
    close: ']',
};
const C: Syntax = Syntax {
    open: '{',
    close: '}',
};

/// The tables' rows, one line each, as both languages write them.
fn table_rows(t: &Tables, syntax: &Syntax) -> String {
    let n = t.dtypes.len();
    let (open, close) = (syntax.open, syntax.close);
    let mut out = String::new();
    for table in &t.tables {
        let _ = writeln!(out, "    {open}");
        for row in table.chunks(n) {
            let codes: Vec<String> = row.iter().map(|c| format!("{c:#06x}")).collect();
            let _ = writeln!(out, "        {open}{}{close},", codes.join(", "));
        }
        let _ = writeln!(out, "    {close},");
    }
    out
}

/// Rows of codes, one line each, as both languages write them.
fn code_rows(rows: &[Vec<u16>], syntax: &Syntax) -> String {
    let (open, close) = (syntax.open, syntax.close);
    let mut out = String::new();
    for row in rows {
        let codes: Vec<String> = row.iter().map(|c| format!("{c:#06x}")).collect();
        let _ = writeln!(out, "    {open}{}{close},", codes.join(", "));
    }
    out
}

/// The table of each operation, `0, 1, 0, …`.
fn table_of_op(t: &Tables) -> String {
    let index: Vec<String> = t.table_of_op.iter().map(|i| i.to_string()).collect();
    index.join(", ")
}

fn rust(t: &Tables) -> String {
    let n = t.dtypes.len();
    let mut out = format!(
        "// @generated by `promo gen --lang rust` from {}. Do not edit: regenerate.\n\
         // Type promotion of {}: the result dtype of tensor with tensor, as tables.\n\
         // A module of your crate (`mod {};`): it uses what it needs of this file.\n\
         #![allow(dead_code)]\n\n",
        rust_comment(&t.origin),
        t.name,
        t.name
    );
    // Variants are named as promo_core names them (`DType::BF16`, `Op::FloorDivide`).
    let variants = |names: &[(&str, String)], ty: &str, what: &str, example: &str| {
        let mut out = format!(
            "/// The {what}.\n#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\npub enum {ty} {{\n"
        );
        for (name, variant) in names {
            let _ = writeln!(out, "    /// `{name}`\n    {variant},");
        }
        let all: Vec<String> = names.iter().map(|(_, v)| format!("{ty}::{v}")).collect();
        let _ = writeln!(
            out,
            "}}\n\nimpl {ty} {{\n    /// Every one, in table order.\n    pub const ALL: [{ty}; {}] = [{}];",
            names.len(),
            all.join(", ")
        );
        let _ = writeln!(
            out,
            "    /// The name, e.g. `{}`.\n    pub const fn name(self) -> &'static str {{\n        match self {{",
            rust_str(example)
        );
        for (name, variant) in names {
            let _ = writeln!(out, "            {ty}::{variant} => {},", rust_str(name));
        }
        out + "        }\n    }\n}\n\n"
    };
    let dtypes: Vec<(&str, String)> = t.dtypes.iter().map(|d| (d.name(), format!("{d:?}"))).collect();
    out += &variants(&dtypes, "DType", "dtypes of the rule set, in table order", "bf16");
    let _ = writeln!(
        out,
        "/// Every name [`DType::from_name`] accepts, with its dtype: the rule set's aliases,\n\
         /// then canonical names and common spellings.\n\
         const SPELLINGS: [(&str, DType); {}] = [",
        t.spellings.len()
    );
    for (name, i) in &t.spellings {
        let _ = writeln!(out, "    ({}, DType::{}),", rust_str(name), dtypes[*i].1);
    }
    out += "];\n\n";
    let _ = writeln!(
        out,
        "impl DType {{\n\
         \x20   /// The dtype called `name` (ASCII case aside): its canonical name (`{}`), a\n\
         \x20   /// common spelling, or one of the rule set's aliases; `None` for any other name,\n\
         \x20   /// and for one the rule set reads as several dtypes.\n\
         \x20   pub fn from_name(name: &str) -> Option<DType> {{\n\
         \x20       SPELLINGS\n\
         \x20           .iter()\n\
         \x20           .find(|(spelling, _)| spelling.eq_ignore_ascii_case(name))\n\
         \x20           .map(|&(_, dtype)| dtype)\n\
         \x20   }}\n}}\n\n\
         impl ::core::str::FromStr for DType {{\n\
         \x20   type Err = ();\n\n\
         \x20   /// [`DType::from_name`], as `str::parse`.\n\
         \x20   fn from_str(name: &str) -> Result<DType, ()> {{\n\
         \x20       DType::from_name(name).ok_or(())\n\
         \x20   }}\n}}\n",
        rust_comment(t.dtypes.first().map_or("bool", |d| d.name()))
    );
    if !t.ops.is_empty() {
        let ops: Vec<(&str, String)> = t.ops.iter().map(|o| (o.name(), format!("{o:?}"))).collect();
        out += &variants(
            &ops,
            "Op",
            "operations the rule set distinguishes",
            "floor_divide",
        );
    }
    if !t.one_ops.is_empty() {
        let ops: Vec<(&str, String)> = t.one_ops.iter().map(|o| (o.name(), format!("{o:?}"))).collect();
        out += &variants(
            &ops,
            "OneOp",
            "operations of one operand (unary operations, and reductions with their default arguments)",
            "sqrt",
        );
    }
    let _ = writeln!(
        out,
        "/// Why a pair is refused, indexed by a table code's low bits.\npub const REASONS: [&str; {}] = [",
        t.reasons.len()
    );
    for r in &t.reasons {
        let _ = writeln!(out, "    {},", rust_str(r));
    }
    out += "];\n\n";
    let _ = writeln!(
        out,
        "/// A cell: the result's index in [`DType::ALL`], or `{REFUSED:#x} | reason`."
    );
    let _ = writeln!(out, "const TABLES: [[[u16; {n}]; {n}]; {}] = [", t.tables.len());
    out += &table_rows(t, &RUST);
    out += "];\n\n";
    if t.ops.is_empty() {
        out += "/// The result dtype of `lhs` with `rhs` (every operation), or why it is refused.\n\
                pub const fn promote(lhs: DType, rhs: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(TABLES[0][lhs as usize][rhs as usize])\n}\n";
    } else {
        let _ = writeln!(
            out,
            "/// The table of each [`Op`].\nconst TABLE_OF_OP: [u8; {}] = [{}];\n",
            t.ops.len(),
            table_of_op(t)
        );
        out += "/// The result dtype of `lhs` with `rhs` under `op`, or why it is refused.\n\
                pub const fn promote(op: Op, lhs: DType, rhs: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(TABLES[TABLE_OF_OP[op as usize] as usize][lhs as usize][rhs as usize])\n}\n";
    }
    if !t.one_ops.is_empty() {
        let k = t.one_ops.len();
        let _ = writeln!(
            out,
            "\n/// Each [`OneOp`]'s result for a tensor of each dtype, as [`TABLES`] codes.\nconst ONE_RESULTS: [[u16; {n}]; {k}] = ["
        );
        out += &code_rows(&t.one_results, &RUST);
        let _ = writeln!(
            out,
            "];\n\n/// The dtype each [`OneOp`] computes in for a tensor of each dtype, as [`TABLES`] codes.\nconst ONE_COMPUTES: [[u16; {n}]; {k}] = ["
        );
        out += &code_rows(&t.one_computes, &RUST);
        out += "];\n\n\
                /// The result dtype of `op` on a tensor of `x`, or why it is refused.\n\
                pub const fn one_operand(op: OneOp, x: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(ONE_RESULTS[op as usize][x as usize])\n}\n\n\
                /// The dtype the framework computes `op` of a tensor of `x` in (the result's\n\
                /// unless it computes in another), or why it is refused.\n\
                pub const fn computed_in(op: OneOp, x: DType) -> Result<DType, &'static str> {\n\
                \x20   decode(ONE_COMPUTES[op as usize][x as usize])\n}\n";
    }
    let _ = write!(
        out,
        "\nconst fn decode(code: u16) -> Result<DType, &'static str> {{\n    if code & {REFUSED:#x} != 0 {{\n        Err(REASONS[(code & !{REFUSED:#x}) as usize])\n    }} else {{\n        Ok(DType::ALL[code as usize])\n    }}\n}}\n"
    );
    out
}

/// A C string literal of `text`, or why it cannot be one.
fn c_literal(text: &str, what: &str) -> Result<String, String> {
    c_str(text).map_err(|why| format!("{what} {why}: a C header cannot hold it exactly"))
}

fn c(t: &Tables) -> Result<String, String> {
    let n = t.dtypes.len();
    let p = format!("promo_{}", t.name.to_ascii_lowercase());
    let up = p.to_ascii_uppercase();
    let mut out = format!(
        "/* @generated by `promo gen --lang c` from {}. Do not edit: regenerate. */\n\
         /* Type promotion of {}: the result dtype of tensor with tensor, as tables. */\n\
         #ifndef {up}_H\n#define {up}_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n",
        c_comment(&t.origin),
        t.name
    );
    let enumeration =
        |names: &[&str], what: &str, infix: &str, ty: &str, count: &str| -> Result<String, String> {
            let mut out = format!("/* The {what}. */\ntypedef enum {{\n");
            for (i, name) in names.iter().enumerate() {
                let _ = writeln!(out, "    {up}_{infix}{} = {i},", name.to_ascii_uppercase());
            }
            let _ = writeln!(out, "    {up}_{count} = {}\n}} {p}_{ty};\n", names.len());
            let literals = names
                .iter()
                .map(|name| c_literal(name, "a name"))
                .collect::<Result<Vec<_>, _>>()?;
            let _ = writeln!(
                out,
                "static const char *const {p}_{ty}_names[{}] = {{{}}};\n",
                names.len(),
                literals.join(", ")
            );
            Ok(out)
        };
    let dtypes: Vec<&str> = t.dtypes.iter().map(|d| d.name()).collect();
    out += &enumeration(
        &dtypes,
        "dtypes of the rule set, in table order",
        "",
        "dtype",
        "DTYPE_COUNT",
    )?;
    let literals = t
        .spellings
        .iter()
        .map(|(name, _)| c_literal(name, "a dtype's name"))
        .collect::<Result<Vec<_>, _>>()?;
    let _ = writeln!(
        out,
        "/* Every name {p}_dtype_from_name accepts, and its dtype: the rule set's aliases,\n   then canonical names and common spellings. */\n\
         static const char *const {p}_spellings[{n}] = {{{}}};\n\
         static const uint8_t {p}_spelling_dtypes[{n}] = {{{}}};\n\n\
         /* The dtype called name (ASCII case aside): its canonical name, a common spelling\n\
         \x20  or one of the rule set's aliases; -1 for any other name, and for one the rule set\n\
         \x20  reads as several dtypes. */\n\
         static inline int {p}_dtype_from_name(const char *name) {{\n\
         \x20   size_t i, k;\n\
         \x20   for (i = 0; i < {n}; i++) {{\n\
         \x20       const char *s = {p}_spellings[i];\n\
         \x20       for (k = 0; s[k] != '\\0' && name[k] != '\\0'; k++) {{\n\
         \x20           char a = s[k], b = name[k];\n\
         \x20           if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');\n\
         \x20           if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');\n\
         \x20           if (a != b) break;\n\
         \x20       }}\n\
         \x20       if (s[k] == '\\0' && name[k] == '\\0') return (int){p}_spelling_dtypes[i];\n\
         \x20   }}\n\
         \x20   return -1;\n}}\n",
        literals.join(", "),
        t.spellings.iter().map(|(_, i)| i.to_string()).collect::<Vec<_>>().join(", "),
        n = t.spellings.len()
    );
    if !t.ops.is_empty() {
        let ops: Vec<&str> = t.ops.iter().map(|o| o.name()).collect();
        out += &enumeration(
            &ops,
            "operations the rule set distinguishes",
            "OP_",
            "op",
            "OP_COUNT",
        )?;
    }
    if !t.one_ops.is_empty() {
        let ops: Vec<&str> = t.one_ops.iter().map(|o| o.name()).collect();
        out += &enumeration(
            &ops,
            "operations of one operand (unary operations, and reductions with their default arguments)",
            "ONE_",
            "one_op",
            "ONE_COUNT",
        )?;
    }
    let _ = writeln!(out, "/* Why a pair is refused, indexed by a table code's low bits. */\nstatic const char *const {p}_reasons[{}] = {{", t.reasons.len().max(1));
    for (i, r) in t.reasons.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {},",
            c_literal(r, &format!("refusal reason {}", i + 1))?
        );
    }
    if t.reasons.is_empty() {
        out += "    \"\",\n";
    }
    out += "};\n\n";
    let _ = writeln!(out, "/* A cell: the result's dtype, or {REFUSED:#x} | reason. */\nstatic const uint16_t {p}_tables[{}][{n}][{n}] = {{", t.tables.len());
    out += &table_rows(t, &C);
    out += "};\n\n";
    let (params, table) = if t.ops.is_empty() {
        (format!("{p}_dtype lhs, {p}_dtype rhs"), "0".to_owned())
    } else {
        let _ = writeln!(
            out,
            "static const uint8_t {p}_table_of_op[{}] = {{{}}};\n",
            t.ops.len(),
            table_of_op(t)
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
         \x20   return (code & {REFUSED:#x}) ? -1 - (int)(code & 0x7fff) : (int)code;\n}}\n"
    );
    if !t.one_ops.is_empty() {
        let k = t.one_ops.len();
        let _ = writeln!(
            out,
            "\n/* Each one-operand operation's result, and the dtype it computes in, for a tensor\n   of each dtype: codes as in {p}_tables. */\nstatic const uint16_t {p}_one_results[{k}][{n}] = {{"
        );
        out += &code_rows(&t.one_results, &C);
        let _ = writeln!(out, "}};\nstatic const uint16_t {p}_one_computes[{k}][{n}] = {{");
        out += &code_rows(&t.one_computes, &C);
        let _ = write!(
            out,
            "}};\n\n/* The result dtype (>= 0) of op on a tensor of x, or -1 - reason index when\n   refused. */\n\
             static inline int {p}_one_operand({p}_one_op op, {p}_dtype x) {{\n\
             \x20   uint16_t code = {p}_one_results[op][x];\n\
             \x20   return (code & {REFUSED:#x}) ? -1 - (int)(code & 0x7fff) : (int)code;\n}}\n\n\
             /* The dtype (>= 0) the framework computes op of a tensor of x in, or -1 - reason\n   index when refused. */\n\
             static inline int {p}_computed_in({p}_one_op op, {p}_dtype x) {{\n\
             \x20   uint16_t code = {p}_one_computes[op][x];\n\
             \x20   return (code & {REFUSED:#x}) ? -1 - (int)(code & 0x7fff) : (int)code;\n}}\n"
        );
    }
    out += "\n#endif\n";
    Ok(out)
}

/// `promo gen`.
pub fn run_gen(args: &GenArgs) -> ExitCode {
    let result = with_rules(&args.rules, |table| {
        let options = options(table, &args.set)?;
        let tables = collect(table, &options, &args.rules);
        match args.lang {
            Lang::Rust => Ok(rust(&tables)),
            Lang::C => c(&tables),
        }
    });
    match result.and_then(|r| r) {
        Ok(text) => emit(&text, ExitCode::SUCCESS),
        Err(e) => bad_input(e),
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
    const TWIN: &str = include_str!("../../../tests/data/twin_reasons.toml");
}
