//! The narrow types as numbers: arithmetic on every pair of values of every format,
//! the lossless `From` widenings against `can_cast`, `Neg`, `total_cmp` and the
//! 4-bit integer conversions, and what `half` gives `f16` (the IEEE predicates, `abs`,
//! `signum`, `min`/`max`, `classify`, `num_traits::Float`) against `f32` on every code.

use promo_core::narrow::{
    f4e2m1, f6e2m3fn, f6e3m2fn, f8e3m4, f8e4m3, f8e4m3b11fnuz, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz,
    f8e8m0, i4, u4, Format, Minifloat,
};
use promo_core::{bf16, f16};
use promo_core::{can_cast, Casting, Element};
use std::cmp::Ordering;

fn all<F: Format>() -> Vec<Minifloat<F>> {
    (0..1u32 << F::SPEC.bits())
        .map(|b| Minifloat::from_bits(b as u8))
        .collect()
}

/// An operator's name, promo's operation and the same operation in f64.
type Op<F> = (
    &'static str,
    fn(Minifloat<F>, Minifloat<F>) -> Minifloat<F>,
    fn(f64, f64) -> f64,
);

/// `a op b` for every pair equals the operation done in f64 and rounded once to the
/// format without saturation. For `+ - *` the f64 result is exact, so this is the
/// exactly rounded result; for `/` f64 has more than 2p + 2 bits, so rounding its
/// quotient to the format is exactly rounded too.
fn check_arithmetic<F: Format>() -> usize {
    let values = all::<F>();
    let ops: [Op<F>; 4] = [
        ("+", |a, b| a + b, |a, b| a + b),
        ("-", |a, b| a - b, |a, b| a - b),
        ("*", |a, b| a * b, |a, b| a * b),
        ("/", |a, b| a / b, |a, b| a / b),
    ];
    let mut checked = 0;
    for &a in &values {
        for &b in &values {
            for (name, op, exact) in ops {
                let got = op(a, b);
                let want = Minifloat::<F>::from_f64_unsaturated(exact(a.to_f64(), b.to_f64()));
                let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
                assert!(
                    same,
                    "{} {a:?} {name} {b:?} = {got:?}, want {want:?}",
                    F::SPEC.name
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn arithmetic_is_exactly_rounded_for_every_pair() {
    let checked = check_arithmetic::<promo_core::narrow::E4M3FN>()
        + check_arithmetic::<promo_core::narrow::E4M3FNUZ>()
        + check_arithmetic::<promo_core::narrow::E5M2>()
        + check_arithmetic::<promo_core::narrow::E5M2FNUZ>()
        + check_arithmetic::<promo_core::narrow::E2M1>()
        + check_arithmetic::<promo_core::narrow::E4M3>()
        + check_arithmetic::<promo_core::narrow::E3M4>()
        + check_arithmetic::<promo_core::narrow::E4M3B11FNUZ>()
        + check_arithmetic::<promo_core::narrow::E2M3FN>()
        + check_arithmetic::<promo_core::narrow::E3M2FN>();
    assert_eq!(checked, 4 * (7 * 65536 + 256 + 2 * 4096));
    assert!(
        (f8e4m3fn::MAX + f8e4m3fn::MAX).is_nan(),
        "overflow is NaN, as in ml_dtypes"
    );
    assert_eq!((f8e5m2::MAX + f8e5m2::MAX).to_f32(), f32::INFINITY);
    assert_eq!(
        (f4e2m1::MAX + f4e2m1::MAX),
        f4e2m1::MAX,
        "f4e2m1 has no NaN or infinity and saturates"
    );
}

/// Every code of `S` converted with `From` has the same value in `T`, and `can_cast`
/// calls the pair safe.
fn check_widening<S, T>(codes: impl Iterator<Item = S>, value_s: fn(S) -> f64, value_t: fn(T) -> f64)
where
    S: Element + Copy + std::fmt::Debug,
    T: Element + From<S>,
{
    assert!(
        can_cast(S::DTYPE, T::DTYPE, Casting::Safe),
        "From<{}> for {} is not a safe cast",
        S::DTYPE,
        T::DTYPE
    );
    let mut n = 0;
    for s in codes {
        let (v, w) = (value_s(s), value_t(T::from(s)));
        assert!(
            v == w && v.is_sign_negative() == w.is_sign_negative() || v.is_nan() && w.is_nan(),
            "{s:?} into {}: {w}",
            T::DTYPE
        );
        n += 1;
    }
    assert!(n >= 16);
}

#[test]
fn from_widenings_keep_every_value_and_are_safe_casts() {
    fn codes<F: Format>() -> impl Iterator<Item = Minifloat<F>> {
        all::<F>().into_iter()
    }
    let f16v = |x: f16| x.to_f64();
    let bf16v = |x: bf16| x.to_f64();
    macro_rules! float_widenings {
        ($($f:ty),*) => {$(
            check_widening::<$f, f32>(codes(), |x| x.to_f64(), |x| x as f64);
            check_widening::<$f, f64>(codes(), |x| x.to_f64(), |x| x);
            check_widening::<$f, f16>(codes(), |x| x.to_f64(), f16v);
            check_widening::<$f, bf16>(codes(), |x| x.to_f64(), bf16v);
        )*};
    }
    float_widenings!(
        f8e4m3fn,
        f8e4m3fnuz,
        f8e5m2,
        f8e5m2fnuz,
        f4e2m1,
        f8e4m3,
        f8e3m4,
        f8e4m3b11fnuz,
        f6e2m3fn,
        f6e3m2fn
    );
    check_widening::<f4e2m1, f8e4m3fn>(codes(), |x| x.to_f64(), |x| x.to_f64());
    check_widening::<f4e2m1, f8e5m2>(codes(), |x| x.to_f64(), |x| x.to_f64());
    let e8m0 = || (0..=255u8).map(f8e8m0::from_bits);
    check_widening::<f8e8m0, f32>(e8m0(), |x| x.to_f64(), |x| x as f64);
    check_widening::<f8e8m0, f64>(e8m0(), |x| x.to_f64(), |x| x);
    check_widening::<f8e8m0, bf16>(e8m0(), |x| x.to_f64(), bf16v);
    let i4s = || (0..16u8).map(i4::from_bits);
    let u4s = || (0..16u8).map(u4::from_bits);
    let i4v = |x: i4| x.get() as f64;
    let u4v = |x: u4| x.get() as f64;
    check_widening::<i4, i8>(i4s(), i4v, |x| x as f64);
    check_widening::<i4, i64>(i4s(), i4v, |x| x as f64);
    check_widening::<i4, f16>(i4s(), i4v, f16v);
    check_widening::<i4, bf16>(i4s(), i4v, bf16v);
    check_widening::<i4, f8e4m3fn>(i4s(), i4v, |x| x.to_f64());
    check_widening::<u4, u8>(u4s(), u4v, |x| x as f64);
    check_widening::<u4, i8>(u4s(), u4v, |x| x as f64);
    check_widening::<u4, u64>(u4s(), u4v, |x| x as f64);
    check_widening::<u4, f16>(u4s(), u4v, f16v);
}

#[test]
fn negation_flips_the_sign_of_every_value() {
    fn check<F: Format>() {
        for x in all::<F>() {
            let (v, n) = (x.to_f64(), (-x).to_f64());
            if v.is_nan() {
                assert!(n.is_nan());
            } else if v == 0.0 && F::SPEC.name.ends_with("fnuz") {
                assert_eq!((-x).to_bits(), x.to_bits(), "FNUZ has no -0");
            } else {
                assert_eq!(n.to_bits(), (-v).to_bits(), "-{x:?}");
                assert_eq!((-(-x)).to_bits(), x.to_bits());
            }
        }
    }
    check::<promo_core::narrow::E4M3FN>();
    check::<promo_core::narrow::E4M3FNUZ>();
    check::<promo_core::narrow::E5M2>();
    check::<promo_core::narrow::E5M2FNUZ>();
    check::<promo_core::narrow::E2M1>();
}

#[test]
fn total_cmp_sorts_like_f64_total_cmp() {
    fn check<F: Format>() {
        let mut codes = all::<F>();
        codes.sort_by(|a, b| a.total_cmp(b));
        // The same order as f64's total order of the values, NaNs placed by sign
        // (the FNUZ NaN counts as positive).
        let key = |x: &Minifloat<F>| {
            let v = x.to_f64();
            if v.is_nan() && F::SPEC.name.ends_with("fnuz") {
                f64::NAN.abs()
            } else {
                v
            }
        };
        for w in codes.windows(2) {
            assert_ne!(
                key(&w[0]).total_cmp(&key(&w[1])),
                Ordering::Greater,
                "{:?} before {:?}",
                w[0],
                w[1]
            );
            assert_eq!(w[0].total_cmp(&w[1]), Ordering::Less, "codes are distinct");
        }
    }
    check::<promo_core::narrow::E4M3FN>();
    check::<promo_core::narrow::E4M3FNUZ>();
    check::<promo_core::narrow::E5M2>();
    check::<promo_core::narrow::E5M2FNUZ>();
    check::<promo_core::narrow::E2M1>();
}

#[test]
fn nibble_integers_convert_in_range_only() {
    for x in i8::MIN..=i8::MAX {
        match i4::try_from(x) {
            Ok(v) => assert_eq!(i8::from(v), x),
            Err(e) => {
                assert!(!(-8..=7).contains(&x));
                assert_eq!(e.to_string(), format!("{x} is outside -8..=7"));
            }
        }
        assert_eq!(u4::try_from(x).is_ok(), (0..=15).contains(&x));
    }
    assert_eq!(u8::from(u4::try_from(15u32).unwrap()), 15);
}

#[test]
fn special_value_constants() {
    assert!(
        f8e4m3fn::NAN.is_nan()
            && f8e4m3fnuz::NAN.is_nan()
            && f8e5m2::NAN.is_nan()
            && f8e5m2fnuz::NAN.is_nan()
    );
    assert_eq!(f8e4m3fn::NAN.to_bits(), 0x7f);
    assert_eq!(f8e5m2::INFINITY.to_f32(), f32::INFINITY);
    assert_eq!(f8e5m2::NEG_INFINITY.to_f32(), f32::NEG_INFINITY);
    assert!(f4e2m1::nan().is_none() && f8e4m3fn::infinity().is_none());
}

#[test]
fn num_traits_and_serde() {
    use num_traits::{Bounded, FromPrimitive, One, ToPrimitive, Zero};
    assert!(f8e4m3fn::zero().is_zero() && f8e4m3fn::from_bits(0x80).is_zero());
    assert_eq!(f8e5m2::one().to_f32(), 1.0);
    assert_eq!(f8e4m3fn::max_value(), f8e4m3fn::MAX);
    assert_eq!(
        f8e4m3fn::from_i64(1000),
        Some(f8e4m3fn::MAX),
        "saturating, as ONNX Cast"
    );
    assert_eq!(
        f8e4m3fn::from_i64(17).map(|x| x.to_f32()),
        Some(16.0),
        "17 ties to even 16"
    );
    assert_eq!(f8e4m3fn::from_f32(-3.5).to_i64(), Some(-3));
    let json = serde_json::to_string(&f8e4m3fn::from_f32(0.1)).unwrap();
    assert_eq!(json, "0.1015625");
    assert_eq!(
        serde_json::from_str::<f8e4m3fn>(&json).unwrap().to_bits(),
        f8e4m3fn::from_f32(0.1).to_bits()
    );
}

/// `got` is `want` bit for bit as `f32`, or both are NaN.
fn same_f32(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan()
}

/// The predicates, `abs`, `signum`, `classify`, `min` and `max` of every code (every
/// pair for `min`/`max`) answer what `f32` answers for the value; the format's own
/// subnormals (below `finfo(..).smallest_normal`) classify as subnormal.
fn check_number_behaviour<F: Format>() -> usize {
    use std::num::FpCategory;
    let tiny = promo_core::finfo(F::SPEC.name.parse().unwrap()).unwrap().tiny() as f32;
    let values = all::<F>();
    let mut checked = 0;
    for &x in &values {
        let v = x.to_f32();
        let name = F::SPEC.name;
        assert_eq!(x.is_nan(), v.is_nan(), "{name} {x:?}");
        assert_eq!(x.is_infinite(), v.is_infinite(), "{name} {x:?}");
        assert_eq!(x.is_finite(), v.is_finite(), "{name} {x:?}");
        assert_eq!(x.is_sign_negative(), v.is_sign_negative(), "{name} {x:?}");
        assert_eq!(x.is_sign_positive(), v.is_sign_positive(), "{name} {x:?}");
        assert!(same_f32(x.abs().to_f32(), v.abs()), "{name} {x:?}.abs()");
        assert!(same_f32(x.signum().to_f32(), v.signum()), "{name} {x:?}.signum()");
        let class = match v.classify() {
            FpCategory::Normal if v.abs() < tiny => FpCategory::Subnormal,
            c => c,
        };
        assert_eq!(x.classify(), class, "{name} {x:?}");
        assert_eq!(x.is_normal(), class == FpCategory::Normal, "{name} {x:?}");
        for &y in &values {
            let (w, lo, hi) = (y.to_f32(), x.min(y).to_f32(), x.max(y).to_f32());
            // f32 leaves the sign of min(+0, -0) open: compare values.
            assert!(
                lo == v.min(w) || lo.is_nan() && v.min(w).is_nan(),
                "{name} {x:?}.min({y:?})"
            );
            assert!(
                hi == v.max(w) || hi.is_nan() && v.max(w).is_nan(),
                "{name} {x:?}.max({y:?})"
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn number_behaviour_matches_f32_on_every_code() {
    use promo_core::narrow::*;
    let checked = check_number_behaviour::<E4M3FN>()
        + check_number_behaviour::<E4M3FNUZ>()
        + check_number_behaviour::<E5M2>()
        + check_number_behaviour::<E5M2FNUZ>()
        + check_number_behaviour::<E2M1>()
        + check_number_behaviour::<E4M3>()
        + check_number_behaviour::<E3M4>()
        + check_number_behaviour::<E4M3B11FNUZ>()
        + check_number_behaviour::<E2M3FN>()
        + check_number_behaviour::<E3M2FN>();
    assert_eq!(checked, 7 * 256 + 16 + 2 * 64);
}

/// `num_traits::Float` on every code: each function is `f32`'s on the value rounded
/// to the format (unsaturated), and the constants are the format's.
fn check_float_trait<F: Format>() {
    use num_traits::Float;
    type Unary = (&'static str, fn(f32) -> f32);
    let unary: [Unary; 8] = [
        ("sqrt", f32::sqrt),
        ("floor", f32::floor),
        ("round", f32::round),
        ("exp", f32::exp),
        ("ln", f32::ln),
        ("recip", f32::recip),
        ("fract", f32::fract),
        ("tanh", f32::tanh),
    ];
    let ours: [fn(Minifloat<F>) -> Minifloat<F>; 8] = [
        Float::sqrt,
        Float::floor,
        Float::round,
        Float::exp,
        Float::ln,
        Float::recip,
        Float::fract,
        Float::tanh,
    ];
    for x in all::<F>() {
        for ((name, f), g) in unary.iter().zip(ours) {
            let want = Minifloat::<F>::from_f32_unsaturated(f(x.to_f32())).to_f32();
            assert!(same_f32(g(x).to_f32(), want), "{} {x:?}.{name}()", F::SPEC.name);
        }
        let want = Minifloat::<F>::from_f32_unsaturated(x.to_f32().powi(2)).to_f32();
        assert!(same_f32(Float::powi(x, 2).to_f32(), want));
        assert_eq!(Float::is_nan(x), x.to_f32().is_nan());
    }
    let m = <Minifloat<F> as Float>::max_value();
    assert_eq!(
        m.to_f64(),
        promo_core::finfo(F::SPEC.name.parse().unwrap()).unwrap().max
    );
    assert_eq!(<Minifloat<F> as Float>::epsilon(), Minifloat::<F>::EPSILON);
    if F::SPEC.non_finite != promo_core::narrow::NonFinite::None {
        assert!(<Minifloat<F> as Float>::nan().is_nan(), "{}", F::SPEC.name);
    }
}

#[test]
fn num_traits_float_on_every_code() {
    use promo_core::narrow::*;
    check_float_trait::<E4M3FN>();
    check_float_trait::<E4M3FNUZ>();
    check_float_trait::<E5M2>();
    check_float_trait::<E5M2FNUZ>();
    check_float_trait::<E2M1>();
    check_float_trait::<E4M3>();
    check_float_trait::<E3M4>();
    check_float_trait::<E4M3B11FNUZ>();
    check_float_trait::<E2M3FN>();
    check_float_trait::<E3M2FN>();
    // A generic function over `Float` runs on a narrow type.
    fn hypotenuse<T: num_traits::Float>(a: T, b: T) -> T {
        (a * a + b * b).sqrt()
    }
    assert_eq!(
        hypotenuse(f8e4m3::from_f32(3.0), f8e4m3::from_f32(4.0)).to_f32(),
        5.0
    );
    assert!(<f8e4m3 as num_traits::Float>::infinity().is_infinite());
}

#[test]
fn byte_views_round_trip() {
    let codes: Vec<u8> = (0..=255).collect();
    let xs = f8e4m3::slice_from_bytes(&codes);
    assert_eq!(xs.len(), 256);
    assert_eq!(f8e4m3::slice_as_bytes(xs), &codes[..]);
    assert_eq!(xs[0x78], f8e4m3::INFINITY);
    // bytemuck, which the types implement `Pod` for, gives the same views.
    let same: &[f8e4m3] = bytemuck::cast_slice(&codes);
    assert_eq!(f8e4m3::slice_as_bytes(same), &codes[..]);
    let six = f6e2m3fn::slice_from_bytes(&[0x1f, 0x3f]);
    assert_eq!(six.iter().map(|x| x.to_f32()).collect::<Vec<_>>(), [7.5, -7.5]);
}

#[test]
fn complex_element_types_are_reexported() {
    use promo_core::{Complex32, Complex64, DType, HasDType};
    assert_eq!(<Complex32 as HasDType>::DTYPE, DType::C64);
    assert_eq!(<Complex64 as HasDType>::DTYPE, DType::C128);
}

/// f8e8m0's predicates, `abs`, `signum`, `min`/`max` and `classify` against `f32` on
/// every code (every value is normal in the format, 2^-127 included).
#[test]
fn e8m0_behaves_like_f32_on_every_code() {
    use std::num::FpCategory;
    for a in (0..=255u8).map(f8e8m0::from_bits) {
        let v = a.to_f32();
        assert_eq!(a.is_nan(), v.is_nan());
        assert_eq!(a.is_finite(), v.is_finite());
        assert_eq!(a.is_infinite(), v.is_infinite());
        assert_eq!(a.is_sign_negative(), v.is_sign_negative());
        assert_eq!(a.is_sign_positive(), v.is_sign_positive());
        assert!(same_f32(a.abs().to_f32(), v.abs()));
        assert!(same_f32(a.signum().to_f32(), v.signum()));
        let class = if v.is_nan() {
            FpCategory::Nan
        } else {
            FpCategory::Normal
        };
        assert_eq!(a.classify(), class);
        for b in (0..=255u8).map(f8e8m0::from_bits) {
            let w = b.to_f32();
            assert!(same_f32(a.min(b).to_f32(), v.min(w)), "{a:?}.min({b:?})");
            assert!(same_f32(a.max(b).to_f32(), v.max(w)), "{a:?}.max({b:?})");
        }
    }
}
