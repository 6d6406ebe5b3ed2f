//! The names a user types, resolved: dtypes (a rule set's aliases first), operands,
//! operations, options and their values, rule sets. A name that resolves to nothing
//! gets the closest known name as a suggestion (`did you mean`), and an unknown
//! operation the list of the rule set's operations.

use promo_core::rules;
use promo_table::{DType, DTypeNameError, Op, Operand, OptionError, OptionKind, PyScalar, RuleTable};

/// The longest name that gets a suggestion: no name promo knows is near it, and
/// the edit distance of a longer one would cost time for nothing.
pub const MAX_SUGGESTED_LEN: usize = 64;

/// The candidate closest to `given` (by edit distance, an exchange of two letters
/// counting as one edit; ASCII case ignored), if it is close enough to be a slip:
/// one edit in a name of up to four characters, two up to eight, three beyond.
/// Each candidate is `(spelling, what to suggest)`. The cost is bounded: a name
/// longer than [`MAX_SUGGESTED_LEN`] gets none, and a candidate whose length alone
/// puts it out of reach is passed over before any distance is computed.
pub fn closest<'a>(given: &str, candidates: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<&'a str> {
    let given = given.trim().to_ascii_lowercase();
    let len = given.chars().count();
    let allowed = match len {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        9..=MAX_SUGGESTED_LEN => 3,
        _ => return None,
    };
    let mut best: Option<(usize, &str)> = None;
    for (spelling, suggestion) in candidates {
        // An edit changes the length by one character at most.
        if spelling.chars().count().abs_diff(len) > allowed {
            continue;
        }
        let d = strsim::osa_distance(&given, &spelling.to_ascii_lowercase());
        if d <= allowed && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, suggestion));
        }
    }
    best.map(|(_, s)| s)
}

/// ` (did you mean `X`?)`, or nothing.
fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"))
}

/// The dtype `name` means: under `table`, its aliases first
/// ([`RuleTable::dtype_named`]); without one, promo's names and common spellings.
/// An unknown name gets the closest dtype name as a suggestion, an ambiguous one the
/// choices.
pub fn dtype(table: Option<&RuleTable<'_>>, name: &str) -> Result<DType, String> {
    let found = match table {
        Some(t) => t.dtype_named(name),
        None => name.parse::<DType>().map_err(|e| {
            if promo_table::ambiguous_name(name).is_some() {
                DTypeNameError::Ambiguous {
                    name: name.trim().to_owned(),
                    rules: None,
                    choices: Vec::new(),
                }
            } else {
                DTypeNameError::Unknown(e.0)
            }
        }),
    };
    found.map_err(|e| match e {
        DTypeNameError::Unknown(_) => format!("{e}{}", did_you_mean(suggest_dtype(table, name).as_deref())),
        e => e.to_string(),
    })
}

/// The dtype closest to a misspelt `name`: by its canonical name when `name` is
/// near that or a common spelling of it, or as a rule set spells it when `name` is
/// nearer one of the rule set's aliases. Under a rule set only its dtypes are
/// suggested.
fn suggest_dtype(table: Option<&RuleTable<'_>>, name: &str) -> Option<String> {
    let dtypes: &[DType] = table.map_or(DType::ALL, |t| t.dtypes);
    let promo = dtypes.iter().flat_map(|d| {
        std::iter::once(d.name())
            .chain(d.aliases().iter().copied())
            .map(|s| (s, d.name()))
    });
    // A rule set's own spellings as written there; the names frameworks read
    // differently as themselves (the rule set, or their refusal, says which is meant).
    let own = table
        .into_iter()
        .flat_map(|t| t.aliases.iter())
        .map(|&(alias, _)| (alias, alias));
    let ambiguous = promo_table::AMBIGUOUS_NAMES.iter().map(|&(n, _, _)| (n, n));
    closest(name, promo.chain(own).chain(ambiguous)).map(str::to_owned)
}

/// A `--from` / `--to` dtype, where no rule set is in play.
pub fn dtype_arg(text: &str) -> Result<DType, String> {
    dtype(None, text)
}

/// An operand as the command line writes it: `DTYPE`, `scalar:DTYPE`, `weak:DTYPE`
/// or `python:bool|int|float|complex`, each dtype spelled as `table` spells them.
pub fn operand(table: &RuleTable<'_>, text: &str) -> Result<Operand, String> {
    const SYNTAX: &str = "an operand is DTYPE, scalar:DTYPE, weak:DTYPE or python:bool|int|float|complex";
    let dtype = |name: &str| {
        dtype(Some(table), name).map_err(|e| {
            if e.starts_with("unknown dtype") && !e.contains("did you mean") {
                format!("{e}: {SYNTAX}")
            } else {
                e
            }
        })
    };
    if text.trim().is_empty() {
        return Err(promo_table::BadOperand(text.to_owned()).to_string());
    }
    match text.split_once(':') {
        None => dtype(text).map(Operand::Dimensioned),
        Some(("scalar", d)) => dtype(d).map(Operand::Scalar),
        Some(("weak", d)) => dtype(d).map(Operand::Weak),
        Some(("python", k)) => PyScalar::parse_name(k).map(Operand::Python).ok_or_else(|| {
            let hint = closest(k, PyScalar::ALL.map(|k| (k.name(), k.name()))).map(|s| format!("python:{s}"));
            format!(
                "bad operand `{text}`: expected python:bool|int|float|complex{}",
                did_you_mean(hint.as_deref())
            )
        }),
        Some((prefix, _)) => Err(format!(
            "bad operand `{text}`: `{prefix}:` is no operand kind{}; {SYNTAX}",
            did_you_mean(closest(
                prefix,
                [("scalar", "scalar:"), ("weak", "weak:"), ("python", "python:")]
            ))
        )),
    }
}

/// The operation `name` names, which `table` must cover; an unknown or uncovered
/// one is refused with the rule set's operations listed.
pub fn op(table: &RuleTable<'_>, name: &str) -> Result<Op, String> {
    let ops: &[Op] = if table.ops.is_empty() { Op::ALL } else { table.ops };
    let listed = || {
        if table.ops.is_empty() {
            format!("{} answers every operation alike", table.name)
        } else {
            let names: Vec<&str> = table.ops.iter().map(|o| o.name()).collect();
            format!("the operations of {} are {}", table.name, names.join(" "))
        }
    };
    match name.parse::<Op>() {
        Ok(op) if ops.contains(&op) => Ok(op),
        Ok(op) => Err(format!(
            "operation `{op}` is not covered by {}: {}",
            table.name,
            listed()
        )),
        Err(e) => {
            let candidates = ops.iter().flat_map(|o| {
                std::iter::once(o.name())
                    .chain(o.aliases().iter().copied())
                    .map(|s| (s, o.name()))
            });
            Err(format!(
                "{e}{}: {}",
                did_you_mean(closest(name, candidates)),
                listed()
            ))
        }
    }
}

/// An option error with a suggestion where a name or word was misspelt.
pub fn option_error(table: &RuleTable<'_>, error: OptionError) -> String {
    let hint = match &error {
        OptionError::Unknown { option, .. } => {
            closest(option, table.options.iter().map(|o| (o.name, o.name))).map(str::to_owned)
        }
        OptionError::BadValue { option, value, .. } => {
            match table.options.iter().find(|o| o.name == option).map(|o| o.kind) {
                Some(OptionKind::Choice(words)) => {
                    closest(value, words.iter().map(|&w| (w, w))).map(str::to_owned)
                }
                Some(OptionKind::DType) if !value.is_empty() => suggest_dtype(Some(table), value),
                _ => None,
            }
        }
        _ => None,
    };
    format!("{error}{}", did_you_mean(hint.as_deref()))
}

/// The bundled rule set closest to a misspelt name.
pub fn suggest_rule_set(name: &str) -> Option<&'static str> {
    closest(name, rules::ALL.iter().map(|t| (t.name, t.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_suggested_and_strangers_are_not() {
        let names = [("float32", "f32"), ("float16", "f16"), ("i8", "i8"), ("u8", "u8")];
        assert_eq!(closest("flaot32", names), Some("f32"));
        assert_eq!(closest("FLOAT61", names), Some("f16"));
        assert_eq!(closest("f9", names), None);
        assert_eq!(closest("", names), None);
        assert_eq!(closest("i7", names), Some("i8"));
    }

    #[test]
    fn a_name_too_long_for_any_dtype_gets_no_suggestion() {
        // One edit from a candidate, but past the longest name that is suggested.
        let long = "x".repeat(MAX_SUGGESTED_LEN + 1);
        let slip = format!("{}y", &long[1..]);
        assert_eq!(closest(&slip, [(long.as_str(), "long")]), None);
        let within = "x".repeat(MAX_SUGGESTED_LEN);
        let slip = format!("{}y", &within[1..]);
        assert_eq!(closest(&slip, [(within.as_str(), "within")]), Some("within"));
    }

    #[test]
    fn dtypes_are_suggested_by_their_canonical_names() {
        assert_eq!(
            dtype(None, "flaot32").unwrap_err(),
            "unknown dtype `flaot32` (did you mean `f32`?)"
        );
        assert_eq!(
            dtype(None, "bfloat61").unwrap_err(),
            "unknown dtype `bfloat61` (did you mean `bf16`?)"
        );
        let torch = rules::by_name("torch").unwrap();
        assert_eq!(
            dtype(Some(torch), "torch.flaot"),
            Err("unknown dtype `torch.flaot` (did you mean `torch.float`?)".to_owned())
        );
        assert_eq!(dtype(Some(torch), "torch.half"), Ok(DType::F16));
        let numpy = rules::by_name("numpy").unwrap();
        assert_eq!(dtype(Some(numpy), "float"), Ok(DType::F64));
    }
}
