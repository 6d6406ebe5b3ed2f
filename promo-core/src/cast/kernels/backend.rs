//! The backends: [`Backend`], the one a caller names, and [`Isa`], the bodies each
//! backend's file implements; below the driver, above nothing but the formats.

use super::formats::{ByteTable, Int, Lanes, Target};
use core::fmt;

/// The instruction set a [`Converter`](crate::cast::Converter) runs its fast kernels on,
/// chosen once when it is made ([`Backend::detect`], or
/// [`Converter::with_backend`](crate::cast::Converter::with_backend)). Every backend
/// gives the scalar cast's bits.
///
/// ```
/// use promo_core::cast::Backend;
/// assert!(Backend::Portable.is_available());
/// assert!(Backend::detect().is_available());
/// println!("casting with {}", Backend::detect()); // e.g. "avx512"
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Tables and plain loops: every CPU.
    Portable,
    /// x86-64 AVX2 and F16C.
    Avx2,
    /// x86-64 AVX-512 F, BW, VL and VBMI (and AVX2 and F16C, whose kernels it uses
    /// where 16 lanes gain nothing).
    Avx512,
}

impl Backend {
    /// Every backend, slowest first.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

    /// The fastest backend this CPU runs (the standard library caches what the CPU
    /// has).
    pub fn detect() -> Backend {
        Backend::ALL
            .into_iter()
            .rev()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }

    /// Whether this CPU runs the backend's instructions.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("f16c"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                Backend::Avx2.is_available()
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512vbmi")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The backends this CPU runs, slowest first: what the tests compare with the
    /// scalar cast.
    pub fn available() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_available()).collect()
    }

    /// Its name: `portable`, `avx2` or `avx512`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One backend's bodies. Each converts whole blocks from the start of the slices
/// it is given and returns how many elements it did; the driver's tail does the
/// rest. A backend overrides the bodies it has kernels for; the others are its
/// [`Isa::Fallback`]'s (none, and so the tail, for the portable backend). A body
/// may use only what the backend's CPU features guarantee: the driver calls it
/// only after [`Backend::is_available`].
#[allow(clippy::missing_safety_doc)]
pub(crate) trait Isa: 'static {
    /// Which backend this is.
    const BACKEND: Backend;
    /// The backend whose bodies this one runs where it has none of its own: one
    /// whose CPU features this one's include (the portable backend names itself).
    type Fallback: Isa;
    /// Whether it has bodies at all (the portable backend has none: its fast
    /// kernels are the tables and loops of the head and tail).
    const SIMD: bool = true;
    /// The store alignment its bodies want, in bytes.
    const ALIGN: usize = 32;

    /// f32, f16, bf16 or an integer into a float8 format or f4e2m1.
    unsafe fn to_minifloat<S: Lanes, T: Target>(
        src: &[u8],
        dst: &mut [u8],
        saturate: bool,
        fnuz_inf_is_nan: bool,
    ) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::to_minifloat::<S, T>(src, dst, saturate, fnuz_inf_is_nan) }
    }

    /// f32 or an integer into f16.
    unsafe fn to_f16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::to_f16::<S>(src, dst) }
    }

    /// f32 or an integer into bf16.
    unsafe fn to_bf16<S: Lanes>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::to_bf16::<S>(src, dst) }
    }

    /// f32 or an integer into f8e8m0; `MODE` 0 up, 1 down, 2 nearest.
    unsafe fn to_e8m0<S: Lanes, const MODE: u8>(src: &[u8], dst: &mut [u8], saturate: bool) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::to_e8m0::<S, MODE>(src, dst, saturate) }
    }

    /// f64 into f32.
    unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::f64_to_f32(src, dst) }
    }

    /// f32 into f64.
    unsafe fn f32_to_f64(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::f32_to_f64(src, dst) }
    }

    /// A byte format (float8, float6) into f32.
    unsafe fn bytes_to_f32<S: ByteTable>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::bytes_to_f32::<S>(src, dst) }
    }

    /// Whole bytes of a nibble format into f32, by the tables of bytes 3 and 2 of
    /// its 16 results.
    unsafe fn nibbles_to_f32(src: &[u8], dst: &mut [u8], t3: &[u8; 16], t2: &[u8; 16]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::nibbles_to_f32(src, dst, t3, t2) }
    }

    /// f8e8m0 into f32.
    unsafe fn e8m0_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::e8m0_to_f32(src, dst) }
    }

    /// bf16 into f32.
    unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::bf16_to_f32(src, dst) }
    }

    /// f16 into f32.
    unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::f16_to_f32(src, dst) }
    }

    /// An integer (or bool) into another.
    unsafe fn int_to_int<S: Int, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::int_to_int::<S, T>(src, dst) }
    }

    /// An integer (or bool) into f32.
    unsafe fn int_to_f32<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::int_to_f32::<S>(src, dst) }
    }

    /// An integer (or bool) into f64.
    unsafe fn int_to_f64<S: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::int_to_f64::<S>(src, dst) }
    }

    /// A float into an integer.
    unsafe fn to_int<S: Lanes, T: Int>(src: &[u8], dst: &mut [u8]) -> usize {
        if !Self::SIMD {
            return 0;
        }
        // SAFETY: the caller guarantees this backend's features, which include
        // the fallback's.
        unsafe { Self::Fallback::to_int::<S, T>(src, dst) }
    }
}

/// Outputs from this size on are written with non-temporal stores (when aligned):
/// they would only push the input out of the cache.
#[cfg(not(test))]
pub(crate) const STREAM_FROM: usize = 32 << 20;
/// The unit tests stream from 4 KiB, so that the kernel tests' windows run every
/// body's streaming stores too, at every offset.
#[cfg(test)]
pub(crate) const STREAM_FROM: usize = 4 << 10;
