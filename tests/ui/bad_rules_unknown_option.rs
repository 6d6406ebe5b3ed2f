promo_macros::rules!("tests/ui/rules/unknown_option.toml");

fn main() {}
