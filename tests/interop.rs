//! promo against the real crates its interop features name: the `float8` crate's
//! types decode every code exactly as promo's twins do, and every safetensors dtype
//! maps to a promo dtype of the same width, and back. (candle-core's large build is
//! checked once, outside the workspace: `.ci/candle`, run by `.ci/external`.)

use promo_core::interop::{from_float8, from_float8_mut, to_float8};
use promo_core::narrow::{f8e4m3fn, f8e5m2};
use promo_core::rules::torch::Torch;
use promo_core::{DType, Op, RuleSet};

/// Every code of a promo float8 type and its `float8` twin: the same bits both
/// ways, and the same value (NaN where the other is NaN).
macro_rules! twins_agree {
    ($ours:ty, $theirs:ty) => {{
        for code in 0..=255u8 {
            let ours = <$ours>::from_bits(code);
            let theirs = <$theirs>::from(ours);
            assert_eq!(theirs.to_bits(), code);
            assert_eq!(<$ours>::from(theirs).to_bits(), code);
            let (a, b) = (ours.to_f32(), theirs.to_f32());
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "code {code:#04x}: promo {a}, float8 {b}"
            );
        }
    }};
}

#[test]
fn float8_crate_types_decode_every_code_as_promo_does() {
    twins_agree!(f8e4m3fn, float8::F8E4M3);
    twins_agree!(f8e5m2, float8::F8E5M2);
}

#[test]
fn float8_slices_are_viewed_without_copying() {
    let mut ours: Vec<f8e4m3fn> = (0..=255u8).map(f8e4m3fn::from_bits).collect();
    let theirs: &[float8::F8E4M3] = to_float8(&ours);
    assert_eq!(theirs.as_ptr() as usize, ours.as_ptr() as usize);
    assert!(theirs.iter().zip(0..=255u8).all(|(x, code)| x.to_bits() == code));
    let back: &[f8e4m3fn] = from_float8::<f8e4m3fn>(theirs);
    assert_eq!(back.len(), 256);
    let mut fives = vec![float8::F8E5M2::from_f32(2.0); 3];
    from_float8_mut::<f8e5m2>(&mut fives)[1] = f8e5m2::from_f32(-0.5);
    assert_eq!(fives[1].to_f32(), -0.5);
    ours.truncate(0);
}

const SAFETENSORS: [safetensors::Dtype; 22] = {
    use safetensors::Dtype::*;
    [
        BOOL,
        F4,
        F6_E2M3,
        F6_E3M2,
        U8,
        I8,
        F8_E5M2,
        F8_E4M3,
        F8_E8M0,
        F8_E4M3FNUZ,
        F8_E5M2FNUZ,
        I16,
        U16,
        F16,
        BF16,
        I32,
        U32,
        F32,
        C64,
        F64,
        I64,
        U64,
    ]
};

#[test]
fn every_safetensors_dtype_maps_to_a_promo_dtype_of_its_width_and_back() {
    for s in SAFETENSORS {
        let d = DType::try_from(s).unwrap_or_else(|e| panic!("{e}"));
        let bits = if d == DType::Bool { 8 } else { d.bits() };
        assert_eq!(s.bitsize(), bits as usize, "{s:?} -> {d}");
        assert_eq!(safetensors::Dtype::try_from(d), Ok(s));
    }
    // The serialized names: safetensors writes `F8_E4M3` for PyTorch's float8_e4m3fn.
    let name = serde_json::to_string(&safetensors::Dtype::F8_E4M3).unwrap();
    assert_eq!(name, "\"F8_E4M3\"");
    assert_eq!(
        "float8_e4m3fn".parse::<DType>().ok(),
        DType::try_from(safetensors::Dtype::F8_E4M3).ok()
    );
}

#[test]
fn two_safetensors_tensors_promote_in_one_line() {
    use safetensors::Dtype;
    let promoted = |a: Dtype, b: Dtype| {
        Torch::promote(Op::Add, DType::try_from(a).unwrap(), DType::try_from(b).unwrap())
    };
    assert_eq!(promoted(Dtype::BF16, Dtype::F16), Ok(DType::F32));
    assert_eq!(promoted(Dtype::U8, Dtype::I8), Ok(DType::I16));
    assert!(promoted(Dtype::F8_E4M3, Dtype::F8_E5M2).is_err());
}
