//! A rule set's own spellings of its dtypes (`[aliases]`: NumPy's `float` is f64,
//! PyTorch's `torch.half` is f16), and the lookup of a dtype name under a rule set.

use crate::dtype::ambiguous_name;
use crate::dtype::DType;
use crate::table::RuleTable;
use core::fmt;

/// A dtype name that does not name one dtype under a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DTypeNameError {
    /// No dtype has this name, among promo's names and the rule set's aliases.
    Unknown(String),
    /// The name means several dtypes: the rule set's `[aliases]` say so, or (with
    /// `rules` `None`) it is one of [`AMBIGUOUS_NAMES`](crate::AMBIGUOUS_NAMES) and no
    /// rule set settles it.
    Ambiguous {
        /// The name given.
        name: String,
        /// The rule set whose aliases make it ambiguous.
        rules: Option<String>,
        /// The dtypes it may mean, each with the rule set's other spellings of it.
        choices: Vec<(DType, Vec<String>)>,
    },
}

impl fmt::Display for DTypeNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DTypeNameError::Unknown(name) => write!(f, "unknown dtype `{name}`"),
            DTypeNameError::Ambiguous {
                name, rules: None, ..
            } => crate::dtype::UnknownDType(name.clone()).fmt(f),
            DTypeNameError::Ambiguous {
                name,
                rules: Some(rules),
                choices,
            } => {
                let choices: Vec<String> = choices
                    .iter()
                    .map(|(d, spellings)| match spellings.first() {
                        Some(s) => format!("`{d}` (`{s}`)"),
                        None => format!("`{d}`"),
                    })
                    .collect();
                write!(
                    f,
                    "dtype `{name}` is ambiguous under {rules}: write {}",
                    choices.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for DTypeNameError {}

impl RuleTable<'_> {
    /// The dtype `name` means under this rule set: one of its [`aliases`](RuleTable::aliases)
    /// (`float` is f64 under NumPy), else promo's canonical name or a common
    /// spelling ([`DType::parse_name`]); all compared ASCII case-insensitively. A name
    /// the aliases give several dtypes, or an [ambiguous name](crate::AMBIGUOUS_NAMES)
    /// the rule set does not settle, is refused with the choices.
    pub fn dtype_named(&self, name: &str) -> Result<DType, DTypeNameError> {
        let name = name.trim();
        let mut meant: Vec<DType> = Vec::new();
        for &(alias, d) in self.aliases {
            if alias.eq_ignore_ascii_case(name) && !meant.contains(&d) {
                meant.push(d);
            }
        }
        match meant.as_slice() {
            [d] => return Ok(*d),
            [] => {}
            _ => {
                return Err(DTypeNameError::Ambiguous {
                    name: name.to_owned(),
                    rules: Some(self.name.to_owned()),
                    choices: meant.iter().map(|&d| (d, self.spellings(d, name))).collect(),
                })
            }
        }
        if let Some(d) = DType::parse_name(name) {
            return Ok(d);
        }
        Err(match ambiguous_name(name) {
            Some((dtypes, _)) => DTypeNameError::Ambiguous {
                name: name.to_owned(),
                rules: None,
                choices: dtypes.iter().map(|&d| (d, Vec::new())).collect(),
            },
            None => DTypeNameError::Unknown(name.to_owned()),
        })
    }

    /// The rule set's other spellings of `dtype` (not `except`, nor an ambiguous
    /// name), in the order of [`RuleTable::aliases`].
    pub fn spellings(&self, dtype: DType, except: &str) -> Vec<String> {
        let ambiguous = |alias: &str| self.aliases.iter().filter(|(a, _)| *a == alias).count() > 1;
        self.aliases
            .iter()
            .filter(|&&(a, d)| d == dtype && !a.eq_ignore_ascii_case(except) && !ambiguous(a))
            .map(|&(a, _)| a.to_owned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::tiny_table;

    #[test]
    fn aliases_come_first_then_promo_names() {
        let t = RuleTable {
            aliases: &[
                ("float", DType::F32),
                ("tiny.byte", DType::I8),
                ("num", DType::I8),
                ("num", DType::I16),
                ("tiny.short", DType::I16),
            ],
            ..tiny_table()
        };
        assert_eq!(t.dtype_named("float"), Ok(DType::F32));
        assert_eq!(t.dtype_named("Tiny.Byte"), Ok(DType::I8));
        assert_eq!(t.dtype_named("int16"), Ok(DType::I16));
        assert_eq!(
            t.dtype_named("num").unwrap_err().to_string(),
            "dtype `num` is ambiguous under tiny: write `i8` (`tiny.byte`) or `i16` (`tiny.short`)"
        );
        assert_eq!(t.dtype_named("nope"), Err(DTypeNameError::Unknown("nope".into())));
        // Without the rule set's word, `int` stays ambiguous.
        let e = t.dtype_named("int").unwrap_err();
        assert!(
            matches!(e, DTypeNameError::Ambiguous { rules: None, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("write `i32` or `i64`"), "{e}");
    }
}
