//! Operations other than `add` at the type level: `PromotedOp<R, Op, A, B>` names
//! the result of a division, a comparison, a bitwise operation, and agrees with
//! the run-time table on every pair listed (the pairs each rule set accepts).

use promo_core::op_types::{BitwiseAnd, Divide, Equal, LessThan, Multiply, Subtract};
use promo_core::rules::dali::Dali;
use promo_core::rules::openvino::OpenVino;
use promo_core::rules::paddle::{Paddle, PaddleStatic};
#[allow(non_camel_case_types)]
type c64 = num_complex::Complex<f32>;
#[allow(non_camel_case_types)]
type c128 = num_complex::Complex<f64>;
use promo_core::{bf16, f16, DType, Element, OpType, PromoteOp, PromotedOp, RuleSet};

/// The type-level result of `O` on `A` and `B` is the run-time table's.
fn check<R: RuleSet + PromoteOp<O, A, B>, O: OpType, A: Element, B: Element>() -> usize {
    let got = DType::of::<PromotedOp<R, O, A, B>>();
    let want = R::promote(O::OP, DType::of::<A>(), DType::of::<B>());
    assert_eq!(
        Ok(got),
        want,
        "{} {} {} {}",
        R::TABLE.name,
        O::OP,
        DType::of::<A>(),
        DType::of::<B>()
    );
    1
}

/// Checks every pair of the row types with the column types.
macro_rules! agree {
    ($r:ty, $op:ty; [$($a:ty),*] x $bs:tt) => {{
        0 $( + agree!(@row $r, $op, $a, $bs) )*
    }};
    (@row $r:ty, $op:ty, $a:ty, [$($b:ty),*]) => {
        0 $( + check::<$r, $op, $a, $b>() )*
    };
}

#[test]
fn divisions_follow_the_divide_rules() {
    // DALI: `/` of integers (and bool) gives f32, floats keep the float rule.
    let n = agree!(Dali, Divide; [u8, u16, u32, u64, i8, i16, i32, i64, f32, f64] x [bool, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64]);
    assert_eq!(n, 110);
    assert_eq!(DType::of::<PromotedOp<Dali, Divide, i32, i32>>(), DType::F32);
    // Paddle: integer / integer of one dtype gives f32 as well; complex wins.
    let n = agree!(Paddle, Divide; [u8, i8, i16, i32, i64, f32, f64, c64, c128] x [c64, c128]);
    let m = agree!(Paddle, Divide; [f32, f64] x [f16, bf16, f32, f64]);
    let k = agree!(Paddle, Divide; [i32] x [i32]) + agree!(Paddle, Divide; [bool] x [bool]);
    assert_eq!(n + m + k, 28);
    let _: PromotedOp<Paddle, Divide, i32, i32> = 1.0f32;
    let _: PromotedOp<PaddleStatic, Divide, i64, i64> = 1.0f32;
}

#[test]
fn comparisons_give_bool() {
    let n = agree!(Dali, Equal; [bool, u8, i64, f32, f64] x [bool, u16, i8, f64]);
    let m = agree!(Dali, LessThan; [u32, f32] x [i16, f64]);
    let k = agree!(Paddle, Equal; [f16, bf16, f32, f64] x [f16, bf16, f32, f64]);
    assert_eq!(n + m + k, 40);
    let _: PromotedOp<Paddle, LessThan, i64, i64> = true;
}

#[test]
fn other_operations_forward_to_their_equals() {
    // Operations answering as `add` forward to `Promote`; others with one table share it.
    let n = agree!(Dali, Subtract; [u8, i8, f32] x [u16, i16, f64]);
    let m = agree!(Dali, Multiply; [bool, u8] x [bool, i8]);
    let k = agree!(Dali, BitwiseAnd; [bool, u8, i64] x [bool, u64, i8]);
    assert_eq!(n + m + k, 22);
    assert_eq!(DType::of::<PromotedOp<Dali, Multiply, bool, bool>>(), DType::Bool);
    // An op-independent rule set answers every operation as `add`.
    let o = agree!(OpenVino, Divide; [i8, f16, f32] x [i8, f32]);
    assert_eq!(o, 6);
}
