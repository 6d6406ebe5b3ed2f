promo_macros::rules!("./rules/asymmetric.toml");

fn main() {}
