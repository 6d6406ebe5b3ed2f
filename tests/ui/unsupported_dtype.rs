use promo_core::narrow::u4;
use promo_core::rules::kernel_float::KernelFloat;
use promo_core::Promoted;

fn main() {
    let _: Option<Promoted<KernelFloat, u4, u8>> = None;
}
