//! The bundled rule sets, generated from `rules/*.toml` at compile time.
//!
//! Each module holds the marker types (one per mode), the `const TABLE` for run-time
//! lookups, and the [`Promote`](crate::Promote) impls.

use promo_table::RuleTable;

promo_macros::rules!("rules/openvino.toml");
promo_macros::rules!("rules/kernel_float.toml");
promo_macros::rules!("rules/paddle.toml");
promo_macros::rules!("rules/dali.toml");
promo_macros::rules!("rules/numpy.toml");
promo_macros::rules!("rules/torch.toml");
promo_macros::rules!("rules/array_api.toml");
promo_macros::rules!("rules/tensorflow.toml");
promo_macros::rules!("rules/jax.toml");
promo_macros::rules!("rules/keras.toml");
promo_macros::rules!("rules/tinygrad.toml");
promo_macros::rules!("rules/mlx.toml");
promo_macros::rules!("rules/triton.toml");
promo_macros::rules!("rules/mindspore.toml");

/// Every bundled rule set's table, in listing order.
pub const ALL: &[&RuleTable<'static>] = &[
    &openvino::TABLE,
    &kernel_float::TABLE,
    &paddle::TABLE,
    &dali::TABLE,
    &numpy::TABLE,
    &torch::TABLE,
    &array_api::TABLE,
    &tensorflow::TABLE,
    &jax::TABLE,
    &keras::TABLE,
    &tinygrad::TABLE,
    &mlx::TABLE,
    &triton::TABLE,
    &mindspore::TABLE,
];

/// The bundled rule set called `name` (`openvino`, `kernel_float`, `paddle`, `dali`,
/// `numpy`, `torch`, `array_api`, `tensorflow`, `jax`, `keras`, `tinygrad`, `mlx`,
/// `triton`, `mindspore`).
pub fn by_name(name: &str) -> Option<&'static RuleTable<'static>> {
    ALL.iter().copied().find(|t| t.name == name)
}

/// The text of each bundled rule file with its path in the repository, in listing
/// order (what `promo explain` reads to point at a statement).
pub const SOURCES: &[(&str, &str)] = &[
    (openvino::PATH, openvino::SOURCE),
    (kernel_float::PATH, kernel_float::SOURCE),
    (paddle::PATH, paddle::SOURCE),
    (dali::PATH, dali::SOURCE),
    (numpy::PATH, numpy::SOURCE),
    (torch::PATH, torch::SOURCE),
    (array_api::PATH, array_api::SOURCE),
    (tensorflow::PATH, tensorflow::SOURCE),
    (jax::PATH, jax::SOURCE),
    (keras::PATH, keras::SOURCE),
    (tinygrad::PATH, tinygrad::SOURCE),
    (mlx::PATH, mlx::SOURCE),
    (triton::PATH, triton::SOURCE),
    (mindspore::PATH, mindspore::SOURCE),
];
