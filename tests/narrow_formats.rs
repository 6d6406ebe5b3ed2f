//! The narrow formats' constants and round trips, checked against the reference's
//! decoded tables (`tests/data/cast/decode.json`) and ml_dtypes' `finfo` facts.

use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, Format, Minifloat};
use proptest::prelude::*;

/// The reference's value of every code of `name`, as f64 (NaN kept).
fn decoded(name: &str) -> Vec<f64> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/cast/decode.json");
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    data[name]["f32_bits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| f32::from_bits(b.as_u64().unwrap() as u32) as f64)
        .collect()
}

/// Checks a format's constants against its decoded table; `smallest_normal` is
/// ml_dtypes' `finfo(...).smallest_normal`.
fn constants<F: Format>(name: &str, smallest_normal: f64) {
    let table = decoded(name);
    let finite: Vec<f64> = table.iter().copied().filter(|v| v.is_finite()).collect();
    let max = finite.iter().copied().fold(f64::MIN, f64::max);
    let min = finite.iter().copied().fold(f64::MAX, f64::min);
    let tiny = finite
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f64::MAX, f64::min);
    let above_one = finite
        .iter()
        .copied()
        .filter(|v| *v > 1.0)
        .fold(f64::MAX, f64::min);
    assert_eq!(Minifloat::<F>::MAX.to_f64(), max, "{name} MAX");
    assert_eq!(Minifloat::<F>::MIN.to_f64(), min, "{name} MIN");
    assert_eq!(
        Minifloat::<F>::MIN_POSITIVE_SUBNORMAL.to_f64(),
        tiny,
        "{name} MIN_POSITIVE_SUBNORMAL"
    );
    assert_eq!(
        Minifloat::<F>::EPSILON.to_f64(),
        above_one - 1.0,
        "{name} EPSILON"
    );
    assert_eq!(Minifloat::<F>::ONE.to_f64(), 1.0, "{name} ONE");
    assert_eq!(Minifloat::<F>::ZERO.to_f64(), 0.0, "{name} ZERO");
    assert_eq!(
        Minifloat::<F>::MIN_POSITIVE.to_f64(),
        smallest_normal,
        "{name} MIN_POSITIVE"
    );
    let has_nan = table.iter().any(|v| v.is_nan());
    assert_eq!(Minifloat::<F>::nan().is_some(), has_nan, "{name} NAN");
    if let Some(nan) = Minifloat::<F>::nan() {
        assert!(
            table[nan.to_bits() as usize].is_nan(),
            "{name} NAN decodes as NaN"
        );
    }
    let has_inf = table.iter().any(|v| v.is_infinite());
    assert_eq!(Minifloat::<F>::infinity().is_some(), has_inf, "{name} INFINITY");
    if let (Some(inf), Some(neg)) = (Minifloat::<F>::infinity(), Minifloat::<F>::neg_infinity()) {
        assert_eq!(table[inf.to_bits() as usize], f64::INFINITY);
        assert_eq!(table[neg.to_bits() as usize], f64::NEG_INFINITY);
    }
    // Every code decodes as the reference says, and every non-NaN code encodes back
    // to itself (−0 to +0 in the FNUZ formats, which have no −0).
    for (code, &expected) in table.iter().enumerate() {
        let x = Minifloat::<F>::from_bits(code as u8);
        let v = x.to_f64();
        assert!(
            v == expected || (v.is_nan() && expected.is_nan()),
            "{name} {code:#x}: {v} vs {expected}"
        );
        if !v.is_nan() {
            let back = Minifloat::<F>::from_f64_with(v, false);
            assert!(
                back.to_f64() == v
                    && back.to_f64().is_sign_negative() == (v.is_sign_negative() && back.to_bits() != 0),
                "{name} {code:#x} round trip"
            );
        }
    }
}

#[test]
fn constants_match_the_reference() {
    constants::<promo_core::narrow::E4M3FN>("f8e4m3fn", 2f64.powi(-6));
    constants::<promo_core::narrow::E4M3FNUZ>("f8e4m3fnuz", 2f64.powi(-7));
    constants::<promo_core::narrow::E5M2>("f8e5m2", 2f64.powi(-14));
    constants::<promo_core::narrow::E5M2FNUZ>("f8e5m2fnuz", 2f64.powi(-15));
    constants::<promo_core::narrow::E2M1>("f4e2m1", 1.0);
    let e8m0 = decoded("f8e8m0");
    assert_eq!(
        f8e8m0::MAX.to_f64(),
        e8m0.iter().copied().filter(|v| v.is_finite()).fold(0.0, f64::max)
    );
    assert_eq!(
        f8e8m0::MIN_POSITIVE.to_f64(),
        e8m0.iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(f64::MAX, f64::min)
    );
    assert!(e8m0[f8e8m0::NAN.to_bits() as usize].is_nan());
    assert_eq!(f8e8m0::ONE.to_f64(), 1.0);
}

#[test]
fn comparisons_follow_ieee() {
    let nan = f8e4m3fn::NAN;
    assert_ne!(nan, nan);
    assert_eq!(nan.partial_cmp(&nan), None);
    assert_eq!(f8e5m2::from_bits(0x80), f8e5m2::from_bits(0x00)); // −0 == +0
    assert!(f8e4m3fnuz::MIN < f8e4m3fnuz::MAX);
    assert!(f4e2m1::from_f64_with(-6.0, true) < f4e2m1::ONE);
    assert_eq!(format!("{}", f8e5m2fnuz::MAX), "57344");
    assert_eq!("448".parse::<f8e4m3fn>().unwrap().to_bits(), 0x7e);
    assert!("four".parse::<f8e4m3fn>().is_err());
}

proptest! {
    /// Rounding is idempotent and monotonic: a value already in the format stays,
    /// and a larger input never gives a smaller result.
    #[test]
    fn rounding_is_idempotent_and_monotonic(a in any::<f32>(), b in any::<f32>()) {
        prop_assume!(a.is_finite() && b.is_finite());
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        for saturate in [true, false] {
            let x = f8e4m3fn::from_f32_with(lo, saturate);
            if !x.is_nan() {
                prop_assert_eq!(f8e4m3fn::from_f64_with(x.to_f64(), saturate).to_bits(), x.to_bits());
            }
            let (l, h) = (f8e5m2::from_f32_with(lo, true), f8e5m2::from_f32_with(hi, true));
            prop_assert!(l <= h, "{lo} -> {l:?}, {hi} -> {h:?}");
        }
    }

    /// Rounding picks a nearest representable value: no code lies strictly closer.
    #[test]
    fn rounding_is_to_nearest(x in -500.0f64..500.0) {
        let r = f8e4m3fn::from_f64_with(x, true).to_f64();
        for code in 0..=255u8 {
            let v = f8e4m3fn::from_bits(code).to_f64();
            if v.is_finite() {
                prop_assert!((v - x).abs() >= (r - x).abs() || (r - x).abs() > 448.0 - 416.0, "{x}: {r} but {v}");
            }
        }
    }
}
