//! Stage 1: TOML text to the raw, unchecked shape of a rule file, spans kept.

use crate::diagnostic::escaped;
use crate::Diagnostic;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// A rule file as written, before any name is resolved.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    /// `[rules]`: who and what.
    pub rules: RawHeader,
    /// `[options.NAME]`, each name with where it is written.
    #[serde(default)]
    pub options: BTreeMap<Spanned<String>, Spanned<RawOption>>,
    /// `[modes]`: extra marker types, `Marker = { option = value }`.
    #[serde(default)]
    pub modes: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    /// `[python]`: how Python scalars are typed where no layer covers them.
    #[serde(default)]
    pub python: BTreeMap<String, Spanned<String>>,
    /// `[reasons]`: refusal reasons by key (each key with where it is written).
    #[serde(default)]
    pub reasons: BTreeMap<Spanned<String>, Spanned<String>>,
    /// `[op_classes]`: names for groups of operations, usable in a layer's `ops`.
    #[serde(default)]
    pub op_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[dtype_classes]`: names for groups of dtypes, usable wherever a layer
    /// selects dtypes (`rows`, `cols`, `promoted`, `weak_operands`).
    #[serde(default)]
    pub dtype_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[lattice]`: the partial order whose least upper bounds `result = "lub"` takes.
    #[serde(default)]
    pub lattice: Option<Spanned<RawLattice>>,
    /// `[[layer]]`, most specific first.
    #[serde(default, rename = "layer")]
    pub layers: Vec<Spanned<RawLayer>>,
}

/// `[lattice]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLattice {
    /// Lines of edges: `a -> b c` (a is below b and c), chains `a -> b -> c`.
    pub edges: Spanned<String>,
    /// How a weakly typed operand enters the lattice: each key (a dtype or a kind)
    /// selects dtypes whose weakly typed operands join as the value's node (`integer
    /// = "i64*"`); a weakly typed operand of a dtype no key selects joins as its own
    /// weak type.
    #[serde(default)]
    pub weak_operands: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
}

/// `[rules]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeader {
    /// Command-line name, e.g. `openvino`.
    pub name: Spanned<String>,
    /// Rust marker type for the default options, e.g. `OpenVino`.
    pub marker: Spanned<String>,
    /// Framework and operation, for people.
    pub title: Spanned<String>,
    /// The framework version the rules encode.
    pub version: Spanned<String>,
    /// How the rules were checked against the framework.
    #[serde(default)]
    pub verified: Option<Spanned<String>>,
    /// Whether swapping the operands never changes the result.
    pub commutative: bool,
    /// Declared: `(a + b) + c == a + (b + c)` under every marker's options.
    #[serde(default)]
    pub associative: Option<Spanned<bool>>,
    /// Declared: the `add` table is the join of a partial order.
    #[serde(default)]
    pub lattice: Option<Spanned<bool>>,
    /// Accepted dtypes, canonical names.
    pub dtypes: Vec<Spanned<String>>,
    /// Operations the framework distinguishes (empty: op-independent).
    #[serde(default)]
    pub ops: Vec<Spanned<String>>,
}

/// `[options.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    /// `bool`, `dtype` or `choice`.
    #[serde(rename = "type")]
    pub kind: Spanned<String>,
    /// The words of a `choice`.
    #[serde(default)]
    pub choices: Vec<Spanned<String>>,
    /// Value when unset.
    pub default: Spanned<toml::Value>,
    /// What it does.
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[layer]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLayer {
    /// A short description.
    pub name: Spanned<String>,
    /// Options that must have these values.
    #[serde(default)]
    pub when: BTreeMap<String, Spanned<toml::Value>>,
    /// Operations it applies to (default: all).
    #[serde(default)]
    pub ops: Vec<Spanned<String>>,
    /// `[row side, column side]`, default `["tensor", "tensor"]`.
    #[serde(default)]
    pub operands: Option<Spanned<Vec<String>>>,
    /// A literal matrix: a header line of column keys, then one line per row.
    #[serde(default)]
    pub matrix: Option<Spanned<String>>,
    /// Listed cells, one `"ROW COL = RESULT"` per entry (exceptions).
    #[serde(default)]
    pub cells: Option<Spanned<Vec<Spanned<String>>>>,
    /// A derived layer's result for every pair it covers: a dtype, `!reason`,
    /// `$option`, `lhs`, `rhs` or `lub`.
    #[serde(default)]
    pub result: Option<Spanned<String>>,
    /// Row keys a derived layer covers: dtypes, kinds or Python kinds (default: all).
    #[serde(default)]
    pub rows: Option<Spanned<Vec<Spanned<String>>>>,
    /// Column keys a derived layer covers (default: all).
    #[serde(default)]
    pub cols: Option<Spanned<Vec<Spanned<String>>>>,
    /// A condition on the pair, e.g. `"lhs == rhs"` or `"kind(lhs) > kind(rhs)"`.
    #[serde(default, rename = "where")]
    pub condition: Option<Spanned<String>>,
    /// Whether the layer also answers every pair with its operands exchanged (its
    /// mirror image: sides, rows and columns, `lhs` and `rhs` swapped).
    #[serde(default)]
    pub mirrored: bool,
    /// A result filter: dtypes or kinds; the layer covers a pair only when the
    /// layers after it promote the pair to one of them.
    #[serde(default)]
    pub promoted: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether a derived layer's results are strongly typed whatever the operands'
    /// weakness (`strong = true`: TensorFlow's operations that return a `Tensor`,
    /// not a `WeakTensor`); the span of the key, when given.
    #[serde(default)]
    pub strong: Option<Spanned<bool>>,
    /// Statements that share this layer's header: each case is a layer of its own,
    /// in order, with the keys it gives replacing the layer's. [`parse_file`]
    /// expands them, so no later stage sees a `cases` list but an empty one (an
    /// error that resolution reports).
    #[serde(default)]
    pub cases: Option<Spanned<Vec<Spanned<RawCase>>>>,
    /// A retyping: operands of each key's dtype are taken as the value's dtype by
    /// the layers after this one, and their answer is mapped the same way.
    #[serde(default)]
    pub retype: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    /// The position of the `[[layer]]` this layer comes from: the cases of one
    /// layer share it.
    #[serde(skip)]
    pub statement: usize,
}

/// One entry of a layer's `cases`: any of a layer's keys but `name`, `matrix` and
/// `cases`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCase {
    /// Replaces the layer's conditions on options.
    #[serde(default)]
    pub when: Option<BTreeMap<String, Spanned<toml::Value>>>,
    /// Replaces the layer's operations.
    #[serde(default)]
    pub ops: Option<Vec<Spanned<String>>>,
    /// Replaces the layer's operand kinds.
    #[serde(default)]
    pub operands: Option<Spanned<Vec<String>>>,
    /// Listed cells.
    #[serde(default)]
    pub cells: Option<Spanned<Vec<Spanned<String>>>>,
    /// The result for every pair the case covers.
    #[serde(default)]
    pub result: Option<Spanned<String>>,
    /// Row keys.
    #[serde(default)]
    pub rows: Option<Spanned<Vec<Spanned<String>>>>,
    /// Column keys.
    #[serde(default)]
    pub cols: Option<Spanned<Vec<Spanned<String>>>>,
    /// A condition on the pair.
    #[serde(default, rename = "where")]
    pub condition: Option<Spanned<String>>,
    /// Whether the case also answers the pairs with the operands exchanged.
    #[serde(default)]
    pub mirrored: Option<bool>,
    /// A result filter.
    #[serde(default)]
    pub promoted: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether the case's results are strongly typed.
    #[serde(default)]
    pub strong: Option<Spanned<bool>>,
}

impl RawLayer {
    /// The layers this one stands for: itself, or one per case, each case's keys
    /// replacing the layer's (a case's `when` adds to the layer's conditions).
    fn expand_cases(statement: usize, layer: Spanned<RawLayer>) -> Vec<Spanned<RawLayer>> {
        let span = layer.span();
        let mut base = layer.into_inner();
        base.statement = statement;
        let Some(cases) = base.cases.take_if(|cases| !cases.get_ref().is_empty()) else {
            return vec![Spanned::new(span, base)];
        };
        let count = cases.get_ref().len();
        cases
            .into_inner()
            .into_iter()
            .enumerate()
            .map(|(i, case)| {
                let case_span = case.span();
                let case = case.into_inner();
                let mut layer = base.clone();
                if count > 1 {
                    let name = format!("{} (case {} of {count})", base.name.get_ref(), i + 1);
                    layer.name = Spanned::new(base.name.span(), name);
                }
                if let Some(when) = case.when {
                    layer.when.extend(when);
                }
                if let Some(ops) = case.ops {
                    layer.ops = ops;
                }
                layer.operands = case.operands.or(layer.operands);
                layer.cells = case.cells.or(layer.cells);
                layer.result = case.result.or(layer.result);
                layer.rows = case.rows.or(layer.rows);
                layer.cols = case.cols.or(layer.cols);
                layer.condition = case.condition.or(layer.condition);
                layer.mirrored = case.mirrored.unwrap_or(layer.mirrored);
                layer.promoted = case.promoted.or(layer.promoted);
                layer.strong = case.strong.or(layer.strong);
                Spanned::new(case_span, layer)
            })
            .collect()
    }
}

/// One whitespace-separated word of a matrix, with its byte range in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The word.
    pub text: String,
    /// Where it is.
    pub span: Range<usize>,
}

/// A matrix split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawMatrix {
    /// The header line.
    pub columns: Vec<Token>,
    /// Each row: its key, then its cells.
    pub rows: Vec<(Token, Vec<Token>)>,
}

/// Parses the TOML text of a rule file into its raw shape.
pub fn parse_file(src: &str) -> Result<RawFile, Diagnostic> {
    let mut raw: RawFile = toml::from_str(src).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().trim_end_matches('.');
        let message = if !message.is_empty() {
            // A key or value the message quotes may hold any character.
            escaped(message)
        } else if src.get(span.clone()).is_some_and(|s| s.contains('\r')) {
            "a carriage return must be followed by a line feed".to_owned()
        } else {
            "not valid TOML here".to_owned()
        };
        Diagnostic::new(message, span)
    })?;
    raw.layers = std::mem::take(&mut raw.layers)
        .into_iter()
        .enumerate()
        .flat_map(|(i, layer)| RawLayer::expand_cases(i, layer))
        .collect();
    Ok(raw)
}

/// Splits a `matrix` string into words, mapping each back to its place in `src`.
///
/// The matrix must be a literal string (`'''…'''` or `'…'`) or a basic string
/// without escapes, so that every character of the value stands in the file.
pub fn split_matrix(src: &str, matrix: &Spanned<String>) -> Result<RawMatrix, Diagnostic> {
    let lines = split_lines(src, matrix, "matrix")?;
    let span = matrix.span();
    let mut lines = lines.into_iter();
    let Some(columns) = lines.next() else {
        return Err(Diagnostic::new(
            "empty `matrix`: expected a header line of column keys",
            span,
        ));
    };
    let rows = lines
        .map(|mut words| {
            let cells = words.split_off(1);
            (words.remove(0), cells)
        })
        .collect();
    Ok(RawMatrix { columns, rows })
}

/// Splits a string value of a rule file (`what` names it in errors) into its
/// non-empty lines of whitespace-separated words, each with its byte range in
/// `src`; `#` starts a comment that runs to the end of the line.
pub fn split_lines(src: &str, value: &Spanned<String>, what: &str) -> Result<Vec<Vec<Token>>, Diagnostic> {
    let matrix = value;
    let span = matrix.span();
    let raw = &src[span.clone()];
    let value = matrix.get_ref();
    // Locate the value's characters inside the quoted text.
    let quote = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let mut start = span.start + quote;
    if quote == 3 && src[start..].starts_with('\n') {
        start += 1;
    } else if quote == 3 && src[start..].starts_with("\r\n") {
        start += 2;
    }
    // The value as it stands in the file: TOML turns CRLF line ends into LF.
    let end = span.end.saturating_sub(quote).max(start);
    let body = src.get(start..end).unwrap_or("");
    if body != value && body.replace("\r\n", "\n") != *value {
        return Err(Diagnostic::new(
            format!("`{what}` must be a literal string ('''…''') without escapes"),
            span,
        ));
    }
    let mut lines = Vec::new();
    let mut offset = start;
    for line in body.split_inclusive('\n') {
        let body = line.split('#').next().unwrap_or("");
        let words: Vec<Token> = words_with_offsets(body)
            .map(|(i, w)| Token {
                text: w.to_owned(),
                span: offset + i..offset + i + w.len(),
            })
            .collect();
        if !words.is_empty() {
            lines.push(words);
        }
        offset += line.len();
    }
    Ok(lines)
}

fn words_with_offsets(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_ascii_whitespace()
        .map(move |w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct OneMatrix {
        m: Spanned<String>,
    }

    #[derive(Deserialize)]
    struct Wrapper {
        rules: OneMatrix,
    }

    #[test]
    fn crlf_matrices_keep_their_place() {
        let src = "[rules]\r\nm = '''\r\n   a  b\r\nx  1  2 # note\r\n'''\r\n";
        let f: Wrapper = toml::from_str(src).unwrap();
        let m = split_matrix(src, &f.rules.m).unwrap();
        assert_eq!(
            m.columns.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let (key, cells) = &m.rows[0];
        assert_eq!(&src[key.span.clone()], "x");
        assert_eq!(&src[cells[1].span.clone()], "2");
        assert_eq!(cells.len(), 2);
    }

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

    #[test]
    fn matrix_words_keep_their_place() {
        let src = "[rules]\nm = '''\n   a  b\nx  1  2 # note\n'''\n";
        #[derive(Deserialize)]
        struct T {
            m: Spanned<String>,
        }
        #[derive(Deserialize)]
        struct F {
            rules: T,
        }
        let f: F = toml::from_str(src).unwrap();
        let m = split_matrix(src, &f.rules.m).unwrap();
        assert_eq!(
            m.columns.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(m.rows.len(), 1);
        let (key, cells) = &m.rows[0];
        assert_eq!(&src[key.span.clone()], "x");
        assert_eq!(&src[cells[1].span.clone()], "2");
        assert_eq!(cells.len(), 2);
    }
}
