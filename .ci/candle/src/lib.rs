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

    /// candle's dtypes that it computes arithmetic in on the CPU.
    const COMPUTES: [candle_core::DType; 9] = {
        use candle_core::DType::*;
        [U8, U32, I16, I32, I64, BF16, F16, F32, F64]
    };

    fn tensor(values: &[f64], dtype: candle_core::DType) -> candle_core::Tensor {
        made(values, dtype).unwrap()
    }

    /// A tensor of `values` in `dtype`, where candle's CPU backend can make one.
    fn made(values: &[f64], dtype: candle_core::DType) -> candle_core::Result<candle_core::Tensor> {
        candle_core::Tensor::new(values, &candle_core::Device::Cpu)?.to_dtype(dtype)
    }

    /// Every pair of candle dtypes under three rule sets: the promoted dtype is the
    /// rule set's, a refusal is the rule set's refusal, and a promoted dtype candle
    /// lacks is `NotInCandle`; where candle computes, `add` gives the promoted dtype
    /// and the sum of the values (small integers, exact in every dtype).
    #[test]
    fn every_pair_promotes_as_the_rule_set_says_and_adds_in_that_dtype() {
        use promo_core::interop::candle::{self, Error};
        use promo_core::rules::{jax::Jax, numpy::NumPy};
        fn check<R: RuleSet>(name: &str) -> (usize, usize, usize) {
            let (mut added, mut refused, mut absent) = (0, 0, 0);
            // candle's CPU backend makes no tensor of its float6 and float4 dtypes.
            let makes: Vec<candle_core::DType> = CANDLE.into_iter().filter(|&d| made(&[1.0], d).is_ok()).collect();
            assert!(COMPUTES.iter().chain([&candle_core::DType::F8E4M3]).all(|d| makes.contains(d)), "{makes:?}");
            for &a in &makes {
                for &b in &makes {
                    let (x, y) = (tensor(&[1.0, 2.0, 3.0], a), tensor(&[4.0, 1.0, 0.0], b));
                    let want = R::promote(Op::Add, DType::try_from(a).unwrap(), DType::try_from(b).unwrap());
                    match (candle::promoted_dtype::<R>(Op::Add, &x, &y), want) {
                        (Ok(got), Ok(want)) => assert_eq!(DType::try_from(got), Ok(want), "{name} {a:?} {b:?}"),
                        (Err(Error::Refused(r)), Err(want)) => {
                            assert_eq!(r, want, "{name} {a:?} {b:?}");
                            refused += 1;
                            continue;
                        }
                        (Err(Error::NotInCandle(e)), Ok(want)) => {
                            assert_eq!(e.dtype, want, "{name} {a:?} {b:?}");
                            absent += 1;
                            continue;
                        }
                        (got, want) => panic!("{name} {a:?} {b:?}: {got:?}, the rule set says {want:?}"),
                    }
                    if COMPUTES.contains(&a) && COMPUTES.contains(&b) {
                        let to = candle::promoted_dtype::<R>(Op::Add, &x, &y).unwrap();
                        if !COMPUTES.contains(&to) {
                            continue;
                        }
                        let sum = candle::add::<R>(&x, &y).unwrap_or_else(|e| panic!("{name} {a:?} {b:?}: {e}"));
                        assert_eq!(sum.dtype(), to, "{name} {a:?} {b:?}");
                        let values = sum.to_dtype(candle_core::DType::F64).unwrap().to_vec1::<f64>().unwrap();
                        assert_eq!(values, [5.0, 3.0, 3.0], "{name} {a:?} {b:?}");
                        added += 1;
                    }
                }
            }
            (added, refused, absent)
        }
        for (name, counts) in [("torch", check::<Torch>("torch")), ("numpy", check::<NumPy>("numpy")), ("jax", check::<Jax>("jax"))] {
            eprintln!("{name}: {counts:?} (added, refused, promoted to a dtype candle lacks)");
            assert!(counts.0 > 20, "{name}: {counts:?}");
        }
    }

    /// The mistral.rs case: bf16 activations plus an f32 tensor, which candle's own
    /// `add` refuses, is an f32 tensor under PyTorch's rules.
    #[test]
    fn bf16_plus_f32_is_f32_where_candle_refuses_the_pair() {
        use promo_core::interop::candle;
        let hidden = tensor(&[1.5, -2.0, 0.1], candle_core::DType::BF16);
        let bias = tensor(&[0.25, 4.0, 0.2], candle_core::DType::F32);
        assert!(hidden.broadcast_add(&bias).is_err(), "candle itself refuses mixed dtypes");
        let sum = candle::add::<Torch>(&hidden, &bias).unwrap();
        assert_eq!(sum.dtype(), candle_core::DType::F32);
        // bf16 0.1 is 0.10009765625: the bf16 operand is widened exactly, then added in f32.
        assert_eq!(sum.to_vec1::<f32>().unwrap(), [1.75, 2.0, 0.10009765625 + 0.2]);
        let (a, b) = candle::promote_pair::<Torch>(Op::Add, &hidden, &bias).unwrap();
        assert_eq!((a.dtype(), b.dtype()), (candle_core::DType::F32, candle_core::DType::F32));
    }

    /// Integer true division is in the float dtype the rule set gives, with its values;
    /// an operation apply does not compute, and a refused pair, are errors.
    #[test]
    fn division_refusals_and_other_ops() {
        use promo_core::interop::candle::{self, Error};
        let (seven, two) = (tensor(&[7.0, -7.0], candle_core::DType::I64), tensor(&[2.0, 2.0], candle_core::DType::I64));
        let q = candle::div::<Torch>(&seven, &two).unwrap();
        assert_eq!(q.dtype(), candle_core::DType::F32);
        assert_eq!(q.to_vec1::<f32>().unwrap(), [3.5, -3.5]);
        assert!(matches!(candle::apply::<Torch>(Op::Pow, &seven, &two), Err(Error::NotComputed(Op::Pow))));
        let f8 = tensor(&[1.0], candle_core::DType::F8E4M3);
        let bf = tensor(&[1.0], candle_core::DType::BF16);
        let refused = candle::add::<Torch>(&f8, &bf).unwrap_err();
        assert!(matches!(refused, Error::Refused(_)), "{refused}");
        assert!(refused.to_string().starts_with("refused: "), "{refused}");
        let max = candle::maximum::<Torch>(&tensor(&[1.0, 5.0], candle_core::DType::U8), &tensor(&[3.0, -1.0], candle_core::DType::I16)).unwrap();
        assert_eq!(max.dtype(), candle_core::DType::I16);
        assert_eq!(max.to_vec1::<i16>().unwrap(), [3, 5]);
    }
}

