use promo_core::narrow::f8e4m3fn;
use promo_core::operand_types::PyComplex;
use promo_core::rules::torch::Torch;
use promo_core::Promoted;

fn main() {
    // A Python complex with a float8 tensor: torch has no complex float8.
    let _: Option<Promoted<Torch, f8e4m3fn, PyComplex>> = None;
}
