use promo_core::rules::kernel_float::KernelFloat;
use promo_core::Promoted;

fn main() {
    let _: Option<Promoted<KernelFloat, i8, u8>> = None;
}
