//! The rule set a question names (a bundled one by name, or a rule file by path),
//! loaded once as a [`RuleSet`], and the options (`KEY=VALUE`) and operation it is asked under, as the `promo`
//! command and the Python package take them.

use promo_core::rules;
use promo_rules::RuleFile;
use promo_table::text::visible;
use promo_table::{FlatParts, Op, Options, RuleTable};
use std::borrow::Cow;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

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

/// Runs `f` on the bundled rule set called `spec`, or on the rule file at path
/// `spec` ([`RuleSet::named`]).
pub fn with_rules<R>(spec: &str, f: impl FnOnce(&RuleTable<'_>) -> R) -> Result<R, String> {
    Ok(RuleSet::named(spec).map_err(|e| e.to_string())?.with_table(f))
}

/// A rule set, loaded once: one of the bundled ones, or a user's rule file,
/// parsed and checked, whose answers are flattened into a [`Flat`](promo_table::Flat)
/// table once, before its first lookup, as the bundled ones are when promo is
/// built. Every lookup is then an index computation and one load, never a walk
/// over the layers, however many questions a file answers (`promo query --stdin`,
/// a Python session).
pub struct RuleSet {
    origin: Origin,
}

/// Where a [`RuleSet`] comes from.
enum Origin {
    /// One of `promo_core::rules::ALL`, by position.
    Bundled(usize),
    /// A user's rule file, loaded.
    File {
        path: String,
        src: String,
        model: Box<RuleFile>,
        /// Its answers, flattened at the first lookup; `None` inside when the
        /// layers test a dtype option, whose values are too many to enumerate.
        flat: OnceLock<Option<FlatParts>>,
    },
}

/// Why a rule set did not load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Neither a bundled rule set's name nor a rule file's path: the message names
    /// the bundled ones, and the closest to what was given.
    Unknown(String),
    /// The rule file could not be read.
    Read(String),
    /// The rule file is not valid: its `file:line:col` diagnostics.
    Invalid(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Unknown(m) | LoadError::Read(m) | LoadError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LoadError {}

impl RuleSet {
    /// The bundled rule set at `index` of `promo_core::rules::ALL`.
    pub fn bundled(index: usize) -> Option<RuleSet> {
        (index < rules::ALL.len()).then_some(RuleSet {
            origin: Origin::Bundled(index),
        })
    }

    /// The bundled rule set called `spec`, or else the rule file at path `spec`.
    pub fn named(spec: &str) -> Result<RuleSet, LoadError> {
        if let Some(index) = rules::ALL.iter().position(|t| t.name == spec) {
            return Ok(RuleSet {
                origin: Origin::Bundled(index),
            });
        }
        if !is_path(spec) {
            return Err(LoadError::Unknown(unknown_rule_set(spec)));
        }
        RuleSet::load(Path::new(spec))
    }

    /// The rule file at `path`, read (never more than
    /// [`promo_rules::MAX_SOURCE_BYTES`]) and checked.
    pub fn load(path: &Path) -> Result<RuleSet, LoadError> {
        let shown = path.to_string_lossy().into_owned();
        let src = promo_rules::read_source(path)
            .map_err(|e| LoadError::Read(format!("cannot read `{}`: {e}", visible(&shown))))?;
        let model = promo_rules::load(&shown, &src).map_err(|d| LoadError::Invalid(d.to_string()))?;
        Ok(RuleSet {
            origin: Origin::File {
                path: shown,
                src,
                model: Box::new(model),
                flat: OnceLock::new(),
            },
        })
    }

    /// Whether it is one of the bundled rule sets.
    pub fn is_bundled(&self) -> bool {
        matches!(self.origin, Origin::Bundled(_))
    }

    /// `bundled rules/NAME.toml` for a bundled rule set, the rule file's path
    /// otherwise.
    pub fn path(&self) -> String {
        match &self.origin {
            Origin::Bundled(i) => format!("bundled {}", rules::SOURCES[*i].0),
            Origin::File { path, .. } => path.clone(),
        }
    }

    /// Runs `f` on the rule table: a bundled one as built, a rule file's with its
    /// [`Flat`](promo_table::Flat) table (flattened on the first call).
    pub fn with_table<R>(&self, f: impl FnOnce(&RuleTable<'_>) -> R) -> R {
        match &self.origin {
            Origin::Bundled(i) => f(rules::ALL[*i]),
            Origin::File { model, flat, .. } => model.with_table(|walked| {
                let flat = flat.get_or_init(|| walked.flatten());
                f(&RuleTable {
                    flat: flat.as_ref().map(FlatParts::as_flat),
                    ..*walked
                })
            }),
        }
    }

    /// The rule file (a bundled one parsed again), its path and its text: what
    /// `promo explain` reads.
    pub fn source(&self) -> Result<(Cow<'_, RuleFile>, String, Cow<'_, str>), LoadError> {
        match &self.origin {
            Origin::Bundled(i) => {
                let (path, src) = rules::SOURCES[*i];
                let path = format!("bundled {path}");
                let model = promo_rules::load(&path, src).map_err(|d| LoadError::Invalid(d.to_string()))?;
                Ok((Cow::Owned(model), path, Cow::Borrowed(src)))
            }
            Origin::File { path, src, model, .. } => Ok((
                Cow::Borrowed(model.as_ref()),
                path.clone(),
                Cow::Borrowed(src.as_str()),
            )),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::{operand_of_key, Operand, OPERAND_KEYS};

    /// The bundled rule file called `name`: its path and its text.
    fn bundled_source(name: &str) -> (&'static str, &'static str) {
        rules::SOURCES[rules::ALL.iter().position(|t| t.name == name).unwrap()]
    }

    /// The bundled rule file called `name`, as a user's rule file on disk.
    fn user_file(dir: &tempfile::TempDir, name: &str) -> String {
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, bundled_source(name).1).unwrap();
        path.to_string_lossy().into_owned()
    }

    #[test]
    fn a_user_rule_file_is_flattened_and_answers_as_its_layers() {
        let dir = tempfile::tempdir().unwrap();
        let operands: Vec<Operand> = (0..OPERAND_KEYS).filter_map(operand_of_key).collect();
        for name in ["numpy", "jax"] {
            let path = user_file(&dir, name);
            let set = RuleSet::named(&path).expect("the rule file loads");
            assert!(!set.is_bundled());
            assert_eq!(set.path(), path);
            let walked = promo_rules::load(&path, bundled_source(name).1).unwrap();
            set.with_table(|table| {
                assert!(table.flat.is_some(), "{name}: a user's rule file is flattened");
                walked.with_table(|layers| {
                    assert!(layers.flat.is_none());
                    let options = table.default_options();
                    for &op in table.ops.iter().take(3) {
                        for &lhs in &operands {
                            for &rhs in &operands {
                                assert_eq!(
                                    table.promote_result(&options, op, lhs, rhs),
                                    layers.promote_result(&options, op, lhs, rhs),
                                    "{name} {op} {lhs} {rhs}"
                                );
                            }
                        }
                    }
                });
            });
            // The flat table is made once: the second lookup finds it.
            let first = set.with_table(|t| t.flat.map(|f| f.cells.as_ptr()));
            assert_eq!(set.with_table(|t| t.flat.map(|f| f.cells.as_ptr())), first);
        }
    }

    #[test]
    fn a_bundled_name_is_the_bundled_table() {
        let set = RuleSet::named("torch").unwrap();
        assert!(set.is_bundled());
        let torch = rules::by_name("torch").unwrap();
        assert!(set.with_table(|t| t == torch));
        let (bundled_path, bundled_src) = bundled_source("torch");
        assert_eq!(set.path(), format!("bundled {bundled_path}"));
        let (model, path, src) = set.source().unwrap();
        assert_eq!(model.name, "torch");
        assert_eq!((path, src.as_ref()), (set.path(), bundled_src));
        assert!(RuleSet::bundled(rules::ALL.len()).is_none());
        assert!(RuleSet::bundled(0).is_some_and(|s| s.is_bundled()));
    }

    #[test]
    fn a_rule_set_that_does_not_load_says_why() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(RuleSet::named("torhc"), Err(LoadError::Unknown(m)) if m.contains("`torch`")));
        let missing = dir.path().join("missing.toml");
        assert!(matches!(
            RuleSet::named(&missing.to_string_lossy()),
            Err(LoadError::Read(m)) if m.starts_with("cannot read")
        ));
        let bad = dir.path().join("bad.toml");
        std::fs::write(&bad, "[rules]\nname = 1\n").unwrap();
        let Err(LoadError::Invalid(m)) = RuleSet::named(&bad.to_string_lossy()) else {
            panic!("an invalid rule file");
        };
        assert!(m.contains("bad.toml:"), "{m}");
        // `with_rules` gives the same message.
        assert_eq!(with_rules(&bad.to_string_lossy(), |_| ()).unwrap_err(), m);
    }
}
