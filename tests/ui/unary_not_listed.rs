use promo_core::op_types::{Add, Sqrt};
use promo_core::rules::kernel_float::KernelFloat;
use promo_core::rules::torch::Torch;
use promo_core::Unary;

fn main() {
    // kernel_float defines binary promotion only.
    let _: Option<Unary<KernelFloat, Sqrt, f32>> = None;
    // `add` takes two operands.
    let _: Option<Unary<Torch, Add, f32>> = None;
}
