//! The `[lattice]`'s `edges`: lines of chains `a b -> c -> d`, every name on the
//! left of an arrow below every name on its right.

use super::text;
use super::word::TypeName;
use crate::diagnostic::Diagnostic;
use toml::Spanned;

/// One line of `edges`: groups of type names between the arrows, lowest first.
/// A line as parse returns it without an error has two groups or more, none empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeLine {
    /// The groups, each name with where it is written.
    pub groups: Vec<Vec<Spanned<TypeName>>>,
}

/// Parses `edges`: every line, and an error for each line that is not `lower ->
/// upper` (such a line is kept as written, so that its names are still resolved).
pub(super) fn parse_edges(src: &str, edges: &Spanned<String>, errors: &mut Vec<Diagnostic>) -> Vec<EdgeLine> {
    let lines = match text::lines(src, edges, "edges") {
        Ok(lines) => lines,
        Err(e) => {
            errors.push(e);
            return Vec::new();
        }
    };
    lines
        .into_iter()
        .map(|words| {
            let first = words[0].span();
            let mut groups = vec![Vec::new()];
            for word in words {
                if word.get_ref() == "->" {
                    groups.push(Vec::new());
                } else {
                    let name = TypeName::new(word.get_ref());
                    groups
                        .last_mut()
                        .expect("one group")
                        .push(Spanned::new(word.span(), name));
                }
            }
            if groups.len() < 2 || groups.iter().any(Vec::is_empty) {
                errors.push(Diagnostic::new(
                    "a lattice line is `lower -> upper`, with dtypes on both sides of every `->`",
                    first,
                ));
            }
            EdgeLine { groups }
        })
        .collect()
}
