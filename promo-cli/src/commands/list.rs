//! `promo list`: the bundled rule sets, their dtypes, operations and options.

use promo_core::rules;
use promo_table::OptionKind;
use std::process::ExitCode;

use crate::write::emit;

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
