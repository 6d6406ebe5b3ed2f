//! Every one of the 2^32 f32 bit patterns, converted into each narrow format (both
//! saturate modes, every f8e8m0 round mode) and into f16 and bf16, hashed with
//! SHA-256 and compared with the hash of the ONNX reference evaluator's outputs
//! (`tests/data/cast/exhaustive.json`). One byte per output (4-bit codes unpacked),
//! two little-endian bytes for f16 and bf16, inputs in increasing bit order.
//!
//! The formats only ml_dtypes defines (`f8e4m3`, `f8e3m4`, `f8e4m3b11fnuz`, the f6
//! formats) are compared in the same way with ml_dtypes 0.6's outputs
//! (`tests/data/cast/ml_dtypes_exhaustive.json`): its own conversion (promo's
//! default options for them) and, where the format has an overflow choice,
//! saturating (the input clamped to ±max, then converted by ml_dtypes).
//!
//! Each ONNX case runs on every SIMD backend the CPU has (AVX2, AVX-512) that has a
//! kernel of its own for it: the first backend's outputs are hashed, the others'
//! compared with them byte for byte. The test profile is optimised (`opt-level = 3`); each
//! target takes a few seconds (conversion on two threads while the previous chunk
//! is hashed).

use promo_core::cast::{element_size, Backend, CastOptions, Converter, NEWEST_OPSET};
use promo_core::narrow::RoundMode;
use promo_core::DType;
use promo_tests::data_path;
use sha2::{Digest, Sha256};

/// Outputs hashed at a time: 2^24 elements.
const CHUNK: usize = 1 << 24;

/// Inputs converted at a time: 2^14 f32 values (64 KiB, so they stay in cache).
const BLOCK: usize = 1 << 14;

/// Bytes per output in the hashed layout (4-bit codes one per byte).
fn output_bytes(to: DType) -> usize {
    element_size(to).expect("castable").div_ceil(8)
}

/// Fills `out` with the outputs for the f32 inputs `start..`, in the hashed layout.
fn convert_range(converter: &Converter, to: DType, start: u64, out: &mut [u8]) {
    let size = output_bytes(to);
    let mut input = vec![0u8; BLOCK * 4];
    let mut converted = Vec::with_capacity(BLOCK * size);
    for (b, block) in out.chunks_mut(BLOCK * size).enumerate() {
        let first = start + (b * BLOCK) as u64;
        let count = block.len() / size;
        // (Plain stores: `copy_from_slice` per element is slow with the test
        // profile's debug assertions.)
        for (i, slot) in input[..count * 4].chunks_exact_mut(4).enumerate() {
            let bits = (first as u32).wrapping_add(i as u32);
            slot[0] = bits as u8;
            slot[1] = (bits >> 8) as u8;
            slot[2] = (bits >> 16) as u8;
            slot[3] = (bits >> 24) as u8;
        }
        converted.clear();
        converter.convert_into(&input[..count * 4], count, &mut converted);
        if element_size(to) == Some(4) {
            // Unpack, element 0 of each byte in its low nibble.
            for (pair, byte) in block.chunks_exact_mut(2).zip(&converted) {
                pair[0] = byte & 0xf;
                pair[1] = byte >> 4;
            }
        } else {
            block.copy_from_slice(&converted);
        }
    }
}

/// Fills `out` with the outputs of chunk `k`, on two threads.
fn convert_chunk(converter: &Converter, to: DType, k: usize, out: &mut [u8]) {
    let start = (k * CHUNK) as u64;
    let (a, b) = out.split_at_mut(out.len() / 2);
    let half = (CHUNK / 2) as u64;
    std::thread::scope(|scope| {
        scope.spawn(|| convert_range(converter, to, start + half, b));
        convert_range(converter, to, start, a);
    });
}

/// SHA-256 over the outputs of `converters[0]` for every f32 input, hex; the other
/// converters (the same conversion on other backends) must give the same bytes,
/// compared chunk by chunk, or the test fails at the first input where they differ.
/// Chunk `k + 1` is converted while chunk `k` is hashed.
fn exhaustive_hash(converters: &[Converter], to: DType) -> String {
    let (first, others) = converters.split_first().expect("a converter");
    let mut hasher = Sha256::new();
    let chunks = (1usize << 32) / CHUNK;
    let size = CHUNK * output_bytes(to);
    let (mut ready, mut next) = (vec![0u8; size], vec![0u8; size]);
    let mut other = if others.is_empty() {
        Vec::new()
    } else {
        vec![0u8; size]
    };
    let convert = |k: usize, out: &mut [u8], other: &mut [u8]| {
        convert_chunk(first, to, k, out);
        for converter in others {
            convert_chunk(converter, to, k, other);
            if let Some(i) = out.iter().zip(other.iter()).position(|(a, b)| a != b) {
                let input = (k * CHUNK + i / output_bytes(to)) as u32;
                panic!(
                    "f32 {input:#010x} into {to}: {} gives byte {:#04x}, {} gives {:#04x}",
                    first.backend(),
                    out[i],
                    converter.backend(),
                    other[i]
                );
            }
        }
    };
    convert(0, &mut ready, &mut other);
    for k in 1..=chunks {
        std::thread::scope(|scope| {
            let hashing = scope.spawn(|| hasher.update(&ready));
            if k < chunks {
                convert(k, &mut next, &mut other);
            }
            hashing.join().expect("hashing thread");
        });
        std::mem::swap(&mut ready, &mut next);
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Every key of the reference file: `TARGET[/saturate=B][/round_mode=M]/opset=N`.
fn cases() -> Vec<(String, DType, CastOptions, String)> {
    let path = data_path("cast/exhaustive.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut out = Vec::new();
    for (key, entry) in data.as_object().expect("object") {
        if key.starts_with('_') {
            continue;
        }
        let mut parts = key.split('/');
        let to: DType = parts.next().unwrap().parse().expect("dtype");
        let mut options = CastOptions {
            saturate: Some(true),
            opset: NEWEST_OPSET,
            round_mode: RoundMode::Up,
        };
        for part in parts {
            match part.split_once('=') {
                Some(("saturate", v)) => options.saturate = Some(v == "true"),
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

/// The conversions into `to` with `options` to check exhaustively: one on each SIMD
/// backend this CPU has that has a kernel of its own for it (the scalar kernel,
/// which every SIMD kernel is also tested against element by element in
/// `promo-core`, when the CPU has none).
fn converters(to: DType, options: CastOptions) -> Vec<Converter> {
    let simd: Vec<Converter> = Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Portable)
        .map(|b| Converter::with_backend(DType::F32, to, options, b).expect("converter"))
        .filter(|c| c.backend() != Backend::Portable)
        .collect();
    if simd.is_empty() {
        vec![Converter::new(DType::F32, to, options).expect("converter")]
    } else {
        simd
    }
}

fn check(filter: impl Fn(DType) -> bool) {
    let mut checked = 0;
    for (key, to, options, expected) in cases().into_iter().filter(|c| filter(c.1)) {
        let converters = converters(to, options);
        let backends: Vec<&str> = converters.iter().map(|c| c.backend().name()).collect();
        let backends = backends.join(", ");
        let started = std::time::Instant::now();
        let actual = exhaustive_hash(&converters, to);
        eprintln!("{key} ({backends}): {:.1} s", started.elapsed().as_secs_f64());
        assert_eq!(
            actual, expected,
            "{key} ({backends}): promo's outputs for all 2^32 f32 inputs differ from the reference"
        );
        checked += converters.len();
    }
    assert!(checked > 0);
}

#[test]
fn every_f32_into_float8_matches_the_reference() {
    check(|d| {
        matches!(
            d,
            DType::F8E4M3FN | DType::F8E4M3FNUZ | DType::F8E5M2 | DType::F8E5M2FNUZ
        )
    });
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

/// Every `f32` key of the ml_dtypes file: `TARGET` (the default options) and
/// `TARGET/saturate=true`.
fn ml_dtypes_cases() -> Vec<(String, DType, CastOptions, String)> {
    let path = data_path("cast/ml_dtypes_exhaustive.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut out = Vec::new();
    for (key, entry) in data.as_object().expect("object") {
        if key.starts_with('_') || key == "decode" {
            continue;
        }
        let (name, saturate) = match key.split_once('/') {
            Some((name, "saturate=true")) => (name, Some(true)),
            None => (key.as_str(), None),
            _ => panic!("bad key {key}"),
        };
        let options = CastOptions {
            saturate,
            ..CastOptions::default()
        };
        let sha = entry["f32"]["sha256"].as_str().expect("sha256").to_owned();
        out.push((key.clone(), name.parse().expect("dtype"), options, sha));
    }
    out
}

#[test]
fn every_f32_into_the_ml_dtypes_formats_matches_ml_dtypes() {
    let cases = ml_dtypes_cases();
    assert_eq!(cases.len(), 8, "five formats, three with a saturating key");
    for (key, to, options, expected) in cases {
        let started = std::time::Instant::now();
        let converters = converters(to, options);
        let actual = exhaustive_hash(&converters, to);
        eprintln!("{key}: {:.1} s", started.elapsed().as_secs_f64());
        assert_eq!(
            actual, expected,
            "{key}: promo's outputs for all 2^32 f32 inputs differ from ml_dtypes'"
        );
    }
}

/// Triton's `tl.float8e4b15` (`f8e4m3b15`): all 2^32 f32 inputs against the hash that
/// `tools/oracles/cast/gen_triton.py` computed by running Triton's own conversion PTX
/// (`tests/data/cast/triton_f8e4m3b15.json`), with every saturate option (Triton's
/// conversion always clamps, so none may change a byte).
#[test]
fn every_f32_into_f8e4m3b15_matches_triton() {
    let path = data_path("cast/triton_f8e4m3b15.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let expected = data["f32"].as_str().expect("f32 sha256");
    let started = std::time::Instant::now();
    let converters = converters(DType::F8E4M3B15, CastOptions::default());
    assert_eq!(exhaustive_hash(&converters, DType::F8E4M3B15), expected);
    eprintln!("f8e4m3b15: {:.1} s", started.elapsed().as_secs_f64());
}
