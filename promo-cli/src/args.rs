//! What the commands share beyond [`promo_query`] (the rule-set argument, `--set`
//! options and `--op`): how a command fails. Every message printed here shows
//! control characters visibly.

pub use promo_query::source::{
    options, options_and_op, rule_source, settings, with_rules, RuleSet, RuleSource,
};
use std::fmt::Display;
use std::process::ExitCode;

use crate::escape::{visible, visible_lines};

/// Reports bad input (an unknown name, an unreadable file, an invalid rule file,
/// whose diagnostic takes several lines) and gives exit status 2.
pub fn bad_input(message: impl Display) -> ExitCode {
    eprintln!("promo: {}", visible_lines(&message.to_string()));
    ExitCode::from(2)
}

/// Reports a refused promotion and gives exit status 1.
pub fn refused(reason: impl Display) -> ExitCode {
    eprintln!("refused: {}", visible(&reason.to_string()));
    ExitCode::from(1)
}
