//! Every one of the 2^32 f32 bit patterns, converted into each narrow format (both
//! saturate modes, every f8e8m0 round mode) and into f16 and bf16, hashed with
//! SHA-256 and compared with the hash of the ONNX reference evaluator's outputs
//! (`tests/data/cast/exhaustive.json`). One byte per output (4-bit codes unpacked),
//! two little-endian bytes for f16 and bf16, inputs in increasing bit order.
//!
//! The test profile is optimised (`opt-level = 3`); each target takes seconds.

use promo_core::cast::{CastOptions, Converter, NEWEST_OPSET};
use promo_core::narrow::RoundMode;
use promo_core::DType;
use promo_tests::data_path;
use sha2::{Digest, Sha256};

/// Inputs per chunk: 2^24 f32 values.
const CHUNK: u64 = 1 << 24;

/// The `count` f32 inputs starting at bit pattern `start`, as little-endian bytes.
fn inputs(start: u64, count: u64) -> Vec<u8> {
    let mut out = vec![0u8; count as usize * 4];
    for (slot, bits) in out.chunks_exact_mut(4).zip(start..) {
        slot.copy_from_slice(&(bits as u32).to_le_bytes());
    }
    out
}

/// The outputs for one chunk in the hashed layout, converted on two threads.
fn outputs(converter: &Converter, to: DType, start: u64) -> Vec<u8> {
    let half = CHUNK / 2;
    let convert = |s: u64| {
        let mut out = Vec::new();
        converter.convert_into(&inputs(s, half), half as usize, &mut out);
        if to.bits() == 4 {
            let mut codes = Vec::with_capacity(half as usize);
            promo_core::narrow::unpack_nibbles(&out, half as usize, &mut codes);
            codes
        } else {
            out
        }
    };
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(|| convert(start + half));
        (convert(start), second.join().expect("converter thread"))
    });
    [a, b].concat()
}

/// SHA-256 over the outputs for every f32 input, hex.
fn exhaustive_hash(to: DType, options: CastOptions) -> String {
    let converter = Converter::new(DType::F32, to, options).expect("converter");
    let mut hasher = Sha256::new();
    let chunks = (1u64 << 32) / CHUNK;
    // Convert chunk k + 1 while chunk k is hashed.
    let mut pending = outputs(&converter, to, 0);
    for k in 1..=chunks {
        let (next, ()) = std::thread::scope(|scope| {
            let next = scope.spawn(|| (k < chunks).then(|| outputs(&converter, to, k * CHUNK)));
            hasher.update(&pending);
            (next.join().expect("converter thread"), ())
        });
        match next {
            Some(bytes) => pending = bytes,
            None => break,
        }
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Every key of the reference file: `TARGET[/saturate=B][/round_mode=M]/opset=N`.
fn cases() -> Vec<(String, DType, CastOptions, String)> {
    let path = data_path("cast/exhaustive.json");
    let data: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut out = Vec::new();
    for (key, entry) in data.as_object().expect("object") {
        if key.starts_with('_') {
            continue;
        }
        let mut parts = key.split('/');
        let to: DType = parts.next().unwrap().parse().expect("dtype");
        let mut options = CastOptions { saturate: true, opset: NEWEST_OPSET, round_mode: RoundMode::Up };
        for part in parts {
            match part.split_once('=') {
                Some(("saturate", v)) => options.saturate = v == "true",
                Some(("round_mode", v)) => options.round_mode = v.parse().expect("round mode"),
                Some(("opset", v)) => options.opset = v.parse().expect("opset"),
                _ => panic!("bad key {key}"),
            }
        }
        let sha = entry["sha256"].as_str().expect("sha256").to_owned();
        out.push((key.clone(), to, options, sha));
    }
    out
}

fn check(filter: impl Fn(DType) -> bool) {
    let mut checked = 0;
    for (key, to, options, expected) in cases().into_iter().filter(|c| filter(c.1)) {
        let started = std::time::Instant::now();
        let actual = exhaustive_hash(to, options);
        eprintln!("{key}: {:.1} s", started.elapsed().as_secs_f64());
        assert_eq!(actual, expected, "{key}: promo's outputs for all 2^32 f32 inputs differ from the reference");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn every_f32_into_float8_matches_the_reference() {
    check(|d| matches!(d, DType::F8E4M3FN | DType::F8E4M3FNUZ | DType::F8E5M2 | DType::F8E5M2FNUZ));
}

#[test]
fn every_f32_into_f8e8m0_matches_the_reference() {
    check(|d| d == DType::F8E8M0);
}

#[test]
fn every_f32_into_f4e2m1_matches_the_reference() {
    check(|d| d == DType::F4E2M1);
}

#[test]
fn every_f32_into_f16_and_bf16_matches_the_reference() {
    check(|d| matches!(d, DType::F16 | DType::BF16));
}
