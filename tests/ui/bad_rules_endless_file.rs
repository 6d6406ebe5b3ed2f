promo_macros::rules!("/dev/zero");

fn main() {}
