//! The decode blocks: [`Reader`] reads 32 elements of any source into registers,
//! as f32 lanes ([`Reader::f32s`]: exact, or an integer rounded once), as i32 (an
//! integer of 32 bits or fewer), as i64 or as f64. A fused kernel decodes each
//! operand with one and encodes the result with an encode block.
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

use super::super::formats::{Float8Tables, IntLayout, Lanes, Source};
use super::super::x86::array;
use super::lanes::{floats, load4, low_halves, spread, table16, top16, F32x32};
use crate::narrow::NonFinite;
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// Reads 32 elements of `S` at a time.
pub(crate) struct Reader<S> {
    /// A float8 source's nibble tables, or a nibble source's (in `b3` and `b2`);
    /// zeros for any other source.
    tables: Float8Vectors,
    /// Whether an integer too wide for f32 is rounded to odd (else to nearest).
    odd: bool,
    source: PhantomData<S>,
}

/// The tables of a source that has none.
const NO_TABLES: Float8Tables = Float8Tables {
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
    pub(crate) const BLOCK: usize = 4 * S::SOURCE.bits();

    /// The reader, its tables in registers; an integer past f32's 24 bits rounded
    /// to odd when `odd`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(odd: bool) -> Self {
        let tables = match S::SOURCE {
            Source::Byte {
                nibbles: Some(tables),
                ..
            } => Float8Vectors::new(tables),
            Source::Nibble(table) => Float8Vectors::nibbles(table),
            _ => Float8Vectors::new(&NO_TABLES),
        };
        Reader {
            tables,
            odd,
            source: PhantomData,
        }
    }

    /// 32 elements at `at` as f32 lanes: [`Reader::f32s`], rounded to odd where the
    /// reader was made so.
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    pub(crate) unsafe fn decode(&self, at: *const u8) -> F32x32 {
        // SAFETY: the caller's guarantee.
        floats(unsafe {
            if self.odd {
                self.f32s::<true>(at)
            } else {
                self.f32s::<false>(at)
            }
        })
    }

    /// 32 elements at `at` as f32 bit patterns, in element order: exact for every
    /// float source but f64 (rounded to nearest) and for integers of 24 bits or
    /// fewer; a wider integer rounded to odd (`ODD`) or to nearest even.
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`.
    #[inline]
    #[target_feature(enable = "avx2,f16c")]
    pub(crate) unsafe fn f32s<const ODD: bool>(&self, at: *const u8) -> [__m256i; 4] {
        // SAFETY (every block below): the caller guarantees `BLOCK` readable bytes,
        // which is what each source's loads read; `loadu` takes any alignment.
        match S::SOURCE {
            Source::F32 => unsafe { load4(at) },
            Source::F16 => {
                let h = unsafe { halves(at) };
                array!(4, |k| _mm256_castps_si256(_mm256_cvtph_ps(h[k])))
            }
            Source::BF16 => {
                let h = unsafe { halves(at) };
                bf16_quiet(array!(4, |k| _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(
                    h[k]
                ))))
            }
            Source::Byte {
                nibbles: Some(tables),
                ..
            } => {
                let v = spread(unsafe { _mm256_loadu_si256(at as *const __m256i) });
                let (b3, b2) = float8_top16(v, &self.tables, tables);
                top16(b3, b2)
            }
            Source::Nibble(_) => {
                let v = unsafe { _mm_loadu_si128(at as *const __m128i) };
                let nibble = _mm_set1_epi8(0x0f);
                let (lo, hi) = (
                    _mm_and_si128(v, nibble),
                    _mm_and_si128(_mm_srli_epi16::<4>(v), nibble),
                );
                let codes = spread(_mm256_set_m128i(
                    _mm_unpackhi_epi8(lo, hi),
                    _mm_unpacklo_epi8(lo, hi),
                ));
                let t = &self.tables;
                top16(_mm256_shuffle_epi8(t.b3, codes), _mm256_shuffle_epi8(t.b2, codes))
            }
            Source::E8M0 => {
                let v = spread(unsafe { _mm256_loadu_si256(at as *const __m256i) });
                let (b3, b2) = e8m0_top16(v);
                top16(b3, b2)
            }
            Source::F64 => {
                let d = unsafe { self.f64s(at) };
                array!(4, |k| {
                    let (lo, hi) = (_mm256_cvtpd_ps(d[2 * k]), _mm256_cvtpd_ps(d[2 * k + 1]));
                    _mm256_castps_si256(_mm256_set_m128(hi, lo))
                })
            }
            Source::Int(IntLayout { bytes: 8, signed, .. }) => {
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
            Source::Int(IntLayout { bytes: 4, signed, .. }) => {
                let x = unsafe { self.i32s(at) };
                array!(4, |k| _mm256_castps_si256(i32_to_f32::<ODD>(x[k], signed)))
            }
            // Exact: 16 bits or fewer.
            Source::Int(_) => {
                let x = unsafe { self.i32s(at) };
                array!(4, |k| _mm256_castps_si256(_mm256_cvtepi32_ps(x[k])))
            }
            // Byte formats without nibble tables, and the rest: no decode block
            // (`has` offers none).
            _ => [_mm256_setzero_si256(); 4],
        }
    }

    /// 32 integers (or bools) of 32 bits or fewer at `at`, sign- or zero-extended
    /// to i32 (bool: 0 or 1).
    ///
    /// # Safety
    /// [`Reader::BLOCK`] readable bytes at `at`; `S` an integer of 32 bits or fewer.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn i32s(&self, at: *const u8) -> [__m256i; 4] {
        let (bytes, signed, bool) = match S::SOURCE {
            Source::Int(i) => (i.bytes, i.signed, i.bool),
            _ => (1, false, false),
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
                        let b = if bool {
                            _mm_min_epu8(b, _mm_set1_epi8(1))
                        } else {
                            b
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
    pub(crate) unsafe fn i64s(&self, at: *const u8) -> [__m256i; 8] {
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
    pub(crate) unsafe fn f64s(&self, at: *const u8) -> [__m256d; 8] {
        match S::SOURCE {
            // SAFETY: the caller guarantees 256 readable bytes, eight vectors.
            Source::F64 => array!(8, |k| unsafe { _mm256_loadu_pd((at as *const f64).add(4 * k)) }),
            Source::Int(IntLayout { bytes: 8, signed, .. }) => {
                // SAFETY: the caller guarantees `BLOCK` readable bytes.
                let x = unsafe { self.i64s(at) };
                array!(8, |k| i64_to_f64(x[k], signed))
            }
            Source::Int(IntLayout {
                bytes: 4,
                signed: false,
                ..
            }) => {
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
            Source::Int(_) => widen_i32(unsafe { self.i32s(at) }),
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

/// bf16 values shifted into f32 lanes, a NaN made the quiet NaN of its sign (as
/// the scalar cast gives); a block without NaN costs one test.
#[inline]
#[target_feature(enable = "avx2")]
fn bf16_quiet(v: [__m256i; 4]) -> [__m256i; 4] {
    let magnitude = |v: __m256i| _mm256_and_si256(v, _mm256_set1_epi32(0x7fff_ffff));
    let nan = array!(4, |k| _mm256_cmpgt_epi32(
        magnitude(v[k]),
        _mm256_set1_epi32(0x7f80_0000)
    ));
    let any = _mm256_or_si256(_mm256_or_si256(nan[0], nan[1]), _mm256_or_si256(nan[2], nan[3]));
    if _mm256_testz_si256(any, any) != 0 {
        return v;
    }
    array!(4, |k| {
        let quiet = _mm256_or_si256(
            _mm256_xor_si256(v[k], magnitude(v[k])),
            _mm256_set1_epi32(0x7fc0_0000),
        );
        _mm256_blendv_epi8(v[k], quiet, nan[k])
    })
}

/// The tables of [`Float8Tables`] in vectors.
pub(crate) struct Float8Vectors {
    a3: __m256i,
    b3: __m256i,
    b2: __m256i,
    s3: __m256i,
    s2: __m256i,
}

impl Float8Vectors {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(t: &Float8Tables) -> Self {
        Float8Vectors {
            a3: table16(&t.a3),
            b3: table16(&t.b3),
            b2: table16(&t.b2),
            s3: table16(&t.s3),
            s2: table16(&t.s2),
        }
    }

    /// A nibble format's tables: bytes 3 and 2 of its 16 results in `b3` and
    /// `b2` (the low two are zero for every nibble format).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn nibbles(table: &[u32; 16]) -> Self {
        let t3: [u8; 16] = core::array::from_fn(|n| (table[n] >> 24) as u8);
        let t2: [u8; 16] = core::array::from_fn(|n| (table[n] >> 16) as u8);
        let zero = _mm256_setzero_si256();
        Float8Vectors {
            a3: zero,
            b3: table16(&t3),
            b2: table16(&t2),
            s3: zero,
            s2: zero,
        }
    }
}

/// Bytes 3 and 2 of the f32 values of 32 float8 codes (in [`spread`] order) of the
/// format with `tables` (in vectors: `t`) and `specials`: two 16-entry lookups by
/// nibble for a normal code, two more for a subnormal one (the exponent field
/// zero), then the format's NaN and infinity.
#[inline]
#[target_feature(enable = "avx2")]
fn float8_top16(v: __m256i, t: &Float8Vectors, tables: &Float8Tables) -> (__m256i, __m256i) {
    let nibble = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(v, nibble);
    let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
    let exp_field = _mm256_set1_epi8(tables.exp_field as i8);
    let subnormal = _mm256_cmpeq_epi8(_mm256_and_si256(v, exp_field), _mm256_setzero_si256());
    let low3 = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(t.b3, lo),
        _mm256_shuffle_epi8(t.s3, lo),
        subnormal,
    );
    let mut b3 = _mm256_add_epi8(_mm256_shuffle_epi8(t.a3, hi), low3);
    let mut b2 = _mm256_blendv_epi8(
        _mm256_shuffle_epi8(t.b2, lo),
        _mm256_shuffle_epi8(t.s2, lo),
        subnormal,
    );
    let magnitude = _mm256_and_si256(v, _mm256_set1_epi8(0x7f));
    let flip = |nan: __m256i, b3: __m256i, b2: __m256i| {
        (
            _mm256_xor_si256(
                b3,
                _mm256_and_si256(nan, _mm256_set1_epi8(tables.nan_flip.0 as i8)),
            ),
            _mm256_xor_si256(
                b2,
                _mm256_and_si256(nan, _mm256_set1_epi8(tables.nan_flip.1 as i8)),
            ),
        )
    };
    match tables.non_finite {
        // S.1111.111: the quiet NaN of its sign (bits flipped from the normal path's).
        NonFinite::NanAllOnes => {
            (b3, b2) = flip(_mm256_cmpeq_epi8(magnitude, _mm256_set1_epi8(0x7f)), b3, b2)
        }
        NonFinite::Ieee => {
            // All-ones exponent: ±infinity, or the quiet NaN of its sign.
            let top = _mm256_cmpeq_epi8(_mm256_and_si256(v, exp_field), exp_field);
            b3 = _mm256_or_si256(b3, _mm256_and_si256(top, _mm256_set1_epi8(0x7f)));
            let nan = _mm256_cmpgt_epi8(magnitude, exp_field);
            b2 = _mm256_blendv_epi8(b2, _mm256_set1_epi8(0xc0u8 as i8), nan);
        }
        // 0x80, the subnormal path's −0, is the only NaN.
        NonFinite::NanNegativeZero => {
            (b3, b2) = flip(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x80u8 as i8)), b3, b2)
        }
        // Every code is a number, 0x80 −0 among them.
        NonFinite::None => {}
    }
    (b3, b2)
}

/// Bytes 3 and 2 of the f32 values of 32 f8e8m0 codes (in [`spread`] order):
/// 2^(code − 127) is the code shifted into the exponent field; code 0 (2^−127) is
/// the subnormal 0x0040_0000 and 0xff the quiet NaN.
#[inline]
#[target_feature(enable = "avx2")]
fn e8m0_top16(v: __m256i) -> (__m256i, __m256i) {
    let b3 = _mm256_and_si256(_mm256_srli_epi16::<1>(v), _mm256_set1_epi8(0x7f));
    let low = _mm256_and_si256(_mm256_slli_epi16::<7>(v), _mm256_set1_epi8(0x80u8 as i8));
    let edge = _mm256_or_si256(
        _mm256_cmpeq_epi8(v, _mm256_setzero_si256()),
        _mm256_cmpeq_epi8(v, _mm256_set1_epi8(-1)),
    );
    (
        b3,
        _mm256_or_si256(low, _mm256_and_si256(edge, _mm256_set1_epi8(0x40))),
    )
}
