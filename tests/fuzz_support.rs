//! What every fuzz target shares: a seedable generator, the time budget, the seed.
//! Included by `tests/fuzz.rs` and `promo-cli/tests/fuzz_query.rs` with `#[path]`.

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
