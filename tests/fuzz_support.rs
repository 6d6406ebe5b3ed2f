//! What every fuzz target shares: a seedable generator, the time budget, the seed.
//! Included by `tests/fuzz.rs` and `promo-cli/tests/fuzz/main.rs` (the promo
//! command's targets) with `#[path]`; the flat-table check is shared by the
//! rule-file targets.

#![allow(dead_code)] // each target uses what it needs

use promo_table::{operand_of_key, Op, RuleTable, OPERAND_KEYS};
use proptest::prelude::Rng as _;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::time::Duration;

/// A seeded generator (proptest's), with the few draws the targets need.
pub struct Rng(TestRng);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

pub fn budget() -> Duration {
    let secs = std::env::var("PROMO_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    Duration::from_secs(secs)
}

pub fn seed(target: &str) -> Rng {
    let seed = std::env::var("PROMO_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    println!("fuzz {target}: PROMO_FUZZ_SEED={seed}");
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    Rng(TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Every answer of the precomputed table equals the layer walk's, looked up with
/// the options and with them fixed, for the default options and every operation
/// the rule set names (or `add`).
pub fn check_flat_agrees(table: &RuleTable<'_>) -> usize {
    let Some(parts) = table.flatten() else { return 0 };
    let flat = RuleTable {
        flat: Some(parts.as_flat()),
        ..*table
    };
    let options = table.default_options();
    let ops: Vec<Op> = if table.ops.is_empty() {
        vec![Op::Add]
    } else {
        table.ops.to_vec()
    };
    let operands: Vec<_> = (0..OPERAND_KEYS).filter_map(operand_of_key).collect();
    let fixed = flat.fix(&options).expect("a flat table has a fixed form");
    let mut n = 0;
    for &op in &ops {
        for &lhs in &operands {
            for &rhs in &operands {
                let walk = table.promote_result(&options, op, lhs, rhs);
                assert_eq!(
                    flat.promote_result(&options, op, lhs, rhs),
                    walk,
                    "{op} {lhs} {rhs}"
                );
                assert_eq!(
                    fixed.promote_result(op, lhs, rhs),
                    walk,
                    "fixed: {op} {lhs} {rhs}"
                );
                n += 1;
            }
        }
    }
    n
}
