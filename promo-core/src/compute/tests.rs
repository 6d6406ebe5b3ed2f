//! The fused kernels against the plain path, on every backend this CPU has: every
//! operation, the pairs the kernels take (and some they do not), lengths around
//! the block size, and a single element broadcast on either side.

use super::{Computation, ComputeError, Semantics, OPS};
use crate::cast::{element_size, Backend};
use crate::{rules, DType};

/// Dtypes whose pairs reach the fused kernels (and a few that never do).
const DTYPES: &[DType] = &[
    DType::F32,
    DType::F16,
    DType::BF16,
    DType::F8E4M3FN,
    DType::F8E5M2,
    DType::F8E4M3FNUZ,
    DType::F4E2M1,
    DType::I8,
    DType::U8,
    DType::I16,
    DType::Bool,
    DType::I32,
];

/// `n` codes of `dtype`: every code of an 8-bit or narrower type in turn, else
/// random bits with a special value every few elements.
fn codes(dtype: DType, n: usize, seed: u64) -> Vec<u8> {
    let bits = element_size(dtype).expect("buffers");
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let specials: [u64; 6] = match dtype {
        DType::F32 => [0, 0x8000_0000, 0x7f80_0000, 0x7fc0_0000, 0x0000_0001, 0x3f80_0000],
        DType::F16 => [0, 0x8000, 0x7c00, 0x7e00, 0x0001, 0x3c00],
        DType::BF16 => [0, 0x8000, 0x7f80, 0x7fc0, 0x0001, 0x3f80],
        _ => [0, 1, 2, 3, 0x7f, 0x80],
    };
    let mut all = |i: usize| -> u64 {
        match dtype {
            DType::Bool => (i % 2) as u64,
            _ if bits <= 8 => (i as u64 * 97 + seed) % (1 << bits),
            _ if i.is_multiple_of(5) => specials[(i / 5) % specials.len()],
            _ => next() & (u64::MAX >> (64 - bits)),
        }
    };
    let mut out = vec![0u8; (n * bits).div_ceil(8)];
    for i in 0..n {
        let c = all(i);
        if bits >= 8 {
            out[i * bits / 8..(i + 1) * bits / 8].copy_from_slice(&c.to_le_bytes()[..bits / 8]);
        } else {
            out[i * bits / 8] |= (c as u8) << (i * bits % 8);
        }
    }
    out
}

/// Whether two result buffers agree: the same bits, or NaN of the same float
/// format where it has several NaN codes (which NaN an operation on two NaNs
/// gives is the compiler's choice of operand order).
fn agree(dtype: DType, a: &[u8], b: &[u8]) -> bool {
    let (width, nan): (usize, fn(u64) -> bool) = match dtype {
        DType::F32 => (4, |c| c & 0x7fff_ffff > 0x7f80_0000),
        DType::F16 => (2, |c| c & 0x7fff > 0x7c00),
        DType::BF16 => (2, |c| c & 0x7fff > 0x7f80),
        DType::F8E4M3FN => (1, |c| c & 0x7f == 0x7f),
        DType::F8E5M2 => (1, |c| c & 0x7f > 0x7c),
        _ => return a == b,
    };
    a.chunks(width).zip(b.chunks(width)).all(|(x, y)| {
        let (x, y) = (
            x.iter().rev().fold(0u64, |c, &v| c << 8 | u64::from(v)),
            y.iter().rev().fold(0u64, |c, &v| c << 8 | u64::from(v)),
        );
        x == y || (nan(x) && nan(y))
    })
}

#[test]
fn fused_kernels_compute_what_the_plain_path_computes() {
    let mut fused = 0;
    for table in rules::ALL.iter().filter(|t| Semantics::of(t.name).is_some()) {
        let options = table.default_options();
        for op in OPS {
            for &lhs in DTYPES {
                for &rhs in DTYPES {
                    let Ok(plain) =
                        Computation::with_backend(table, &options, op, lhs, rhs, Backend::Portable)
                    else {
                        continue;
                    };
                    for backend in Backend::available() {
                        let m = Computation::with_backend(table, &options, op, lhs, rhs, backend)
                            .expect("made once");
                        if m.backend() == Backend::Portable {
                            continue;
                        }
                        fused += 1;
                        for (n, one_lhs, one_rhs) in [
                            (1, false, false),
                            (31, false, false),
                            (32, false, false),
                            (33, false, false),
                            (257, false, false),
                            (1000, false, false),
                            (95, true, false),
                            (95, false, true),
                        ] {
                            let a = codes(lhs, if one_lhs { 1 } else { n }, n as u64);
                            let b = codes(rhs, if one_rhs { 1 } else { n }, n as u64 + 7);
                            let size = (n * element_size(m.result()).expect("buffers")).div_ceil(8);
                            let (mut want, mut got) = (vec![0u8; size], vec![0u8; size]);
                            plain.apply(&a, &b, &mut want, n).expect("plain");
                            m.apply(&a, &b, &mut got, n).expect("fused");
                            assert!(
                                agree(m.result(), &want, &got),
                                "{} {} {lhs} {rhs} n={n} one=({one_lhs}, {one_rhs}) on {backend}:\n{want:02x?}\n{got:02x?}",
                                table.name,
                                op.name()
                            );
                        }
                    }
                }
            }
        }
    }
    if Backend::available().len() > 1 {
        assert!(fused > 500, "only {fused} fused kernels ran");
    }
}

#[test]
fn bad_lengths_and_outputs_are_errors() {
    let numpy = &rules::numpy::TABLE;
    let add = Computation::new(
        numpy,
        &numpy.default_options(),
        crate::Op::Add,
        DType::F16,
        DType::F16,
    )
    .unwrap();
    let mut out = [0u8; 8];
    assert!(matches!(
        add.apply(&[0; 8], &[0; 6], &mut out, 4),
        Err(ComputeError::Length { operand: "rhs", .. })
    ));
    assert!(matches!(
        add.apply(&[0; 8], &[0; 8], &mut out[..6], 4),
        Err(ComputeError::OutputTooSmall { needed: 8, len: 6 })
    ));
    assert_eq!(add.apply(&[0; 8], &[0; 2], &mut out, 4), Ok(8));
    let refused = Computation::new(
        numpy,
        &numpy.default_options(),
        crate::Op::Add,
        DType::C64,
        DType::F16,
    );
    assert!(matches!(refused, Err(ComputeError::UnsupportedDType(DType::C64))));
    let sqrt = Computation::new(
        numpy,
        &numpy.default_options(),
        crate::Op::Sqrt,
        DType::F16,
        DType::F16,
    );
    assert!(matches!(sqrt, Err(ComputeError::UnsupportedOp(crate::Op::Sqrt))));
    let keras = &rules::keras::TABLE;
    let none = Computation::new(
        keras,
        &keras.default_options(),
        crate::Op::Add,
        DType::F16,
        DType::F16,
    );
    assert!(matches!(none, Err(ComputeError::NoSemantics(_))));
}

#[test]
fn fused_kernels_with_a_python_scalar_compute_what_the_plain_path_computes() {
    use super::{Scalar, Side};
    let scalars = [
        Scalar::Float(0.1),
        Scalar::Float(-0.0),
        Scalar::Float(f64::INFINITY),
        Scalar::Float(f64::NAN),
        Scalar::Float(1.0 + 2f64.powi(-11) + 2f64.powi(-30)),
        Scalar::Float(65519.0),
        Scalar::Int(3),
        Scalar::Bool(true),
    ];
    let mut fused = 0;
    for table in rules::ALL.iter().filter(|t| Semantics::of(t.name).is_some()) {
        let options = table.default_options();
        for op in OPS {
            for &array in DTYPES {
                for scalar in scalars {
                    for side in [Side::Lhs, Side::Rhs] {
                        let Ok(plain) = Computation::with_scalar_on(
                            table,
                            &options,
                            op,
                            array,
                            scalar,
                            side,
                            Backend::Portable,
                        ) else {
                            continue;
                        };
                        for backend in Backend::available() {
                            let m = Computation::with_scalar_on(
                                table, &options, op, array, scalar, side, backend,
                            )
                            .expect("made once");
                            if m.backend() == Backend::Portable {
                                continue;
                            }
                            fused += 1;
                            for n in [1, 33, 200] {
                                let a = codes(array, n, n as u64 + 3);
                                let (l, r): (&[u8], &[u8]) = match side {
                                    Side::Lhs => (&[], &a),
                                    Side::Rhs => (&a, &[]),
                                };
                                let size = (n * element_size(m.result()).expect("buffers")).div_ceil(8);
                                let (mut want, mut got) = (vec![0u8; size], vec![0u8; size]);
                                plain.apply(l, r, &mut want, n).expect("plain");
                                m.apply(l, r, &mut got, n).expect("fused");
                                assert!(
                                    agree(m.result(), &want, &got),
                                    "{} {} {array} {scalar:?} {side:?} n={n} on {backend}:\n{want:02x?}\n{got:02x?}",
                                    table.name,
                                    op.name()
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    if Backend::available().len() > 1 {
        assert!(fused > 200, "only {fused} fused kernels ran");
    }
}

/// `par_apply` splits large computations across rayon's threads: the same bits as
/// `apply`, packed dtypes, broadcasts and the fused path's aligned head included.
#[cfg(feature = "rayon")]
#[test]
fn par_apply_gives_apply_s_bits() {
    let numpy = &rules::numpy::TABLE;
    let o = numpy.default_options();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .expect("a pool");
    for (op, lhs, rhs) in [
        (crate::Op::Add, DType::F16, DType::F16),
        (crate::Op::Multiply, DType::F4E2M1, DType::F4E2M1),
        (crate::Op::LessThan, DType::BF16, DType::F32),
        (crate::Op::Add, DType::I8, DType::I64),
    ] {
        let c = Computation::new(numpy, &o, op, lhs, rhs).expect("numpy computes it");
        for (n, one_rhs) in [
            (crate::cast::PAR_MIN_ELEMENTS * 3 + 77, false),
            (crate::cast::PAR_MIN_ELEMENTS + 5, true),
        ] {
            let a = codes(lhs, n, 1);
            let b = codes(rhs, if one_rhs { 1 } else { n }, 2);
            let size = (n * element_size(c.result()).expect("buffers")).div_ceil(8);
            // One byte in, so the output's alignment differs from the allocation's.
            let (mut want, mut got) = (vec![0u8; size + 1], vec![0u8; size + 1]);
            c.apply(&a, &b, &mut want[1..], n).expect("apply");
            pool.install(|| c.par_apply(&a, &b, &mut got[1..], n))
                .expect("par_apply");
            assert!(
                agree(c.result(), &want[1..], &got[1..]),
                "{} {lhs} {rhs} n={n}",
                op.name()
            );
        }
    }
}
