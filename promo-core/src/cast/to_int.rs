//! f32 into the integer types of 32 bits or fewer, at the speed of the `cvtt`
//! instruction the scalar cast describes (see `FloatToInt`): truncate toward zero
//! to `i32`, `0x8000_0000` when out of range, ±∞ or NaN, then keep the target's low
//! bits; `u32` subtracts 2^31 first from values at or above it.
//!
//! With AVX2 (chosen once per call) 8 elements go through one `vcvttps2dq`, the
//! narrowing done by a byte shuffle; without it, each element takes the same steps
//! in f32 arithmetic (the scalar cast widens to f64 first, which gives the same
//! integer for every f32). The tests compare both paths with the scalar cast on all
//! 2^32 inputs for every target.

use super::buffer::Kernel;
use super::CastOptions;
use crate::DType;

/// An integer target: its width in bytes, and whether it is `u32` (2^31 and above
/// subtracted first).
pub(super) trait IntTarget {
    /// Bytes per element: 1, 2 or 4.
    const BYTES: usize;
    /// `u32`'s rule for values at or above 2^31.
    const U32: bool;
}

macro_rules! int_targets {
    ($($t:ty: $bytes:expr, $u32:expr;)*) => {$(
        impl IntTarget for $t {
            const BYTES: usize = $bytes;
            const U32: bool = $u32;
        }
    )*};
}
int_targets! { i8: 1, false; u8: 1, false; i16: 2, false; u16: 2, false; i32: 4, false; u32: 4, true; }

/// The fast kernel from f32 into `to`, if there is one.
pub(super) fn from_f32_kernel(to: DType) -> Option<Kernel> {
    Some(match to {
        DType::I8 => f32_to_int::<i8> as Kernel,
        DType::U8 => f32_to_int::<u8>,
        DType::I16 => f32_to_int::<i16>,
        DType::U16 => f32_to_int::<u16>,
        DType::I32 => f32_to_int::<i32>,
        DType::U32 => f32_to_int::<u32>,
        _ => return None,
    })
}

/// x86 `cvttss2si` to 32 bits, in f32: truncate, `i32::MIN` out of range or NaN.
#[inline]
fn cvtt(x: f32) -> i32 {
    if (-2147483648.0..2147483648.0).contains(&x) {
        x as i32
    } else {
        i32::MIN
    }
}

/// One element as the scalar cast computes it, before the target keeps its low bits.
#[inline]
fn to_i32<T: IntTarget>(x: f32) -> i32 {
    if T::U32 && x >= 2147483648.0 {
        cvtt(x - 2147483648.0) ^ i32::MIN
    } else {
        cvtt(x)
    }
}

/// `count` f32 values of `src` into `T`, with AVX2 where the CPU has it.
pub(super) fn f32_to_int<T: IntTarget>(src: &[u8], dst: &mut [u8], count: usize, _: &CastOptions) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above); the function stays inside
            // the slices it is given.
            done = unsafe { x86::f32_to_int::<T>(&src[..count * 4], &mut dst[..count * T::BYTES]) };
        }
    }
    f32_to_int_portable::<T>(
        &src[done * 4..count * 4],
        &mut dst[done * T::BYTES..count * T::BYTES],
    );
}

/// The element-by-element path every CPU has.
pub(super) fn f32_to_int_portable<T: IntTarget>(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(T::BYTES)) {
        let x = f32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        d.copy_from_slice(&to_i32::<T>(x).to_le_bytes()[..T::BYTES]);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::IntTarget;
    use core::arch::x86_64::*;

    /// Converts whole blocks of 8 elements, returning how many elements it did.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn f32_to_int<T: IntTarget>(src: &[u8], dst: &mut [u8]) -> usize {
        let blocks = (src.len() / 32).min(dst.len() / (8 * T::BYTES));
        let two_31 = _mm256_set1_ps(2147483648.0);
        let sign = _mm256_set1_epi32(i32::MIN);
        // Bytes 0 (and 1) of each 32-bit lane, gathered at the bottom of each half.
        let (pick1, pick2) = (
            _mm256_setr_epi8(
                0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1,
                -1, -1, -1, -1, -1, -1, -1,
            ),
            _mm256_setr_epi8(
                0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13, -1, -1,
                -1, -1, -1, -1, -1, -1,
            ),
        );
        // The gathered bytes of the two halves side by side: dwords 0, 1 and 4, 5
        // for 16-bit outputs, dwords 0 and 4 for 8-bit ones.
        let (join2, join1) = (
            _mm256_setr_epi32(0, 1, 4, 5, 0, 0, 0, 0),
            _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0),
        );
        for b in 0..blocks {
            // SAFETY: block `b` of 32 source bytes lies inside `src` (b < src.len() / 32).
            let x = unsafe { _mm256_loadu_ps(src.as_ptr().add(b * 32).cast()) };
            let mut v = _mm256_cvttps_epi32(x);
            if T::U32 {
                let high = _mm256_cmp_ps::<_CMP_GE_OQ>(x, two_31);
                let shifted = _mm256_xor_si256(_mm256_cvttps_epi32(_mm256_sub_ps(x, two_31)), sign);
                v = _mm256_blendv_epi8(v, shifted, _mm256_castps_si256(high));
            }
            let out = dst.as_mut_ptr().wrapping_add(b * 8 * T::BYTES);
            match T::BYTES {
                // SAFETY: block `b` of 32 output bytes lies inside `dst` (b < dst.len() / 32).
                4 => unsafe { _mm256_storeu_si256(out.cast(), v) },
                2 => {
                    let packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick2), join2);
                    // SAFETY: block `b` of 16 output bytes lies inside `dst` (b < dst.len() / 16).
                    unsafe { _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed)) }
                }
                _ => {
                    let packed = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick1), join1);
                    // SAFETY: block `b` of 8 output bytes lies inside `dst` (b < dst.len() / 8).
                    unsafe { _mm_storel_epi64(out.cast(), _mm256_castsi256_si128(packed)) }
                }
            }
        }
        blocks * 8
    }
}

#[cfg(test)]
mod tests {
    use crate::cast::{CastOptions, Converter};
    use crate::DType;

    /// Every f32 bit pattern into `to`: the fast kernel (AVX2 where present) and the
    /// portable path against the scalar cast, in chunks on two threads.
    fn exhaustive(to: DType) {
        let fast = Converter::new(DType::F32, to, CastOptions::default()).unwrap();
        let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
        const CHUNK: u64 = 1 << 22;
        let check = |first: u64, step: u64| {
            let (mut src, mut a, mut b, mut p) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut start = first * CHUNK;
            while start < 1 << 32 {
                src.clear();
                src.extend((start..start + CHUNK).flat_map(|bits| (bits as u32).to_le_bytes()));
                a.clear();
                b.clear();
                fast.convert_into(&src, CHUNK as usize, &mut a);
                scalar.convert_into(&src, CHUNK as usize, &mut b);
                p.resize(b.len(), 0);
                match to {
                    DType::I8 => super::f32_to_int_portable::<i8>(&src, &mut p),
                    DType::U8 => super::f32_to_int_portable::<u8>(&src, &mut p),
                    DType::I16 => super::f32_to_int_portable::<i16>(&src, &mut p),
                    DType::U16 => super::f32_to_int_portable::<u16>(&src, &mut p),
                    DType::I32 => super::f32_to_int_portable::<i32>(&src, &mut p),
                    _ => super::f32_to_int_portable::<u32>(&src, &mut p),
                }
                if a != b || p != b {
                    let width = b.len() / CHUNK as usize;
                    let i = (0..CHUNK as usize)
                        .find(|&i| {
                            a[i * width..][..width] != b[i * width..][..width]
                                || p[i * width..][..width] != b[i * width..][..width]
                        })
                        .unwrap();
                    panic!(
                        "f32 {:#010x} into {to}: scalar {:?}, fast {:?}, portable {:?}",
                        start + i as u64,
                        &b[i * width..][..width],
                        &a[i * width..][..width],
                        &p[i * width..][..width]
                    );
                }
                start += step * CHUNK;
            }
        };
        std::thread::scope(|s| {
            s.spawn(|| check(0, 2));
            check(1, 2);
        });
    }

    #[test]
    fn every_f32_into_every_integer_of_32_bits_or_fewer_is_the_scalar_cast() {
        for to in [
            DType::I8,
            DType::U8,
            DType::I16,
            DType::U16,
            DType::I32,
            DType::U32,
        ] {
            exhaustive(to);
        }
    }

    #[test]
    fn odd_lengths_and_offsets_agree() {
        let values = [
            0.0f32,
            -0.0,
            1.5,
            -1.5,
            255.9,
            256.0,
            -129.0,
            65535.0,
            2147483520.0,
            2147483648.0,
            4294967040.0,
            4294967296.0,
            -2147483648.0,
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -3.7e9,
        ];
        let src: Vec<u8> = values
            .iter()
            .cycle()
            .take(101)
            .flat_map(|x| x.to_le_bytes())
            .collect();
        for to in [
            DType::I8,
            DType::U8,
            DType::I16,
            DType::U16,
            DType::I32,
            DType::U32,
        ] {
            let fast = Converter::new(DType::F32, to, CastOptions::default()).unwrap();
            let scalar = Converter::scalar(DType::F32, to, CastOptions::default()).unwrap();
            for offset in 0..4 {
                for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 33, 97] {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    fast.convert_into(&src[offset * 4..], len, &mut a);
                    scalar.convert_into(&src[offset * 4..], len, &mut b);
                    assert_eq!(a, b, "{to} offset {offset} length {len}");
                }
            }
        }
    }
}
