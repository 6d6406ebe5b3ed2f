//! `promo check`: rule files validated with the compiler's diagnostics, or with
//! `--properties` the algebra of a rule set's `add` table.

use std::io::{self, Write};
use std::process::ExitCode;

use crate::args::{bad_input, options_and_op, rule_source, settings, with_rules, RuleSource};
use crate::escape::{visible, visible_lines};
use crate::write::{emit, write_failed};

/// Arguments of `promo check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Rule files or bundled rule sets (`promo list`) to validate.
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

/// `promo check --properties`: each property of each rule set's `add` table.
fn run_properties(args: &CheckArgs) -> ExitCode {
    let mut out = String::new();
    for spec in &args.files {
        let report = with_rules(spec, |table| -> Result<String, String> {
            let (options, _) = options_and_op(table, &args.set, "add")?;
            let settings = settings(table, &options);
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

/// `promo check`.
pub fn run_check(args: &CheckArgs) -> ExitCode {
    if args.properties {
        return run_properties(args);
    }
    let (mut failed, mut unreadable) = (false, false);
    for spec in &args.files {
        let RuleSource { path, src } = match rule_source(spec) {
            Ok(source) => source,
            Err(e) => {
                bad_input(e);
                unreadable = true;
                continue;
            }
        };
        let shown = visible(&path);
        match promo_rules::load(&path, &src) {
            Ok(rules) => {
                let layers = rules.layers.len();
                let line = format!(
                    "{shown}: ok ({} dtypes, {layers} layer{})\n",
                    rules.dtypes.len(),
                    if layers == 1 { "" } else { "s" }
                );
                if let Err(e) = io::stdout().write_all(line.as_bytes()) {
                    return write_failed(&e, ExitCode::SUCCESS);
                }
            }
            Err(d) => {
                eprintln!("{}\n", visible_lines(&d.to_string()));
                eprintln!(
                    "{shown}: {} error{}",
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
