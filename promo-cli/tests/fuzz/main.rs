//! The promo command's fuzz targets, in one test binary so that they share the
//! CPUs: `promo gen`'s text fields ([`gen`]), `promo query --stdin` lines
//! ([`query`]) and rule files written by a structure-aware generator
//! ([`rule_language`]). Each runs for its budget (`PROMO_FUZZ_SECONDS`, and
//! `PROMO_FUZZ_SEED`, as in `tests/fuzz.rs`).

#[path = "../../../tests/fuzz_support.rs"]
mod fuzz_support;
#[path = "../support/mod.rs"]
mod support;

mod gen;
mod query;
mod rule_language;
