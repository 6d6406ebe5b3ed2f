//! The generated one-load tables give exactly what walking the layers gives, for
//! every option combination, operation and operand pair, accepted or not: through
//! `RuleTable::promote`, through a table with its options fixed (`RuleTable::fix`),
//! and through every marker type's compile-time `RuleSet::promote`.

use promo_core::rules::keras::Keras;
use promo_core::rules::triton::Triton;
use promo_core::rules::{
    array_api::ArrayApi, dali::Dali, jax::Jax, jax::JaxX64, kernel_float::KernelFloat, mindspore::MindSpore,
    mlx::Mlx, numpy::NumPy, openvino::OpenVino, openvino::OpenVinoPyTorch, openvino::OpenVinoPyTorchUnsafe,
    openvino::OpenVinoUnsafe, paddle::Paddle, paddle::PaddleStatic, tensorflow::TensorFlow,
    tensorflow::TensorFlowSafe, tinygrad::Tinygrad, torch::Torch,
};
use promo_core::{rules, RuleSet};
use promo_table::{operand_of_key, Op, Operand, OptionKind, OptionValue, Options, RuleTable, OPERAND_KEYS};
use rayon::prelude::*;

/// Every operand, accepted or not.
fn operands() -> Vec<Operand> {
    (0..OPERAND_KEYS).filter_map(operand_of_key).collect()
}

/// `table` without its flat form: the layer walk, the reference.
fn walked<'a>(table: &RuleTable<'a>) -> RuleTable<'a> {
    RuleTable { flat: None, ..*table }
}

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
    // Every (rule set, option combination) is one piece of work for rayon's pool:
    // this is the longest test of its binary, and a few rule sets hold most of the
    // combinations.
    let work: Vec<(&RuleTable<'static>, Options)> = rules::ALL
        .iter()
        .flat_map(|&table| {
            assert!(table.flat.is_some(), "{}: no flat table generated", table.name);
            all_options(table)
                .into_iter()
                .map(move |options| (table, options))
        })
        .collect();
    let compared: Vec<(&str, u64)> = work
        .par_iter()
        .map(|(table, options)| (table.name, agrees_with_the_layers(table, options)))
        .collect();
    for table in rules::ALL {
        let total: u64 = compared
            .iter()
            .filter(|(name, _)| *name == table.name)
            .map(|(_, n)| n)
            .sum();
        assert!(total > 10_000, "{}: {total}", table.name);
    }
}

/// Every operation and operand pair of `table` under `options`: its flat form and
/// its fixed form against the layer walk; returns how many it compared.
fn agrees_with_the_layers(table: &RuleTable<'static>, options: &Options) -> u64 {
    let walked = walked(table);
    let operands = operands();
    let fixed = table.fix(options).expect("a flat table has a fixed form");
    let mut compared = 0;
    for &op in Op::ALL {
        for &lhs in &operands {
            for &rhs in &operands {
                let walk = walked.promote_result(options, op, lhs, rhs);
                let flat = table.promote_result(options, op, lhs, rhs);
                assert_eq!(flat, walk, "{}: {op} {lhs} {rhs} {options:?}", table.name);
                let one_load = fixed.promote_result(op, lhs, rhs);
                assert_eq!(
                    one_load, walk,
                    "{}: fixed {op} {lhs} {rhs} {options:?}",
                    table.name
                );
                compared += 1;
            }
        }
    }
    compared
}

/// `RuleSet::promote` (one load from the marker's `FIXED`, made at compile time)
/// answers as the layer walk under the marker's options, for every operation and
/// operand pair.
fn marker_agrees_with_the_layers<R: RuleSet>() -> &'static str {
    let table = R::TABLE;
    let walked = walked(table);
    let fixed = R::FIXED.expect("every bundled rule set has a flat table");
    assert_eq!(fixed.options(), &R::OPTIONS, "{}", table.name);
    assert!(core::ptr::eq(fixed.table(), table), "{}", table.name);
    let operands = operands();
    let mut refused = 0;
    for &op in Op::ALL {
        for &lhs in &operands {
            for &rhs in &operands {
                let walk = walked.promote_result(&R::OPTIONS, op, lhs, rhs);
                assert_eq!(
                    fixed.promote_result(op, lhs, rhs),
                    walk,
                    "{} {:?}: {op} {lhs} {rhs}",
                    table.name,
                    R::OPTIONS
                );
                assert_eq!(R::promote(op, lhs, rhs), walk.map(|p| p.dtype));
                refused += walk.is_err() as usize;
            }
        }
    }
    // Every rule set refuses something (an operand it lacks at the least), so the
    // refusal cells were read too.
    assert!(refused > 0, "{}", table.name);
    core::any::type_name::<R>()
        .rsplit("::")
        .next()
        .unwrap_or_default()
}

#[test]
fn every_marker_answers_as_the_layers_in_one_load() {
    let checked = [
        marker_agrees_with_the_layers::<OpenVino>(),
        marker_agrees_with_the_layers::<OpenVinoUnsafe>(),
        marker_agrees_with_the_layers::<OpenVinoPyTorch>(),
        marker_agrees_with_the_layers::<OpenVinoPyTorchUnsafe>(),
        marker_agrees_with_the_layers::<KernelFloat>(),
        marker_agrees_with_the_layers::<Paddle>(),
        marker_agrees_with_the_layers::<PaddleStatic>(),
        marker_agrees_with_the_layers::<Dali>(),
        marker_agrees_with_the_layers::<NumPy>(),
        marker_agrees_with_the_layers::<Torch>(),
        marker_agrees_with_the_layers::<ArrayApi>(),
        marker_agrees_with_the_layers::<TensorFlow>(),
        marker_agrees_with_the_layers::<TensorFlowSafe>(),
        marker_agrees_with_the_layers::<Jax>(),
        marker_agrees_with_the_layers::<JaxX64>(),
        marker_agrees_with_the_layers::<Keras>(),
        marker_agrees_with_the_layers::<Tinygrad>(),
        marker_agrees_with_the_layers::<Mlx>(),
        marker_agrees_with_the_layers::<Triton>(),
        marker_agrees_with_the_layers::<MindSpore>(),
    ];
    // Every marker of every bundled rule file, as the rule files name them.
    let mut named: Vec<String> = rules::SOURCES
        .iter()
        .flat_map(|(path, src)| {
            let rules = promo_rules::load(path, src).unwrap_or_else(|_| panic!("{path} loads"));
            rules.modes.into_iter().map(|m| m.marker)
        })
        .collect();
    let mut checked: Vec<String> = checked.iter().map(|&m| m.to_owned()).collect();
    named.sort();
    checked.sort();
    assert_eq!(checked, named);
}
