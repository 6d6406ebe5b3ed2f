//! AVX2 kernels for the conversions that move the most data: `f32` into every
//! float 8 format, f4e2m1, f8e8m0, f16 and bf16.
//!
//! They compute exactly what the scalar kernels compute (the scalar path is the
//! reference; the tests below compare the two on random and odd-length slices, and
//! `tests/cast_exhaustive.rs` checks every f32 input against the ONNX reference).
//! The CPU is asked once per slice call; without AVX2 (or off x86-64) the kernels
//! report that they converted nothing and the caller's scalar kernel does it all.
//!
//! The rounding is the integer one of [`Spec::encode`](crate::narrow::Spec::encode),
//! lane by lane: a normal result rounds the f32 significand in place (adding
//! `half - 1` plus the kept lowest bit, ties to even) and rebiases; a subnormal
//! result is left to the FPU, adding a constant whose last place is the target's
//! smallest subnormal, so that the hardware's round-to-nearest-even does the work.

use super::CastOptions;
use crate::narrow::{format, NonFinite, RoundMode, Spec};

/// A target the f32 kernels encode into.
pub(super) trait Target {
    /// The format.
    const SPEC: Spec;
    /// Whether `saturate` applies (float 8); f4e2m1 always saturates, f16 and bf16
    /// never do.
    const SATURATE: Option<bool>;
    /// Whether a NaN keeps its payload's top bits (f16, as numpy does).
    const NAN_PAYLOAD: bool;
}

macro_rules! targets {
    ($($t:ty => $spec:expr, $saturate:expr, $payload:expr;)*) => {$(
        impl Target for $t {
            const SPEC: Spec = $spec;
            const SATURATE: Option<bool> = $saturate;
            const NAN_PAYLOAD: bool = $payload;
        }
    )*};
}

use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz};
use half::{bf16, f16};

targets! {
    f8e4m3fn => format::E4M3FN_SPEC, None, false;
    f8e4m3fnuz => format::E4M3FNUZ_SPEC, None, false;
    f8e5m2 => format::E5M2_SPEC, None, false;
    f8e5m2fnuz => format::E5M2FNUZ_SPEC, None, false;
    f4e2m1 => format::E2M1_SPEC, Some(true), false;
    f16 => format::F16_SPEC, Some(false), true;
    bf16 => format::BF16_SPEC, Some(false), false;
}

/// Whether the f32 kernels compute `options`' cast into a format with this
/// non-finite rule: all but the opset-dependent FNUZ ±∞ rule (Cast-19..23).
pub(super) fn handles(spec: &Spec, options: &CastOptions) -> bool {
    spec.non_finite != NonFinite::NanNegativeZero || options.opset >= super::FNUZ_INF_SATURATES_FROM
}

/// Converts a prefix of `count` f32 elements of `src` into `T` codes in `dst`;
/// returns how many it converted (a multiple of 32; 0 without AVX2). The caller
/// converts the rest.
#[inline]
pub(super) fn f32_to<T: Target>(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            let saturate = T::SATURATE.unwrap_or(options.saturate);
            // SAFETY: AVX2 is available, checked just above.
            return unsafe { x86::f32_to::<T>(src, dst, count, saturate) };
        }
    }
    let _ = (src, dst, count, options);
    0
}

/// [`f32_to`] for f8e8m0.
#[inline]
pub(super) fn f32_to_e8m0(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is available, checked just above.
            return unsafe {
                match options.round_mode {
                    RoundMode::Up => x86::f32_to_e8m0::<0>(src, dst, count, options.saturate),
                    RoundMode::Down => x86::f32_to_e8m0::<1>(src, dst, count, options.saturate),
                    RoundMode::Nearest => x86::f32_to_e8m0::<2>(src, dst, count, options.saturate),
                }
            };
        }
    }
    let _ = (src, dst, count, options);
    0
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{NonFinite, Target};
    use core::arch::x86_64::*;

    /// Elements per loop step.
    const STEP: usize = 32;

    /// The codes of eight f32 lanes in format `T`, one per i32 lane.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn encode<T: Target>(x: __m256i, saturate: bool) -> __m256i {
        let s = T::SPEC;
        let (m, bias) = (s.man_bits as i32, s.bias);
        // The format's codes, as constants of the instantiation.
        let max_code = const { T::SPEC.max_code() } as i32;
        let sign_bit = const { T::SPEC.sign_bit() } as i32;
        let inf_code = const {
            match T::SPEC.inf_code() {
                Some(code) => Some(code as i32),
                None => None,
            }
        };
        let shift = _mm_cvtsi32_si128(23 - m);
        let a = _mm256_and_si256(x, _mm256_set1_epi32(0x7fff_ffff));
        let negative = _mm256_cmpgt_epi32(_mm256_setzero_si256(), x);
        let sign = _mm256_and_si256(negative, _mm256_set1_epi32(sign_bit));

        // Normal result: round the significand in place, ties to even, rebias.
        let lowest = _mm256_and_si256(_mm256_srl_epi32(a, shift), _mm256_set1_epi32(1));
        let rounded = _mm256_add_epi32(
            _mm256_add_epi32(a, _mm256_set1_epi32((1 << (22 - m)) - 1)),
            lowest,
        );
        let normal = _mm256_sub_epi32(
            _mm256_srl_epi32(rounded, shift),
            _mm256_set1_epi32((127 - bias) << m),
        );
        // Subnormal result: the FPU rounds `a + magic`, whose last place is the
        // target's smallest subnormal 2^(1 - bias - m).
        let magic = _mm256_set1_epi32((128 - bias - m + 23) << 23);
        let sum = _mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(magic));
        let subnormal = _mm256_sub_epi32(_mm256_castps_si256(sum), magic);
        let is_subnormal = _mm256_cmpgt_epi32(_mm256_set1_epi32((128 - bias) << 23), a);
        let code = _mm256_blendv_epi8(normal, subnormal, is_subnormal);

        // Zero keeps its sign, except in the FNUZ formats (no −0).
        let sign = if s.non_finite == NonFinite::NanNegativeZero {
            _mm256_andnot_si256(_mm256_cmpeq_epi32(code, _mm256_setzero_si256()), sign)
        } else {
            sign
        };
        let mut out = _mm256_or_si256(code, sign);

        // Overflow (±∞ included: it rounds past every format's max).
        let max = _mm256_set1_epi32(max_code);
        let over = _mm256_cmpgt_epi32(code, max);
        let overflow = match (saturate, s.non_finite, inf_code) {
            (true, _, _) | (_, NonFinite::None, _) => _mm256_or_si256(max, sign),
            (false, _, Some(inf)) => _mm256_or_si256(_mm256_set1_epi32(inf), sign),
            (false, NonFinite::NanNegativeZero, _) => _mm256_set1_epi32(s.nan.0 as i32),
            (false, _, None) => _mm256_or_si256(_mm256_set1_epi32(s.nan.0 as i32), sign),
        };
        out = _mm256_blendv_epi8(out, overflow, over);

        // NaN.
        let is_nan = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7f80_0000));
        let nan = if T::NAN_PAYLOAD {
            // The payload's top bits, made nonzero, under an all-ones exponent.
            let payload = _mm256_srl_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0x7f_ffff)), shift);
            let payload = _mm256_max_epi32(payload, _mm256_set1_epi32(1));
            let inf = _mm256_set1_epi32(inf_code.unwrap_or(0));
            _mm256_or_si256(_mm256_or_si256(inf, payload), sign)
        } else {
            let (pos, neg) = (
                _mm256_set1_epi32(s.nan.0 as i32),
                _mm256_set1_epi32(s.nan.1 as i32),
            );
            _mm256_blendv_epi8(pos, neg, negative)
        };
        _mm256_blendv_epi8(out, nan, is_nan)
    }

    /// 32 f32 inputs at `src`.
    ///
    /// # Safety
    /// AVX2, and 128 readable bytes at `src`.
    #[inline(always)]
    unsafe fn load(src: *const u8) -> [__m256i; 4] {
        let at = src as *const __m256i;
        // SAFETY: the caller guarantees 128 readable bytes, four vectors; `loadu`
        // takes any alignment.
        unsafe {
            [
                _mm256_loadu_si256(at),
                _mm256_loadu_si256(at.add(1)),
                _mm256_loadu_si256(at.add(2)),
                _mm256_loadu_si256(at.add(3)),
            ]
        }
    }

    /// Stores the low bytes of four vectors of i32 codes (each in 0..=255) as 32
    /// bytes in element order.
    ///
    /// # Safety
    /// AVX2, and 32 writable bytes at `dst`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_bytes(v: [__m256i; 4], dst: *mut u8) {
        let bytes = pack_bytes(v);
        // SAFETY: the caller guarantees 32 writable bytes; `storeu` takes any alignment.
        unsafe { _mm256_storeu_si256(dst as *mut __m256i, bytes) }
    }

    /// The low bytes of four vectors of i32 codes, in element order.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn pack_bytes(v: [__m256i; 4]) -> __m256i {
        // Per 128-bit half: [v0 v1] and [v2 v3] as u16, then all four as u8; the
        // halves interleave dword by dword, which the permutation undoes.
        let words01 = _mm256_packus_epi32(v[0], v[1]);
        let words23 = _mm256_packus_epi32(v[2], v[3]);
        let bytes = _mm256_packus_epi16(words01, words23);
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
    }

    /// Converts whole steps of 32 f32 inputs; returns how many it converted.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn f32_to<T: Target>(
        src: &[u8],
        dst: &mut [u8],
        count: usize,
        saturate: bool,
    ) -> usize {
        let bits = const { T::SPEC.bits() } as usize;
        let steps = count.min(src.len() / 4).min(dst.len() * 8 / bits) / STEP;
        for step in 0..steps {
            let i = step * STEP;
            // SAFETY: `i + 32 <= count <= src.len() / 4`, so 128 bytes are readable.
            let x = unsafe { load(src.as_ptr().add(4 * i)) };
            let codes = [
                encode::<T>(x[0], saturate),
                encode::<T>(x[1], saturate),
                encode::<T>(x[2], saturate),
                encode::<T>(x[3], saturate),
            ];
            match bits {
                8 => {
                    // SAFETY: `i + 32 <= dst.len()`: 32 writable bytes.
                    unsafe { store_bytes(codes, dst.as_mut_ptr().add(i)) }
                }
                16 => {
                    // Per 128-bit half [v0 v1] as u16, then the halves put in order.
                    for (k, pair) in [[codes[0], codes[1]], [codes[2], codes[3]]].iter().enumerate() {
                        let words = _mm256_packus_epi32(pair[0], pair[1]);
                        let words = _mm256_permute4x64_epi64::<0b11_01_10_00>(words);
                        // SAFETY: `2 * (i + 32) <= dst.len()`: 32 writable bytes at `2i + 32k`.
                        unsafe {
                            _mm256_storeu_si256(dst.as_mut_ptr().add(2 * i + 32 * k) as *mut __m256i, words)
                        }
                    }
                }
                _ => {
                    // Two 4-bit codes per byte, element 0 in the low nibble.
                    let bytes = pack_bytes(codes);
                    let pairs = _mm256_or_si256(bytes, _mm256_srli_epi16::<4>(bytes));
                    let low = _mm256_and_si256(pairs, _mm256_set1_epi16(0xff));
                    let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(low, low));
                    // SAFETY: `(i + 32) / 2 <= dst.len()`: 16 writable bytes at `i / 2`.
                    unsafe {
                        _mm_storeu_si128(
                            dst.as_mut_ptr().add(i / 2) as *mut __m128i,
                            _mm256_castsi256_si128(packed),
                        )
                    }
                }
            }
        }
        steps * STEP
    }

    /// All ones in the lanes of `v` that are not zero.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn nonzero(v: __m256i) -> __m256i {
        _mm256_xor_si256(
            _mm256_cmpeq_epi32(v, _mm256_setzero_si256()),
            _mm256_set1_epi32(-1),
        )
    }

    /// f8e8m0 codes of eight f32 lanes (see [`crate::narrow::f8e8m0::from_f32`]);
    /// `MODE` 0 up, 1 down, 2 nearest.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn encode_e8m0<const MODE: u8>(x: __m256i, saturate: bool) -> __m256i {
        let exp = _mm256_and_si256(_mm256_srli_epi32::<23>(x), _mm256_set1_epi32(0xff));
        let man = _mm256_and_si256(x, _mm256_set1_epi32(0x7f_ffff));
        let zero = _mm256_setzero_si256();
        let bump = match MODE {
            0 => nonzero(man),
            1 => zero,
            _ => {
                let half = nonzero(_mm256_and_si256(man, _mm256_set1_epi32(0x40_0000)));
                let below = nonzero(_mm256_and_si256(man, _mm256_set1_epi32(0x3f_ffff)));
                let normal = _mm256_cmpgt_epi32(exp, zero);
                _mm256_and_si256(half, _mm256_or_si256(below, normal))
            }
        };
        // `bump` is −1 where it applies.
        let code = _mm256_sub_epi32(exp, bump);
        let top = _mm256_set1_epi32(0xff);
        let bumped_out = _mm256_cmpeq_epi32(code, top);
        let capped = _mm256_blendv_epi8(
            code,
            _mm256_set1_epi32(if saturate { 0xfe } else { 0xff }),
            bumped_out,
        );
        _mm256_blendv_epi8(capped, top, _mm256_cmpeq_epi32(exp, top))
    }

    /// [`f32_to`] for f8e8m0.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn f32_to_e8m0<const MODE: u8>(
        src: &[u8],
        dst: &mut [u8],
        count: usize,
        saturate: bool,
    ) -> usize {
        let steps = count.min(src.len() / 4).min(dst.len()) / STEP;
        for step in 0..steps {
            let i = step * STEP;
            // SAFETY: `i + 32 <= src.len() / 4`: 128 readable bytes.
            let x = unsafe { load(src.as_ptr().add(4 * i)) };
            let codes = [
                encode_e8m0::<MODE>(x[0], saturate),
                encode_e8m0::<MODE>(x[1], saturate),
                encode_e8m0::<MODE>(x[2], saturate),
                encode_e8m0::<MODE>(x[3], saturate),
            ];
            // SAFETY: `i + 32 <= dst.len()`: 32 writable bytes.
            unsafe { store_bytes(codes, dst.as_mut_ptr().add(i)) }
        }
        steps * STEP
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::{CastOptions, Converter};
    use crate::DType;
    use proptest::prelude::*;

    /// Interesting f32 bit patterns around every binade edge, plus `n` random ones.
    fn inputs(seed: u64, n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for e in 0..=255u32 {
            for m in [
                0, 1, 2, 0x3f_ffff, 0x40_0000, 0x40_0001, 0x7f_fffe, 0x7f_ffff, 0x10_0000, 0x08_0000,
            ] {
                for sign in [0, 0x8000_0000] {
                    out.push(sign | e << 23 | m);
                    // Ties and their neighbours for every mantissa width up to 10.
                    for k in 13..23 {
                        let tie = sign | e << 23 | (m & !((1 << k) - 1)) | (1 << (k - 1));
                        out.extend([tie, tie.wrapping_add(1), tie.wrapping_sub(1)]);
                    }
                }
            }
        }
        let mut state = seed;
        for _ in 0..n {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            out.push((state >> 32) as u32);
        }
        out
    }

    /// The SIMD kernel against the scalar one on `values`, from offset 0 and from an
    /// odd offset (so that the scalar tail and odd lengths are exercised).
    fn compare(to: DType, options: CastOptions, values: &[u32]) {
        let fast = Converter::new(DType::F32, to, options).unwrap();
        let reference = Converter::scalar(DType::F32, to, options).unwrap();
        for skip in [0, 3.min(values.len())] {
            let src: Vec<u8> = values[skip..].iter().flat_map(|v| v.to_le_bytes()).collect();
            let n = values.len() - skip;
            let (mut a, mut b) = (Vec::new(), Vec::new());
            fast.convert_into(&src, n, &mut a);
            reference.convert_into(&src, n, &mut b);
            if a != b {
                let size = to.bits() as usize;
                for i in 0..n {
                    let get = |v: &[u8]| match size {
                        4 => (v[i / 2] >> (4 * (i % 2))) & 0xf,
                        8 => v[i],
                        _ => v[2 * i] ^ v[2 * i + 1],
                    };
                    assert_eq!(
                        get(&a),
                        get(&b),
                        "{to} {options:?} input {:#010x}",
                        values[skip + i]
                    );
                }
                assert_eq!(a, b, "{to} {options:?}");
            }
        }
    }

    fn all_options() -> Vec<CastOptions> {
        let mut out = Vec::new();
        for saturate in [true, false] {
            for round_mode in [RoundMode::Up, RoundMode::Down, RoundMode::Nearest] {
                out.push(CastOptions {
                    saturate,
                    round_mode,
                    ..CastOptions::default()
                });
            }
        }
        out
    }

    const TARGETS: [DType; 8] = [
        DType::F8E4M3FN,
        DType::F8E4M3FNUZ,
        DType::F8E5M2,
        DType::F8E5M2FNUZ,
        DType::F4E2M1,
        DType::F8E8M0,
        DType::F16,
        DType::BF16,
    ];

    #[test]
    fn simd_matches_scalar_on_edges() {
        let values = inputs(1, 100_000);
        for to in TARGETS {
            for options in all_options() {
                compare(to, options, &values);
            }
        }
    }

    proptest! {
        #[test]
        fn simd_matches_scalar_on_random_slices(values in prop::collection::vec(any::<u32>(), 0..300), t in 0..8usize, o in 0..6usize) {
            compare(TARGETS[t], all_options()[o], &values);
        }
    }
}
