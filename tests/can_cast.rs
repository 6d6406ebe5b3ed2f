//! `can_cast` and `finfo` against the formats themselves and against NumPy.
//!
//! Safe casting is checked by converting every value of every dtype of 16 bits or
//! fewer into every castable dtype and back through promo's scalar casts: a pair is
//! safe exactly when every value comes back as itself. NumPy's `np.can_cast` (with
//! ml_dtypes) and ml_dtypes' `finfo` come from `tests/data/cast/can_cast.json`
//! (`tools/oracles/cast/gen_can_cast.py`).

use promo_core::cast::{element_size, CastOptions, Converter};
use promo_core::{can_cast, finfo, iinfo, Casting, DType};
use std::collections::BTreeSet;

/// Every code of `d` as a little-endian buffer (4-bit codes two to a byte, 2-bit
/// codes four, 6-bit codes one), and the count.
fn every_code(d: DType) -> (Vec<u8>, usize) {
    match d.bits() {
        8 if d == DType::Bool => (vec![0, 1], 2),
        4 => ((0u8..8).map(|i| (2 * i) | ((2 * i + 1) << 4)).collect(), 16),
        2 => (vec![0b11_10_01_00], 4),
        6 => ((0..64).collect(), 64),
        8 => ((0..=255).collect(), 256),
        16 => ((0..=u16::MAX).flat_map(u16::to_le_bytes).collect(), 65536),
        bits => panic!("no enumeration for {bits}-bit {d}"),
    }
}

fn convert(from: DType, to: DType, src: &[u8], count: usize) -> Vec<u8> {
    let converter = Converter::scalar(from, to, CastOptions::default()).unwrap();
    let mut out = Vec::new();
    converter.convert_into(src, count, &mut out);
    out
}

fn as_f64(d: DType, src: &[u8], count: usize) -> Vec<f64> {
    convert(d, DType::F64, src, count)
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// The first value of `from` that does not survive the trip into `to` and back.
fn first_lost_value(from: DType, to: DType) -> Option<f64> {
    let (codes, count) = every_code(from);
    let values = as_f64(from, &codes, count);
    let there = convert(from, to, &codes, count);
    let back = as_f64(to, &there, count);
    values.iter().zip(&back).find_map(|(&v, &w)| {
        let kept = if v.is_nan() {
            w.is_nan()
        } else {
            v == w && v.is_sign_negative() == w.is_sign_negative()
        };
        (!kept).then_some(v)
    })
}

fn numeric() -> impl Iterator<Item = DType> {
    DType::ALL.iter().copied().filter(|&d| element_size(d).is_some())
}

#[test]
fn safe_means_every_value_survives_the_round_trip() {
    let mut checked = 0;
    let mut safe = 0;
    for from in numeric().filter(|d| d.bits() <= 16) {
        for to in numeric() {
            let lost = first_lost_value(from, to);
            let claimed = can_cast(from, to, Casting::Safe);
            assert_eq!(
                claimed,
                lost.is_none(),
                "can_cast({from}, {to}, Safe) = {claimed}, but the round trip loses {lost:?}"
            );
            checked += 1;
            safe += usize::from(claimed);
        }
    }
    use DType::*;
    let small = [
        Bool,
        I2,
        U2,
        I4,
        U4,
        I8,
        U8,
        I16,
        U16,
        F4E2M1,
        F6E2M3FN,
        F6E3M2FN,
        F8E4M3FN,
        F8E4M3,
        F8E3M4,
        F8E4M3B11FNUZ,
        F8E4M3B15,
        F8E4M3FNUZ,
        F8E5M2,
        F8E5M2FNUZ,
        F8E8M0,
        F16,
        BF16,
    ];
    assert!(small.iter().all(|d| element_size(*d).is_some()));
    assert_eq!(checked, small.len() * numeric().count());
    assert!(safe > 50 && safe < checked - 50, "{safe} of {checked} safe");
}

#[test]
fn known_safe_and_unsafe_pairs() {
    use DType::*;
    for (from, to) in [
        (F8E4M3FN, F16),
        (F8E5M2, F16),
        (BF16, F32),
        (F8E8M0, F32),
        (I4, F8E4M3FN),
        (I2, I4),
        (U2, I4),
        (I2, F4E2M1),
        (U8, I16),
        (Bool, F4E2M1),
        (F16, C64),
    ] {
        assert!(can_cast(from, to, Casting::Safe), "{from} -> {to}");
    }
    // E4M3FNUZ's smallest subnormal 2^-10 is below E4M3FN's 2^-9; E4M3FN's 448 is above
    // E4M3FNUZ's 240 (and it has -0); f16 has more precision than bf16; f8e8m0 has no zero.
    for (from, to) in [
        (F8E4M3FNUZ, F8E4M3FN),
        (F8E4M3FN, F8E4M3FNUZ),
        (F16, BF16),
        (Bool, F8E8M0),
        (I8, U8),
        (F32, I64),
        (C64, F32),
    ] {
        assert!(!can_cast(from, to, Casting::Safe), "{from} -> {to}");
    }
}

#[test]
fn levels_nest() {
    let levels = [
        Casting::No,
        Casting::Equiv,
        Casting::Safe,
        Casting::SameKind,
        Casting::Unsafe,
    ];
    for &a in DType::ALL {
        for &b in DType::ALL {
            let answers: Vec<bool> = levels.iter().map(|&l| can_cast(a, b, l)).collect();
            assert!(
                answers.windows(2).all(|w| w[0] <= w[1]),
                "{a} -> {b}: {answers:?}"
            );
            assert_eq!(answers[0], a == b);
        }
    }
}

fn numpy() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/cast/can_cast.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn finfo_and_iinfo_agree_with_ml_dtypes() {
    let data = numpy();
    let mut compared = 0;
    for (name, facts) in data["finfo"].as_object().unwrap() {
        let d: DType = name.parse().unwrap();
        if facts["kind"] == "int" {
            let i = iinfo(d).unwrap();
            assert_eq!(
                (i.min, i.max, i.bits),
                (
                    facts["min"].as_i64().unwrap() as i128,
                    facts["max"].as_u64().unwrap() as i128,
                    facts["bits"].as_u64().unwrap() as u32
                ),
                "{d}"
            );
            compared += 1;
        } else if facts["kind"] == "float" {
            let f = finfo(d).unwrap();
            let got = [
                f.max,
                f.smallest_normal,
                f.smallest_subnormal,
                f.epsilon,
                f.bits as f64,
                f.man_bits as f64,
            ];
            let want = [
                "max",
                "smallest_normal",
                "smallest_subnormal",
                "eps",
                "bits",
                "nmant",
            ]
            .map(|k| facts[k].as_f64().unwrap());
            // ml_dtypes' bf16 smallest subnormal is 2^-133 off by a few f64 ulps
            // (9.183549615799119e-41); every other fact is exact.
            let close = got
                .iter()
                .zip(&want)
                .all(|(g, w)| g == w || ((g - w) / w).abs() < 1e-14);
            assert!(close, "{d}: max, smallest normal, smallest subnormal, eps, bits, mantissa bits: {got:?} vs ml_dtypes {want:?}");
            // f8e8m0 is unsigned: its finfo().min is its smallest value. NumPy's f32
            // min is a few f64 ulps off -f32::MAX in the dump.
            let min = facts["min"].as_f64().unwrap();
            assert!(
                f.min == min || ((f.min - min) / min).abs() < 1e-14,
                "{d} min: {} vs {min}",
                f.min
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 20);
}

/// NumPy's own dtypes (bool, integers, f16, f32, f64, c64, c128) at every level,
/// as `np.can_cast` answers, but for one deliberate difference: NumPy calls i64 and
/// u64 into f64 (and c128) safe, although 2^53 + 1 has no f64 value.
#[test]
fn can_cast_agrees_with_numpy_on_its_own_dtypes() {
    let disagree = disagreements();
    let own: Vec<&str> = disagree
        .iter()
        .filter(|d| !d.contains("ml_dtypes"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        own,
        [
            "i64 c128 safe: numpy true",
            "i64 f64 safe: numpy true",
            "u64 c128 safe: numpy true",
            "u64 f64 safe: numpy true"
        ]
    );
    assert_ne!((1i64 << 53) + 1, ((1i64 << 53) + 1) as f64 as i64);
}

/// ml_dtypes' types at the `safe` level: every disagreement is settled by the round
/// trip. Where ml_dtypes claims safe, a value is lost (`i8` into `f8e4m3fn` loses 17);
/// where it does not, promo's safe pair loses nothing (checked by
/// `safe_means_every_value_survives_the_round_trip`).
#[test]
fn can_cast_safe_disagrees_with_ml_dtypes_only_where_the_round_trip_says_so() {
    let disagree = disagreements();
    let mut refuted = 0;
    let mut under_claimed = 0;
    for claim in disagree
        .iter()
        .filter(|d| d.contains(" safe:") && d.contains("ml_dtypes"))
    {
        let mut words = claim.split_whitespace();
        let (a, b): (DType, DType) = (
            words.next().unwrap().parse().unwrap(),
            words.next().unwrap().parse().unwrap(),
        );
        if claim.contains("numpy true") {
            let lost = first_lost_value(a, b);
            assert!(lost.is_some(), "{claim}: but every value survives");
            println!("{claim}: loses {}", lost.unwrap());
            refuted += 1;
        } else {
            assert!(can_cast(a, b, Casting::Safe));
            println!("{claim}: every value survives");
            under_claimed += 1;
        }
    }
    assert_eq!((refuted, under_claimed), (35, 15), "the disagreements changed");
}

/// Every (pair, level) where promo's `can_cast` and NumPy's differ, as
/// `"from to level: numpy ANSWER"`, with ` (ml_dtypes)` when an ml_dtypes type is involved.
fn disagreements() -> BTreeSet<String> {
    let data = numpy();
    let ml = |d: DType| {
        matches!(
            d,
            DType::BF16
                | DType::F4E2M1
                | DType::F8E4M3FN
                | DType::F8E4M3FNUZ
                | DType::F8E5M2
                | DType::F8E5M2FNUZ
                | DType::F8E8M0
                | DType::I4
                | DType::U4
        )
    };
    let mut disagree = BTreeSet::new();
    let mut compared = 0;
    for (pair, granted) in data["can_cast"].as_object().unwrap() {
        let (a, b) = pair.split_once(' ').unwrap();
        let (a, b): (DType, DType) = (a.parse().unwrap(), b.parse().unwrap());
        let granted: Vec<&str> = granted
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        for name in ["no", "equiv", "safe", "same_kind", "unsafe"] {
            compared += 1;
            let numpy = granted.contains(&name);
            if numpy != can_cast(a, b, name.parse().unwrap()) {
                let tag = if ml(a) || ml(b) { " (ml_dtypes)" } else { "" };
                disagree.insert(format!("{a} {b} {name}: numpy {numpy}{tag}"));
            }
        }
    }
    assert_eq!(compared, 23 * 23 * 5);
    disagree
}
