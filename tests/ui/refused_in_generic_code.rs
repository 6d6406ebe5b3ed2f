use promo_core::cast::CastFrom;
use promo_core::rules::openvino::OpenVino;
use promo_core::{promote_pair, Element, Promote, Promoted};

/// A generic kernel: both operands in the promoted type, then added.
fn add<R, A, B>(a: A, b: B) -> Promoted<R, A, B>
where
    A: Element,
    B: Element,
    R: Promote<A, B>,
    Promoted<R, A, B>: CastFrom<A> + CastFrom<B> + core::ops::Add<Output = Promoted<R, A, B>>,
{
    let (x, y) = promote_pair::<R, A, B>(a, b);
    x + y
}

fn main() {
    let _ = add::<OpenVino, i8, u8>(-1, 2);
}
