use promo_core::op_types::Mean;
use promo_core::rules::torch::Torch;
use promo_core::Reduced;

fn main() {
    // PyTorch refuses the mean of an integer tensor.
    let _: Option<Reduced<Torch, Mean, i32>> = None;
}
