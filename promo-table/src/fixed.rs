//! [`FixedTable`]: a rule table with its options fixed ([`RuleTable::fix`]), whose
//! lookups are an index computation and one load.

use crate::dtype::DType;
use crate::flat::{code_at, operand_key, option_combo, Answer, WALKED};
use crate::lookup::read;
use crate::op::Op;
use crate::operand::Operand;
use crate::options::Options;
use crate::table::{Promotion, Refusal, RuleTable};

/// A rule table with its options fixed, for many lookups under one setting: a
/// marker type's (`promo_core::RuleSet::FIXED`, made at compile time) or options a
/// user chose once.
///
/// It holds the part of the [`Flat`](crate::Flat) table that the options select, so a lookup is
/// the operands' keys, an index computation and one load of the [`Answer`], which a
/// comparison reads as a dtype; refusals are cells like any other, with no check
/// before the load and no call. Only a table with a flat form has one
/// ([`RuleTable::fix`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedTable<'a> {
    table: &'a RuleTable<'a>,
    options: Options,
    /// The options' combination of [`Flat::cells`](crate::Flat::cells): every op slot's block.
    cells: &'a [u8],
    /// See [`Flat::op_slot`](crate::Flat::op_slot).
    op_slot: &'a [u8],
    /// See [`Flat::key_of`](crate::Flat::key_of).
    key_of: &'a [u8],
    /// See [`Flat::keys`](crate::Flat::keys).
    keys: usize,
}

impl<'a> RuleTable<'a> {
    /// This table with `options` fixed: the option combination's cells found once,
    /// for lookups that are an index computation and one load. `None` for a table
    /// without a [`Flat`](crate::Flat) form (one `promo-rules` loads at run time, or one whose
    /// layers test a dtype option), which [`RuleTable::promote`] answers by walking
    /// its layers. A `const fn`, so a marker type's is made at compile time.
    #[inline]
    pub const fn fix<'t>(&'t self, options: &Options) -> Option<FixedTable<'t>>
    where
        'a: 't,
    {
        let Some(flat) = &self.flat else {
            return None;
        };
        let combo = option_combo(flat.radix, options);
        let len = flat.op_slots * flat.keys * flat.keys;
        // A combination past the table (options of another rule set) finds no
        // cells, and every lookup answers no rule.
        let cells = match flat.cells.split_at_checked(2 * flat.combo_base(combo)) {
            Some((_, from)) => match from.split_at_checked(2 * len) {
                Some((cells, _)) => cells,
                None => &[],
            },
            None => &[],
        };
        Some(FixedTable {
            table: self,
            options: *options,
            cells,
            op_slot: flat.op_slot,
            key_of: flat.key_of,
            keys: flat.keys,
        })
    }
}

impl<'a> FixedTable<'a> {
    /// The table.
    pub const fn table(&self) -> &'a RuleTable<'a> {
        self.table
    }

    /// The options fixed.
    pub const fn options(&self) -> &Options {
        &self.options
    }

    /// The common dtype of `lhs` and `rhs` under `op` with the fixed options, or why
    /// there is none: what [`RuleTable::promote`] answers, in one load.
    #[inline]
    pub fn promote(&self, op: Op, lhs: Operand, rhs: Operand) -> Result<DType, Refusal<'a>> {
        self.promote_result(op, lhs, rhs).map(|p| p.dtype)
    }

    /// [`FixedTable::promote`] with whether the result is weakly typed, as
    /// [`RuleTable::promote_result`].
    #[inline]
    pub fn promote_result(&self, op: Op, lhs: Operand, rhs: Operand) -> Result<Promotion, Refusal<'a>> {
        read(
            self.answer(op, lhs, rhs),
            self.table.reasons,
            &self.options,
            op,
            lhs,
            rhs,
        )
    }

    /// The [`Answer`] for `op` on `lhs` and `rhs`: the operands' keys, an index
    /// computation and one load.
    #[inline]
    pub fn answer(&self, op: Op, lhs: Operand, rhs: Operand) -> Answer {
        let slot = self.op_slot.get(op.index());
        let (l, r) = (
            self.key_of.get(operand_key(lhs)),
            self.key_of.get(operand_key(rhs)),
        );
        let (Some(&slot), Some(&l), Some(&r)) = (slot, l, r) else {
            return Answer::NoRule;
        };
        if slot == WALKED {
            return self.table.answer(&self.options, op, lhs, rhs);
        }
        let index = (slot as usize * self.keys + l as usize) * self.keys + r as usize;
        match code_at(self.cells, index) {
            Some(code) => Answer::from_code(code),
            None => Answer::NoRule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::tiny_table;
    use crate::flat::{operand_of_key, Flat, OPERAND_KEYS};
    use crate::operand::PyScalar;
    use crate::options::OptionValue;

    #[test]
    fn a_fixed_table_answers_as_the_table_under_its_options() {
        let walked = tiny_table();
        let parts = walked.flatten().expect("flattens");
        let flat = RuleTable {
            flat: Some(parts.as_flat()),
            ..walked
        };
        let operands: Vec<Operand> = (0..OPERAND_KEYS).filter_map(operand_of_key).collect();
        for settings in [["strict=false", "out=f32"], ["strict=true", "out=i16"]] {
            let options = walked.options_from(settings).unwrap();
            // Only a table with a flat form has a fixed form.
            assert_eq!(walked.fix(&options), None);
            {
                let fixed = flat.fix(&options).expect("a flat table");
                assert_eq!(fixed.options(), &options);
                assert!(core::ptr::eq(fixed.table(), &flat));
                for &op in Op::ALL {
                    for &lhs in &operands {
                        for &rhs in &operands {
                            assert_eq!(
                                fixed.promote_result(op, lhs, rhs),
                                walked.promote_result(&options, op, lhs, rhs),
                                "{op} {lhs} {rhs} {settings:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_fixed_dtype_option_is_read_at_lookup() {
        // `divide` of two integers gives `$out`: the one flat cell serves every value.
        let walked = tiny_table();
        let parts = walked.flatten().unwrap();
        let flat = RuleTable {
            flat: Some(parts.as_flat()),
            ..walked
        };
        let (i8, u8) = (Operand::Dimensioned(DType::I8), Operand::Dimensioned(DType::U8));
        for out in ["i8", "u8", "i16", "f32"] {
            let options = walked.options_from([format!("out={out}").as_str()]).unwrap();
            let got = flat.fix(&options).unwrap().promote(Op::Divide, i8, u8);
            assert_eq!(got.map(|d| d.name()), Ok(out));
        }
    }

    #[test]
    fn a_flat_lookup_is_one_load_at_its_index() {
        // One bool option, two op slots (add, divide), two keys (i8, python int).
        let mut op_slot = vec![0; Op::ALL.len()];
        op_slot[Op::Divide.index()] = 1;
        let mut key_of = vec![0; OPERAND_KEYS];
        let (i8, int) = (Operand::Dimensioned(DType::I8), Operand::Python(PyScalar::Int));
        key_of[operand_key(int)] = 1;
        // Cell n says `Option(n)`, so each load shows which index it read.
        let cells: Vec<u8> = (0..16)
            .flat_map(|n| Answer::Option(n).code().to_le_bytes())
            .collect();
        let flat = Flat {
            radix: &[2],
            op_slot: &op_slot,
            op_slots: 2,
            key_of: &key_of,
            keys: 2,
            cells: &cells,
        };
        let table = RuleTable {
            flat: Some(flat),
            ..tiny_table()
        };
        let at = |strict: bool, op, lhs, rhs| {
            let options = Options::from_values(&[OptionValue::Bool(strict)]);
            table.fix(&options).unwrap().answer(op, lhs, rhs)
        };
        assert_eq!(at(false, Op::Add, i8, i8), Answer::Option(0));
        assert_eq!(at(false, Op::Add, i8, int), Answer::Option(1));
        assert_eq!(at(false, Op::Add, int, i8), Answer::Option(2));
        assert_eq!(at(false, Op::Divide, i8, i8), Answer::Option(4));
        assert_eq!(at(true, Op::Add, i8, i8), Answer::Option(8));
        assert_eq!(at(true, Op::Divide, int, int), Answer::Option(15));
        // Every other operand shares key 0 here.
        assert_eq!(
            at(true, Op::Add, Operand::Dimensioned(DType::U8), i8),
            Answer::Option(8)
        );
        // A table too short for a combination answers no rule.
        let short = RuleTable {
            flat: Some(Flat {
                cells: &cells[..16],
                ..flat
            }),
            ..table
        };
        let strict = Options::from_values(&[OptionValue::Bool(true)]);
        assert_eq!(
            short.fix(&strict).unwrap().answer(Op::Add, i8, i8),
            Answer::NoRule
        );
    }
}
