//! `convert_promote` (run-time dtypes) and `convert_promote_slices` (compile-time
//! types) agree with each other and with the promotion table.

use promo_core::cast::element_size;
use promo_core::convert_promote::{convert_promote, convert_promote_slices, Buffer, ConvertPromoteError};
use promo_core::rules::kernel_float::KernelFloat;
use promo_core::rules::openvino::OpenVinoUnsafe;
use promo_core::{bf16, f16, rules, DType, Element, Op, Promote, Promoted, RuleSet};

/// Little-endian bytes of a slice of plain numbers.
trait Bytes {
    fn bytes(v: &[Self]) -> Vec<u8>
    where
        Self: Sized;
}
macro_rules! bytes {
    ($($t:ty),*) => {$(
        impl Bytes for $t {
            fn bytes(v: &[Self]) -> Vec<u8> {
                v.iter().flat_map(|x| x.to_le_bytes()).collect()
            }
        }
    )*};
}
bytes!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, f16, bf16);

fn check<R, A, B>(a: &[A], b: &[B])
where
    R: RuleSet + Promote<A, B>,
    A: Element + Bytes,
    B: Element + Bytes,
    Promoted<R, A, B>: Bytes + promo_core::cast::CastFrom<A> + promo_core::cast::CastFrom<B>,
{
    let (x, y) = convert_promote_slices::<R, A, B>(a, b);
    let lhs = Buffer {
        dtype: A::DTYPE,
        bytes: &A::bytes(a),
    };
    let rhs = Buffer {
        dtype: B::DTYPE,
        bytes: &B::bytes(b),
    };
    let out = convert_promote(R::TABLE, &R::OPTIONS, Op::Add, lhs, rhs).unwrap();
    assert_eq!(out.dtype, DType::of::<Promoted<R, A, B>>());
    assert_eq!(out.lhs, Bytes::bytes(&x), "{} with {}", A::DTYPE, B::DTYPE);
    assert_eq!(out.rhs, Bytes::bytes(&y), "{} with {}", A::DTYPE, B::DTYPE);
}

#[test]
fn run_time_and_compile_time_agree() {
    let i8s = [i8::MIN, -1, 0, 1, i8::MAX];
    let u8s = [0u8, 1, 128, 255];
    let f32s = [f32::MIN, -1.5, 0.0, 1e-40, 3.25, f32::MAX, f32::INFINITY];
    check::<OpenVinoUnsafe, i8, u8>(&i8s, &u8s);
    check::<OpenVinoUnsafe, u8, f32>(&u8s, &f32s);
    check::<OpenVinoUnsafe, i64, f16>(&[i64::MIN, -7, 70000], &[f16::from_f32(0.5), f16::MAX]);
    check::<OpenVinoUnsafe, u64, i32>(&[0, u64::MAX], &[-1, i32::MAX]);
    check::<KernelFloat, f16, bf16>(&[f16::from_f32(1.0 / 3.0), f16::MIN], &[bf16::from_f32(1e30)]);
    check::<KernelFloat, i32, f64>(&[i32::MIN, 5], &[0.1, -2.5]);
    check::<KernelFloat, u16, u32>(&[0, u16::MAX], &[u32::MAX]);
}

#[test]
fn refusals_and_bad_buffers_are_errors() {
    let table = &rules::kernel_float::TABLE;
    let options = table.default_options();
    let i8s = Buffer {
        dtype: DType::I8,
        bytes: &[1],
    };
    let u8s = Buffer {
        dtype: DType::U8,
        bytes: &[1],
    };
    let err = convert_promote(table, &options, Op::Add, i8s, u8s).unwrap_err();
    assert!(matches!(err, ConvertPromoteError::Refused(_)), "{err}");
    assert!(err.to_string().starts_with("refused: "), "{err}");
    let partial = Buffer {
        dtype: DType::I32,
        bytes: &[1, 2, 3],
    };
    let err = convert_promote(table, &options, Op::Add, partial, i8s).unwrap_err();
    assert!(matches!(err, ConvertPromoteError::Convert(_)), "{err}");
    assert!(element_size(DType::I32).is_some());
}

/// A marker's conversion (its fixed table) gives what the table and the converters
/// give under its options, for every pair of dtypes; how many pairs it accepts.
fn check_marker<R: promo_core::RuleSet>() -> usize {
    use promo_core::convert_promote::convert_promote_as;
    let bytes: Vec<u8> = (0..128u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut kernels = 0;
    for &a in DType::ALL {
        for &b in DType::ALL {
            let width = |d: DType| (d.bits() as usize).div_ceil(8).max(1);
            let lhs = Buffer {
                dtype: a,
                bytes: &bytes[..8 * width(a)],
            };
            let rhs = Buffer {
                dtype: b,
                bytes: &bytes[..8 * width(b)],
            };
            let fast = convert_promote_as::<R>(lhs, rhs);
            let table = convert_promote(R::TABLE, &R::OPTIONS, Op::Add, lhs, rhs);
            assert_eq!(fast, table, "{} {a} {b}", R::TABLE.name);
            kernels += usize::from(fast.is_ok());
        }
    }
    kernels
}

#[test]
fn marker_conversions_agree_with_the_table() {
    use promo_core::rules::{dali::Dali, kernel_float::KernelFloat, openvino::*, paddle::Paddle};
    let counts = [
        check_marker::<OpenVino>(),
        check_marker::<OpenVinoUnsafe>(),
        check_marker::<OpenVinoPyTorch>(),
        check_marker::<OpenVinoPyTorchUnsafe>(),
        check_marker::<KernelFloat>(),
        check_marker::<Paddle>(),
        check_marker::<Dali>(),
    ];
    // Paddle refuses most mixed pairs in eager mode; the others accept most.
    assert!(counts.iter().all(|&n| n >= 20), "{counts:?}");
}
