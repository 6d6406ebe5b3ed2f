promo_macros::rules!("./rules/no_unique_lub.toml");

fn main() {}
