//! Stage 2: resolve every name of a raw rule file into the model, then check every
//! rule of the language on it, collecting all problems instead of stopping at the
//! first.
//!
//! | step | module | does |
//! | --- | --- | --- |
//! | resolve | `validate/resolve.rs` | names → [`RuleFile`], spans kept; a derived layer's cells derived once |
//! | check | `validate/check.rs` | the rules, one `check_*` function each, applied in order |
//! | | `validate/ctxt.rs` | the errors found, repeats of one kind counted |

mod check;
mod classes;
mod ctxt;
mod resolve;

use crate::parse::RawFile;
use crate::{Diagnostic, RuleFile};

pub use check::MAX_REASONS;
pub use resolve::MAX_CHOICES;

/// Checks a raw rule file (read from `src`) and builds its model, or returns every
/// problem found.
pub fn validate(src: &str, raw: &RawFile) -> Result<RuleFile, Vec<Diagnostic>> {
    let mut cx = ctxt::Ctxt::default();
    let resolved = resolve::resolve(&mut cx, src, raw);
    check::check(&mut cx, src, &resolved);
    if cx.has_errors() {
        return Err(cx.finish());
    }
    Ok(resolved.rules)
}
