promo_macros::rules!("tests/ui/rules/missing_cell.toml");

fn main() {}
