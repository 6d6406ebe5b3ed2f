//! A crate outside the promo workspace that depends on promo-core, built by
//! `.ci/external` by path, by git and from the packaged `.crate` files.

use promo_core::rules::kernel_float::KernelFloat;
use promo_core::rules::openvino::OpenVinoUnsafe;
use promo_core::{promote, rules, DType, Element, Promote, Promoted};

/// Generic code: the result type of `a + b` is whatever the rule set says.
fn result_dtype<R: Promote<A, B>, A: Element, B: Element>() -> DType {
    DType::of::<Promoted<R, A, B>>()
}

fn main() {
    let sum: Promoted<OpenVinoUnsafe, i8, u8> = 300i16;
    println!("openvino unsafe i8 + u8 -> {} (value {sum})", result_dtype::<OpenVinoUnsafe, i8, u8>());
    println!("kernel_float i32 + f16 -> {}", result_dtype::<KernelFloat, i32, promo_core::f16>());
    for (a, b) in [(DType::F16, DType::BF16), (DType::I8, DType::U8)] {
        match promote(&rules::kernel_float::TABLE, a, b) {
            Ok(d) => println!("kernel_float {a} + {b} -> {d}"),
            Err(refusal) => println!("kernel_float {a} + {b} refused: {refusal}"),
        }
    }
}
