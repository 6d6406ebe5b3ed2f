promo_macros::rules!("./rules/syntax.toml");

fn main() {}
