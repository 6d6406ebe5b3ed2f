//! The checked model of a rule file: every name resolved, every cell typed.

use crate::derive::{Lattice, PairCondition};
use crate::properties::Property;
use promo_table::{
    Cell, Condition, DType, Layer, ListRule, Op, Operand, OptionKind, OptionSpec, OptionValue, RuleTable,
    Side,
};
use std::ops::Range;

pub use crate::derive::ResultRule;

/// One option of a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDef {
    /// The framework's own name for it.
    pub name: String,
    /// `bool`, `dtype`, or the words of a choice.
    pub kind: OptionDefKind,
    /// Its value when unset.
    pub default: OptionValue,
    /// What it does.
    pub doc: String,
    /// Where its default is written.
    pub default_span: Range<usize>,
    /// Where its name is written (`[options.NAME]`).
    pub name_span: Range<usize>,
    /// Where each word of a choice is written, in [`OptionDefKind::Choice`] order
    /// (empty for another type).
    pub choice_spans: Vec<Range<usize>>,
}

/// The type of an [`OptionDef`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionDefKind {
    /// `true` / `false`.
    Bool,
    /// Any dtype.
    DType,
    /// One of these words.
    Choice(Vec<String>),
}

/// A compile-time marker type: a rule set with some options fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mode {
    /// The Rust type name, e.g. `OpenVinoUnsafe`.
    pub marker: String,
    /// A value for every option, in option order.
    pub values: Vec<OptionValue>,
    /// Where it is declared: the header's `marker`, or its entry in `[modes]`.
    pub span: Range<usize>,
}

/// One matrix with the conditions under which it applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerDef {
    /// A short description.
    pub name: String,
    /// Conditions on options.
    pub when: Vec<Condition>,
    /// Operations it applies to (empty: all).
    pub ops: Vec<Op>,
    /// Row side.
    pub lhs: Side,
    /// Column side.
    pub rhs: Side,
    /// Row keys (dtype or Python-kind indices), in file order.
    pub rows: Vec<usize>,
    /// Column keys, in file order.
    pub cols: Vec<usize>,
    /// Cells, row by row.
    pub cells: Vec<Cell>,
    /// Where each cell was written (for a derived cell: the rule that gave it).
    pub spans: Vec<Range<usize>>,
    /// Where the layer is in the file.
    pub span: Range<usize>,
    /// How the cells were given.
    pub how: Derivation,
    /// Whether this is the mirror image of the layer written before it
    /// (`mirrored = true`: the operands exchanged).
    pub mirror: bool,
    /// A result filter (`promoted = [...]`): the layer covers a pair only when the
    /// layers after it promote the pair to one of these dtypes; empty: no filter.
    pub promoted: Vec<DType>,
    /// The position of the `[[layer]]` statement it comes from (its `cases` and
    /// mirror image share it).
    pub statement: usize,
    /// Whether it comes from a `[[compute]]` statement: its cells are the dtype the
    /// operation computes in.
    pub compute: bool,
    /// Whether the next layer is another entry of the same `by_promoted` map, which
    /// a result filter that does not hold passes the pair on to.
    pub continues: bool,
    /// A retyping (`retype = { i64 = "i32" }`): operands of each first dtype are
    /// taken as the second by the layers after it, and the answer mapped so; empty
    /// for a layer with cells.
    pub retype: Vec<(DType, DType)>,
}

/// How a layer gives its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Derivation {
    /// A literal `matrix`.
    Matrix,
    /// Listed `cells`, `"ROW COL = RESULT"` each: exceptions to the rules below.
    Cells,
    /// One `result` for every pair of `rows` × `cols` that meets `where`.
    Result {
        /// What the result is.
        rule: ResultRule,
        /// The `where` condition, if any.
        condition: Option<PairCondition>,
        /// `strong = true`: a weak result is given strongly typed.
        strong: bool,
    },
    /// No cells: the operands are retyped for the layers after it (`retype`).
    Retype,
}

impl LayerDef {
    /// The same statement with the operands exchanged: sides, rows and columns
    /// swapped, the cells transposed, `lhs` and `rhs` results swapped.
    pub fn mirror_image(&self) -> LayerDef {
        let (height, width) = (self.rows.len(), self.cols.len());
        let mut cells = Vec::with_capacity(self.cells.len());
        let mut spans = Vec::with_capacity(self.spans.len());
        for c in 0..width {
            for r in 0..height {
                cells.push(match self.cells[r * width + c] {
                    Cell::Lhs => Cell::Rhs,
                    Cell::Rhs => Cell::Lhs,
                    other => other,
                });
                spans.push(self.spans[r * width + c].clone());
            }
        }
        LayerDef {
            name: self.name.clone(),
            when: self.when.clone(),
            ops: self.ops.clone(),
            lhs: self.rhs,
            rhs: self.lhs,
            rows: self.cols.clone(),
            cols: self.rows.clone(),
            cells,
            spans,
            span: self.span.clone(),
            how: self.how.clone(),
            mirror: true,
            promoted: self.promoted.clone(),
            statement: self.statement,
            compute: self.compute,
            continues: self.continues,
            retype: self.retype.clone(),
        }
    }

    /// Whether its results are strongly typed (`strong = true`).
    pub fn strong(&self) -> bool {
        matches!(self.how, Derivation::Result { strong: true, .. })
    }

    /// The cell at (`row key`, `column key`), if the layer has both.
    pub fn cell(&self, row_key: usize, col_key: usize) -> Option<Cell> {
        let r = self.rows.iter().position(|&k| k == row_key)?;
        let c = self.cols.iter().position(|&k| k == col_key)?;
        Some(self.cells[r * self.cols.len() + c])
    }
}

/// A checked rule file: the model `promo-macros` expands and `promo check` reports
/// on. (`promo_table::RuleTable` is its run-time table, `promo_core::RuleSet` the
/// trait of its marker types.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleFile {
    /// Command-line name.
    pub name: String,
    /// Marker type for the default options.
    pub marker: String,
    /// Framework and operation.
    pub title: String,
    /// Framework version encoded.
    pub version: String,
    /// How it was verified.
    pub verified: String,
    /// Whether operand order never matters.
    pub commutative: bool,
    /// How a list of operands is combined (`concatenate`).
    pub list: ListRule,
    /// For `list = "sequence"`, the dtypes in the order they answer for a pair
    /// (`rules.list_order`); empty otherwise.
    pub list_order: Vec<DType>,
    /// Accepted dtypes.
    pub dtypes: Vec<DType>,
    /// Distinguished operations (empty: op-independent).
    pub ops: Vec<Op>,
    /// The framework's own spellings (`[aliases]`), by name: each with the dtype it
    /// means, or several where the name is ambiguous.
    pub aliases: Vec<(String, Vec<DType>)>,
    /// Options.
    pub options: Vec<OptionDef>,
    /// Marker types: the default one first, then `[modes]`.
    pub modes: Vec<Mode>,
    /// How each Python scalar kind is typed: a tensor of a dtype, or a weakly typed
    /// one (`[python] int = "i64*"`).
    pub python: [Option<Operand>; 4],
    /// Refusal reasons: (key, text).
    pub reasons: Vec<(String, String)>,
    /// Named groups of operations (`[op_classes]`), in name order.
    pub op_classes: Vec<(String, Vec<Op>)>,
    /// The `[lattice]`, if the file declares one.
    pub lattice: Option<Lattice>,
    /// Layers, most specific first.
    pub layers: Vec<LayerDef>,
    /// The properties `[rules]` declares (`associative = true`, `lattice = true`),
    /// each with where it is declared.
    pub declared: Vec<(Property, Range<usize>)>,
    /// Where the header's names and the reasons are written.
    pub spans: Spans,
}

/// Where the parts of a rule file outside its layers and options are written: what
/// the checks of those parts point at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// `rules.name`.
    pub name: Range<usize>,
    /// `rules.marker`.
    pub marker: Range<usize>,
    /// Each reason's text, in [`RuleFile::reasons`] order.
    pub reasons: Vec<Range<usize>>,
}

/// The index of the first layer after the statement that layer `i` belongs to.
pub(crate) fn statement_end(layers: &[LayerDef], i: usize) -> usize {
    let statement = layers[i].statement;
    i + layers[i..]
        .iter()
        .take_while(|l| l.statement == statement)
        .count()
}

/// `index_of[key] = position`, [`promo_table::ABSENT`] elsewhere.
pub(crate) fn index_map(keys: &[usize], domain: usize) -> Vec<u8> {
    let mut map = vec![promo_table::ABSENT; domain];
    for (i, &k) in keys.iter().enumerate() {
        map[k] = i as u8;
    }
    map
}

impl RuleFile {
    /// The number of `[[compute]]` layers, which come first: the index of the first
    /// layer that gives results.
    pub fn results_from(&self) -> usize {
        self.layers.iter().take_while(|l| l.compute).count()
    }

    /// Lends the rules as a [`RuleTable`], the shape the run-time lookup reads.
    pub fn with_table<R>(&self, f: impl FnOnce(&RuleTable<'_>) -> R) -> R {
        let choices: Vec<Vec<&str>> = self
            .options
            .iter()
            .map(|o| match &o.kind {
                OptionDefKind::Choice(words) => words.iter().map(String::as_str).collect(),
                _ => Vec::new(),
            })
            .collect();
        let options: Vec<OptionSpec<'_>> = self
            .options
            .iter()
            .zip(&choices)
            .map(|(o, words)| OptionSpec {
                name: &o.name,
                kind: match o.kind {
                    OptionDefKind::Bool => OptionKind::Bool,
                    OptionDefKind::DType => OptionKind::DType,
                    OptionDefKind::Choice(_) => OptionKind::Choice(words),
                },
                default: o.default,
                doc: &o.doc,
            })
            .collect();
        let maps: Vec<(Vec<u8>, Vec<u8>)> = self
            .layers
            .iter()
            .map(|l| {
                (
                    index_map(&l.rows, l.lhs.domain_len()),
                    index_map(&l.cols, l.rhs.domain_len()),
                )
            })
            .collect();
        let codes: Vec<Vec<u8>> = self
            .layers
            .iter()
            .map(|l| l.cells.iter().flat_map(|c| c.code().to_le_bytes()).collect())
            .collect();
        let layers: Vec<Layer<'_>> = self
            .layers
            .iter()
            .zip(&maps)
            .zip(&codes)
            .enumerate()
            .map(|(i, ((l, (row_of, col_of)), cells))| Layer {
                name: &l.name,
                when: &l.when,
                ops: &l.ops,
                lhs: l.lhs,
                rhs: l.rhs,
                row_of,
                col_of,
                width: l.cols.len(),
                cells,
                promoted: &l.promoted,
                strong: l.strong(),
                retype: &l.retype,
                statement_end: statement_end(&self.layers, i),
                continues: l.continues,
            })
            .collect();
        let reasons: Vec<&str> = self.reasons.iter().map(|(_, text)| text.as_str()).collect();
        let aliases: Vec<(&str, DType)> = self
            .aliases
            .iter()
            .flat_map(|(name, dtypes)| dtypes.iter().map(move |&d| (name.as_str(), d)))
            .collect();
        f(&RuleTable {
            name: &self.name,
            title: &self.title,
            version: &self.version,
            commutative: self.commutative,
            list: self.list,
            list_order: &self.list_order,
            dtypes: &self.dtypes,
            ops: &self.ops,
            aliases: &aliases,
            options: &options,
            python: self.python,
            reasons: &reasons,
            layers: &layers,
            results_from: self.results_from(),
            flat: None,
        })
    }
}
