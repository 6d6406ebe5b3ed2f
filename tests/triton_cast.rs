//! Triton's `tl.float8e4b15` (promo's `f8e4m3b15`) against Triton's own conversions,
//! as `tools/oracles/cast/gen_triton.py` ran the PTX the installed triton package
//! compiles them to (`tests/data/cast/triton_f8e4m3b15.json`): every code decoded,
//! every f16 bit pattern encoded. Every f32 is in `cast_exhaustive.rs`.

use promo_core::cast::{convert, Backend, CastOptions, Converter};
use promo_core::narrow::f8e4m3b15;
use promo_core::{finfo, DType};
use promo_tests::data_path;
use serde_json::Value;

fn data() -> Value {
    let text = std::fs::read_to_string(data_path("cast/triton_f8e4m3b15.json")).expect("read");
    serde_json::from_str(&text).expect("json")
}

/// The f16 bits Triton decodes each code to, code by code.
fn decoded(data: &Value) -> Vec<u16> {
    let codes = data["decode"].as_array().expect("decode");
    codes
        .iter()
        .map(|v| v.as_u64().expect("f16 bits") as u16)
        .collect()
}

/// Every saturate option: Triton's conversion always clamps, so none may change it.
fn every_saturate() -> [CastOptions; 3] {
    [None, Some(true), Some(false)].map(|saturate| CastOptions {
        saturate,
        ..CastOptions::default()
    })
}

/// `codes` converted from f8e4m3b15 into `to` on `backend`, from the first byte of
/// a buffer (so that a SIMD body, not only the scalar tail, decodes them).
fn decode_on(backend: Backend, to: DType, codes: &[u8]) -> Vec<u8> {
    let converter = Converter::with_backend(DType::F8E4M3B15, to, CastOptions::default(), backend).unwrap();
    let mut out = Vec::new();
    converter.convert_into(codes, codes.len(), &mut out);
    out
}

#[test]
fn every_code_decodes_as_triton_does() {
    let want = decoded(&data());
    assert_eq!(want.len(), 256);
    // Every code at every place of a 64-code block, on every backend this CPU has.
    let codes: Vec<u8> = (0..=255).chain(0..=255).collect();
    for backend in Backend::available() {
        let f16s = decode_on(backend, DType::F16, &codes);
        let f32s = decode_on(backend, DType::F32, &codes);
        for (i, &code) in codes.iter().enumerate() {
            let w = want[code as usize];
            let got16 = u16::from_le_bytes([f16s[2 * i], f16s[2 * i + 1]]);
            assert_eq!(got16, w, "code {code:#04x} to f16 on {backend}");
            let got32 = f32::from_le_bytes(f32s[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(
                got32.to_bits(),
                half::f16::from_bits(w).to_f32().to_bits(),
                "code {code:#04x} to f32 on {backend}"
            );
            let typed = f8e4m3b15::from_bits(code).to_f32();
            assert_eq!(typed.to_bits(), got32.to_bits(), "typed code {code:#04x}");
        }
    }
}

#[test]
fn every_f16_encodes_as_triton_does() {
    let data = data();
    let hex = data["f16"].as_str().unwrap();
    let want: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(want.len(), 65536);
    assert!(
        data["f16_sm70_agrees"].as_bool().unwrap(),
        "both PTX variants agree"
    );
    let inputs: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    for options in every_saturate() {
        let got = convert(DType::F16, DType::F8E4M3B15, &inputs, &options).unwrap();
        if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
            panic!(
                "f16 {i:#06x} ({options:?}): promo gives {:#04x}, Triton {:#04x}",
                got[i], want[i]
            );
        }
    }
    // The typed conversion agrees with the buffer one.
    for (i, &w) in want.iter().enumerate() {
        let x = half::f16::from_bits(i as u16).to_f32();
        assert_eq!(f8e4m3b15::from_f32(x).to_bits(), w, "from_f32 of f16 {i:#06x}");
    }
}

/// What finfo says of the format follows from Triton's decoded codes.
#[test]
fn finfo_matches_the_decoded_codes() {
    let values: Vec<f32> = decoded(&data())
        .into_iter()
        .map(|bits| half::f16::from_bits(bits).to_f32())
        .collect();
    let info = finfo(DType::F8E4M3B15).unwrap();
    let max = values.iter().copied().fold(f32::MIN, f32::max);
    let smallest_subnormal = values
        .iter()
        .copied()
        .filter(|v| *v > 0.0)
        .fold(f32::MAX, f32::min);
    assert_eq!(info.max, max as f64);
    assert_eq!(info.min, -max as f64);
    assert_eq!(info.smallest_subnormal, smallest_subnormal as f64);
    assert!(values.iter().all(|v| v.is_finite()), "every code is a number");
}
