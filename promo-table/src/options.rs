//! The options of a rule set (an OpenVINO attribute, Paddle's execution mode): their
//! types and values, and the parsing of `KEY=VALUE` settings.

use crate::dtype::DType;
use core::fmt;

/// The largest number of options one rule file may declare.
pub const MAX_OPTIONS: usize = 8;

/// The value of one option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    /// A boolean option's value.
    Bool(bool),
    /// A dtype option's value.
    DType(DType),
    /// A choice option's value: the index into [`OptionKind::Choice`].
    Choice(u8),
}

/// The type of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind<'a> {
    /// `true` or `false`.
    Bool,
    /// Any dtype name.
    DType,
    /// One of the listed words.
    Choice(&'a [&'a str]),
}

/// One option a rule set takes (an OpenVINO attribute, Paddle's execution mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec<'a> {
    /// The framework's own name for it, e.g. `promote_unsafe`.
    pub name: &'a str,
    /// Its type.
    pub kind: OptionKind<'a>,
    /// Its value when not set.
    pub default: OptionValue,
    /// One line saying what it does.
    pub doc: &'a str,
}

impl OptionSpec<'_> {
    /// Parses `text` as a value of this option: a bool as `true`/`false` (Python's
    /// `True`/`False`, `1`/`0` too), a dtype by promo's names (a rule set's
    /// aliases: [`RuleTable::set_option`](crate::RuleTable::set_option)), a choice as one of its words.
    pub fn parse_value(&self, text: &str) -> Result<OptionValue, OptionError> {
        let bad = |expected: String| OptionError::BadValue {
            option: self.name.to_owned(),
            value: text.to_owned(),
            expected,
        };
        match self.kind {
            OptionKind::Bool => match text {
                "true" | "True" | "1" => Ok(OptionValue::Bool(true)),
                "false" | "False" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(bad("`true` or `false`".into())),
            },
            OptionKind::DType => text
                .parse()
                .map(OptionValue::DType)
                .map_err(|_| bad("a dtype name".into())),
            OptionKind::Choice(words) => words
                .iter()
                .position(|w| *w == text)
                .map(|i| OptionValue::Choice(i as u8))
                .ok_or_else(|| bad(format!("one of {}", quoted_list(words)))),
        }
    }

    /// Renders a value of this option as a rule file or the command line spells it.
    pub fn format_value(&self, value: OptionValue) -> String {
        match (value, self.kind) {
            (OptionValue::Bool(b), _) => b.to_string(),
            (OptionValue::DType(d), _) => d.name().to_owned(),
            (OptionValue::Choice(i), OptionKind::Choice(words)) => {
                words.get(i as usize).copied().unwrap_or("?").to_owned()
            }
            (OptionValue::Choice(i), _) => i.to_string(),
        }
    }
}

fn quoted_list(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Values for every option of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    values: [OptionValue; MAX_OPTIONS],
    len: usize,
}

impl Options {
    /// Options with these values, in the rule set's option order (at most
    /// [`MAX_OPTIONS`]; extra values are ignored).
    pub const fn from_values(given: &[OptionValue]) -> Options {
        let mut values = [OptionValue::Bool(false); MAX_OPTIONS];
        let mut i = 0;
        while i < given.len() && i < MAX_OPTIONS {
            values[i] = given[i];
            i += 1;
        }
        Options { values, len: i }
    }

    /// The value of the option at `index`.
    ///
    /// # Panics
    ///
    /// If there is no option at `index`.
    #[inline]
    pub const fn get(&self, index: usize) -> OptionValue {
        self.values()[index]
    }

    /// Every value, in the rule set's option order.
    #[inline]
    pub const fn values(&self) -> &[OptionValue] {
        self.values.split_at(self.len).0
    }

    /// Sets the value of the option at `index` (one the options have).
    pub(crate) fn set(&mut self, index: usize, value: OptionValue) {
        if let Some(slot) = self.values[..self.len].get_mut(index) {
            *slot = value;
        }
    }
}

/// A bad option key or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The rule set has no such option.
    Unknown {
        /// The rule set's name.
        rules: String,
        /// The key given.
        option: String,
        /// The keys it does have.
        known: Vec<String>,
    },
    /// The value does not parse as the option's type.
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A `KEY=VALUE` setting without `=`.
    NotKeyValue(String),
    /// One key given twice among the settings of one command or line (even with
    /// one value): which of them was meant is not for promo to guess.
    SetTwice(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { rules, option, known } if known.is_empty() => {
                write!(f, "unknown option `{option}`: {rules} takes no options")
            }
            OptionError::Unknown { rules, option, known } => write!(
                f,
                "unknown option `{option}` for {rules}: expected one of {}",
                quoted_list(&known.iter().map(String::as_str).collect::<Vec<_>>())
            ),
            OptionError::BadValue {
                option,
                value,
                expected,
            } => {
                write!(f, "bad value `{value}` for `{option}`: expected {expected}")
            }
            OptionError::NotKeyValue(s) => write!(f, "bad setting `{s}`: expected KEY=VALUE"),
            OptionError::SetTwice(key) => write!(f, "option `{key}` is set twice"),
        }
    }
}

impl std::error::Error for OptionError {}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: &[&str] = &["eager", "static"];

    fn spec(kind: OptionKind<'static>) -> OptionSpec<'static> {
        OptionSpec {
            name: "o",
            kind,
            default: OptionValue::Bool(false),
            doc: "",
        }
    }

    #[test]
    fn bool_values_parse_as_words_and_digits() {
        let s = spec(OptionKind::Bool);
        for (text, value) in [
            ("true", true),
            ("True", true),
            ("1", true),
            ("false", false),
            ("False", false),
            ("0", false),
        ] {
            assert_eq!(s.parse_value(text), Ok(OptionValue::Bool(value)), "{text}");
        }
        let e = s.parse_value("yes").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value `yes` for `o`: expected `true` or `false`"
        );
        assert_eq!(s.format_value(OptionValue::Bool(true)), "true");
    }

    #[test]
    fn dtype_values_parse_every_name_and_alias() {
        let s = spec(OptionKind::DType);
        for &d in DType::ALL {
            assert_eq!(s.parse_value(d.name()), Ok(OptionValue::DType(d)));
            assert_eq!(s.format_value(OptionValue::DType(d)), d.name());
        }
        assert_eq!(s.parse_value("float32"), Ok(OptionValue::DType(DType::F32)));
        let e = s.parse_value("f9").unwrap_err();
        assert_eq!(e.to_string(), "bad value `f9` for `o`: expected a dtype name");
    }

    #[test]
    fn choice_values_are_word_indices() {
        let s = spec(OptionKind::Choice(WORDS));
        assert_eq!(s.parse_value("eager"), Ok(OptionValue::Choice(0)));
        assert_eq!(s.parse_value("static"), Ok(OptionValue::Choice(1)));
        assert_eq!(s.format_value(OptionValue::Choice(1)), "static");
        assert_eq!(s.format_value(OptionValue::Choice(7)), "?");
        let e = s.parse_value("Static").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value `Static` for `o`: expected one of `eager`, `static`"
        );
        // A choice value read against an option of another type prints its index.
        assert_eq!(spec(OptionKind::Bool).format_value(OptionValue::Choice(3)), "3");
    }

    #[test]
    fn from_values_keeps_at_most_max_options() {
        let many = [OptionValue::Bool(true); MAX_OPTIONS + 3];
        assert_eq!(Options::from_values(&many).values().len(), MAX_OPTIONS);
        let two = Options::from_values(&[OptionValue::Bool(true), OptionValue::Choice(1)]);
        assert_eq!(two.values(), [OptionValue::Bool(true), OptionValue::Choice(1)]);
        assert_eq!(two.get(1), OptionValue::Choice(1));
    }
}
