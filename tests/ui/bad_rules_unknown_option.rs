promo_macros::rules!("./rules/unknown_option.toml");

fn main() {}
