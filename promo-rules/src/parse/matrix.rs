//! A layer's literal cells: a `matrix` (a header line of column keys, then a line
//! per row: its key and one cell per column) and `cells` entries (`"ROW COL =
//! RESULT"`).

use super::text;
use super::word::CellWord;
use crate::diagnostic::Diagnostic;
use toml::Spanned;

/// A `matrix`, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The header line: the column keys.
    pub columns: Vec<Spanned<String>>,
    /// The rows, in order.
    pub rows: Vec<MatrixRow>,
}

/// One row of a matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixRow {
    /// The row key.
    pub key: Spanned<String>,
    /// Its cells, at most one per column: fewer only where parse reported a
    /// missing cell, and a cell past the last column is reported and left out.
    pub cells: Vec<Spanned<CellWord>>,
}

/// One entry of `cells`: `"ROW COL = RESULT"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellEntry {
    /// The row key.
    pub row: Spanned<String>,
    /// The column key.
    pub col: Spanned<String>,
    /// The cell.
    pub cell: Spanned<CellWord>,
}

/// Parses a `matrix`; a row with too few or too many cells is reported.
pub(super) fn parse_matrix(src: &str, matrix: &Spanned<String>, errors: &mut Vec<Diagnostic>) -> Matrix {
    let empty = Matrix {
        columns: Vec::new(),
        rows: Vec::new(),
    };
    let mut lines = match text::lines(src, matrix, "matrix") {
        Ok(lines) => lines.into_iter(),
        Err(e) => {
            errors.push(e);
            return empty;
        }
    };
    let Some(columns) = lines.next() else {
        errors.push(Diagnostic::new(
            "empty `matrix`: expected a header line of column keys",
            matrix.span(),
        ));
        return empty;
    };
    let rows = lines
        .map(|mut words| {
            let cells = words.split_off(1);
            let key = words.remove(0);
            row(key, cells, &columns, errors)
        })
        .collect();
    Matrix { columns, rows }
}

/// A row of `key` and `cells` under `columns`, each missing or extra cell reported.
fn row(
    key: Spanned<String>,
    cells: Vec<Spanned<String>>,
    columns: &[Spanned<String>],
    errors: &mut Vec<Diagnostic>,
) -> MatrixRow {
    if cells.len() < columns.len() {
        let missing = columns[cells.len()].get_ref();
        let at = cells.last().map_or(key.span(), Spanned::span);
        errors.push(Diagnostic::new(
            format!(
                "missing cell: row `{}` has {} cells for {} columns (no cell for column `{missing}`)",
                key.get_ref(),
                cells.len(),
                columns.len()
            ),
            at,
        ));
    }
    for extra in cells.iter().skip(columns.len()) {
        errors.push(Diagnostic::new(
            format!(
                "extra cell `{}` in row `{}`: the header has {} columns",
                extra.get_ref(),
                key.get_ref(),
                columns.len()
            ),
            extra.span(),
        ));
    }
    let cells = cells
        .into_iter()
        .take(columns.len())
        .map(|w| Spanned::new(w.span(), CellWord::new(w.get_ref())))
        .collect();
    MatrixRow { key, cells }
}

/// Parses `cells`: each entry that is `ROW COL = RESULT`, and an error for each
/// that is not (left out), or for a list without entries.
pub(super) fn parse_cells(
    src: &str,
    entries: &Spanned<Vec<Spanned<String>>>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<CellEntry> {
    if entries.get_ref().is_empty() {
        errors.push(Diagnostic::new("`cells` lists no cell", entries.span()));
    }
    let mut out = Vec::new();
    for entry in entries.get_ref() {
        let words = match text::lines(src, entry, "cells") {
            Ok(lines) => lines.into_iter().flatten().collect::<Vec<_>>(),
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let bad = |span| {
            let message = format!("bad cell `{}`: expected `ROW COL = RESULT`", entry.get_ref());
            Diagnostic::new(message, span)
        };
        let Ok([row, col, eq, cell]) = <[_; 4]>::try_from(words) else {
            errors.push(bad(entry.span()));
            continue;
        };
        if eq.get_ref() != "=" {
            errors.push(bad(eq.span()));
            continue;
        }
        let cell = Spanned::new(cell.span(), CellWord::new(cell.get_ref()));
        out.push(CellEntry { row, col, cell });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Wrapper {
        rules: OneMatrix,
    }

    #[derive(Deserialize)]
    struct OneMatrix {
        m: Spanned<String>,
    }

    fn matrix(src: &str) -> (Matrix, Vec<String>) {
        let f: Wrapper = toml::from_str(src).unwrap();
        let mut errors = Vec::new();
        let m = parse_matrix(src, &f.rules.m, &mut errors);
        (m, errors.into_iter().map(|e| e.message).collect())
    }

    #[test]
    fn a_matrix_is_a_header_then_rows_of_a_key_and_cells() {
        let src = "[rules]\nm = '''\n   a  b\nx  1  !r # note\n'''\n";
        let (m, errors) = matrix(src);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            m.columns.iter().map(|t| t.get_ref().as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let row = &m.rows[0];
        assert_eq!(&src[row.key.span()], "x");
        assert_eq!(&src[row.cells[1].span()], "!r");
        assert_eq!(row.cells[1].get_ref(), &CellWord::Refuse("r".into()));
    }

    #[test]
    fn missing_and_extra_cells_are_reported() {
        let (m, errors) = matrix("[rules]\nm = '''\n   a  b\nx  1\ny 1 2 3\n'''\n");
        assert_eq!(
            errors,
            [
                "missing cell: row `x` has 1 cells for 2 columns (no cell for column `b`)",
                "extra cell `3` in row `y`: the header has 2 columns"
            ]
        );
        assert_eq!(m.rows[1].cells.len(), 2);
        let (_, errors) = matrix("[rules]\nm = '''\n # nothing\n'''\n");
        assert_eq!(errors, ["empty `matrix`: expected a header line of column keys"]);
    }
}
