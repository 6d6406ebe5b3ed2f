promo_macros::rules!("./rules/not_associative.toml");

fn main() {}
