//! The scalar kernel: one element at a time through the exact value, the
//! reference every fast kernel is tested against, and the shape all kernels share.

use super::options::CastOptions;
use super::raw::Raw;
use super::values::{CastSource, CastTarget};

/// Bytes taken by `count` elements of `bits` bits.
pub(crate) const fn bytes_for(bits: usize, count: usize) -> usize {
    (count * bits).div_ceil(8)
}

/// One monomorphized conversion of `count` elements.
pub(crate) type Kernel = fn(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions);

/// Converts `count` elements of `S` in `src` into `T` in `dst`, one at a time.
#[inline(never)]
pub(crate) fn kernel<S: Raw + CastSource, T: Raw + CastTarget>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    options: &CastOptions,
) {
    if S::BITS % 8 == 0 && T::BITS % 8 == 0 {
        let (sb, tb) = (S::BITS / 8, T::BITS / 8);
        for (s, t) in src[..count * sb]
            .chunks_exact(sb)
            .zip(dst[..count * tb].chunks_exact_mut(tb))
        {
            T::from_value(S::read(s, 0).value(), options).write(t, 0);
        }
    } else {
        for i in 0..count {
            T::from_value(S::read(src, i).value(), options).write(dst, i);
        }
    }
}
