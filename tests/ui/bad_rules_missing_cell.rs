promo_macros::rules!("./rules/missing_cell.toml");

fn main() {}
