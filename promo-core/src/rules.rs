//! The bundled rule sets, generated from `rules/*.toml` at compile time.

promo_macros::rules!("rules/kernel_float.toml");
