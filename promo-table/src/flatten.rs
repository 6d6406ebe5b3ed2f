//! [`RuleTable::flatten`]: every answer of the layer walk precomputed as the parts
//! of a [`Flat`] table, for `promo-macros` to emit.

use crate::flat::{operand_of_key, Flat, OPERAND_KEYS};
use crate::options::{OptionKind, OptionValue, Options};
use crate::table::RuleTable;
use crate::{Answer, Op, Operand};

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
    /// See [`Flat::cells`].
    pub cells: Vec<u16>,
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
                for &lhs in &operands {
                    for &rhs in &operands {
                        cells.push(self.answer(options, op, lhs, rhs).code());
                    }
                }
            }
            cells
        };
        let mut op_slot = vec![0u8; Op::ALL.len()];
        let slots: Vec<Vec<u16>> = if self.ops.is_empty() {
            // Op-independent: every operation answers as `add`.
            vec![column(Op::Add)]
        } else {
            let mut slots: Vec<Vec<u16>> = Vec::new();
            for (&op, slot) in Op::ALL.iter().zip(&mut op_slot) {
                let cells = column(op);
                *slot = match slots.iter().position(|s| *s == cells) {
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
        let mut cells = Vec::with_capacity(combos * slots.len() * block);
        for combo in 0..combos {
            for column in &slots {
                cells.extend_from_slice(&column[combo * block..(combo + 1) * block]);
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
    use crate::fixture::tiny_table;
    use crate::flat::option_combo;
    use crate::layer::{Condition, Layer};
    use crate::options::OptionSpec;
    use crate::DType;

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
        assert_eq!(parts.cells.len(), 2 * 3 * parts.keys * parts.keys);
        // Op-independent: every operation shares one slot.
        let any_op = RuleTable { ops: &[], ..t }.flatten().unwrap();
        assert_eq!(any_op.op_slots, 1);
        assert!(any_op.op_slot.iter().all(|&s| s == 0));
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
