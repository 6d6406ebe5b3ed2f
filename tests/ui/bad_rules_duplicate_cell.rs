promo_macros::rules!("./rules/duplicate_cell.toml");

fn main() {}
