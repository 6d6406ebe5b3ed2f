//! The names a user types, resolved: dtypes (a rule set's aliases first), operands,
//! operations, options and their values, rule sets. A name that resolves to nothing
//! gets the closest known name as a suggestion (`did you mean`), and an unknown
//! operation the list of the rule set's operations.

use promo_core::rules;
use promo_table::{
    DType, DTypeNameError, Op, OpKind, Operand, OptionError, OptionKind, PyScalar, Refusal, RuleTable,
};

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
    let found = match (found, table) {
        (Err(DTypeNameError::Unknown(_)), None) => framework_spelling(name),
        (found, _) => found.map_err(|e| e.to_string()),
    };
    found.map_err(|e| {
        if e != DTypeNameError::Unknown(name.trim().to_owned()).to_string() {
            return e;
        }
        if let Some(message) = type_code(table, name) {
            return message;
        }
        match family(table, name) {
            Some(members) => format!(
                "{e}: `{}` names no one format; write one of {}",
                name.trim(),
                members
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("{e}{}", did_you_mean(suggest_dtype(table, name).as_deref())),
        }
    })
}

/// Without a rule set, a framework's own spelling (`torch.float8_e4m3fn`,
/// `np.float16`, `<f4`): the dtype every bundled rule set that reads `name` reads
/// it as. Where they differ, the name is refused with who reads what.
fn framework_spelling(name: &str) -> Result<DType, String> {
    let mut readings: Vec<(&str, DType)> = Vec::new();
    for t in rules::ALL {
        if let Ok(d) = t.dtype_named(name) {
            readings.push((t.name, d));
        }
    }
    match readings.first() {
        None => Err(DTypeNameError::Unknown(name.trim().to_owned()).to_string()),
        Some(&(_, d)) if readings.iter().all(|&(_, e)| e == d) => Ok(d),
        Some(_) => {
            let who: Vec<String> = readings.iter().map(|(t, d)| format!("{t} reads `{d}`")).collect();
            Err(format!(
                "dtype `{}` is read differently by the frameworks ({}): write a canonical name",
                name.trim(),
                who.join(", ")
            ))
        }
    }
}

/// NumPy's bare type codes that are not promo's names, each with the dtype NumPy
/// reads it as and NumPy's name for it. (The codes that are promo's names, `i1`..`i8`
/// and `u1`..`u8`, keep promo's meaning: `i8` is int8, NumPy's `'i8'` int64.)
pub const NUMPY_TYPE_CODES: &[(&str, DType, &str)] = &[
    ("b1", DType::Bool, "bool"),
    ("f2", DType::F16, "float16"),
    ("f4", DType::F32, "float32"),
    ("f8", DType::F64, "float64"),
    ("c8", DType::C64, "complex64"),
    ("c16", DType::C128, "complex128"),
];

/// For a bare NumPy type code promo does not take (`f4`, which could as well be
/// read as a 4-bit float), why, and what to write: promo's name, and the code with
/// a byte order (`<f4`) where it is read in play.
fn type_code(table: Option<&RuleTable<'_>>, name: &str) -> Option<String> {
    let name = name.trim();
    let &(code, d, numpy) = NUMPY_TYPE_CODES
        .iter()
        .find(|(c, _, _)| c.eq_ignore_ascii_case(name))?;
    let ordered = format!("<{code}");
    let reads_ordered = match table {
        Some(t) => t.dtype_named(&ordered) == Ok(d),
        None => framework_spelling(&ordered) == Ok(d),
    };
    let or = if reads_ordered {
        format!(" or `{ordered}`")
    } else {
        String::new()
    };
    Some(format!(
        "unknown dtype `{name}`: `{name}` is numpy's {numpy} type code; write `{d}`{or}"
    ))
}

/// The dtypes (under `table`, its dtypes only) some spelling of which begins
/// with `name`, when there are two or more: `float8` or `f8` names a family of
/// formats, not one of them, and a suggestion of one (or of the nearest short
/// name, `float`) would point the wrong way.
pub fn family(table: Option<&RuleTable<'_>>, name: &str) -> Option<Vec<DType>> {
    let name = name.trim().to_ascii_lowercase();
    if name.len() < 2 || name.len() > MAX_SUGGESTED_LEN {
        return None;
    }
    let dtypes: &[DType] = table.map_or(DType::ALL, |t| t.dtypes);
    let members: Vec<DType> = dtypes
        .iter()
        .copied()
        .filter(|d| {
            std::iter::once(d.name())
                .chain(d.aliases().iter().copied())
                .any(|s| s.to_ascii_lowercase().starts_with(&name))
        })
        .collect();
    (members.len() >= 2).then_some(members)
}

/// The Python scalar kind whose literal `text` is (`3` an int, `1.0` a float, `2j`
/// a complex, `True` a bool): a value typed where a dtype belongs.
pub fn literal_kind(text: &str) -> Option<PyScalar> {
    let text = text.trim();
    if text == "True" || text == "False" {
        return Some(PyScalar::Bool);
    }
    // Numbers only: `inf` and `nan` parse as floats but are words, not literals.
    let first = text.chars().next()?;
    if !(first.is_ascii_digit() || matches!(first, '-' | '+' | '.')) {
        return None;
    }
    let unsigned = text.trim_start_matches(['-', '+']).replace('_', "");
    if !unsigned.is_empty() && unsigned.chars().all(|c| c.is_ascii_digit()) {
        return Some(PyScalar::Int);
    }
    if unsigned.parse::<f64>().is_ok() {
        return Some(PyScalar::Float);
    }
    match unsigned.strip_suffix(['j', 'J']) {
        Some(imag) if imag.is_empty() || imag.parse::<f64>().is_ok() => Some(PyScalar::Complex),
        _ => None,
    }
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
            // Only the bare message, which has no hint of its own, gets the syntax.
            if e == DTypeNameError::Unknown(name.trim().to_owned()).to_string() {
                format!("{e}: {SYNTAX}")
            } else {
                e
            }
        })
    };
    if text.trim().is_empty() {
        return Err(promo_table::BadOperand(text.to_owned()).to_string());
    }
    if let Some(kind) = literal_kind(text) {
        return Err(format!(
            "unknown dtype `{}`: promo takes a value's type, not the value: a Python {kind} is the operand `python:{kind}`",
            text.trim()
        ));
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
    let ops: Vec<Op> = Op::ALL.iter().copied().filter(|&o| table.supports(o)).collect();
    let listed = || {
        if table.ops.is_empty() {
            format!("{} answers every elementwise operation alike", table.name)
        } else {
            // The elementwise ones by name, the others counted: `promo list` lists them.
            let names: Vec<&str> = table
                .ops
                .iter()
                .filter(|o| o.kind() == OpKind::Elementwise)
                .map(|o| o.name())
                .collect();
            let others = table.ops.len() - names.len();
            let more = if others == 0 {
                String::new()
            } else {
                format!(
                    ", and {others} unary operations, reductions and others (`promo list {}`)",
                    table.name
                )
            };
            format!("the operations of {} are {}{more}", table.name, names.join(" "))
        }
    };
    match name.parse::<Op>() {
        Ok(op) if ops.contains(&op) => Ok(op),
        Ok(op) => {
            // The operations of the same kind it covers: those a person asking
            // about `op` may have meant.
            let group = kind_group(op);
            let names: Vec<&str> = ops
                .iter()
                .filter(|o| kind_group(**o) == group)
                .map(|o| o.name())
                .collect();
            let meant = binary_meant(name)
                .filter(|m| m.parse::<Op>().is_ok_and(|m| ops.contains(&m)))
                .map_or(String::new(), |m| format!(" (did you mean `{m}`?)"));
            let covered = if names.is_empty() {
                format!(
                    "it covers no {group}; `promo list {}` lists what it covers",
                    table.name
                )
            } else {
                format!("its {group}: {}", names.join(" "))
            };
            Err(format!(
                "promo's {} rule set does not cover `{op}`{meant} ({covered})",
                table.name
            ))
        }
        Err(e) => {
            let pointer = OP_POINTERS
                .iter()
                .find(|(word, _)| word.eq_ignore_ascii_case(name.trim()))
                .map(|&(_, pointer)| pointer);
            match pointer {
                Some(OpPointer::Binary(meant)) => Err(format!("{e} (did you mean `{meant}`?): {}", listed())),
                Some(OpPointer::Reduction) => Err(format!(
                    "{e}: `{}` is a reduction (one array to fewer elements) promo does not have: {}",
                    name.trim(),
                    listed()
                )),
                None => {
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
    }
}

/// The kind of operation `op` is, in words: what an uncovered operation's message
/// lists the rule set's operations of.
fn kind_group(op: Op) -> &'static str {
    match op.kind() {
        OpKind::Elementwise => "elementwise operations",
        OpKind::Unary => "unary operations",
        OpKind::Reduction | OpKind::ReductionDtype(_) => "reductions",
        _ => "other operations (matmul, lists, stores, in-place and updates)",
    }
}

/// Where an operation name that is no [`Op`] points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpPointer {
    /// The binary operation the name usually means (`max` the element-wise `maximum`).
    Binary(&'static str),
    /// A reduction of one array, which is no binary operation.
    Reduction,
}

/// Common operation names, and where each points: the functions' short names
/// (`plus` for `add`; `max`, the reduction, beside `maximum`, the element-wise
/// maximum of two), and the reductions promo does not have.
pub const OP_POINTERS: &[(&str, OpPointer)] = &[
    ("max", OpPointer::Binary("maximum")),
    ("min", OpPointer::Binary("minimum")),
    ("amax", OpPointer::Binary("maximum")),
    ("amin", OpPointer::Binary("minimum")),
    ("plus", OpPointer::Binary("add")),
    ("minus", OpPointer::Binary("subtract")),
    ("times", OpPointer::Binary("multiply")),
    ("power", OpPointer::Binary("pow")),
    ("true_divide", OpPointer::Binary("divide")),
    ("argmin", OpPointer::Reduction),
    ("norm", OpPointer::Reduction),
];

/// The element-wise operation of two operands a name such as `max` may have been
/// meant for (`maximum`).
pub fn binary_meant(name: &str) -> Option<&'static str> {
    OP_POINTERS.iter().find_map(|&(word, p)| match p {
        OpPointer::Binary(meant) if word.eq_ignore_ascii_case(name.trim()) => Some(meant),
        _ => None,
    })
}

/// A refusal as `promo query` prints it: for a dtype that promo knows but the rule
/// set does not accept, the rule set named and its closest dtype suggested (ml_dtypes'
/// `float8_e4m3`, given to torch, which has `float8_e4m3fn`).
pub fn refusal(table: &RuleTable<'_>, refusal: &Refusal<'_>) -> String {
    match refusal {
        Refusal::UnsupportedDType(d) => {
            // Only a format of the same kind and width is what was meant (never
            // `u16` for `f16`).
            let candidates = table
                .dtypes
                .iter()
                .filter(|t| t.category() == d.category() && t.bits() == d.bits())
                .map(|t| (t.name(), t.name()));
            let hint = closest(d.name(), candidates).map(|s| {
                let spelled = s
                    .parse::<DType>()
                    .ok()
                    .and_then(|t| t.aliases().iter().find(|a| a.contains('_')));
                match spelled {
                    Some(long) => format!("`{s}` ({long})"),
                    None => format!("`{s}`"),
                }
            });
            let hint = hint.map_or_else(String::new, |h| format!(" (did you mean {h}?)"));
            format!("{refusal} by {}{hint}", table.name)
        }
        _ => refusal.to_string(),
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
    fn literals_are_told_from_names() {
        for (text, kind) in [
            ("3", Some(PyScalar::Int)),
            ("1_000", Some(PyScalar::Int)),
            ("-1.5", Some(PyScalar::Float)),
            (".5e-3", Some(PyScalar::Float)),
            ("2j", Some(PyScalar::Complex)),
            ("1.5J", Some(PyScalar::Complex)),
            ("False", Some(PyScalar::Bool)),
            ("inf", None),
            ("nan", None),
            ("f32", None),
            ("-", None),
            ("8bit", None),
        ] {
            assert_eq!(literal_kind(text), kind, "{text}");
        }
    }

    #[test]
    fn a_family_is_two_or_more_formats() {
        let torch = rules::by_name("torch").unwrap();
        let f8 = family(Some(torch), "float8").unwrap();
        assert!(f8.contains(&DType::F8E4M3FN) && f8.contains(&DType::F8E5M2) && !f8.contains(&DType::F8E4M3));
        assert!(f8.iter().all(|d| d.bits() == 8 && d.is_float()), "{f8:?}");
        assert!(family(None, "float8").unwrap().contains(&DType::F8E4M3));
        // One format is no family; a slip is no prefix.
        assert_eq!(family(Some(torch), "bfloat1"), None);
        assert_eq!(family(None, "flaot8"), None);
        assert_eq!(family(None, "f"), None);
    }

    #[test]
    fn without_a_rule_set_framework_spellings_read_as_the_rule_sets_agree() {
        assert_eq!(dtype(None, "torch.float8_e4m3fn"), Ok(DType::F8E4M3FN));
        assert_eq!(dtype(None, "jnp.bfloat16"), Ok(DType::BF16));
        assert_eq!(dtype(None, ">u2"), Ok(DType::U16));
        // NumPy's `uint` is u64, tinygrad's u32: no one reading.
        let e = dtype(None, "uint").unwrap_err();
        assert!(
            e.contains("numpy reads `u64`") && e.contains("tinygrad reads `u32`"),
            "{e}"
        );
        assert!(dtype(None, "nonesuch.float16")
            .unwrap_err()
            .starts_with("unknown dtype"));
    }

    #[test]
    fn bare_numpy_type_codes_name_numpys_reading() {
        let numpy = rules::by_name("numpy").unwrap();
        let torch = rules::by_name("torch").unwrap();
        for &(code, d, name) in NUMPY_TYPE_CODES {
            // Not a name promo reads anywhere, or the refusal would shadow it.
            assert!(code.parse::<DType>().is_err(), "{code}");
            let e = dtype(Some(numpy), code).unwrap_err();
            assert!(
                e.contains(&format!("numpy's {name} type code; write `{d}` or `<{code}`")),
                "{e}"
            );
            let e = dtype(Some(torch), code).unwrap_err();
            assert!(e.ends_with(&format!("write `{d}`")), "{e}");
        }
        // promo's names stand.
        assert_eq!(dtype(Some(numpy), "i8"), Ok(DType::I8));
        assert_eq!(dtype(Some(numpy), "u1"), Ok(DType::U1));
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
