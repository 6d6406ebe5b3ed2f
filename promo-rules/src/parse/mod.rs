//! Stage 1: the text of a rule file to its syntax tree, byte spans kept, and every
//! syntax error found. The TOML document must be valid TOML (else its one error is
//! all there is); inside it, every string value that has a grammar of its own is
//! parsed here, each error reported with its span and the rest parsed on.
//!
//! | part | module | does |
//! | --- | --- | --- |
//! | TOML | `document.rs` | the tables and keys, as serde reads them; `cases` expanded |
//! | tree | `tree.rs` | [`RawFile`]: the document with its sub-grammars parsed |
//! | words | `text.rs` | a string value's lines of words, each with its byte range |
//! | lattice | `lattice.rs` | `edges`: [`EdgeLine`]s of type names |
//! | cells | `matrix.rs` | a `matrix` ([`Matrix`]) and `cells` entries ([`CellEntry`]) |
//! | words | `word.rs` | one word: [`TypeName`] (`i64*`), [`CellWord`], [`ResultWord`] |
//! | where | `condition.rs` | a `where` condition: [`Condition`] |

mod condition;
mod document;
mod lattice;
mod matrix;
mod text;
mod tree;
mod word;

pub use condition::{parse_condition, Arg, CmpOp, Comparison, Condition, Kind};
pub use document::{RawHeader, RawOption};
pub use lattice::EdgeLine;
pub use matrix::{CellEntry, Matrix, MatrixRow};
pub use tree::{RawFile, RawLattice, RawLayer, Where};
pub use word::{CellWord, ResultWord, TypeName};

use crate::diagnostic::Diagnostic;

/// A rule file's syntax tree, and the syntax errors found in its string values.
#[derive(Debug)]
pub struct Parsed {
    /// The tree; a layer or lattice with a syntax error says so.
    pub file: RawFile,
    /// The syntax errors, in the order found.
    pub errors: Vec<Diagnostic>,
}

/// Parses the text of a rule file; only text that is no valid TOML document, or
/// not of a rule file's shape, is refused outright.
pub fn parse_file(src: &str) -> Result<Parsed, Diagnostic> {
    let document = document::read(src)?;
    let mut errors = Vec::new();
    let file = tree::tree(src, document, &mut errors);
    Ok(Parsed { file, errors })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_keeps_its_lines_and_escapes_what_it_quotes() {
        let e = parse_file("[rules]\ndtypes = [\"i8\"\n").unwrap_err();
        assert!(e.message.contains('\n'), "{e:?}");
        let e = parse_file("[rules]\n\"a\\u001bb\" = 1\n").unwrap_err();
        assert!(
            e.message.contains("a\\u{1b}b") && !e.message.contains('\u{1b}'),
            "{e:?}"
        );
    }

    #[test]
    fn a_lone_carriage_return_is_named() {
        let e = parse_file("[rules]\rname = 'x'\n").unwrap_err();
        assert!(!e.message.is_empty(), "{e:?}");
    }
}
