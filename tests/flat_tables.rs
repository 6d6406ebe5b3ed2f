//! The generated one-load tables give exactly what walking the layers gives, for
//! every option combination, operation and operand pair, accepted or not.

use promo_core::rules;
use promo_table::{operand_of_key, Op, OptionKind, OptionValue, Options, RuleTable, OPERAND_KEYS};

/// Every combination of the options' values (dtype options: each accepted dtype).
fn all_options(table: &RuleTable<'_>) -> Vec<Options> {
    let mut combos: Vec<Vec<OptionValue>> = vec![Vec::new()];
    for spec in table.options {
        let values: Vec<OptionValue> = match spec.kind {
            OptionKind::Bool => vec![OptionValue::Bool(false), OptionValue::Bool(true)],
            OptionKind::Choice(words) => (0..words.len() as u8).map(OptionValue::Choice).collect(),
            OptionKind::DType => table.dtypes.iter().map(|&d| OptionValue::DType(d)).collect(),
        };
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push(v);
                    c
                })
            })
            .collect();
    }
    combos.iter().map(|c| Options::from_values(c)).collect()
}

#[test]
fn flat_tables_agree_with_the_layers() {
    for table in rules::ALL {
        assert!(table.flat.is_some(), "{}: no flat table generated", table.name);
        let walked = RuleTable {
            flat: None,
            ..**table
        };
        let operands: Vec<_> = (0..OPERAND_KEYS).filter_map(operand_of_key).collect();
        let mut compared = 0u64;
        for options in all_options(table) {
            for &op in Op::ALL {
                for &lhs in &operands {
                    for &rhs in &operands {
                        let flat = table.promote(&options, op, lhs, rhs);
                        let walk = walked.promote(&options, op, lhs, rhs);
                        assert_eq!(flat, walk, "{}: {op} {lhs} {rhs} {options:?}", table.name);
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000, "{}: {compared}", table.name);
    }
}
