//! Stage 2: resolve every name of a parsed rule file into the model, then check
//! every rule of the language on it, collecting all problems (the syntax errors
//! parse found among them) instead of stopping at the first. Nothing is parsed
//! here: every value comes as a node of the syntax tree.
//!
//! | step | module | does |
//! | --- | --- | --- |
//! | resolve | `validate/resolve/` | names → [`RuleFile`], spans kept; a derived layer's cells derived once |
//! | | `validate/lattice.rs` | the `[lattice]`: its nodes resolved, the order built |
//! | | `validate/classes.rs` | `[op_classes]` and `[dtype_classes]` |
//! | check | `validate/check.rs` | the rules, one `check_*` function each, applied in order |
//! | | `validate/ctxt.rs` | the errors found, repeats of one kind counted |

mod check;
mod classes;
mod ctxt;
mod lattice;
mod resolve;

use crate::parse::Parsed;
use crate::{Diagnostic, RuleFile};

pub use check::MAX_REASONS;
pub use resolve::{MAX_CHOICES, MAX_PREFIXES, MAX_PREFIX_BYTES};

/// Checks a parsed rule file (read from `src`) and builds its model, or returns
/// every problem found: its syntax errors, and those of resolution and the checks.
pub fn validate(src: &str, parsed: &Parsed) -> Result<RuleFile, Vec<Diagnostic>> {
    let mut cx = ctxt::Ctxt::default();
    for e in &parsed.errors {
        cx.error(e.message.clone(), e.span.clone());
    }
    let resolved = resolve::resolve(&mut cx, &parsed.file);
    check::check(&mut cx, src, &resolved);
    if cx.has_errors() {
        return Err(cx.finish());
    }
    Ok(resolved.rules)
}
