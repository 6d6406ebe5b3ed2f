promo_macros::rules!("tests/ui/rules/unknown_dtype.toml");

fn main() {}
