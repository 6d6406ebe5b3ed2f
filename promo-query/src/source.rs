//! The rule set a question names (a bundled one by name, or a rule file by path),
//! and the options (`KEY=VALUE`) and operation it is asked under, as the `promo`
//! command and the Python package take them.

use promo_core::rules;
use promo_table::text::visible;
use promo_table::{Op, Options, RuleTable};
use std::path::Path;

/// A rule set's source: the path it is known by and its text.
pub struct RuleSource {
    /// `bundled rules/NAME.toml` for a bundled rule set (the copy built into
    /// promo, which needs no file), the path given otherwise.
    pub path: String,
    /// The rule file's text.
    pub src: String,
}

/// Reads a rule file whole, but never more than [`promo_rules::MAX_SOURCE_BYTES`]:
/// a larger file, or an endless stream, is refused after that many bytes.
pub fn read_rule_file(path: &str) -> Result<String, String> {
    promo_rules::read_source(Path::new(path)).map_err(|e| format!("cannot read `{}`: {e}", visible(path)))
}

/// Whether `spec` names a rule file rather than a bundled rule set.
fn is_path(spec: &str) -> bool {
    spec.ends_with(".toml") || Path::new(spec).exists()
}

fn unknown_rule_set(spec: &str) -> String {
    let names: Vec<&str> = rules::ALL.iter().map(|t| t.name).collect();
    // A dtype or an operand where the rule set belongs: the rule set was left out.
    let operand = spec.parse::<promo_table::DType>().is_ok()
        || promo_table::ambiguous_name(spec).is_some()
        || ["scalar:", "weak:", "python:"]
            .iter()
            .any(|p| spec.starts_with(p));
    if operand {
        return format!(
            "`{spec}` is an operand, not a rule set: the rule set comes first, one of {} or a rule file path",
            names.join(", ")
        );
    }
    let hint =
        crate::names::suggest_rule_set(spec).map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"));
    format!(
        "unknown rule set `{spec}`{hint}: expected one of {} or a rule file path",
        names.join(", ")
    )
}

/// The source of the bundled rule set called `spec`, or of the rule file at `spec`.
pub fn rule_source(spec: &str) -> Result<RuleSource, String> {
    if let Some(index) = rules::ALL.iter().position(|t| t.name == spec) {
        let (path, src) = rules::SOURCES[index];
        return Ok(RuleSource {
            path: format!("bundled {path}"),
            src: src.to_owned(),
        });
    }
    if !is_path(spec) {
        return Err(unknown_rule_set(spec));
    }
    Ok(RuleSource {
        path: spec.to_owned(),
        src: read_rule_file(spec)?,
    })
}

/// Runs `f` on the bundled rule set called `spec`, or on the rule file at path `spec`.
pub fn with_rules<R>(spec: &str, f: impl FnOnce(&RuleTable<'_>) -> R) -> Result<R, String> {
    if let Some(table) = rules::by_name(spec) {
        return Ok(f(table));
    }
    let RuleSource { path, src } = rule_source(spec)?;
    let model = promo_rules::load(&path, &src).map_err(|d| d.to_string())?;
    Ok(model.with_table(f))
}

/// The options `--set` gives, each key at most once.
pub fn options(table: &RuleTable<'_>, set: &[String]) -> Result<Options, String> {
    table
        .options_from(set.iter().map(String::as_str))
        .map_err(|e| crate::names::option_error(table, e))
}

/// The options `--set` gives (each key at most once) and the operation `--op`
/// names, which the rule set must cover.
pub fn options_and_op(table: &RuleTable<'_>, set: &[String], op: &str) -> Result<(Options, Op), String> {
    let options = options(table, set)?;
    Ok((options, crate::names::op(table, op)?))
}

/// Every option as `name=value`, in the rule file's order.
pub fn settings(table: &RuleTable<'_>, options: &Options) -> Vec<String> {
    table
        .options
        .iter()
        .zip(options.values())
        .map(|(o, &v)| format!("{}={}", o.name, o.format_value(v)))
        .collect()
}

/// The options that differ from the rule set's defaults, as `name=value`.
pub fn changed_settings(table: &RuleTable<'_>, options: &Options) -> Vec<String> {
    let defaults = table.default_options();
    settings(table, options)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| options.get(*i) != defaults.get(*i))
        .map(|(_, s)| s)
        .collect()
}
