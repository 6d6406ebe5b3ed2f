//! Where two rule sets, or two option settings of one, disagree: every ordered
//! pair of the dtypes both accept (or of a chosen few), tensor with tensor or any
//! other operand kind on either side, and the text table that `promo diff` prints
//! and the Python package's `diff` returns.

use promo_table::text::visible;
use promo_table::{DType, Op, Operand, Options, PyScalar, Refusal, RuleTable};
use std::fmt;
use std::str::FromStr;

use crate::source::changed_settings;

/// One rule set's answer for a pair: the dtype, or the reason it refused.
pub type Answer = Result<DType, String>;

/// The cells two rule sets share, and the ones where they disagree.
pub struct Comparison {
    /// The dtypes both accept (those of `--dtypes`, if given), in the first rule
    /// set's order.
    pub dtypes: Vec<DType>,
    /// The left operands: one per dtype, or the one Python scalar.
    pub rows: Vec<Operand>,
    /// The right operands: one per dtype, or the one Python scalar.
    pub cols: Vec<Operand>,
    /// The first rule set's answer for every pair of `rows` and `cols`, row by row.
    pub first: Vec<Answer>,
    /// The ordered pairs of operands whose answers differ.
    pub differences: Vec<(Operand, Operand, Answer, Answer)>,
}

impl Comparison {
    /// How many cells the two share: every pair of [`Comparison::rows`] and
    /// [`Comparison::cols`].
    pub fn cells(&self) -> usize {
        self.rows.len() * self.cols.len()
    }
}

/// The kind of one side's operands in a comparison: tensors (the default), rank-0
/// tensors, weakly typed tensors, each of every compared dtype, or one Python scalar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// Tensors with at least one dimension.
    #[default]
    Tensor,
    /// Rank-0 tensors (`scalar:DTYPE`).
    Scalar,
    /// Weakly typed tensors (`weak:DTYPE`).
    Weak,
    /// One Python scalar (`python:int`, ...).
    Python(PyScalar),
}

impl Kind {
    /// This kind's operands over `dtypes`.
    fn operands(self, dtypes: &[DType]) -> Vec<Operand> {
        match self {
            Kind::Tensor => dtypes.iter().map(|&d| Operand::Dimensioned(d)).collect(),
            Kind::Scalar => dtypes.iter().map(|&d| Operand::Scalar(d)).collect(),
            Kind::Weak => dtypes.iter().map(|&d| Operand::Weak(d)).collect(),
            Kind::Python(k) => vec![Operand::Python(k)],
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Tensor => f.write_str("tensor"),
            Kind::Scalar => f.write_str("scalar"),
            Kind::Weak => f.write_str("weak"),
            Kind::Python(k) => write!(f, "python:{k}"),
        }
    }
}

impl FromStr for Kind {
    type Err = String;

    /// `tensor`, `scalar`, `weak`, or `python:bool|int|float|complex`.
    fn from_str(s: &str) -> Result<Kind, String> {
        let kind = match s {
            "tensor" => Some(Kind::Tensor),
            "scalar" => Some(Kind::Scalar),
            "weak" => Some(Kind::Weak),
            _ => s
                .strip_prefix("python:")
                .and_then(PyScalar::parse_name)
                .map(Kind::Python),
        };
        kind.ok_or_else(|| {
            format!(
                "unknown operand kind `{}`: expected tensor, scalar, weak or python:bool|int|float|complex",
                visible(s)
            )
        })
    }
}

/// What a comparison covers: each side's operand kind, and the dtypes (all those
/// both rule sets accept when `None`).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The left operands' kind.
    pub lhs: Kind,
    /// The right operands' kind.
    pub rhs: Kind,
    /// The dtypes to compare, or every one both accept.
    pub dtypes: Option<Vec<DType>>,
}

/// `table`'s answer for two tensors of `lhs` and `rhs`.
pub fn answer(table: &RuleTable<'_>, options: &Options, op: Op, lhs: DType, rhs: DType) -> Answer {
    answer_for(
        table,
        options,
        op,
        Operand::Dimensioned(lhs),
        Operand::Dimensioned(rhs),
    )
}

/// `table`'s answer for operands `lhs` and `rhs`.
pub fn answer_for(table: &RuleTable<'_>, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Answer {
    table
        .promote(options, op, lhs, rhs)
        .map_err(|e: Refusal<'_>| e.to_string())
}

/// Two answers agree when they give the same dtype, or when both refuse (the
/// frameworks' refusal messages differ in wording, not in meaning).
pub fn agree(x: &Answer, y: &Answer) -> bool {
    match (x, y) {
        (Ok(a), Ok(b)) => a == b,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// Every cell of `a` under `oa` against `b` under `ob`, on `op`, tensor with tensor.
pub fn compare(a: &RuleTable<'_>, oa: &Options, b: &RuleTable<'_>, ob: &Options, op: Op) -> Comparison {
    compare_in(a, oa, b, ob, op, &Scope::default()).expect("every dtype both accept")
}

/// Every cell of `a` under `oa` against `b` under `ob`, on `op`, within `scope`.
/// A dtype of `scope.dtypes` that one of the two does not accept is an error
/// naming it.
pub fn compare_in(
    a: &RuleTable<'_>,
    oa: &Options,
    b: &RuleTable<'_>,
    ob: &Options,
    op: Op,
    scope: &Scope,
) -> Result<Comparison, String> {
    let dtypes: Vec<DType> = match &scope.dtypes {
        None => a.dtypes.iter().copied().filter(|d| b.accepts(*d)).collect(),
        Some(chosen) => {
            for &d in chosen {
                if let Some(t) = [a, b].into_iter().find(|t| !t.accepts(d)) {
                    return Err(format!("dtype `{d}` is not one {} accepts", t.name));
                }
            }
            a.dtypes.iter().copied().filter(|d| chosen.contains(d)).collect()
        }
    };
    let (rows, cols) = (scope.lhs.operands(&dtypes), scope.rhs.operands(&dtypes));
    let (mut differences, mut first) = (Vec::new(), Vec::new());
    for &l in &rows {
        for &r in &cols {
            let (x, y) = (answer_for(a, oa, op, l, r), answer_for(b, ob, op, l, r));
            first.push(x.clone());
            if !agree(&x, &y) {
                differences.push((l, r, x, y));
            }
        }
    }
    Ok(Comparison {
        dtypes,
        rows,
        cols,
        first,
        differences,
    })
}

/// A rule set's name with the options that differ from its defaults.
pub fn label(table: &RuleTable<'_>, options: &Options) -> String {
    let changed = changed_settings(table, options);
    if changed.is_empty() {
        table.name.to_owned()
    } else {
        format!("{} [{}]", table.name, changed.join(", "))
    }
}

/// The summary line of a comparison of `la` with `lb` on `op`, tensor with tensor.
pub fn summary(la: &str, lb: &str, op: Op, c: &Comparison) -> String {
    summary_in(la, lb, op, c, &Scope::default())
}

/// The summary line of a comparison of `la` with `lb` on `op` within `scope`.
pub fn summary_in(la: &str, lb: &str, op: Op, c: &Comparison, scope: &Scope) -> String {
    let differ = c.differences.len();
    let common = if scope.dtypes.is_some() {
        "dtypes chosen"
    } else {
        "dtypes in common"
    };
    format!(
        "{la} vs {lb}, op {op}, {} with {}: {} {common}, {} cells: {} agree, {differ} differ",
        scope.lhs,
        scope.rhs,
        c.dtypes.len(),
        c.cells(),
        c.cells() - differ
    )
}

/// One side of a text row: the dtype, or `refused [n]` where `n` numbers the reason in
/// the notes under the table (each reason written out once, in full).
fn shown_noted(answer: &Answer, notes: &mut Vec<String>) -> String {
    match answer {
        Ok(d) => d.name().to_owned(),
        Err(reason) => {
            let n = match notes.iter().position(|r| r == reason) {
                Some(i) => i + 1,
                None => {
                    notes.push(reason.clone());
                    notes.len()
                }
            };
            format!("refused [{n}]")
        }
    }
}

/// The text table of the cells where `la` and `lb` differ, under `summary`: one
/// aligned line per cell, each refusal numbered and its reason written out once
/// below (visibly: no text of a rule file acts on a terminal).
pub fn text(summary: &str, la: &str, lb: &str, differences: &[(Operand, Operand, Answer, Answer)]) -> String {
    let mut out = format!("{summary}\n");
    if !differences.is_empty() {
        let mut notes = Vec::new();
        let rows: Vec<[String; 4]> = differences
            .iter()
            .map(|(l, r, x, y)| {
                let x = shown_noted(x, &mut notes);
                let y = shown_noted(y, &mut notes);
                [l.to_string(), r.to_string(), x, y]
            })
            .collect();
        let header = ["lhs".to_owned(), "rhs".to_owned(), la.to_owned(), lb.to_owned()];
        let width = |k: usize| {
            rows.iter()
                .chain([&header])
                .map(|row| row[k].chars().count())
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2) = (width(0), width(1), width(2));
        out.push('\n');
        for [l, r, x, y] in std::iter::once(&header).chain(&rows) {
            out += &format!("{l:<w0$}  {r:<w1$}  {x:<w2$}  {y}\n");
        }
        if !notes.is_empty() {
            out += "\nrefused because:\n";
            for (i, reason) in notes.iter().enumerate() {
                out += &format!("  [{}] {}\n", i + 1, visible(reason));
            }
        }
    }
    out
}
