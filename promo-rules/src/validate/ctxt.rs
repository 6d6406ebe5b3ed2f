//! [`Ctxt`]: the problems found while a rule file is resolved and checked.

use crate::diagnostic::escaped;
use crate::Diagnostic;
use std::collections::BTreeMap;
use std::ops::Range;

/// How many errors of one kind are shown before the rest are counted.
const MAX_ERRORS_OF_A_KIND: usize = 20;

/// Collects problems while the model is built and checked; past
/// [`MAX_ERRORS_OF_A_KIND`] of one kind (the same message but for the names in
/// backticks) it only counts them, so a file with thousands of one mistake gives a
/// short report.
#[derive(Default)]
pub(super) struct Ctxt {
    errors: Vec<Diagnostic>,
    /// Per kind: how many were seen, and the span of the last one dropped.
    kinds: BTreeMap<String, (usize, Range<usize>)>,
    /// Every error reported, shown or counted.
    reported: usize,
}

impl Ctxt {
    /// Reports `message` about the text at `span`; a name the message quotes shows
    /// its control characters escaped.
    pub(super) fn error(&mut self, message: impl Into<String>, span: Range<usize>) {
        let message = escaped(&message.into());
        self.reported += 1;
        let entry = self.kinds.entry(error_kind(&message)).or_insert((0, 0..0));
        entry.0 += 1;
        if entry.0 <= MAX_ERRORS_OF_A_KIND {
            self.errors.push(Diagnostic::new(message, span));
        } else {
            entry.1 = span;
        }
    }

    /// How many errors were reported so far, shown or counted.
    pub(super) fn reported(&self) -> usize {
        self.reported
    }

    /// Whether any error was reported.
    pub(super) fn has_errors(&self) -> bool {
        self.reported > 0
    }

    /// The errors, in file order, with one closing line per kind that was cut.
    pub(super) fn finish(mut self) -> Vec<Diagnostic> {
        for (kind, (count, span)) in &self.kinds {
            if *count > MAX_ERRORS_OF_A_KIND {
                let more = count - MAX_ERRORS_OF_A_KIND;
                self.errors.push(Diagnostic::new(
                    format!(
                        "and {more} more error{} like `{kind}`",
                        if more == 1 { "" } else { "s" }
                    ),
                    span.clone(),
                ));
            }
        }
        self.errors.sort_by_key(|e| e.span.start);
        self.errors
    }
}

/// A message with every backticked part replaced by `_`: its kind.
fn error_kind(message: &str) -> String {
    let mut kind = String::with_capacity(message.len());
    for (i, part) in message.split('`').enumerate() {
        kind.push_str(if i % 2 == 1 { "_" } else { part });
    }
    kind
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_the_message_without_its_names() {
        assert_eq!(error_kind("unknown dtype `f9`"), "unknown dtype _");
        assert_eq!(
            error_kind("duplicate operation `add` (in class `math`)"),
            "duplicate operation _ (in class _)"
        );
        assert_eq!(error_kind("no names"), "no names");
    }

    #[test]
    fn repeats_of_a_kind_are_counted_past_the_first_twenty() {
        let mut cx = Ctxt::default();
        for i in 0..25 {
            cx.error(format!("unknown dtype `f{i}`"), 100 - i..101 - i);
        }
        cx.error("and one other", 0..1);
        assert_eq!(cx.reported(), 26);
        let errors = cx.finish();
        // 20 shown, one closing line at the last one dropped, the other error; in
        // file order.
        assert_eq!(errors.len(), 22);
        assert_eq!(errors[0].message, "and one other");
        let closing = errors.iter().find(|e| e.message.starts_with("and 5")).unwrap();
        assert_eq!(closing.message, "and 5 more errors like `unknown dtype _`");
        assert_eq!(closing.span, 76..77);
        assert!(errors.windows(2).all(|w| w[0].span.start <= w[1].span.start));
    }

    #[test]
    fn names_in_messages_show_control_characters_escaped() {
        let mut cx = Ctxt::default();
        cx.error("unknown dtype `f\u{1b}[31m`", 0..1);
        cx.error("reason `a\u{202e}b` is never used", 2..3);
        let messages: Vec<String> = cx.finish().into_iter().map(|d| d.message).collect();
        assert_eq!(
            messages,
            [
                "unknown dtype `f\\u{1b}[31m`",
                "reason `a\\u{202e}b` is never used"
            ]
        );
    }
}
