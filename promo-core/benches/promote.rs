//! Run-time promotion: one lookup per ordered pair of a rule set's dtypes (`add`,
//! default options), for each bundled rule set's default marker, four ways, beside
//! a dense table of the same answers. `cargo bench -p promo-core --bench promote`.
//!
//! - `dense`: the baseline, a `Vec<u16>` of every answer built here, indexed
//!   `[lhs * DType::COUNT + rhs]`;
//! - `rule_set`: `RuleSet::promote`, the marker's options fixed at compile time;
//! - `fixed`: `FixedTable::promote`, the options fixed at run time (`RuleTable::fix`);
//! - `table`: `RuleTable::promote`, the options given with every call;
//! - `user_file`: `RuleTable::promote` on the same rule file loaded at run time as
//!   a user's rule file is (`promo-query`'s `RuleSet`: parsed, checked and
//!   flattened once), the options given with every call.
//!
//! Each sums a number per answer (the dtype's index, or `DType::COUNT` for a
//! refusal), so every lookup's answer is read; divan reports the time of one pass
//! over the pairs and lookups (items) per second. A sample is 100 passes, long
//! beside the timer's precision.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use promo_core::rules::{
    array_api::ArrayApi, dali::Dali, jax::Jax, kernel_float::KernelFloat, numpy::NumPy, openvino::OpenVino,
    paddle::Paddle, tensorflow::TensorFlow, torch::Torch,
};
use promo_core::{DType, Op, Refusal, RuleSet};

fn main() {
    divan::main();
}

/// Every ordered pair of the rule set's dtypes.
fn pairs<R: RuleSet>() -> Vec<(DType, DType)> {
    let dtypes = R::TABLE.dtypes;
    dtypes
        .iter()
        .flat_map(|&a| dtypes.iter().map(move |&b| (a, b)))
        .collect()
}

/// The number summed for an answer.
#[inline(always)]
fn value(answer: Result<DType, Refusal<'_>>) -> usize {
    match answer {
        Ok(d) => d.index(),
        Err(_) => DType::COUNT,
    }
}

/// Times `lookup` over every pair of `R`'s dtypes.
fn run<R: RuleSet>(bencher: Bencher, lookup: impl Fn(DType, DType) -> usize + Sync) {
    let pairs = pairs::<R>();
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        black_box(&pairs)
            .iter()
            .map(|&(a, b)| lookup(a, b))
            .sum::<usize>()
    });
}

/// The baseline: the same answers in a dense table built here.
#[divan::bench(types = [OpenVino, KernelFloat, Paddle, Dali, NumPy, Torch, ArrayApi, TensorFlow, Jax], sample_size = 100)]
fn dense<R: RuleSet>(bencher: Bencher) {
    let n = DType::COUNT;
    let mut table = vec![n as u16; n * n];
    for (a, b) in pairs::<R>() {
        table[a.index() * n + b.index()] = value(R::promote(Op::Add, a, b)) as u16;
    }
    let table = black_box(table);
    run::<R>(bencher, |a, b| table[a.index() * n + b.index()] as usize);
}

/// `RuleSet::promote`: the marker's options, fixed at compile time.
#[divan::bench(types = [OpenVino, KernelFloat, Paddle, Dali, NumPy, Torch, ArrayApi, TensorFlow, Jax], sample_size = 100)]
fn rule_set<R: RuleSet>(bencher: Bencher) {
    run::<R>(bencher, |a, b| value(R::promote(Op::Add, a, b)));
}

/// `FixedTable::promote`: the default options, fixed at run time.
#[divan::bench(types = [OpenVino, KernelFloat, Paddle, Dali, NumPy, Torch, ArrayApi, TensorFlow, Jax], sample_size = 100)]
fn fixed<R: RuleSet>(bencher: Bencher) {
    let table = black_box(R::TABLE);
    let options = black_box(table.default_options());
    let fixed = table.fix(&options).expect("a flat table");
    run::<R>(bencher, |a, b| value(fixed.promote(Op::Add, a.into(), b.into())));
}

/// `RuleTable::promote`: the default options, given with every call.
#[divan::bench(types = [OpenVino, KernelFloat, Paddle, Dali, NumPy, Torch, ArrayApi, TensorFlow, Jax], sample_size = 100)]
fn table<R: RuleSet>(bencher: Bencher) {
    let table = black_box(R::TABLE);
    let options = black_box(table.default_options());
    run::<R>(bencher, |a, b| {
        value(table.promote(&options, Op::Add, a.into(), b.into()))
    });
}

/// The rule set's bundled rule file, loaded as a user's rule file is, with its
/// answers flattened once as `promo-query`'s `RuleSet` flattens them.
fn loaded_file<R: RuleSet>() -> (promo_rules::RuleFile, Option<promo_table::FlatParts>) {
    let index = promo_core::rules::ALL
        .iter()
        .position(|t| t.name == R::TABLE.name)
        .expect("a bundled rule set");
    let (path, src) = promo_core::rules::SOURCES[index];
    let model = promo_rules::load(path, src).expect("a bundled rule file loads");
    let flat = model.with_table(|t| t.flatten());
    (model, flat)
}

/// `RuleTable::promote` on a rule file loaded at run time and flattened once.
#[divan::bench(types = [OpenVino, KernelFloat, Paddle, Dali, NumPy, Torch, ArrayApi, TensorFlow, Jax], sample_size = 100)]
fn user_file<R: RuleSet>(bencher: Bencher) {
    let (model, flat) = loaded_file::<R>();
    model.with_table(|loaded| {
        let table = promo_core::RuleTable {
            flat: flat.as_ref().map(|f| f.as_flat()),
            ..*loaded
        };
        let table = black_box(&table);
        let options = black_box(table.default_options());
        run::<R>(bencher, |a, b| {
            value(table.promote(&options, Op::Add, a.into(), b.into()))
        });
    });
}
