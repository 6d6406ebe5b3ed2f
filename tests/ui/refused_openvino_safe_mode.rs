use promo_core::rules::openvino::{OpenVino, OpenVinoUnsafe};
use promo_core::Promoted;

fn main() {
    // promote_unsafe = true: i8 with u8 widens to i16.
    let _: Promoted<OpenVinoUnsafe, i8, u8> = 0i16;
    // The default, promote_unsafe = false, refuses it.
    let _: Option<Promoted<OpenVino, i8, u8>> = None;
}
