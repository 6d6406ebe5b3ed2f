//! Every operand kind at the type level agrees with the run-time table: for each
//! marker type of every bundled rule set, every pair of operand types (each element
//! type as a tensor, `Scalar<T>`, `Weak<T>` where the rule set has weak types, and
//! the four Python kinds) has `Promote` exactly where the table answers with a dtype
//! that has a Rust type, with that dtype and weakness; where the table refuses or
//! answers a dtype without a Rust type (torch's `c32`), there is no usable impl.

use core::marker::PhantomData;
use promo_core::element::ELEMENT_DTYPES;
use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i2, i4, u2, u4};
use promo_core::operand_types::{OperandType, PyBool, PyComplex, PyFloat, PyInt, Scalar, Weak};
use promo_core::rules::{
    array_api::ArrayApi, dali::Dali, jax::Jax, jax::JaxX64, keras::Keras, kernel_float::KernelFloat,
    mindspore::MindSpore, mlx::Mlx, numpy::NumPy, openvino::OpenVino, openvino::OpenVinoPyTorch,
    openvino::OpenVinoPyTorchUnsafe, openvino::OpenVinoUnsafe, paddle::Paddle, paddle::PaddleStatic,
    tensorflow::TensorFlow, tinygrad::Tinygrad, torch::Torch, triton::Triton,
};
use promo_core::{bf16, f16, DType, Op, Operand, Options, Promote, Promoted, RuleSet, RuleTable};
use promo_table::Promotion;

#[allow(non_camel_case_types)]
type c64 = num_complex::Complex<f32>;
#[allow(non_camel_case_types)]
type c128 = num_complex::Complex<f64>;

/// One pair of operand types under one marker.
struct Probe<R, A, B>(PhantomData<(R, A, B)>);

/// Chosen where `R: Promote<A, B>` holds (method resolution takes the impl on
/// `Probe` before the one on `&Probe`).
trait Accepted {
    fn answer(&self) -> Option<Promotion>;
}
impl<R: Promote<A, B>, A: OperandType, B: OperandType> Accepted for Probe<R, A, B> {
    fn answer(&self) -> Option<Promotion> {
        Some(Promotion {
            dtype: DType::of::<Promoted<R, A, B>>(),
            weak: <R as Promote<A, B>>::WEAK,
        })
    }
}

/// Chosen where no impl holds: a refused pair, or one the rule set has no answer for.
trait NotAccepted {
    fn answer(&self) -> Option<Promotion>;
}
impl<R, A, B> NotAccepted for &Probe<R, A, B> {
    fn answer(&self) -> Option<Promotion> {
        None
    }
}

/// What the tally of one marker found.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    refused: usize,
    mismatches: Vec<String>,
}

impl Tally {
    /// Compares the type level's answer for `(a, b)` with the run-time table's. Not
    /// generic: one copy serves every pair, so the test compiles in seconds.
    fn check(
        &mut self,
        table: &RuleTable<'static>,
        options: &Options,
        a: Operand,
        b: Operand,
        typed: Option<Promotion>,
    ) {
        let runtime = table
            .promote_result(options, Op::Add, a, b)
            .ok()
            // A result with no Rust type has no type-level answer.
            .filter(|p| ELEMENT_DTYPES.contains(&p.dtype));
        if typed.is_some() {
            self.accepted += 1;
        } else {
            self.refused += 1;
        }
        if typed != runtime {
            self.mismatches.push(format!(
                "{} {a} {b}: type level {typed:?}, table {runtime:?}",
                table.name
            ));
        }
    }
}

/// Every pair of the listed operand types under marker `$r`, one function per row.
macro_rules! every_pair {
    ($r:ty; [$($a:ty),* $(,)?]; $bs:tt) => {{
        let mut tally = Tally::default();
        $( every_pair!(@row tally, $r, $a, $bs); )*
        assert!(
            tally.mismatches.is_empty(),
            "{} of {} pairs differ:\n{}",
            tally.mismatches.len(),
            tally.accepted + tally.refused,
            tally.mismatches.join("\n")
        );
        tally
    }};
    (@row $tally:ident, $r:ty, $a:ty, [$($b:ty),* $(,)?]) => {{
        fn row(tally: &mut Tally) {
            $( tally.check(
                <$r as RuleSet>::TABLE,
                &<$r as RuleSet>::OPTIONS,
                <$a as OperandType>::OPERAND,
                <$b as OperandType>::OPERAND,
                (&Probe::<$r, $a, $b>(PhantomData)).answer(),
            ); )*
        }
        row(&mut $tally);
    }};
}

/// Every element type as a tensor and as a rank-0 tensor, and the Python kinds.
macro_rules! strong_operands {
    ($m:ident!($($pre:tt)*)) => {
        $m!($($pre)* [
            bool, u8, u16, u32, u64, i8, i16, i32, i64, i2, u2, i4, u4, f16, bf16, f32, f64,
            f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, f4e2m1, c64, c128,
            Scalar<bool>, Scalar<u8>, Scalar<u16>, Scalar<u32>, Scalar<u64>, Scalar<i8>,
            Scalar<i16>, Scalar<i32>, Scalar<i64>, Scalar<i2>, Scalar<u2>, Scalar<i4>,
            Scalar<u4>, Scalar<f16>, Scalar<bf16>, Scalar<f32>, Scalar<f64>,
            Scalar<f8e4m3fn>, Scalar<f8e4m3fnuz>, Scalar<f8e5m2>, Scalar<f8e5m2fnuz>,
            Scalar<f8e8m0>, Scalar<f4e2m1>, Scalar<c64>, Scalar<c128>,
            PyBool, PyInt, PyFloat, PyComplex,
        ])
    };
}

/// [`strong_operands!`] and every element type as a weakly typed tensor.
macro_rules! all_operands {
    ($m:ident!($($pre:tt)*)) => {
        strong_operands!($m!($($pre)* [
            Weak<bool>, Weak<u8>, Weak<u16>, Weak<u32>, Weak<u64>, Weak<i8>, Weak<i16>,
            Weak<i32>, Weak<i64>, Weak<i2>, Weak<u2>, Weak<i4>, Weak<u4>, Weak<f16>,
            Weak<bf16>, Weak<f32>, Weak<f64>, Weak<f8e4m3fn>, Weak<f8e4m3fnuz>,
            Weak<f8e5m2>, Weak<f8e5m2fnuz>, Weak<f8e8m0>, Weak<f4e2m1>, Weak<c64>,
            Weak<c128>,
        ]))
    };
}

/// Joins two lists and checks every pair of the result.
macro_rules! square {
    ($r:ty; [$($x:ty),* $(,)?] [$($y:ty),* $(,)?]) => {
        square!($r; [$($x,)* $($y,)*])
    };
    ($r:ty; [$($x:ty),* $(,)?]) => {
        every_pair!($r; [$($x),*]; [$($x),*])
    };
}

/// Checks marker `$r` over the operand kinds its rule set takes.
macro_rules! agrees {
    (strong $r:ty) => {{
        let t = strong_operands!(square!($r;));
        assert!(t.accepted > 0, "{t:?}");
        t
    }};
    (weak $r:ty) => {{
        let t = all_operands!(square!($r;));
        assert!(t.accepted > 0, "{t:?}");
        t
    }};
}

#[test]
fn torch_numpy_and_array_api_operand_kinds_agree_with_their_tables() {
    let torch = agrees!(strong Torch);
    // A zero-dim f64 gives way to an f32 tensor; a Python float to an f16 one.
    let _: Promoted<Torch, f32, Scalar<f64>> = 1.0f32;
    let _: Promoted<Torch, f16, PyFloat> = f16::ONE;
    agrees!(strong NumPy);
    agrees!(strong ArrayApi);
    // Torch refuses float8 with complex, and uint16… with most dtypes.
    assert!(torch.accepted > 1000 && torch.refused > 1000, "{torch:?}");
}

#[test]
fn jax_and_tensorflow_operand_kinds_agree_with_their_tables() {
    let jax = agrees!(weak Jax);
    agrees!(weak JaxX64);
    agrees!(weak TensorFlow);
    const { assert!(<Jax as Promote<Weak<f32>, Weak<f32>>>::WEAK) };
    const { assert!(!<Jax as Promote<f32, Weak<f32>>>::WEAK) };
    assert!(jax.accepted > 1000 && jax.refused > 1000, "{jax:?}");
}

#[test]
fn openvino_paddle_dali_and_kernel_float_operand_kinds_agree_with_their_tables() {
    agrees!(strong OpenVino);
    agrees!(strong OpenVinoUnsafe);
    agrees!(strong OpenVinoPyTorch);
    agrees!(strong OpenVinoPyTorchUnsafe);
    agrees!(strong Paddle);
    agrees!(strong PaddleStatic);
    agrees!(strong Dali);
    agrees!(strong KernelFloat);
}

#[test]
fn triton_operand_kinds_agree_with_its_table() {
    let triton = agrees!(strong Triton);
    // An inline Python int of a lower or equal kind takes no part; a typed scalar does.
    let _: Promoted<Triton, i8, PyInt> = 1i8;
    let _: Promoted<Triton, i8, Scalar<i32>> = 1i32;
    assert!(triton.accepted > 100 && triton.refused > 100, "{triton:?}");
}

#[test]
fn keras_tinygrad_and_mlx_operand_kinds_agree_with_their_tables() {
    agrees!(weak Keras);
    let tinygrad = agrees!(weak Tinygrad);
    agrees!(weak Mlx);
    // tinygrad keeps a Python float weak on the tensor it meets; MLX does not.
    const { assert!(<Tinygrad as Promote<i32, PyFloat>>::WEAK) };
    const { assert!(!<Mlx as Promote<i32, PyFloat>>::WEAK) };
    assert!(tinygrad.accepted > 100, "{tinygrad:?}");
}

#[test]
fn mindspore_operand_kinds_agree_with_its_table() {
    let mindspore = agrees!(weak MindSpore);
    // A zero-dim f64 does not give way to an f32 tensor (PyTorch's does); a Python int
    // with a bool tensor is i64, strong; u16 with u8 has no impl.
    let _: Promoted<MindSpore, f32, Scalar<f64>> = 1.0f64;
    let _: Promoted<MindSpore, bool, PyInt> = 1i64;
    const { assert!(!<MindSpore as Promote<bool, PyInt>>::WEAK) };
    assert!(
        mindspore.accepted > 100 && mindspore.refused > 100,
        "{mindspore:?}"
    );
}
