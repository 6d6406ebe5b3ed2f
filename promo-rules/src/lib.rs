//! The rule-file model of promo: parse `rules/*.toml`, validate it, and lend it as
//! a [`promo_table::RuleTable`]. Shared by the `promo-macros` proc-macro and the
//! `promo` command; knows nothing of `syn` or `quote`.
//!
//! | stage | module | does |
//! | --- | --- | --- |
//! | parse | [`parse`] | text → the syntax tree ([`parse::RawFile`]): TOML, matrices, `cells`, `edges`, `where`; byte spans and syntax errors kept |
//! | validate | [`validate`] | names resolved into the model, spans kept; then every `check_*` rule, in order; all errors collected |
//! | derive | [`derive`](mod@derive) | what the lattice, kinds and `where` conditions mean: a derived layer's cells, derived once as it is resolved |
//! | model | [`model`] | the checked [`RuleFile`]; [`RuleFile::with_table`] for lookups |
//! | diagnostics | [`Diagnostic`] | `error: …` / `--> file:line:col` rendering |
//! | source | [`read_source`] | a rule file's text: at most [`MAX_SOURCE_BYTES`], UTF-8 |
//!
//! ```
//! let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/kernel_float.toml")).unwrap();
//! let rules = promo_rules::load("rules/kernel_float.toml", &src).unwrap();
//! assert_eq!(rules.name, "kernel_float");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod derive;
mod diagnostic;
mod explain;
pub mod model;
pub mod names;
pub mod parse;
pub mod properties;
mod source;
pub mod validate;

pub use diagnostic::{Diagnostic, Diagnostics, SHOWN_AROUND};
pub use explain::{explain, explain_operation};
pub use model::RuleFile;
pub use source::{read_source, ReadError, MAX_SOURCE_BYTES};

/// Parses and validates the rule file at `path` (used only in messages) with text `src`:
/// parse (the whole syntax tree), then resolve (deriving each derived layer's
/// cells) and check; the data goes one way. A text longer than [`MAX_SOURCE_BYTES`] is refused
/// unread.
pub fn load(path: &str, src: &str) -> Result<RuleFile, Diagnostics> {
    if src.len() > MAX_SOURCE_BYTES {
        // The error keeps the start of the first line to show, not the whole text.
        let line = src.lines().next().unwrap_or_default();
        let mut end = line.len().min(2 * SHOWN_AROUND);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        return Err(Diagnostics {
            path: path.to_owned(),
            src: line[..end].to_owned(),
            errors: vec![Diagnostic::new(
                format!(
                    "the rule file is {} bytes: at most {MAX_SOURCE_BYTES} (1 MiB) are read",
                    src.len()
                ),
                0..0,
            )],
        });
    }
    let fail = |errors| Diagnostics {
        path: path.to_owned(),
        src: src.to_owned(),
        errors,
    };
    let parsed = parse::parse_file(src).map_err(|e| fail(vec![e]))?;
    validate::validate(src, &parsed).map_err(fail)
}
