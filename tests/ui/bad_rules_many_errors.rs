promo_macros::rules!("./rules/many_errors.toml");

fn main() {}
