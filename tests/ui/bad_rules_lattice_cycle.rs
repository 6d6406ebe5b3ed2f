promo_macros::rules!("./rules/lattice_cycle.toml");

fn main() {}
