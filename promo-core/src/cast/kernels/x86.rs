//! What the x86 backends share, below both: prefetching, and [`array!`], which
//! writes out a small array of vectors.

use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

/// `[e(0), e(1), …]` for `k` in `0..4` or `0..8`, written out: a closure handed to
/// `array::from_fn` or `array::map` is not inlined into a `#[target_feature]`
/// function (it has features its caller lacks), which costs a call per vector.
macro_rules! array {
    (4, |$k:ident| $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
        ]
    };
    (8, |$k:ident| $e:expr) => {{
        let [a, b, c, d] = array!(4, |$k| $e);
        let [e, f, g, h] = array!(4, |k4| {
            let $k = k4 + 4;
            $e
        });
        [a, b, c, d, e, f, g, h]
    }};
}
pub(crate) use array;

/// How far ahead of the loads the loops prefetch, in bytes.
const AHEAD: usize = 2048;

/// Inputs from this size on are prefetched (smaller ones are in the cache, where a
/// prefetch is one more instruction for nothing).
pub(crate) const PREFETCH_FROM: usize = 1 << 20;

/// Asks for the cache lines `AHEAD` bytes past each 64 bytes of the `bytes` at `at`
/// (the addresses need not be inside the slice: a prefetch never faults).
#[inline(always)]
pub(crate) fn prefetch(at: *const u8, bytes: usize) {
    for k in 0..bytes.div_ceil(64) {
        let ahead = at.wrapping_add(AHEAD + 64 * k);
        // SAFETY: a prefetch reads nothing the program sees and never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ahead as *const i8) }
    }
}
