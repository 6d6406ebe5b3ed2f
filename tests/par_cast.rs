//! The parallel casts (feature `rayon`) give the one-thread casts' bytes and
//! errors: every castable pair on pools of 2, 3 and 4 threads (whatever this
//! machine's core count), sizes at and around the threshold and the chunk
//! boundaries, packed types with odd counts, typed slices with and without a byte
//! view, and streams.

use promo_core::cast::{
    cast_slice, cast_vec, convert_stream, convert_stream_exact, convert_to_slice, element_size,
    par_cast_slice, par_cast_vec, par_convert_stream, par_convert_stream_exact, par_convert_to_slice,
    CastOptions, CastSource, CastTarget, ConvertError, Converter, StreamError, PAR_BLOCK_BYTES,
    PAR_MIN_ELEMENTS,
};
use promo_core::narrow::{f4e2m1, f8e4m3fn, f8e5m2fnuz, f8e8m0, i2, i4, u4};
use promo_core::{bf16, f16, DType, Element};
use std::fmt::Debug;

/// Runs `f` on a rayon pool of `threads` threads.
fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// `len` bytes of a xorshift stream seeded with `seed`.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn castable() -> Vec<DType> {
    DType::ALL
        .iter()
        .copied()
        .filter(|&d| element_size(d).is_some())
        .collect()
}

/// Counts at and around `PAR_MIN_ELEMENTS` and around the chunk boundaries of a
/// pool of `threads` threads (chunks are whole 64-byte lines, at most 512 elements).
fn counts(threads: usize) -> Vec<usize> {
    let m = PAR_MIN_ELEMENTS;
    let mut n = vec![0, 1, 7, 511, 513, m - 1, m, m + 1, m + 7, 2 * m + 3];
    for lines in [1, 3] {
        let boundary = threads * m.div_ceil(threads).next_multiple_of(512) * lines;
        n.extend([boundary - 1, boundary, boundary + 1, boundary + 255]);
    }
    n
}

/// `par_convert_to_slice` of `n` elements of `from` (noise) into `to` gives
/// `convert_to_slice`'s result and bytes, the bytes past the output included.
fn same_buffer(from: DType, to: DType, n: usize, options: &CastOptions) {
    let bits = element_size(from).unwrap();
    let seed = ((n as u64) << 16) ^ (from as u64 * 131) ^ to as u64;
    let src = noise(seed, (n * bits).div_ceil(8));
    let out_len = (n * element_size(to).unwrap()).div_ceil(8) + 3;
    let mut one = vec![0xa5u8; out_len];
    let mut par = vec![0xa5u8; out_len];
    let a = convert_to_slice(from, to, &src, &mut one, options);
    let b = par_convert_to_slice(from, to, &src, &mut par, options);
    assert_eq!(a, b, "{from} -> {to}, {n} elements");
    assert!(one == par, "{from} -> {to}, {n} elements: the bytes differ");
}

#[test]
fn every_pair_gives_the_one_thread_bytes() {
    let n = PAR_MIN_ELEMENTS + 77;
    let dtypes = castable();
    assert!(dtypes.len() >= 25, "{dtypes:?}");
    on_pool(3, || {
        for &from in &dtypes {
            for &to in &dtypes {
                same_buffer(from, to, n, &CastOptions::default());
            }
        }
    });
}

#[test]
fn other_options_give_the_one_thread_bytes() {
    let options = [
        CastOptions {
            saturate: Some(false),
            ..CastOptions::default()
        },
        CastOptions {
            saturate: Some(true),
            opset: 19,
            round_mode: promo_core::narrow::RoundMode::Nearest,
        },
    ];
    on_pool(2, || {
        for o in &options {
            for (from, to) in [
                (DType::F32, DType::F8E4M3FN),
                (DType::F32, DType::F8E5M2FNUZ),
                (DType::F16, DType::F8E5M2),
                (DType::F32, DType::F8E8M0),
                (DType::F64, DType::F4E2M1),
            ] {
                same_buffer(from, to, 3 * PAR_MIN_ELEMENTS + 5, o);
            }
        }
    });
}

#[test]
fn sizes_around_the_chunk_boundaries() {
    // Packed sides both ways (odd counts leave a padded last byte), byte and wide types.
    let pairs = [
        (DType::F32, DType::F8E4M3FN),
        (DType::F32, DType::BF16),
        (DType::F8E4M3FN, DType::F32),
        (DType::F32, DType::F4E2M1),
        (DType::F4E2M1, DType::F32),
        (DType::I4, DType::U2),
        (DType::U2, DType::F64),
        (DType::F64, DType::I2),
        (DType::I32, DType::Bool),
        (DType::U8, DType::U8),
        (DType::U4, DType::U4),
    ];
    for threads in [2, 3, 4] {
        on_pool(threads, || {
            for (from, to) in pairs {
                for n in counts(threads) {
                    // A packed source holds whole bytes here; its odd counts go through
                    // the exact streams below.
                    let n = if element_size(from).unwrap() < 8 {
                        n & !7
                    } else {
                        n
                    };
                    same_buffer(from, to, n, &CastOptions::default());
                }
            }
        });
    }
}

#[test]
fn errors_are_the_one_thread_errors() {
    let o = CastOptions::default();
    let n = 2 * PAR_MIN_ELEMENTS;
    let src = noise(5, 4 * n + 3);
    on_pool(2, || {
        for (from, to, src, dst_len) in [
            // A trailing partial element.
            (DType::F32, DType::F16, &src[..], 2 * n + 2),
            // A destination one byte short.
            (DType::F32, DType::F8E4M3FN, &src[..4 * n], n - 1),
            (DType::F32, DType::I4, &src[..4 * n], n / 2 - 1),
            // Not castable.
            (DType::C64, DType::F32, &src[..], 4 * n),
        ] {
            let mut one = vec![0x3cu8; dst_len];
            let mut par = one.clone();
            let a = convert_to_slice(from, to, src, &mut one, &o);
            let b = par_convert_to_slice(from, to, src, &mut par, &o);
            assert!(a.is_err(), "{from} -> {to}");
            assert_eq!(a, b, "{from} -> {to}");
            assert!(par.iter().all(|&b| b == 0x3c), "{from} -> {to}: dst touched");
        }
    });
}

/// An element's bit pattern, to compare results (NaN != NaN).
trait Code {
    fn code(&self) -> u64;
}

macro_rules! codes {
    ($($t:ty: |$x:ident| $e:expr;)*) => {
        $(impl Code for $t {
            fn code(&self) -> u64 {
                let $x = *self;
                $e as u64
            }
        })*
    };
}

codes! {
    f32: |x| x.to_bits();
    f64: |x| x.to_bits();
    f16: |x| x.to_bits();
    bf16: |x| x.to_bits();
    f8e4m3fn: |x| x.to_bits();
    f8e5m2fnuz: |x| x.to_bits();
    f8e8m0: |x| x.to_bits();
    f4e2m1: |x| x.to_bits();
    i4: |x| x.to_bits();
    u4: |x| x.to_bits();
    i2: |x| x.to_bits();
    i32: |x| x;
    u8: |x| x;
    bool: |x| x;
}

/// `par_cast_slice` and `par_cast_vec` agree with `cast_slice` and `cast_vec`,
/// bit for bit, on `src`, and refuse a length mismatch as `cast_slice` does.
fn same_typed<S, T>(src: &[S])
where
    S: Element + CastSource,
    T: Element + CastTarget + Default + PartialEq + Debug + Code,
{
    let o = CastOptions::default();
    let mut one = vec![T::default(); src.len()];
    let mut par = vec![T::default(); src.len()];
    cast_slice(src, &mut one, &o).unwrap();
    par_cast_slice(src, &mut par, &o).unwrap();
    // Compared as bits where the type has them (NaN != NaN).
    let bits = |v: &[T]| -> Vec<u64> { v.iter().map(Code::code).collect() };
    assert_eq!(
        bits(&one),
        bits(&par),
        "{} -> {}, {}",
        S::DTYPE,
        T::DTYPE,
        src.len()
    );
    let vec: Vec<T> = par_cast_vec(src, &o);
    assert_eq!(
        bits(&cast_vec(src, &o)),
        bits(&vec),
        "{} -> {} (vec)",
        S::DTYPE,
        T::DTYPE
    );
    // One short: the same error, and nothing written.
    if let Some(short) = src.len().checked_sub(1) {
        let mut dst = vec![T::default(); short];
        assert_eq!(
            par_cast_slice(src, &mut dst, &o),
            Err(ConvertError::LengthMismatch {
                src: src.len(),
                dst: short
            })
        );
        assert!(dst.iter().all(|d| *d == T::default()));
    }
}

/// `n` source values built from noise bytes by `make`.
fn values<S>(n: usize, make: impl Fn(u8, u8) -> S) -> Vec<S> {
    let b = noise(n as u64, 2 * n);
    b.chunks_exact(2).map(|p| make(p[0], p[1])).collect()
}

#[test]
fn typed_slices_give_the_one_thread_bits() {
    for threads in [2, 3] {
        on_pool(threads, || {
            for n in counts(threads) {
                let f32s = values(n, |a, b| {
                    f32::from_bits(u32::from(a) << 24 | u32::from(b) << 15 | 0x1234)
                });
                same_typed::<f32, f8e4m3fn>(&f32s);
                same_typed::<f32, bf16>(&f32s);
                same_typed::<f32, f16>(&f32s);
                same_typed::<f32, f8e8m0>(&f32s);
                same_typed::<f32, i32>(&f32s);
                // Without a byte view: element by element.
                same_typed::<f32, f4e2m1>(&f32s);
                same_typed::<f32, i4>(&f32s);
                same_typed::<f32, bool>(&f32s);
                let f8s = values(n, |a, _| f8e4m3fn::from_bits(a));
                same_typed::<f8e4m3fn, f32>(&f8s);
                same_typed::<f8e4m3fn, f8e5m2fnuz>(&f8s);
                let nibbles = values(n, |a, _| i4::from_bits(a & 0xf));
                same_typed::<i4, f32>(&nibbles);
                same_typed::<i4, u4>(&nibbles);
                same_typed::<i4, i2>(&nibbles);
                let bools = values(n, |a, _| a & 1 == 1);
                same_typed::<bool, f64>(&bools);
                let longs = values(n, |a, b| i64::from(a) << 56 | i64::from(b) << 7);
                same_typed::<i64, u8>(&longs);
                same_typed::<i64, f32>(&longs);
            }
        });
    }
}

/// The parallel stream gives the one-thread stream's bytes, count and error.
fn same_stream(from: DType, to: DType, input: &[u8], count: Option<u64>) {
    let c = Converter::new(from, to, CastOptions::default()).unwrap();
    let (mut one, mut par) = (Vec::new(), Vec::new());
    let (a, b) = match count {
        Some(n) => (
            convert_stream_exact(&c, &mut &input[..], &mut one, n),
            par_convert_stream_exact(&c, &mut &input[..], &mut par, n),
        ),
        None => (
            convert_stream(&c, &mut &input[..], &mut one),
            par_convert_stream(&c, &mut &input[..], &mut par),
        ),
    };
    let shown = |r: Result<u64, StreamError>| r.map_err(|e| e.to_string());
    assert_eq!(
        shown(a),
        shown(b),
        "{from} -> {to}, {} bytes, {count:?}",
        input.len()
    );
    assert!(
        one == par,
        "{from} -> {to}, {} bytes, {count:?}: the bytes differ",
        input.len()
    );
}

#[test]
fn streams_give_the_one_thread_bytes_and_errors() {
    on_pool(2, || {
        // Past one block of the larger side, ending inside an element.
        let big = noise(9, PAR_BLOCK_BYTES + PAR_BLOCK_BYTES / 3 + 2);
        same_stream(DType::F32, DType::F8E4M3FN, &big, None);
        same_stream(DType::F32, DType::F8E4M3FN, &big[..big.len() - 2], None);
        same_stream(DType::F8E4M3FN, DType::F32, &big[..PAR_BLOCK_BYTES / 2 + 1], None);
        same_stream(DType::U2, DType::F64, &big[..PAR_BLOCK_BYTES / 16 + 3], None);
        // Packed sources with odd exact counts; a count the input is short of, or
        // exceeds.
        let bytes = PAR_BLOCK_BYTES / 4 + 3;
        let odd = (bytes * 2 - 1) as u64;
        same_stream(DType::I4, DType::F32, &big[..bytes], Some(odd));
        same_stream(DType::F4E2M1, DType::U2, &big[..bytes], Some(odd));
        same_stream(DType::I2, DType::I8, &big[..bytes], Some((bytes * 4 - 3) as u64));
        same_stream(DType::I4, DType::F32, &big[..bytes - 1], Some(odd));
        same_stream(DType::I4, DType::F32, &big[..bytes], Some(odd - 2));
        same_stream(DType::F32, DType::I4, &big[..4 * 1001], Some(1001));
        same_stream(DType::F32, DType::I4, &[], Some(0));
        same_stream(DType::F32, DType::I4, &[], None);
    });
}
