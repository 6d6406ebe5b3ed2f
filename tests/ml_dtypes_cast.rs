//! The formats only ml_dtypes defines (`f8e4m3`, `f8e3m4`, `f8e4m3b11fnuz`,
//! `f6e2m3fn`, `f6e3m2fn`) against ml_dtypes 0.6 itself
//! (`tests/data/cast/ml_dtypes_exhaustive.json`, from
//! `tools/oracles/cast/gen_ml_dtypes.py`): every code decoded to f32 and f64, every
//! f16 and bf16 bit pattern and a sample of f64 encoded, ml_dtypes' own conversion and
//! saturating. Every f32 is in `cast_exhaustive.rs`.

use promo_core::cast::{convert, CastOptions};
use promo_core::narrow::{f6e2m3fn, f6e3m2fn, f8e3m4, f8e4m3, f8e4m3b11fnuz, Format, Minifloat};
use promo_core::DType;
use promo_tests::data_path;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn data() -> Value {
    let text = std::fs::read_to_string(data_path("cast/ml_dtypes_exhaustive.json")).expect("read");
    serde_json::from_str(&text).expect("json")
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The formats, with their saturating keys where the format has an overflow choice.
const FORMATS: [(DType, bool); 5] = [
    (DType::F8E4M3, true),
    (DType::F8E3M4, true),
    (DType::F8E4M3B11FNUZ, true),
    (DType::F6E2M3FN, false),
    (DType::F6E3M2FN, false),
];

/// Every key of the data file with its options: `TARGET` (the default options, which
/// for these formats are ml_dtypes' conversion) and `TARGET/saturate=true`.
fn cases() -> Vec<(String, DType, CastOptions)> {
    let mut out = Vec::new();
    for (to, saturable) in FORMATS {
        out.push((to.name().to_owned(), to, CastOptions::default()));
        if saturable {
            let options = CastOptions {
                saturate: Some(true),
                ..CastOptions::default()
            };
            out.push((format!("{}/saturate=true", to.name()), to, options));
        }
    }
    out
}

fn expected(data: &Value, key: &str, source: &str) -> String {
    data[key][source]["sha256"]
        .as_str()
        .unwrap_or_else(|| panic!("no hash for {key} from {source}"))
        .to_owned()
}

#[test]
fn every_code_decodes_as_ml_dtypes_does() {
    let data = data();
    for (to, _) in FORMATS {
        let want = &data["decode"][to.name()];
        let codes: Vec<u8> = (0..1u32 << to.bits()).map(|c| c as u8).collect();
        let o = CastOptions::default();
        let f32s = convert(to, DType::F32, &codes, &o).unwrap();
        let f64s = convert(to, DType::F64, &codes, &o).unwrap();
        for (i, &code) in codes.iter().enumerate() {
            let w32 = want["f32_bits"][i].as_u64().unwrap();
            let w64 = want["f64_bits"][i].as_u64().unwrap();
            let g32 = u32::from_le_bytes(f32s[i * 4..i * 4 + 4].try_into().unwrap()) as u64;
            let g64 = u64::from_le_bytes(f64s[i * 8..i * 8 + 8].try_into().unwrap());
            assert_eq!((g32, g64), (w32, w64), "{to} code {code:#04x}");
        }
        assert_eq!(codes.len(), want["f32_bits"].as_array().unwrap().len());
    }
}

/// The typed values decode as the buffers do (the same table, through `to_f32`).
#[test]
fn typed_values_decode_as_ml_dtypes_does() {
    fn check<F: Format>(data: &Value) {
        let want = &data["decode"][F::SPEC.name]["f32_bits"];
        for code in 0..1u32 << F::SPEC.bits() {
            let got = Minifloat::<F>::from_bits(code as u8).to_f32().to_bits() as u64;
            assert_eq!(
                got,
                want[code as usize].as_u64().unwrap(),
                "{} {code:#x}",
                F::SPEC.name
            );
        }
    }
    let data = data();
    check::<<f8e4m3 as Spec>::F>(&data);
    check::<<f8e3m4 as Spec>::F>(&data);
    check::<<f8e4m3b11fnuz as Spec>::F>(&data);
    check::<<f6e2m3fn as Spec>::F>(&data);
    check::<<f6e3m2fn as Spec>::F>(&data);
}

/// The format marker of a `Minifloat` alias.
trait Spec {
    type F: Format;
}
impl<F: Format> Spec for Minifloat<F> {
    type F = F;
}

fn check_source(source: DType, inputs: &[u8]) {
    let data = data();
    for (key, to, options) in cases() {
        let out = convert(source, to, inputs, &options).unwrap();
        assert_eq!(
            hex(&out),
            expected(&data, &key, source.name()),
            "{key}: promo's outputs from every {source} input differ from ml_dtypes'"
        );
    }
}

#[test]
fn every_f16_encodes_as_ml_dtypes_does() {
    let inputs: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    check_source(DType::F16, &inputs);
}

#[test]
fn every_bf16_encodes_as_ml_dtypes_does() {
    let inputs: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    check_source(DType::BF16, &inputs);
}

/// The sampled f64 inputs, as `_about.f64_inputs` in the data file describes them.
fn f64_inputs() -> Vec<u64> {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let r = |i: u64| {
        let m = i.wrapping_mul(K);
        m ^ (m >> 31)
    };
    let mut out = Vec::new();
    for i in 0..1u64 << 20 {
        let r = r(i);
        let exp = 983 + ((r >> 52) % 64);
        out.push((r & 0x800F_FFFF_FFFF_FFFF) | (exp << 52));
    }
    for h in 0..1u32 << 16 {
        let (sign, exp, man) = ((h >> 15) as u64, (h >> 7) & 0xff, (h & 0x7f) as u64);
        let grid = if exp == 0xff {
            sign << 63 | 0x7FF0_0000_0000_0000 | man << 45
        } else {
            (f32::from_bits(h << 16) as f64).to_bits()
        };
        out.extend([grid.wrapping_sub(1), grid, grid.wrapping_add(1)]);
    }
    out.extend((0..1u64 << 16).map(r));
    out
}

#[test]
fn sampled_f64_encode_as_ml_dtypes_does() {
    let inputs: Vec<u8> = f64_inputs().into_iter().flat_map(u64::to_le_bytes).collect();
    assert_eq!(
        hex(&inputs),
        data()["_about"]["f64_inputs_sha256"].as_str().unwrap(),
        "the f64 inputs are not the oracle's"
    );
    check_source(DType::F64, &inputs);
}

/// What 1e6 becomes, as ml_dtypes 0.6 gives it (`np.float32(1e6).astype(...)`):
/// infinity where the format has one, NaN in f8e4m3b11fnuz, ±max in the f6 formats.
#[test]
fn overflow_follows_ml_dtypes() {
    let o = CastOptions::default();
    let clamp = CastOptions {
        saturate: Some(true),
        ..o
    };
    let big = [1e6f32, -1e6].map(f32::to_le_bytes).concat();
    for (to, default, saturated) in [
        (DType::F8E4M3, [0x78, 0xf8], [0x77, 0xf7]),
        (DType::F8E3M4, [0x70, 0xf0], [0x6f, 0xef]),
        (DType::F8E4M3B11FNUZ, [0x80, 0x80], [0x7f, 0xff]),
        (DType::F6E2M3FN, [0x1f, 0x3f], [0x1f, 0x3f]),
        (DType::F6E3M2FN, [0x1f, 0x3f], [0x1f, 0x3f]),
    ] {
        assert_eq!(convert(DType::F32, to, &big, &o).unwrap(), default, "{to}");
        assert_eq!(
            convert(DType::F32, to, &big, &clamp).unwrap(),
            saturated,
            "{to} saturated"
        );
    }
}
