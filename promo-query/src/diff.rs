//! Where two rule sets, or two option settings of one, disagree: every ordered
//! pair of the dtypes both accept, tensor with tensor, and the text table that
//! `promo diff` prints and the Python package's `diff` returns.

use promo_table::text::visible;
use promo_table::{DType, Op, Operand, Options, Refusal, RuleTable};

use crate::source::changed_settings;

/// One rule set's answer for a pair: the dtype, or the reason it refused.
pub type Answer = Result<DType, String>;

/// The cells two rule sets share, and the ones where they disagree.
pub struct Comparison {
    /// The dtypes both accept, in the first rule set's order.
    pub dtypes: Vec<DType>,
    /// The first rule set's answer for every pair of `dtypes`, row by row.
    pub first: Vec<Answer>,
    /// The ordered pairs of `dtypes` whose answers differ.
    pub differences: Vec<(DType, DType, Answer, Answer)>,
}

impl Comparison {
    /// How many cells the two share: every ordered pair of [`Comparison::dtypes`].
    pub fn cells(&self) -> usize {
        self.dtypes.len() * self.dtypes.len()
    }
}

/// `table`'s answer for two tensors of `lhs` and `rhs`.
pub fn answer(table: &RuleTable<'_>, options: &Options, op: Op, lhs: DType, rhs: DType) -> Answer {
    table
        .promote(options, op, Operand::Dimensioned(lhs), Operand::Dimensioned(rhs))
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

/// Every cell of `a` under `oa` against `b` under `ob`, on `op`.
pub fn compare(a: &RuleTable<'_>, oa: &Options, b: &RuleTable<'_>, ob: &Options, op: Op) -> Comparison {
    let dtypes: Vec<DType> = a.dtypes.iter().copied().filter(|d| b.accepts(*d)).collect();
    let (mut differences, mut first) = (Vec::new(), Vec::new());
    for &l in &dtypes {
        for &r in &dtypes {
            let (x, y) = (answer(a, oa, op, l, r), answer(b, ob, op, l, r));
            first.push(x.clone());
            if !agree(&x, &y) {
                differences.push((l, r, x, y));
            }
        }
    }
    Comparison {
        dtypes,
        first,
        differences,
    }
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

/// The summary line of a comparison of `la` with `lb` on `op`.
pub fn summary(la: &str, lb: &str, op: Op, c: &Comparison) -> String {
    let differ = c.differences.len();
    format!(
        "{la} vs {lb}, op {op}, tensor with tensor: {} dtypes in common, {} cells: {} agree, {differ} differ",
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
pub fn text(summary: &str, la: &str, lb: &str, differences: &[(DType, DType, Answer, Answer)]) -> String {
    let mut out = format!("{summary}\n");
    if !differences.is_empty() {
        let mut notes = Vec::new();
        let rows: Vec<[String; 4]> = differences
            .iter()
            .map(|(l, r, x, y)| {
                let x = shown_noted(x, &mut notes);
                let y = shown_noted(y, &mut notes);
                [l.name().to_owned(), r.name().to_owned(), x, y]
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
