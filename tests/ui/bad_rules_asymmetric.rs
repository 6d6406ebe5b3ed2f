promo_macros::rules!("tests/ui/rules/asymmetric.toml");

fn main() {}
