promo_macros::rules!("./rules/unknown_dtype.toml");

fn main() {}
