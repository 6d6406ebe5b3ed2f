//! The bundled rule sets, generated from `rules/*.toml` at compile time.
//!
//! Each module holds the marker types (one per mode), the `const TABLE` for run-time
//! lookups, and the [`Promote`](crate::Promote) impls. Each is built only with its
//! cargo feature, named as the module is (all of them by default, feature
//! `all-rules`); [`ALL`] and [`SOURCES`] list the ones built.

use promo_table::RuleTable;

#[cfg(feature = "openvino")]
promo_macros::rules!("rules/openvino.toml");
#[cfg(feature = "kernel_float")]
promo_macros::rules!("rules/kernel_float.toml");
#[cfg(feature = "paddle")]
promo_macros::rules!("rules/paddle.toml");
#[cfg(feature = "dali")]
promo_macros::rules!("rules/dali.toml");
#[cfg(feature = "numpy")]
promo_macros::rules!("rules/numpy.toml");
#[cfg(feature = "torch")]
promo_macros::rules!("rules/torch.toml");
#[cfg(feature = "array_api")]
promo_macros::rules!("rules/array_api.toml");
#[cfg(feature = "tensorflow")]
promo_macros::rules!("rules/tensorflow.toml");
#[cfg(feature = "jax")]
promo_macros::rules!("rules/jax.toml");
#[cfg(feature = "keras")]
promo_macros::rules!("rules/keras.toml");
#[cfg(feature = "tinygrad")]
promo_macros::rules!("rules/tinygrad.toml");
#[cfg(feature = "mlx")]
promo_macros::rules!("rules/mlx.toml");
#[cfg(feature = "triton")]
promo_macros::rules!("rules/triton.toml");
#[cfg(feature = "mindspore")]
promo_macros::rules!("rules/mindspore.toml");

/// Every bundled rule set's table that this build has (its feature on), in listing
/// order.
pub const ALL: &[&RuleTable<'static>] = &[
    #[cfg(feature = "openvino")]
    &openvino::TABLE,
    #[cfg(feature = "kernel_float")]
    &kernel_float::TABLE,
    #[cfg(feature = "paddle")]
    &paddle::TABLE,
    #[cfg(feature = "dali")]
    &dali::TABLE,
    #[cfg(feature = "numpy")]
    &numpy::TABLE,
    #[cfg(feature = "torch")]
    &torch::TABLE,
    #[cfg(feature = "array_api")]
    &array_api::TABLE,
    #[cfg(feature = "tensorflow")]
    &tensorflow::TABLE,
    #[cfg(feature = "jax")]
    &jax::TABLE,
    #[cfg(feature = "keras")]
    &keras::TABLE,
    #[cfg(feature = "tinygrad")]
    &tinygrad::TABLE,
    #[cfg(feature = "mlx")]
    &mlx::TABLE,
    #[cfg(feature = "triton")]
    &triton::TABLE,
    #[cfg(feature = "mindspore")]
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
    #[cfg(feature = "openvino")]
    (openvino::PATH, openvino::SOURCE),
    #[cfg(feature = "kernel_float")]
    (kernel_float::PATH, kernel_float::SOURCE),
    #[cfg(feature = "paddle")]
    (paddle::PATH, paddle::SOURCE),
    #[cfg(feature = "dali")]
    (dali::PATH, dali::SOURCE),
    #[cfg(feature = "numpy")]
    (numpy::PATH, numpy::SOURCE),
    #[cfg(feature = "torch")]
    (torch::PATH, torch::SOURCE),
    #[cfg(feature = "array_api")]
    (array_api::PATH, array_api::SOURCE),
    #[cfg(feature = "tensorflow")]
    (tensorflow::PATH, tensorflow::SOURCE),
    #[cfg(feature = "jax")]
    (jax::PATH, jax::SOURCE),
    #[cfg(feature = "keras")]
    (keras::PATH, keras::SOURCE),
    #[cfg(feature = "tinygrad")]
    (tinygrad::PATH, tinygrad::SOURCE),
    #[cfg(feature = "mlx")]
    (mlx::PATH, mlx::SOURCE),
    #[cfg(feature = "triton")]
    (triton::PATH, triton::SOURCE),
    #[cfg(feature = "mindspore")]
    (mindspore::PATH, mindspore::SOURCE),
];
