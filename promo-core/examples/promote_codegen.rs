//! Generic code over `Promote` next to its hand-written twin, for comparing the
//! machine code rustc emits (`tools/asm_compare.sh` diffs the two functions).

use core::ops::Add;
use promo_core::rules::kernel_float::KernelFloat;
use promo_core::{Promote, Promoted};

/// Adds two slices element-wise in the type `R` promotes them to.
#[inline(never)]
pub fn add_promoted<R, A, B>(a: &[A], b: &[B], out: &mut [Promoted<R, A, B>])
where
    A: promo_core::Element,
    B: promo_core::Element,
    R: Promote<A, B>,
    Promoted<R, A, B>: From<A> + From<B> + Add<Output = Promoted<R, A, B>>,
{
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = Promoted::<R, A, B>::from(x) + Promoted::<R, A, B>::from(y);
    }
}

/// The same for `i32` with `i16`, written by hand.
#[inline(never)]
#[no_mangle]
pub fn add_i32_i16_by_hand(a: &[i32], b: &[i16], out: &mut [i32]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = x + i32::from(y);
    }
}

/// The generic function at one concrete pair.
#[inline(never)]
#[no_mangle]
pub fn add_i32_i16_generic(a: &[i32], b: &[i16], out: &mut [i32]) {
    add_promoted::<KernelFloat, i32, i16>(a, b, out)
}

fn main() {
    let a: Vec<i32> = (0..1000).collect();
    let b: Vec<i16> = (0..1000).map(|x| x as i16).collect();
    let (mut p, mut q) = (vec![0; 1000], vec![0; 1000]);
    add_i32_i16_generic(&a, &b, &mut p);
    add_i32_i16_by_hand(&a, &b, &mut q);
    assert_eq!(p, q);
    println!("generic and hand-written agree on {} elements", p.len());
}
