//! [`RuleTable::flatten`]: every answer of the layer walk precomputed as the parts
//! of a [`Flat`] table, for `promo-macros` to emit.

use crate::cell::Cell;
use crate::dtype::DType;
use crate::flat::{operand_key, operand_of_key, Answer, Flat, OPERAND_KEYS, WALKED};
use crate::layer::{Side, ABSENT};
use crate::op::{Op, OpKind};
use crate::operand::Operand;
use crate::options::{OptionKind, OptionValue, Options};
use crate::table::RuleTable;

/// The owned parts of a [`Flat`] table, as [`RuleTable::flatten`] computes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatParts {
    /// See [`Flat::radix`].
    pub radix: Vec<u8>,
    /// See [`Flat::op_slot`].
    pub op_slot: Vec<u8>,
    /// See [`Flat::op_slots`].
    pub op_slots: usize,
    /// See [`Flat::key_of`].
    pub key_of: Vec<u8>,
    /// See [`Flat::keys`].
    pub keys: usize,
    /// See [`Flat::cells`]: each code's two bytes, little-endian.
    pub cells: Vec<u8>,
}

impl FlatParts {
    /// Lends the parts as a [`Flat`].
    pub fn as_flat(&self) -> Flat<'_> {
        Flat {
            radix: &self.radix,
            op_slot: &self.op_slot,
            op_slots: self.op_slots,
            key_of: &self.key_of,
            keys: self.keys,
            cells: &self.cells,
        }
    }
}

/// The dtype a result filter tests: a result's, or a dtype option's value.
fn promoted_dtype(cell: Option<Cell>, options: &Options) -> Option<DType> {
    match cell? {
        Cell::Is(d) | Cell::Weak(d) => Some(d),
        Cell::Option(i) => match options.get(i as usize) {
            OptionValue::DType(d) => Some(d),
            _ => None,
        },
        _ => None,
    }
}

impl RuleTable<'_> {
    /// Precomputes every answer of the layers ([`RuleTable::answer`]) for every
    /// option combination, operation and operand pair, refusals included, or `None`
    /// when a layer's condition tests a dtype option (whose values are too many to
    /// enumerate).
    ///
    /// Operands the rule set refuses whatever the other operand is share one key
    /// per refusal, and operations with the same answers under every combination
    /// share one slot (every operation the rule set lacks shares the slot that
    /// refuses it), so the table is total and no larger than its distinct answers.
    pub fn flatten(&self) -> Option<FlatParts> {
        let radix: Vec<u8> = self
            .options
            .iter()
            .map(|o| match o.kind {
                OptionKind::Bool => 2,
                OptionKind::Choice(words) => words.len().max(1) as u8,
                OptionKind::DType => 1,
            })
            .collect();
        let dtype_condition = self.layers.iter().flat_map(|l| l.when).any(|c| {
            matches!(
                self.options.get(c.option as usize).map(|o| o.kind),
                Some(OptionKind::DType)
            )
        });
        if dtype_condition {
            return None;
        }
        // Accepted operands get a key each; refused ones one key per refusal, with
        // the first such operand standing for the others.
        let all: Vec<(Operand, Option<Answer>)> = (0..OPERAND_KEYS)
            .filter_map(operand_of_key)
            .map(|o| (o, self.operand_refusal(o, Answer::UnsupportedLhs)))
            .collect();
        let mut operands: Vec<Operand> = all
            .iter()
            .filter(|(_, why)| why.is_none())
            .map(|&(o, _)| o)
            .collect();
        let accepted = operands.len();
        let mut refusals: Vec<Answer> = Vec::new();
        for &(operand, why) in &all {
            if let Some(why) = why.filter(|w| !refusals.contains(w)) {
                refusals.push(why);
                operands.push(operand);
            }
        }
        let key_of: Vec<u8> = all
            .iter()
            .map(|&(operand, why)| {
                let key = match why {
                    None => operands.iter().position(|&o| o == operand),
                    Some(why) => refusals.iter().position(|&r| r == why).map(|r| accepted + r),
                };
                key.unwrap_or_default() as u8
            })
            .collect();
        let keys = operands.len();
        let combos: usize = radix.iter().map(|&r| r as usize).product();
        let all_options: Vec<Options> = (0..combos).map(|c| self.combo_options(&radix, c)).collect();
        // Each operation's cells under every combination; equal ones share a slot.
        let column = |op: Op| -> Vec<u16> {
            let mut cells = Vec::with_capacity(combos * keys * keys);
            for options in &all_options {
                cells.extend(self.painted(options, op, &operands));
            }
            cells
        };
        // The elementwise operations' cells; the others are walked (`WALKED`).
        let mut op_slot = vec![WALKED; Op::ALL.len()];
        let elementwise = Op::ALL
            .iter()
            .copied()
            .filter(|op| op.kind() == OpKind::Elementwise);
        let slots: Vec<Vec<u16>> = if self.ops.is_empty() {
            // Op-independent: every elementwise operation answers as `add`.
            for op in elementwise {
                op_slot[op.index()] = 0;
            }
            vec![column(Op::Add)]
        } else {
            let mut slots: Vec<Vec<u16>> = Vec::new();
            for op in elementwise {
                let cells = column(op);
                op_slot[op.index()] = match slots.iter().position(|s| *s == cells) {
                    Some(same) => same as u8,
                    None => {
                        slots.push(cells);
                        (slots.len() - 1) as u8
                    }
                };
            }
            slots
        };
        let block = keys * keys;
        let mut cells = Vec::with_capacity(2 * combos * slots.len() * block);
        for combo in 0..combos {
            for column in &slots {
                cells.extend(
                    column[combo * block..(combo + 1) * block]
                        .iter()
                        .flat_map(|c| c.to_le_bytes()),
                );
            }
        }
        Some(FlatParts {
            radix,
            op_slot,
            op_slots: slots.len(),
            key_of,
            keys,
            cells,
        })
    }

    /// The [`Answer::code`] of every pair of `operands` (row-major) under `options`
    /// and `op`: what [`RuleTable::answer`] gives each, computed layer by layer
    /// instead of by a walk per pair. From the last layer up, each layer's opinions
    /// are painted over what the layers after it give, so every layer is visited
    /// once per pair and nothing is walked twice; a result filter reads what the
    /// layers after its statement gave, kept when the painting passed there. Where
    /// an answer needs an operand the grid lacks (a retyped or Python-typed operand
    /// outside `operands`), that pair is walked. The walk stays the reference: the
    /// tests compare the two on every pair of every rule set.
    fn painted(&self, options: &Options, op: Op, operands: &[Operand]) -> Vec<u16> {
        let n = operands.len();
        let mut index_of = vec![usize::MAX; OPERAND_KEYS];
        for (i, &o) in operands.iter().enumerate() {
            // Only the operands themselves: a refused operand's stand-in answers
            // for the others only where they are refused.
            if index_of[operand_key(o)] == usize::MAX {
                index_of[operand_key(o)] = i;
            }
        }
        let at = |o: Operand| Some(index_of[operand_key(o)]).filter(|&i| i != usize::MAX);
        let count = self.layers.len();
        // What the walk from a statement's end gives, for the result filters.
        let needed: Vec<usize> = self
            .layers
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.promoted.is_empty())
            .map(|(i, l)| l.statement_end.max(i + 1))
            .collect();
        let mut kept: Vec<(usize, Vec<Option<Cell>>)> = Vec::new();
        // `after`: the walk from the layer after the current one; `in_map`: the
        // walk from there with a result map's `below` in hand (a `by_promoted` entry).
        let mut after: Vec<Option<Cell>> = vec![None; n * n];
        let mut in_map: Option<Vec<Option<Cell>>> = None;
        if needed.contains(&count) {
            kept.push((count, after.clone()));
        }
        for (index, layer) in self.layers.iter().enumerate().skip(self.results_from).rev() {
            if !layer.applies(options, op) {
                // Skipped by the walk, a map's `below` in hand or not.
                if needed.contains(&index) {
                    kept.push((index, after.clone()));
                }
                continue;
            }
            let mut here = Vec::with_capacity(n * n);
            if !layer.retype.is_empty() {
                let retyped = |d: DType| {
                    layer
                        .retype
                        .iter()
                        .find(|(from, _)| *from == d)
                        .map_or(d, |&(_, to)| to)
                };
                let operand = |o: Operand| o.dtype().map_or(o, |d| o.with_dtype(retyped(d)));
                let mapped = |cell: Option<Cell>| match cell {
                    Some(Cell::Is(d)) => Some(Cell::Is(retyped(d))),
                    Some(Cell::Weak(d)) => Some(Cell::Weak(retyped(d))),
                    other => other,
                };
                for &lhs in operands {
                    for &rhs in operands {
                        let (l, r) = (operand(lhs), operand(rhs));
                        here.push(mapped(match (at(l), at(r)) {
                            (Some(li), Some(ri)) => after[li * n + ri],
                            _ => self.first_opinion(index + 1, options, op, l, r).map(|t| t.cell),
                        }));
                    }
                }
                in_map = None;
            } else {
                let below = match layer.promoted.is_empty() {
                    true => None,
                    false => {
                        let end = layer.statement_end.max(index + 1);
                        kept.iter().find(|(i, _)| *i == end).map(|(_, w)| w)
                    }
                };
                // A pair the layer has no opinion on keeps what the layers after give
                // (and, in a map, passes on to the next entry or the statement's end):
                // only the pairs of its rows and columns are visited.
                here.clone_from(&after);
                let next_all: Option<Vec<Option<Cell>>> = match (below, &in_map, layer.continues) {
                    (Some(below), _, false) => Some(below.clone()),
                    (Some(_), Some(map), true) => Some(map.clone()),
                    _ => None,
                };
                // A map the painting lost (an entry that does not apply before one
                // that does), or a statement end it did not keep: the walk decides.
                let lost = !layer.promoted.is_empty() && next_all.is_none();
                let covered = |side: Side, of: &[u8]| -> Vec<usize> {
                    (0..n)
                        .filter(|&i| {
                            side.key(operands[i])
                                .and_then(|k| of.get(k))
                                .is_some_and(|&r| r != ABSENT)
                        })
                        .collect()
                };
                let (rows, cols) = (covered(layer.lhs, layer.row_of), covered(layer.rhs, layer.col_of));
                let mut seen = vec![false; n * n];
                let mut pairs: Vec<(usize, usize)> = Vec::new();
                for &li in &rows {
                    for &ri in &cols {
                        seen[li * n + ri] = true;
                        pairs.push((li, ri));
                    }
                }
                if self.commutative && op.symmetric() {
                    // The swapped pair's opinion answers too.
                    for &li in &cols {
                        for &ri in &rows {
                            if !std::mem::replace(&mut seen[li * n + ri], true) {
                                pairs.push((li, ri));
                            }
                        }
                    }
                }
                if lost {
                    pairs = (0..n).flat_map(|li| (0..n).map(move |ri| (li, ri))).collect();
                }
                let mut map_here = next_all.clone().unwrap_or_default();
                for (li, ri) in pairs {
                    let (lhs, rhs, p) = (operands[li], operands[ri], li * n + ri);
                    if lost {
                        here[p] = self.first_opinion(index, options, op, lhs, rhs).map(|t| t.cell);
                        continue;
                    }
                    let found = match layer.opinion(lhs, rhs) {
                        Some(found) => Some(found),
                        None if self.commutative && op.symmetric() => layer.opinion(rhs, lhs),
                        None => None,
                    };
                    let (Some(below), Some(next_all)) = (below, &next_all) else {
                        // No result filter: an opinion decides, else the layers after.
                        here[p] = found.or(after[p]);
                        continue;
                    };
                    let (under, next) = (below[p], next_all[p]);
                    let holds = |cell: Cell| match promoted_dtype(under, options) {
                        Some(d) if layer.promoted.contains(&d) => {
                            // A weakly typed promotion gives a weakly typed result,
                            // unless the filter's results are strongly typed.
                            let weak = !layer.strong && matches!(under, Some(Cell::Weak(_)));
                            Some(match cell {
                                Cell::Is(d) if weak => Cell::Weak(d),
                                other => other,
                            })
                        }
                        _ => None,
                    };
                    // With the map's `below` in hand (reached from an earlier entry)
                    // and without (the walk reaches this entry first).
                    map_here[p] = found.map_or(next, |cell| holds(cell).or(next));
                    here[p] = found.map_or(after[p], |cell| holds(cell).or(next));
                }
                in_map = next_all.is_some().then_some(map_here);
            }
            after = here;
            if needed.contains(&index) {
                kept.push((index, after.clone()));
            }
        }
        // Each pair as the walk finishes it: the operands checked first, a Python
        // scalar no layer spoke of typed as its `[python]` dtype, then the cell read.
        let mut codes = Vec::with_capacity(n * n);
        if !self.supports(op) {
            return vec![Answer::UnsupportedOp.code(); n * n];
        }
        // Each operand's refusal, checked once, as `RuleTable::check_operands` does.
        let refusal = |side: Answer| -> Vec<Option<Answer>> {
            operands.iter().map(|&o| self.operand_refusal(o, side)).collect()
        };
        let (lhs_refused, rhs_refused) = (refusal(Answer::UnsupportedLhs), refusal(Answer::UnsupportedRhs));
        for (li, &lhs) in operands.iter().enumerate() {
            for (ri, &rhs) in operands.iter().enumerate() {
                if let Some(refused) = lhs_refused[li].or(rhs_refused[ri]) {
                    codes.push(refused.code());
                    continue;
                }
                let typed = |o: Operand| match o {
                    Operand::Python(k) => self.python[k.index()],
                    other => Some(other),
                };
                let cell = after[li * n + ri].or_else(|| match (lhs, rhs) {
                    (Operand::Python(_), Operand::Python(_)) => None,
                    (Operand::Python(_), _) | (_, Operand::Python(_)) => {
                        let (l, r) = (typed(lhs)?, typed(rhs)?);
                        match (at(l), at(r)) {
                            (Some(a), Some(b)) => after[a * n + b],
                            _ => self
                                .first_opinion(self.results_from, options, op, l, r)
                                .map(|t| t.cell),
                        }
                    }
                    _ => None,
                });
                codes.push(self.cell_answer(cell.unwrap_or(Cell::Defer), op, lhs, rhs).code());
            }
        }
        codes
    }

    /// The options of combination `combo` (dtype options at their defaults).
    fn combo_options(&self, radix: &[u8], mut combo: usize) -> Options {
        let mut values: Vec<OptionValue> = self.options.iter().map(|o| o.default).collect();
        for (i, &r) in radix.iter().enumerate().rev() {
            let digit = combo % r as usize;
            combo /= r as usize;
            values[i] = match self.options[i].kind {
                OptionKind::Bool => OptionValue::Bool(digit == 1),
                OptionKind::Choice(_) => OptionValue::Choice(digit as u8),
                OptionKind::DType => values[i],
            };
        }
        Options::from_values(&values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::fixture::tiny_table;
    use crate::flat::option_combo;
    use crate::layer::{Condition, Layer};
    use crate::options::OptionSpec;

    /// Every operand, accepted or not.
    fn operands() -> Vec<Operand> {
        (0..OPERAND_KEYS).filter_map(operand_of_key).collect()
    }

    /// The flat table and the walk give the same answer for every input.
    fn assert_flat_equals_walk(walked: &RuleTable<'_>, every_options: &[Options]) {
        let parts = walked.flatten().expect("flattens");
        let flat = RuleTable {
            flat: Some(parts.as_flat()),
            ..*walked
        };
        for options in every_options {
            for &op in Op::ALL {
                for lhs in operands() {
                    for rhs in operands() {
                        assert_eq!(
                            flat.promote(options, op, lhs, rhs),
                            walked.promote(options, op, lhs, rhs),
                            "{op} {lhs} {rhs} {options:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_flat_table_answers_as_the_walk() {
        let t = tiny_table();
        let settings = [["strict=false", "out=f32"], ["strict=true", "out=i16"]];
        let every: Vec<Options> = settings
            .iter()
            .map(|s| t.options_from(s.iter().copied()).unwrap())
            .collect();
        assert_flat_equals_walk(&t, &every);
        let not_commutative = RuleTable {
            commutative: false,
            ..t
        };
        assert_flat_equals_walk(&not_commutative, &every);
        // Op-independent (and without the `divide` layer): every operation answers
        // as `add`.
        let layers = [t.layers[0], t.layers[2], t.layers[3], t.layers[4]];
        let any_op = RuleTable {
            ops: &[],
            layers: &layers,
            ..t
        };
        assert_flat_equals_walk(&any_op, &every);
    }

    #[test]
    fn the_parts_have_one_slot_per_answer_and_key() {
        let t = tiny_table();
        let parts = t.flatten().unwrap();
        // `strict` selects cells (2 values); `out`, a dtype option, does not.
        assert_eq!(parts.radix, [2, 1]);
        // `add`, `divide`, and one slot for every operation tiny lacks.
        assert_eq!(parts.op_slots, 3);
        let slot = |op: Op| parts.op_slot[op.index()];
        assert_ne!(slot(Op::Add), slot(Op::Divide));
        assert_eq!(slot(Op::Multiply), slot(Op::Pow));
        assert!(![slot(Op::Add), slot(Op::Divide)].contains(&slot(Op::Multiply)));
        // Five dtypes as tensors and as rank-0 tensors, four Python kinds; then one
        // key for a dtype tiny lacks and one for a weakly typed tensor.
        assert_eq!(parts.keys, 5 + 5 + 4 + 2);
        let key = |o: &str| parts.key_of[crate::operand_key(o.parse().unwrap())];
        assert_eq!(key("f64"), key("scalar:c64"));
        assert_eq!(key("weak:f64"), key("f64"), "a dtype tiny lacks is refused first");
        assert_eq!(key("weak:i8"), key("weak:f32"));
        assert_ne!(key("weak:i8"), key("f64"));
        assert!(usize::from(key("weak:i8")) >= 14 && usize::from(key("f64")) >= 14);
        assert_eq!(parts.cells.len(), 2 * 2 * 3 * parts.keys * parts.keys);
        // Op-independent: every elementwise operation shares one slot; the other
        // operations are walked.
        let any_op = RuleTable { ops: &[], ..t }.flatten().unwrap();
        assert_eq!(any_op.op_slots, 1);
        for &op in Op::ALL {
            let elementwise = op.kind() == OpKind::Elementwise;
            assert_eq!(
                any_op.op_slot[op.index()],
                if elementwise { 0 } else { WALKED },
                "{op}"
            );
        }
    }

    #[test]
    fn combos_enumerate_the_options_that_select_cells() {
        const WORDS: &[&str] = &["a", "b", "c"];
        let t = RuleTable {
            options: &[
                OptionSpec {
                    name: "mode",
                    kind: OptionKind::Choice(WORDS),
                    default: OptionValue::Choice(0),
                    doc: "",
                },
                OptionSpec {
                    name: "strict",
                    kind: OptionKind::Bool,
                    default: OptionValue::Bool(false),
                    doc: "",
                },
                OptionSpec {
                    name: "out",
                    kind: OptionKind::DType,
                    default: OptionValue::DType(DType::I8),
                    doc: "",
                },
            ],
            ..tiny_table()
        };
        let radix = [3, 2, 1];
        for combo in 0..6 {
            let options = t.combo_options(&radix, combo);
            assert_eq!(option_combo(&radix, &options), combo);
            assert_eq!(options.get(2), OptionValue::DType(DType::I8));
        }
    }

    #[test]
    fn a_condition_on_a_dtype_option_is_not_flattened() {
        let t = tiny_table();
        let on_out = [Condition {
            option: 1,
            value: OptionValue::DType(DType::I8),
        }];
        let layers: Vec<Layer<'_>> = t.layers.iter().map(|&l| Layer { when: &on_out, ..l }).collect();
        assert_eq!(RuleTable { layers: &layers, ..t }.flatten(), None);
    }
}
