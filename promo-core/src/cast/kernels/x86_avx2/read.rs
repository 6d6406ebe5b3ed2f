//! [`Reader`]: 32 elements of any source in registers, as f32 (exact, or an
//! integer rounded once), as i32 (an integer of 32 bits or fewer), as i64 or as
//! f64.
//!
//! An integer too wide for f32's 24 bits becomes f32 in one of two ways. Rounded
//! to nearest even, it is the f32 result itself. Rounded to odd (truncated, the
//! last bit set when anything was dropped), a later rounding to a format of 22
//! bits or fewer gives what rounding the integer once would: that is what the
//! encoders into bf16 and f8e8m0 read. (f16, float8 and f4e2m1 overflow below
//! 2^24, under which every integer is exact in f32, so they read it rounded to
//! nearest.) Where rounding twice
//! could differ from rounding once, the bits the rounding cannot see are first
//! collapsed into one sticky bit, so that the integer fits the float exactly: a
//! 32-bit magnitude `a` of 25 bits or more becomes `(a | ((a & 0xff) + 0xff)) &
//! !0xff` (bit 8 set when any of the low eight was), and a 64-bit integer of 2^53
//! or more in magnitude the same with eleven bits, for f64 (in two's complement:
//! `x` and the result then lie strictly between the same two multiples of 2^12,
//! and every place f32 rounds at is a multiple of 2^29).

use super::super::formats::{Lanes, Source};
use super::{float8_top16, load, spread, top16, Float8Vectors};
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// Reads 32 elements of `S` at a time.
pub(super) struct Reader<S> {
    /// A float8 source's nibble tables (zeros for any other source).
    tables: Float8Vectors,
    source: PhantomData<S>,
}

/// The tables of a source that has none.
const NO_TABLES: super::super::formats::Float8Tables = super::super::formats::Float8Tables {
    a3: [0; 16],
    b3: [0; 16],
    b2: [0; 16],
    s3: [0; 16],
    s2: [0; 16],
    exp_field: 0,
    non_finite: crate::narrow::NonFinite::None,
    nan_flip: (0, 0),
};

impl<S: Lanes> Reader<S> {
    /// Bytes of 32 elements.
    pub(super) const BLOCK: usize = 32 * S::SOURCE.size();

    /// The reader, its tables in registers.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn new() -> Self {
        let tables = match S::SOURCE {
            Source::Float8(tables) => tables,
            _ => &NO_TABLES,
        };
        Reader {
            tables: Float8Vectors::new(tables),
            source: PhantomData,
        }
    }

    /// 32 elements at `at` as f32 bit patterns, in element order: exact for every
    /// float source but f64 (rounded to nearest) and for integers of 24 bits or
    /// fewer; a wider integer rounded to odd (`ODD`) or to nearest even.
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn f32s<const ODD: bool>(&self, at: *const u8) -> [__m256i; 4] {
        // SAFETY (every block below): the caller guarantees `BLOCK` readable bytes,
        // which is what each source's loads read; `loadu` takes any alignment.
        match S::SOURCE {
            Source::F32 => unsafe { load(at) },
            Source::F16 => {
                let h = unsafe { halves(at) };
                array!(4, |k| _mm256_castps_si256(_mm256_cvtph_ps(h[k])))
            }
            Source::BF16 => {
                let h = unsafe { halves(at) };
                array!(4, |k| _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h[k])))
            }
            Source::Float8(tables) => {
                let v = spread(unsafe { _mm256_loadu_si256(at as *const __m256i) });
                let (b3, b2) = float8_top16(v, &self.tables, tables);
                top16(b3, b2)
            }
            Source::E8M0 => {
                let v = spread(unsafe { _mm256_loadu_si256(at as *const __m256i) });
                let (b3, b2) = super::e8m0_top16(v);
                top16(b3, b2)
            }
            Source::F64 => {
                let d = unsafe { self.f64s(at) };
                array!(4, |k| {
                    let (lo, hi) = (_mm256_cvtpd_ps(d[2 * k]), _mm256_cvtpd_ps(d[2 * k + 1]));
                    _mm256_castps_si256(_mm256_set_m128(hi, lo))
                })
            }
            Source::Int { bytes: 8, signed } => {
                let x = unsafe { self.i64s(at) };
                let exact = |k: usize| i64_to_f64(collapse64(x[k], signed), signed);
                let d: [__m256d; 8] = if ODD {
                    array!(8, |k| exact(k))
                } else {
                    // Rounded to f64 first: that can differ from rounding once only
                    // where the f64 lies exactly halfway between two f32 (its low 29
                    // mantissa bits 0x1000_0000); a block with one goes again, exactly.
                    let d = array!(8, |k| i64_to_f64(x[k], signed));
                    let (low, half) = (_mm256_set1_epi64x(0x1fff_ffff), _mm256_set1_epi64x(0x1000_0000));
                    let mut ties = _mm256_setzero_si256();
                    for d in d {
                        let tie = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_castpd_si256(d), low), half);
                        ties = _mm256_or_si256(ties, tie);
                    }
                    if _mm256_testz_si256(ties, ties) == 0 {
                        array!(8, |k| exact(k))
                    } else {
                        d
                    }
                };
                let f = array!(8, |k| if ODD {
                    f64_to_f32_odd(d[k])
                } else {
                    _mm256_cvtpd_ps(d[k])
                });
                array!(4, |k| _mm256_castps_si256(_mm256_set_m128(
                    f[2 * k + 1],
                    f[2 * k]
                )))
            }
            Source::Int { bytes: 4, signed } => {
                let x = unsafe { self.i32s(at) };
                array!(4, |k| _mm256_castps_si256(i32_to_f32::<ODD>(x[k], signed)))
            }
            // Exact: 16 bits or fewer.
            Source::Int { .. } | Source::Bool => {
                let x = unsafe { self.i32s(at) };
                array!(4, |k| _mm256_castps_si256(_mm256_cvtepi32_ps(x[k])))
            }
        }
    }

    /// 32 integers (or bools) of 32 bits or fewer at `at`, sign- or zero-extended
    /// to i32 (bool: 0 or 1).
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`; `S` an integer of 32 bits or fewer.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn i32s(&self, at: *const u8) -> [__m256i; 4] {
        let (bytes, signed) = match S::SOURCE {
            Source::Int { bytes, signed } => (bytes, signed),
            _ => (1, false),
        };
        array!(4, |k| {
            // SAFETY: the caller guarantees 32 elements, `32 * bytes` readable
            // bytes; vector `k` reads the `8 * bytes` at `8 * bytes * k`.
            unsafe {
                match (bytes, signed) {
                    (4, _) => _mm256_loadu_si256((at as *const __m256i).add(k)),
                    (2, true) => _mm256_cvtepi16_epi32(_mm_loadu_si128((at as *const __m128i).add(k))),
                    (2, false) => _mm256_cvtepu16_epi32(_mm_loadu_si128((at as *const __m128i).add(k))),
                    (_, true) => _mm256_cvtepi8_epi32(_mm_loadl_epi64(at.add(8 * k) as *const __m128i)),
                    _ => {
                        let b = _mm_loadl_epi64(at.add(8 * k) as *const __m128i);
                        let b = match S::SOURCE {
                            Source::Bool => _mm_min_epu8(b, _mm_set1_epi8(1)),
                            _ => b,
                        };
                        _mm256_cvtepu8_epi32(b)
                    }
                }
            }
        })
    }

    /// 32 64-bit integers at `at`, as they lie.
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`; `S` a 64-bit integer.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn i64s(&self, at: *const u8) -> [__m256i; 8] {
        // SAFETY: the caller guarantees 256 readable bytes, eight vectors.
        array!(8, |k| unsafe {
            _mm256_loadu_si256((at as *const __m256i).add(k))
        })
    }

    /// 32 elements at `at` as f64, in element order: f64 as it lies; an integer
    /// exactly, or rounded once to nearest even (64-bit ones); any other float
    /// widened from [`Reader::f32s`] (exact; a NaN stays a NaN, quieted).
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    pub(super) unsafe fn f64s(&self, at: *const u8) -> [__m256d; 8] {
        match S::SOURCE {
            // SAFETY: the caller guarantees 256 readable bytes, eight vectors.
            Source::F64 => array!(8, |k| unsafe { _mm256_loadu_pd((at as *const f64).add(4 * k)) }),
            Source::Int { bytes: 8, signed } => {
                // SAFETY: the caller guarantees `BLOCK` readable bytes.
                let x = unsafe { self.i64s(at) };
                array!(8, |k| i64_to_f64(x[k], signed))
            }
            Source::Int {
                bytes: 4,
                signed: false,
            } => {
                // SAFETY: the caller guarantees `BLOCK` readable bytes.
                let x = unsafe { self.i32s(at) };
                // x − 2^31 as i32, exactly, then 2^31 added back in f64.
                let sign = _mm256_set1_epi32(i32::MIN);
                let shifted = array!(4, |k| _mm256_xor_si256(x[k], sign));
                let two_31 = _mm256_set1_pd(2147483648.0);
                let d = widen_i32(shifted);
                array!(8, |k| _mm256_add_pd(d[k], two_31))
            }
            // SAFETY: the caller guarantees `BLOCK` readable bytes.
            Source::Int { .. } | Source::Bool => widen_i32(unsafe { self.i32s(at) }),
            _ => {
                // SAFETY: the caller guarantees `BLOCK` readable bytes.
                let x = unsafe { self.f32s::<false>(at) };
                array!(8, |k| {
                    let v = _mm256_castsi256_ps(x[k / 2]);
                    _mm256_cvtps_pd(if k % 2 == 0 {
                        _mm256_castps256_ps128(v)
                    } else {
                        _mm256_extractf128_ps::<1>(v)
                    })
                })
            }
        }
    }
}

/// 16 bytes at each of `at`, `at + 16`, `at + 32` and `at + 48`.
///
/// # Safety
/// 64 readable bytes at `at`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn halves(at: *const u8) -> [__m128i; 4] {
    // SAFETY: the caller guarantees 64 readable bytes; `loadu` takes any alignment.
    array!(4, |k| unsafe { _mm_loadu_si128((at as *const __m128i).add(k)) })
}

/// Four vectors of i32 as eight of f64, in element order (exact).
#[inline]
#[target_feature(enable = "avx2")]
fn widen_i32(x: [__m256i; 4]) -> [__m256d; 8] {
    array!(8, |k| {
        let v = x[k / 2];
        _mm256_cvtepi32_pd(if k % 2 == 0 {
            _mm256_castsi256_si128(v)
        } else {
            _mm256_extracti128_si256::<1>(v)
        })
    })
}

/// The sticky collapse of magnitudes of 25 bits or more, in 32-bit lanes: they
/// then fit f32 exactly and round as they would have.
#[inline]
#[target_feature(enable = "avx2")]
fn collapse32(a: __m256i) -> __m256i {
    let low = _mm256_set1_epi32(0xff);
    let collapsed = _mm256_andnot_si256(
        low,
        _mm256_or_si256(a, _mm256_add_epi32(_mm256_and_si256(a, low), low)),
    );
    let wide = _mm256_cmpgt_epi32(_mm256_srli_epi32::<24>(a), _mm256_setzero_si256());
    _mm256_blendv_epi8(a, collapsed, wide)
}

/// Eight 32-bit integers as f32: `cvtdq2ps` rounds once to nearest even; u32
/// goes as its high and low 16 bits, the sum rounding once. Rounding to odd
/// collapses first, so that the conversion is exact.
#[inline]
#[target_feature(enable = "avx2")]
fn i32_to_f32<const ODD: bool>(x: __m256i, signed: bool) -> __m256 {
    if signed {
        if !ODD {
            return _mm256_cvtepi32_ps(x);
        }
        // The magnitude (2^31 for i32::MIN, as u32), collapsed, given back its sign.
        let a = _mm256_abs_epi32(x);
        return _mm256_cvtepi32_ps(_mm256_sign_epi32(collapse32(a), x));
    }
    let x = if ODD { collapse32(x) } else { x };
    let hi = _mm256_cvtepi32_ps(_mm256_srli_epi32::<16>(x));
    let lo = _mm256_cvtepi32_ps(_mm256_and_si256(x, _mm256_set1_epi32(0xffff)));
    // hi × 2^16 is exact; the sum rounds once.
    _mm256_add_ps(_mm256_mul_ps(hi, _mm256_set1_ps(65536.0)), lo)
}

/// Four 64-bit integers as f64, rounded once to nearest even: the high 32 bits
/// (biased by 2^31 when signed) in the mantissa of 2^84 and the low 32 in that of
/// 2^52, each exact once the power (and the bias) is subtracted; their sum rounds.
#[inline]
#[target_feature(enable = "avx2")]
fn i64_to_f64(x: __m256i, signed: bool) -> __m256d {
    let top = if signed {
        _mm256_xor_si256(x, _mm256_set1_epi64x(i64::MIN))
    } else {
        x
    };
    let hi = _mm256_or_si256(
        _mm256_srli_epi64::<32>(top),
        _mm256_set1_epi64x(0x4530_0000_0000_0000),
    );
    let lo = _mm256_blend_epi32::<0b1010_1010>(x, _mm256_set1_epi64x(0x4330_0000_0000_0000));
    // 2^84 (+ 2^63, the bias times 2^32), and 2^52.
    let hi_zero = f64::from_bits(if signed {
        0x4530_0000_8000_0000
    } else {
        0x4530_0000_0000_0000
    });
    let hi = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(hi_zero));
    let lo = _mm256_sub_pd(_mm256_castsi256_pd(lo), _mm256_set1_pd(4503599627370496.0));
    _mm256_add_pd(hi, lo)
}

/// Four 64-bit integers with the bits below 2^11 collapsed into bit 11 where they
/// are 2^53 or more in magnitude (see the module docs): then exact in f64.
#[inline]
#[target_feature(enable = "avx2")]
fn collapse64(x: __m256i, signed: bool) -> __m256i {
    let low = _mm256_set1_epi64x(0x7ff);
    let collapsed = _mm256_andnot_si256(
        low,
        _mm256_or_si256(x, _mm256_add_epi64(_mm256_and_si256(x, low), low)),
    );
    // Below 2^53 in magnitude: `x + 2^53` below 2^54 as u64 (signed), `x` below 2^53.
    let high = if signed {
        _mm256_srli_epi64::<54>(_mm256_add_epi64(x, _mm256_set1_epi64x(1 << 53)))
    } else {
        _mm256_srli_epi64::<53>(x)
    };
    let small = _mm256_cmpeq_epi64(high, _mm256_setzero_si256());
    _mm256_blendv_epi8(collapsed, x, small)
}

/// The low 32 bits of each 64-bit lane of `m`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn low_halves(m: __m256i) -> __m128i {
    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        m,
        _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
    ))
}

/// Four f64 as f32 rounded to odd: `cvtpd2ps` to nearest, stepped toward zero
/// when that went away from it, the last bit set when it was inexact.
#[inline]
#[target_feature(enable = "avx2")]
fn f64_to_f32_odd(d: __m256d) -> __m128 {
    let r = _mm256_cvtpd_ps(d);
    let back = _mm256_cvtps_pd(r);
    let abs = _mm256_castsi256_pd(_mm256_set1_epi64x(i64::MAX));
    let away = _mm256_cmp_pd::<_CMP_GT_OQ>(_mm256_and_pd(back, abs), _mm256_and_pd(d, abs));
    let inexact = _mm256_cmp_pd::<_CMP_NEQ_OQ>(back, d);
    let away = low_halves(_mm256_castpd_si256(away));
    let inexact = low_halves(_mm256_castpd_si256(inexact));
    let bits = _mm_add_epi32(_mm_castps_si128(r), away);
    _mm_castsi128_ps(_mm_or_si128(bits, _mm_and_si128(inexact, _mm_set1_epi32(1))))
}
