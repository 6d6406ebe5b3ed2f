promo_macros::rules!("./rules/keywords.toml");

fn main() {}
