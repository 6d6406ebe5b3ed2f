//! The syntax tree of a rule file: the TOML document with every string value of a
//! sub-grammar parsed into typed nodes, spans kept, and the syntax errors found.
//! No name is resolved here.

use super::condition::{parse_condition, Condition};
use super::document::{DocLattice, DocLayer, Document, RawHeader, RawOption};
use super::lattice::{parse_edges, EdgeLine};
use super::matrix::{parse_cells, parse_matrix, CellEntry, Matrix};
use super::word::{ResultWord, TypeName};
use crate::diagnostic::Diagnostic;
use std::collections::BTreeMap;
use toml::Spanned;

/// A rule file as written, parsed, before any name is resolved.
#[derive(Debug)]
pub struct RawFile {
    /// `[rules]`: who and what.
    pub rules: RawHeader,
    /// `[options.NAME]`, each name with where it is written.
    pub options: BTreeMap<Spanned<String>, Spanned<RawOption>>,
    /// `[modes]`: extra marker types, `Marker = { option = value }`.
    pub modes: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    /// `[python]`: how Python scalars are typed where no layer covers them, by
    /// kind (`int = "i64*"`).
    pub python: BTreeMap<String, Spanned<TypeName>>,
    /// `[aliases]`: the framework's own spellings of its dtypes, by name (each
    /// with where it is written): a dtype name, or a list of them for an ambiguous
    /// name; resolved and checked in `validate`.
    pub aliases: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// `[reasons]`: refusal reasons by key (each key with where it is written).
    pub reasons: BTreeMap<Spanned<String>, Spanned<String>>,
    /// `[op_classes]`: names for groups of operations, usable in a layer's `ops`.
    pub op_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[dtype_classes]`: names for groups of dtypes, usable wherever a layer
    /// selects dtypes (`rows`, `cols`, `promoted`, `weak_operands`).
    pub dtype_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[lattice]`: the partial order whose least upper bounds `result = "lub"` takes.
    pub lattice: Option<Spanned<RawLattice>>,
    /// `[[layer]]`, most specific first; each case of a layer's `cases` is a layer.
    pub layers: Vec<Spanned<RawLayer>>,
}

/// `[lattice]`.
#[derive(Debug)]
pub struct RawLattice {
    /// The lines of `edges` (with where the value is written).
    pub edges: Spanned<Vec<EdgeLine>>,
    /// Whether parse reported a syntax error in `edges`: the lattice is not built.
    pub malformed: bool,
    /// How a weakly typed operand enters the lattice: each key (a dtype or a kind)
    /// selects dtypes whose weakly typed operands join as the value's node (`integer
    /// = "i64*"`); a weakly typed operand of a dtype no key selects joins as its own
    /// weak type.
    pub weak_operands: Option<Spanned<BTreeMap<String, Spanned<TypeName>>>>,
}

/// `[[layer]]`, or one case of its `cases`.
#[derive(Debug)]
pub struct RawLayer {
    /// A short description (a case's: the layer's, numbered).
    pub name: Spanned<String>,
    /// Options that must have these values.
    pub when: BTreeMap<String, Spanned<toml::Value>>,
    /// Operations it applies to (default: all).
    pub ops: Vec<Spanned<String>>,
    /// `[row side, column side]`, default `["tensor", "tensor"]`.
    pub operands: Option<Spanned<Vec<String>>>,
    /// A literal matrix.
    pub matrix: Option<Spanned<Matrix>>,
    /// Listed cells (exceptions): the entries that parse.
    pub cells: Option<Spanned<Vec<CellEntry>>>,
    /// A derived layer's result for every pair it covers.
    pub result: Option<Spanned<ResultWord>>,
    /// Row keys a derived layer covers: dtypes, kinds or Python kinds (default: all).
    pub rows: Option<Spanned<Vec<Spanned<String>>>>,
    /// Column keys a derived layer covers (default: all).
    pub cols: Option<Spanned<Vec<Spanned<String>>>>,
    /// A condition on the pair, e.g. `"lhs == rhs"` or `"kind(lhs) > kind(rhs)"`.
    pub condition: Option<Spanned<Where>>,
    /// Whether the layer also answers every pair with its operands exchanged.
    pub mirrored: bool,
    /// A result filter: dtypes or kinds; the layer covers a pair only when the
    /// layers after it promote the pair to one of them.
    pub promoted: Option<Spanned<Vec<Spanned<String>>>>,
    /// Whether the layer is an entry of a `by_promoted` map.
    pub in_map: bool,
    /// Whether another entry of its `by_promoted` map follows it.
    pub continues: bool,
    /// Whether a derived layer's results are strongly typed whatever the operands'
    /// weakness; the span of the key, when given.
    pub strong: Option<Spanned<bool>>,
    /// A retyping: operands of each key's dtype are taken as the value's dtype by
    /// the layers after this one.
    pub retype: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    /// The position of the `[[layer]]` this layer comes from: the cases of one
    /// layer share it.
    pub statement: usize,
    /// Whether it is a `[[compute]]` statement's.
    pub compute: bool,
    /// Whether parse reported a syntax error in one of the layer's values: its
    /// names are still resolved, so that their mistakes are reported too, but the
    /// layer enters no model.
    pub malformed: bool,
}

/// A `where` condition, and its text (which reaches output).
#[derive(Clone, Debug)]
pub struct Where {
    /// The condition as written.
    pub text: String,
    /// The condition (no alternative when it did not parse: the layer is malformed).
    pub condition: Condition,
}

/// The tree of `doc` (read from `src`), each syntax error pushed on `errors`.
pub(super) fn tree(src: &str, doc: Document, errors: &mut Vec<Diagnostic>) -> RawFile {
    let type_names = |map: BTreeMap<String, Spanned<String>>| {
        map.into_iter()
            .map(|(k, v)| (k, Spanned::new(v.span(), TypeName::new(v.get_ref()))))
            .collect()
    };
    let lattice = doc.lattice.map(|l| {
        let span = l.span();
        let DocLattice { edges, weak_operands } = l.into_inner();
        let before = errors.len();
        let lines = parse_edges(src, &edges, errors);
        let weak_operands = weak_operands.map(|w| Spanned::new(w.span(), type_names(w.into_inner())));
        let lattice = RawLattice {
            edges: Spanned::new(edges.span(), lines),
            malformed: errors.len() > before,
            weak_operands,
        };
        Spanned::new(span, lattice)
    });
    RawFile {
        rules: doc.rules,
        options: doc.options,
        modes: doc.modes,
        python: type_names(doc.python),
        aliases: doc.aliases,
        reasons: doc.reasons,
        op_classes: doc.op_classes,
        dtype_classes: doc.dtype_classes,
        lattice,
        layers: doc
            .layers
            .into_iter()
            .map(|l| Spanned::new(l.span(), layer(src, l.into_inner(), errors)))
            .collect(),
    }
}

/// One layer's tree.
fn layer(src: &str, doc: DocLayer, errors: &mut Vec<Diagnostic>) -> RawLayer {
    let before = errors.len();
    if let Some(cases) = &doc.cases {
        // Only an empty list is left unexpanded.
        errors.push(Diagnostic::new(
            "`cases` lists no case: give at least one, or leave `cases` out",
            cases.span(),
        ));
    }
    let matrix = doc
        .matrix
        .map(|m| Spanned::new(m.span(), parse_matrix(src, &m, errors)));
    let cells = doc
        .cells
        .map(|c| Spanned::new(c.span(), parse_cells(src, &c, errors)));
    let condition = doc.condition.map(|text| {
        let condition = parse_condition(text.get_ref()).unwrap_or_else(|message| {
            errors.push(Diagnostic::new(message, text.span()));
            Condition {
                alternatives: Vec::new(),
            }
        });
        let span = text.span();
        Spanned::new(
            span,
            Where {
                text: text.into_inner(),
                condition,
            },
        )
    });
    RawLayer {
        name: doc.name,
        when: doc.when,
        ops: doc.ops,
        operands: doc.operands,
        matrix,
        cells,
        result: doc
            .result
            .map(|r| Spanned::new(r.span(), ResultWord::new(r.get_ref()))),
        rows: doc.rows,
        cols: doc.cols,
        condition,
        mirrored: doc.mirrored,
        promoted: doc.promoted,
        in_map: doc.in_map,
        continues: doc.continues,
        strong: doc.strong,
        retype: doc.retype,
        statement: doc.statement,
        compute: doc.compute,
        malformed: errors.len() > before,
    }
}
