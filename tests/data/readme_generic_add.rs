use promo_core::compute::{Arithmetic, PromoteArith};
use promo_core::Element;

/// `a + b`, computed in the type rule set `R` promotes `A` and `B` to.
fn add<R: PromoteArith<A, B>, A: Element, B: Element>(a: A, b: B) -> R::Common {
    let (x, y) = R::convert(a, b);
    x.add(y)
}
