//! promo-core's `candle-core` feature against candle itself: every candle dtype
//! maps to a promo dtype of its width and kind and back, and candle's own element
//! types for its float8 and half dtypes are the ones promo's conversions name.

#[cfg(test)]
mod tests {
    use candle_core::WithDType;
    use promo_core::interop::NotInCrate;
    use promo_core::narrow::f8e4m3fn;
    use promo_core::rules::torch::Torch;
    use promo_core::{Category, DType, Op, RuleSet};

    /// Every candle dtype; the conversion's `match` names the same variants.
    const CANDLE: [candle_core::DType; 14] = {
        use candle_core::DType::*;
        [U8, U32, I16, I32, I64, BF16, F16, F32, F64, F8E4M3, F6E2M3, F6E3M2, F4, F8E8M0]
    };

    #[test]
    fn every_candle_dtype_maps_to_a_promo_dtype_of_its_width_and_kind() {
        for c in CANDLE {
            let d = DType::try_from(c).unwrap_or_else(|e| panic!("{e}"));
            // candle gives its sub-byte dtypes 0 bytes; their names spell the width.
            let bits = match c.size_in_bytes() {
                0 => c.as_str()[1..2].parse::<u32>().unwrap(),
                n => 8 * n as u32,
            };
            assert_eq!(d.bits(), bits, "{c:?} -> {d}");
            assert_eq!(c.is_float(), d.category() == Category::Float, "{c:?} -> {d}");
            let int = matches!(d.category(), Category::Signed | Category::Unsigned);
            assert_eq!(c.is_int(), int, "{c:?} -> {d}");
            assert_eq!(candle_core::DType::try_from(d), Ok(c));
        }
        assert_eq!(
            candle_core::DType::try_from(DType::I8),
            Err(NotInCrate { dtype: DType::I8, krate: "candle-core" })
        );
    }

    #[test]
    fn candle_element_types_are_the_ones_promo_converts_to() {
        // candle stores F8E4M3 tensors as `float8::F8E4M3`: promo's f8e4m3fn, bit for bit.
        assert_eq!(DType::try_from(<float8::F8E4M3 as WithDType>::DTYPE), Ok(DType::F8E4M3FN));
        for code in 0..=255u8 {
            let theirs = float8::F8E4M3::from_bits(code);
            let ours = f8e4m3fn::from(theirs);
            let (a, b) = (ours.to_f32(), theirs.to_f32());
            assert!(a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()), "{code:#04x}");
        }
        assert_eq!(DType::try_from(<half::bf16 as WithDType>::DTYPE), Ok(DType::BF16));
        assert_eq!(DType::try_from(<half::f16 as WithDType>::DTYPE), Ok(DType::F16));
        assert_eq!(DType::try_from(<u32 as WithDType>::DTYPE), Ok(DType::U32));
    }

    #[test]
    fn two_candle_tensors_promote_in_one_line() -> Result<(), Box<dyn std::error::Error>> {
        let a = candle_core::Tensor::zeros(2, candle_core::DType::BF16, &candle_core::Device::Cpu)?;
        let b = candle_core::Tensor::zeros(2, candle_core::DType::F16, &candle_core::Device::Cpu)?;
        let promoted = Torch::promote(Op::Add, DType::try_from(a.dtype())?, DType::try_from(b.dtype())?);
        assert_eq!(promoted, Ok(DType::F32));
        Ok(())
    }
}
