//! One-operand operations at the type level agree with the run-time table: for each
//! marker type of every bundled rule set that lists unary operations and
//! reductions, every such operation on a tensor of every element type has
//! `PromoteOne` exactly where `RuleTable::apply` answers with a result and a compute
//! dtype that have Rust types, with those types (`Unary`, `Reduced`, `ComputedIn`);
//! where the table refuses, there is no usable impl. `matmul` is `PromotedOp`.

use core::marker::PhantomData;
use promo_core::element::ELEMENT_DTYPES;
use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i2, i4, u2, u4};
use promo_core::op_types::*;
use promo_core::rules::{
    array_api::ArrayApi, jax::Jax, jax::JaxX64, keras::Keras, mindspore::MindSpore, mlx::Mlx, numpy::NumPy,
    paddle::Paddle, paddle::PaddleStatic, tensorflow::TensorFlow, tinygrad::Tinygrad, torch::Torch,
};
use promo_core::{
    bf16, f16, ComputedIn, DType, Element, Op, OpType, Operand, PromoteOne, PromotedOp, Reduced, RuleSet,
    Unary,
};
use promo_table::{Arity, OpKind};

#[allow(non_camel_case_types)]
type c64 = num_complex::Complex<f32>;
#[allow(non_camel_case_types)]
type c128 = num_complex::Complex<f64>;

/// One operation on one element type under one marker.
struct Probe<R, O, A>(PhantomData<(R, O, A)>);

/// Chosen where `R: PromoteOne<O, A>` holds (method resolution takes the impl on
/// `Probe` before the one on `&Probe`).
trait Accepted {
    fn answer(&self) -> Option<(DType, DType)>;
}
impl<R: PromoteOne<O, A>, O: OpType, A: Element> Accepted for Probe<R, O, A> {
    fn answer(&self) -> Option<(DType, DType)> {
        Some((DType::of::<Unary<R, O, A>>(), DType::of::<ComputedIn<R, O, A>>()))
    }
}

/// Chosen where no impl holds: a refusal, or no answer.
trait NotAccepted {
    fn answer(&self) -> Option<(DType, DType)>;
}
impl<R, O, A> NotAccepted for &Probe<R, O, A> {
    fn answer(&self) -> Option<(DType, DType)> {
        None
    }
}

/// What the tally of one marker found.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    refused: usize,
    /// Operations of one operand the rule set lists, each counted once.
    ops: Vec<Op>,
    mismatches: Vec<String>,
}

impl Tally {
    /// Compares the type level's answer for `op` of `d` with the run-time table's.
    /// Not generic: one copy serves every probe.
    fn check<R: RuleSet>(&mut self, op: Op, d: DType, typed: Option<(DType, DType)>) {
        if R::TABLE.supports(op) && !self.ops.contains(&op) {
            self.ops.push(op);
        }
        let runtime = R::TABLE
            .apply(&R::OPTIONS, op, &[Operand::Dimensioned(d)], None)
            .ok()
            .map(|o| (o.result.dtype, o.compute))
            // A dtype with no Rust type has no type-level answer.
            .filter(|(r, c)| ELEMENT_DTYPES.contains(r) && ELEMENT_DTYPES.contains(c));
        if typed.is_some() {
            self.accepted += 1;
        } else {
            self.refused += 1;
        }
        if typed != runtime {
            self.mismatches.push(format!(
                "{} {op} {d}: type level {typed:?}, table {runtime:?}",
                R::TABLE.name
            ));
        }
    }
}

/// Operation `$o` on every listed element type under marker `$r`, one function per
/// operation.
macro_rules! every_op {
    (@op $tally:ident, $r:ty, $o:ty, [$($a:ty),* $(,)?]) => {{
        fn op(tally: &mut Tally) {
            $( tally.check::<$r>(<$o as OpType>::OP, DType::of::<$a>(), (&Probe::<$r, $o, $a>(PhantomData)).answer()); )*
        }
        op(&mut $tally);
    }};
}

/// The probes of the one-operand operations among `Variant: Kind` rows (as
/// `promo_table::for_each_op!` lists the vocabulary): unary operations and
/// reductions, each on every element type.
macro_rules! one_operand_ops {
    ([$tally:ident, $r:ty] $($op:ident: $kind:ident,)*) => {
        $( one_operand_ops!(@kind $kind, $tally, $r, $op); )*
    };
    (@kind Unary, $tally:ident, $r:ty, $op:ident) => {
        one_operand_ops!(@probe $tally, $r, $op);
    };
    (@kind Reduction, $tally:ident, $r:ty, $op:ident) => {
        one_operand_ops!(@probe $tally, $r, $op);
    };
    (@kind $other:ident, $tally:ident, $r:ty, $op:ident) => {};
    (@probe $tally:ident, $r:ty, $op:ident) => {
        every_op!(@op $tally, $r, $op, [
            bool, u8, u16, u32, u64, i8, i16, i32, i64, i2, u2, i4, u4, f16, bf16, f32, f64,
            f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, f4e2m1, c64, c128,
        ])
    };
}

/// Every one-operand operation of the vocabulary on every element type, under `$r`.
macro_rules! agrees {
    ($r:ty) => {{
        let mut tally = Tally::default();
        promo_table::for_each_op!(one_operand_ops, [tally, $r]);
        assert!(
            tally.mismatches.is_empty(),
            "{} of {} differ:\n{}",
            tally.mismatches.len(),
            tally.accepted + tally.refused,
            tally.mismatches.join("\n")
        );
        tally
    }};
}

/// Every one-operand operation the rule set lists (a new one missing from
/// [`agrees!`] fails here) was probed, and some answered.
fn check_all(tally: Tally, r: &promo_core::RuleTable<'static>) {
    let listed = Op::ALL
        .iter()
        .filter(|&&o| {
            r.supports(o) && matches!(o.arity(), Arity::One) && !matches!(o.kind(), OpKind::ReductionDtype(_))
        })
        .count();
    assert_eq!(tally.ops.len(), listed, "{}: {tally:?}", r.name);
    assert!(tally.accepted > 100, "{}: {tally:?}", r.name);
}

#[test]
fn numpy_torch_and_jax_agree_with_their_tables() {
    check_all(agrees!(NumPy), NumPy::TABLE);
    check_all(agrees!(Torch), Torch::TABLE);
    check_all(agrees!(Jax), Jax::TABLE);
    check_all(agrees!(JaxX64), JaxX64::TABLE);
    // The questions of docs/operations.md, named.
    let _: Unary<NumPy, Sqrt, i8> = f16::ONE;
    let _: Unary<NumPy, Sqrt, i64> = 1.0f64;
    let _: Unary<Torch, Sqrt, i64> = 1.0f32;
    let _: Unary<JaxX64, Sqrt, i64> = 1.0f64;
    let _: Reduced<Torch, Any, u8> = 1u8;
    let _: Reduced<Torch, All, u8> = 1u8;
    let _: Reduced<NumPy, Any, u8> = true;
    let _: Reduced<Jax, Cumsum, i8> = 1i8;
    let _: Reduced<NumPy, Mean, i32> = 1.0f64;
    let _: Reduced<Jax, Mean, i32> = 1.0f32;
    let _: ComputedIn<Jax, Sum, f16> = 1.0f32;
    let _: PromotedOp<NumPy, Matmul, f16, bf16> = 1.0f32;
    let _: PromotedOp<Jax, Matmul, f16, bf16> = 1.0f32;
}

#[test]
fn the_other_rule_sets_agree_with_their_tables() {
    check_all(agrees!(ArrayApi), ArrayApi::TABLE);
    check_all(agrees!(TensorFlow), TensorFlow::TABLE);
    check_all(agrees!(Mlx), Mlx::TABLE);
    check_all(agrees!(Keras), Keras::TABLE);
    check_all(agrees!(Tinygrad), Tinygrad::TABLE);
    check_all(agrees!(Paddle), Paddle::TABLE);
    check_all(agrees!(PaddleStatic), PaddleStatic::TABLE);
    let t = agrees!(MindSpore);
    assert_eq!(t.accepted, 0, "MindSpore lists no one-operand operation: {t:?}");
}

/// `matmul` is a `PromotedOp` of two operands, as the table answers it.
#[test]
fn matmul_agrees_with_the_table() {
    fn check<R: RuleSet + promo_core::PromoteOp<Matmul, A, B>, A: Element, B: Element>() {
        let want = R::TABLE.apply(
            &R::OPTIONS,
            Op::Matmul,
            &[DType::of::<A>().into(), DType::of::<B>().into()],
            None,
        );
        assert_eq!(
            Ok(DType::of::<PromotedOp<R, Matmul, A, B>>()),
            want.map(|o| o.result.dtype)
        );
    }
    check::<NumPy, f16, bf16>();
    check::<Jax, f16, bf16>();
    check::<Torch, f16, f16>();
    check::<NumPy, i8, u8>();
    check::<TensorFlow, f32, f32>();
}
