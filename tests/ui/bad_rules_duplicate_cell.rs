promo_macros::rules!("tests/ui/rules/duplicate_cell.toml");

fn main() {}
