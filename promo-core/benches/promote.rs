//! Run-time promotion: one `RuleTable::promote` lookup per ordered pair of a rule
//! set's dtypes. `cargo bench -p promo-core --bench promote`.

use divan::{black_box, Bencher};
use promo_core::rules;
use promo_core::{Op, Operand};

fn main() {
    divan::main();
}

/// Every ordered tensor pair of each bundled rule set, default options, `add`.
#[divan::bench(args = ["openvino", "kernel_float", "paddle", "dali"])]
fn all_pairs(bencher: Bencher, name: &str) {
    let Some(table) = rules::by_name(name) else { return };
    let options = table.default_options();
    let pairs: Vec<(Operand, Operand)> = table
        .dtypes
        .iter()
        .flat_map(|&a| {
            table
                .dtypes
                .iter()
                .map(move |&b| (Operand::Dimensioned(a), Operand::Dimensioned(b)))
        })
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(pairs.len()))
        .bench(|| {
            let mut accepted = 0usize;
            for &(a, b) in black_box(&pairs) {
                accepted += table.promote(&options, Op::Add, a, b).is_ok() as usize;
            }
            accepted
        });
}
