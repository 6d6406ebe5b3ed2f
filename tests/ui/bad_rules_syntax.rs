promo_macros::rules!("tests/ui/rules/syntax.toml");

fn main() {}
