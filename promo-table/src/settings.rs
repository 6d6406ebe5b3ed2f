//! A rule set's options read against it: the defaults, and `KEY=VALUE` settings
//! parsed and checked against the rule set's options and dtypes
//! ([`RuleTable::options_from`]).

use crate::aliases::DTypeNameError;
use crate::options::{OptionError, OptionKind, OptionValue, Options, MAX_OPTIONS};
use crate::table::RuleTable;

impl RuleTable<'_> {
    /// Every option at its default value.
    pub fn default_options(&self) -> Options {
        let mut values = [OptionValue::Bool(false); MAX_OPTIONS];
        for (slot, spec) in values.iter_mut().zip(self.options) {
            *slot = spec.default;
        }
        Options::from_values(&values[..self.options.len().min(MAX_OPTIONS)])
    }

    /// The index of the option called `name`.
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|o| o.name == name)
    }

    /// Sets option `key` to the value spelled `value` in `options`.
    pub fn set_option(&self, options: &mut Options, key: &str, value: &str) -> Result<(), OptionError> {
        let index = self.option_index(key).ok_or_else(|| OptionError::Unknown {
            rules: self.name.to_owned(),
            option: key.to_owned(),
            known: self.options.iter().map(|o| o.name.to_owned()).collect(),
        })?;
        let spec = &self.options[index];
        let parsed = match spec.kind {
            // A dtype value is spelled as the rule set spells dtypes.
            OptionKind::DType => match self.dtype_named(value) {
                Ok(d) => OptionValue::DType(d),
                Err(e) => {
                    return Err(OptionError::BadValue {
                        option: key.to_owned(),
                        value: value.to_owned(),
                        expected: match e {
                            DTypeNameError::Unknown(_) => "a dtype name".to_owned(),
                            ambiguous => format!("one dtype: {ambiguous}"),
                        },
                    })
                }
            },
            _ => spec.parse_value(value)?,
        };
        if let OptionValue::DType(d) = parsed {
            // A dtype option takes the dtypes the rule set covers, nothing else.
            if !self.dtypes.contains(&d) {
                return Err(OptionError::BadValue {
                    option: key.to_owned(),
                    value: value.to_owned(),
                    expected: format!(
                        "one of the dtypes of {}: {}",
                        self.name,
                        self.dtypes.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
                    ),
                });
            }
        }
        options.set(index, parsed);
        Ok(())
    }

    /// Parses `KEY=VALUE` settings on top of the defaults; a key given twice is
    /// [`OptionError::SetTwice`].
    pub fn options_from<'s>(
        &self,
        settings: impl IntoIterator<Item = &'s str>,
    ) -> Result<Options, OptionError> {
        self.options_over(&self.default_options(), settings)
    }

    /// Parses `KEY=VALUE` settings on top of `base` (the options of a command, for
    /// the settings of one line of its input): each key may be given once, and a
    /// key given twice is [`OptionError::SetTwice`], even with one value.
    pub fn options_over<'s>(
        &self,
        base: &Options,
        settings: impl IntoIterator<Item = &'s str>,
    ) -> Result<Options, OptionError> {
        let mut options = *base;
        let mut given = [false; MAX_OPTIONS];
        for setting in settings {
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| OptionError::NotKeyValue(setting.to_owned()))?;
            let key = key.trim();
            if let Some(index) = self.option_index(key) {
                if std::mem::replace(&mut given[index], true) {
                    return Err(OptionError::SetTwice(key.to_owned()));
                }
            }
            self.set_option(&mut options, key, value.trim())?;
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::fixture::tiny_table;

    #[test]
    fn settings_parse_on_top_of_the_defaults() {
        let t = tiny_table();
        let defaults = t.default_options();
        assert_eq!(
            defaults.values(),
            [OptionValue::Bool(false), OptionValue::DType(DType::F32)]
        );
        let set = t.options_from(["strict = true", "out=i8"]).unwrap();
        assert_eq!(
            set.values(),
            [OptionValue::Bool(true), OptionValue::DType(DType::I8)]
        );
        assert_eq!(t.option_index("out"), Some(1));
        assert_eq!(t.option_index("in"), None);
    }

    #[test]
    fn bad_settings_name_what_was_expected() {
        let t = tiny_table();
        let error = |setting: &str| t.options_from([setting]).unwrap_err().to_string();
        assert_eq!(error("strict"), "bad setting `strict`: expected KEY=VALUE");
        assert_eq!(
            error("loose=true"),
            "unknown option `loose` for tiny: expected one of `strict`, `out`"
        );
        assert_eq!(
            error("strict=maybe"),
            "bad value `maybe` for `strict`: expected `true` or `false`"
        );
        // A dtype option takes only the rule set's dtypes.
        assert_eq!(
            error("out=f64"),
            "bad value `f64` for `out`: expected one of the dtypes of tiny: bool i8 u8 i16 f32"
        );
        let none = RuleTable { options: &[], ..t };
        assert_eq!(
            none.options_from(["x=1"]).unwrap_err().to_string(),
            "unknown option `x`: tiny takes no options"
        );
    }

    #[test]
    fn a_key_given_twice_is_an_error_even_with_one_value() {
        let t = tiny_table();
        for settings in [["strict=true", "strict=false"], ["out=i8", " out = i8 "]] {
            let key = settings[0].split('=').next().unwrap();
            assert_eq!(
                t.options_from(settings).unwrap_err().to_string(),
                format!("option `{key}` is set twice"),
                "{settings:?}"
            );
        }
        // Each key once is fine, in any order.
        assert!(t.options_from(["out=i8", "strict=true"]).is_ok());
    }

    #[test]
    fn settings_over_a_base_keep_its_values_and_refuse_a_repeated_key() {
        let t = tiny_table();
        let base = t.options_from(["strict=true"]).unwrap();
        // A line's setting may override the base, once.
        let line = t.options_over(&base, ["out=i8"]).unwrap();
        assert_eq!(
            line.values(),
            [OptionValue::Bool(true), OptionValue::DType(DType::I8)]
        );
        let line = t.options_over(&base, ["strict=false"]).unwrap();
        assert_eq!(line.get(0), OptionValue::Bool(false));
        assert_eq!(
            t.options_over(&base, ["strict=false", "out=i8", "strict=false"])
                .unwrap_err(),
            OptionError::SetTwice("strict".to_owned())
        );
    }
}
