//! The README's generic `add` (tests/data/readme_generic_add.rs, which the README
//! shows verbatim) compiles and runs for every pair of element types that every
//! marker of every bundled rule set accepts: wherever `R: Promote<A, B>` holds,
//! `R: PromoteArith<A, B>` holds too, and `add::<R, A, B>(1, 1)` is 2 in the promoted
//! type, computed independently as the cast of the exact sum.

use core::fmt::Debug;
use core::marker::PhantomData;
use promo_core::cast::{CastFrom, CastOptions};
use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i2, i4, u2, u4};
use promo_core::rules::{
    array_api::ArrayApi, dali::Dali, jax::Jax, jax::JaxX64, keras::Keras, kernel_float::KernelFloat,
    mindspore::MindSpore, mlx::Mlx, numpy::NumPy, openvino::OpenVino, openvino::OpenVinoPyTorch,
    openvino::OpenVinoPyTorchUnsafe, openvino::OpenVinoUnsafe, paddle::Paddle, paddle::PaddleStatic,
    tensorflow::TensorFlow, tinygrad::Tinygrad, torch::Torch, triton::Triton,
};
use promo_core::{bf16, f16, DType, Promote, Promoted, RuleSet};

include!("../data/readme_generic_add.rs");

#[allow(non_camel_case_types)]
type c64 = num_complex::Complex<f32>;
#[allow(non_camel_case_types)]
type c128 = num_complex::Complex<f64>;

/// One pair of element types under one marker.
struct Probe<R, A, B>(PhantomData<(R, A, B)>);

/// What running the README's `add` on one pair gave.
#[derive(Debug)]
struct Ran {
    dtype: DType,
    /// `add(1, 1)` equals 2 cast to the promoted type.
    sum_is_two: bool,
    /// Both operands (1) cast to the promoted type equal 1 cast to it.
    converted: bool,
}

/// Chosen where the README's bound holds: runs `add`.
trait Runs {
    fn run(&self) -> Option<Ran>;
}
impl<R, A, B> Runs for Probe<R, A, B>
where
    R: PromoteArith<A, B>,
    A: Element + CastFrom<f64>,
    B: Element + CastFrom<f64>,
    R::Common: PartialEq + Debug + CastFrom<f64>,
{
    fn run(&self) -> Option<Ran> {
        let o = CastOptions::default();
        let (one_a, one_b) = (A::cast_from(1.0, &o), B::cast_from(1.0, &o));
        let sum = add::<R, A, B>(one_a, one_b);
        let (x, y) = R::convert(one_a, one_b);
        let one = <R::Common as CastFrom<f64>>::cast_from(1.0, &o);
        Some(Ran {
            dtype: DType::of::<R::Common>(),
            sum_is_two: sum == <R::Common as CastFrom<f64>>::cast_from(2.0, &o),
            converted: x == one && y == one,
        })
    }
}
/// Chosen where it does not.
trait DoesNotRun {
    fn run(&self) -> Option<Ran>;
}
impl<R, A, B> DoesNotRun for &Probe<R, A, B> {
    fn run(&self) -> Option<Ran> {
        None
    }
}

/// Chosen where `R: Promote<A, B>` holds: the promoted dtype.
trait Accepted {
    fn promoted(&self) -> Option<DType>;
}
impl<R: Promote<A, B>, A: Element, B: Element> Accepted for Probe<R, A, B> {
    fn promoted(&self) -> Option<DType> {
        Some(DType::of::<Promoted<R, A, B>>())
    }
}
/// Chosen where it does not.
trait NotAccepted {
    fn promoted(&self) -> Option<DType>;
}
impl<R, A, B> NotAccepted for &Probe<R, A, B> {
    fn promoted(&self) -> Option<DType> {
        None
    }
}

#[derive(Default, Debug)]
struct Tally {
    ran: usize,
    refused: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check<R: RuleSet>(&mut self, pair: &str, promoted: Option<DType>, ran: Option<Ran>) {
        let name = R::TABLE.name;
        match (promoted, ran) {
            (None, None) => self.refused += 1,
            (Some(d), None) => self.failures.push(format!(
                "{name} {pair}: promotes to {d} but `add` does not compile"
            )),
            (None, Some(r)) => self
                .failures
                .push(format!("{name} {pair}: `add` runs ({r:?}) without `Promote`")),
            (Some(d), Some(r)) => {
                self.ran += 1;
                if r.dtype != d || !r.sum_is_two || !r.converted {
                    self.failures
                        .push(format!("{name} {pair}: promoted {d}, ran {r:?}"));
                }
            }
        }
    }
}

macro_rules! every_pair {
    ($r:ty; [$($a:ty),* $(,)?]; $bs:tt) => {{
        let mut tally = Tally::default();
        $( every_pair!(@row tally, $r, $a, $bs); )*
        tally
    }};
    (@row $tally:ident, $r:ty, $a:ty, [$($b:ty),* $(,)?]) => {{
        fn row(tally: &mut Tally) {
            $(
                let probe = &Probe::<$r, $a, $b>(PhantomData);
                tally.check::<$r>(
                    concat!(stringify!($a), " + ", stringify!($b)),
                    probe.promoted(),
                    probe.run(),
                );
            )*
        }
        row(&mut $tally);
    }};
}

macro_rules! elements {
    ($m:ident!($($pre:tt)*)) => {
        $m!($($pre)* [
            bool, u8, u16, u32, u64, i8, i16, i32, i64, i2, u2, i4, u4, f16, bf16, f32, f64,
            f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, f4e2m1, c64, c128,
        ])
    };
}

macro_rules! square {
    ($r:ty; $list:tt) => {
        every_pair!($r; $list; $list)
    };
}

/// Every pair of element types under each marker; fails listing every pair whose
/// `add` does not compile or gives the wrong answer.
macro_rules! every_marker {
    ($($r:ty),*) => {{
        let mut failures = Vec::new();
        let mut ran = 0;
        $(
            let t = elements!(square!($r;));
            assert!(t.ran > 0, "{}: no pair ran", stringify!($r));
            ran += t.ran;
            failures.extend(t.failures);
        )*
        assert!(failures.is_empty(), "{} pairs fail:\n{}", failures.len(), failures.join("\n"));
        ran
    }};
}

#[test]
fn readme_generic_add_runs_for_every_accepted_pair_of_every_rule_set() {
    let ran = every_marker!(
        Torch,
        NumPy,
        ArrayApi,
        Jax,
        JaxX64,
        TensorFlow,
        OpenVino,
        OpenVinoUnsafe,
        OpenVinoPyTorch,
        OpenVinoPyTorchUnsafe,
        Paddle,
        PaddleStatic,
        Dali,
        KernelFloat,
        Keras,
        Tinygrad,
        Mlx,
        Triton,
        MindSpore
    );
    // 19 markers of up to 625 pairs each; most accept a few hundred.
    eprintln!("the generic add ran for {ran} pairs");
    // Triton adds 217 to 3,989, MindSpore 152.
    assert_eq!(ran, 4358, "the number of accepted element-type pairs changed");
}

#[test]
fn the_readme_shows_the_generic_add_verbatim() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let example = include_str!("../data/readme_generic_add.rs");
    assert!(
        readme.contains(example),
        "README's generic example differs from tests/data/readme_generic_add.rs"
    );
}

#[test]
fn bool_integer_and_narrow_arithmetic_is_the_frameworks() {
    // Saturating bool (NumPy and PyTorch: True + True is True).
    assert!(add::<Torch, bool, bool>(true, true));
    assert!(!<bool as Arithmetic>::sub(true, true));
    // NumPy wraps uint8.
    assert_eq!(add::<NumPy, u8, u8>(200, 100), 44);
    // i4 wraps in four bits: 7 + 1 is -8.
    assert_eq!(
        add::<NumPy, i4, i4>(i4::wrapping_from(7), i4::wrapping_from(1)).get(),
        -8
    );
    // Torch: i32 with f16 is f16, and 2049 is not an f16.
    assert_eq!(add::<Torch, i32, f16>(2049, f16::ZERO), f16::from_f32(2048.0));
    // f8e8m0 (ml_dtypes float8_e8m0fnu): 2 + 4 = 6 rounds to 8; 4 - 4 has no code.
    let e = |x: f32| f8e8m0::from_f32(x);
    assert_eq!(Arithmetic::add(e(2.0), e(4.0)).to_f32(), 8.0);
    assert!(Arithmetic::sub(e(4.0), e(4.0)).is_nan());
    // Complex from a real operand: the imaginary part is zero.
    let z = add::<NumPy, i8, c64>(3, c64::new(0.5, 2.0));
    assert_eq!(z, c64::new(3.5, 2.0));
}
