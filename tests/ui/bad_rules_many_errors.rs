promo_macros::rules!("tests/ui/rules/many_errors.toml");

fn main() {}
