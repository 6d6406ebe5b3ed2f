//! The backends: [`Backend`], the one a caller names, and [`Isa`], what each
//! backend's file implements; both from one table, [`backends!`]. Below the driver,
//! above nothing but the formats.

use super::super::scalar::Kernel;
use super::formats::{Lanes, Sink, Source, Target};
use crate::narrow::RoundMode;
use crate::DType;
use core::fmt;

/// The table of backends, slowest first: each row's variant, docs, name, module,
/// type, architecture and CPU features makes [`Backend`] (its variants, `ALL`,
/// `name`, `is_available`), [`has`] (which conversions each has a body for) and
/// [`find`] (the driver instantiated on each). A new backend is a file and a row.
macro_rules! backends {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, $module:ident :: $isa:ident, arch $arch:tt, features [$($feature:tt),*];
    )*) => {
        /// The instruction set a [`Converter`](crate::cast::Converter) runs its fast
        /// kernels on, chosen once when it is made ([`Backend::detect`], or
        /// [`Converter::with_backend`](crate::cast::Converter::with_backend)). Every
        /// backend gives the scalar cast's bits.
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
            $($(#[doc = $doc])* $variant,)*
        }

        impl Backend {
            /// Every backend, slowest first.
            pub const ALL: [Backend; [$(Backend::$variant),*].len()] = [$(Backend::$variant),*];

            /// Whether this CPU runs the backend's instructions (the standard
            /// library caches what the CPU has).
            pub fn is_available(self) -> bool {
                match self {
                    $(Backend::$variant => backends!(@available $arch [$($feature),*]),)*
                }
            }

            /// Its name: `portable`, `avx2` or `avx512`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Backend::$variant => $name,)*
                }
            }
        }

        /// Whether `backend` has a kernel body for `s` into `t` (the portable
        /// backend's are the driver's head and tail loops).
        pub(crate) const fn has(backend: Backend, s: Source, t: Sink) -> bool {
            match backend {
                $(Backend::$variant => backends!(@has $arch $module, s, t),)*
            }
        }

        /// The fast kernel for `from` into `to` on `backend`, if there is one;
        /// `None` when the CPU lacks the backend (see [`Backend::is_available`]).
        pub(crate) fn find(from: DType, to: DType, backend: Backend) -> Option<Kernel> {
            if !backend.is_available() {
                return None;
            }
            match backend {
                $(Backend::$variant => backends!(@find $arch $module::$isa, from, to),)*
            }
        }
    };
    (@available any []) => { true };
    (@available $arch:literal [$($feature:tt),*]) => {{
        #[cfg(target_arch = $arch)]
        let available = true $(&& std::is_x86_feature_detected!($feature))*;
        #[cfg(not(target_arch = $arch))]
        let available = false;
        available
    }};
    (@has any $module:ident, $s:ident, $t:ident) => { super::$module::has($s, $t) };
    (@has $arch:literal $module:ident, $s:ident, $t:ident) => {{
        #[cfg(target_arch = $arch)]
        let has = super::$module::has($s, $t);
        #[cfg(not(target_arch = $arch))]
        let has = false;
        has
    }};
    (@find any $module:ident :: $isa:ident, $from:ident, $to:ident) => {
        super::find_in::<super::$module::$isa>($from, $to)
    };
    (@find $arch:literal $module:ident :: $isa:ident, $from:ident, $to:ident) => {{
        #[cfg(target_arch = $arch)]
        let kernel = super::find_in::<super::$module::$isa>($from, $to);
        #[cfg(not(target_arch = $arch))]
        let kernel = None;
        kernel
    }};
}

backends! {
    /// Tables and plain loops: every CPU.
    Portable = "portable", portable::Portable, arch any, features [];
    /// x86-64 AVX2 and F16C.
    Avx2 = "avx2", x86_avx2::Avx2, arch "x86_64", features ["avx2", "f16c"];
    /// x86-64 AVX-512 F, BW, VL and VBMI (and AVX2 and F16C, whose blocks it uses
    /// where 16 lanes gain nothing).
    Avx512 = "avx512", x86_avx512::Avx512, arch "x86_64",
        features ["avx2", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512vbmi"];
}

impl Backend {
    /// The fastest backend this CPU runs.
    pub fn detect() -> Backend {
        Backend::ALL
            .into_iter()
            .rev()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }

    /// The backends this CPU runs, slowest first: what the tests compare with the
    /// scalar cast.
    pub fn available() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_available()).collect()
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a body needs of the options, worked out once per call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Whether an overflow into a narrow float or f8e8m0 saturates.
    pub(crate) saturate: bool,
    /// Whether ±∞ into an ONNX FNUZ format is NaN even when saturating (opsets
    /// before 24).
    pub(crate) fnuz_inf_is_nan: bool,
    /// How f8e8m0 rounds.
    pub(crate) round_mode: RoundMode,
}

/// One backend: a body per conversion it has blocks for ([`has`]). Each body
/// converts whole blocks from the start of the slices it is given and returns how
/// many elements it did; the driver's tail does the rest.
pub(crate) trait Isa: 'static {
    /// Which backend this is.
    const BACKEND: Backend;
    /// The store alignment its bodies want, in bytes (the driver's head reaches it).
    const ALIGN: usize;

    /// Converts whole blocks of `S` into `T`; returns how many elements it did.
    ///
    /// # Safety
    /// The CPU has the backend's features, and `has(Self::BACKEND, S::SOURCE,
    /// T::SINK)`.
    unsafe fn body<S: Lanes, T: Target>(src: &[u8], dst: &mut [u8], plan: &Plan) -> usize;
}

/// Outputs from this size on are written with non-temporal stores (when aligned):
/// they would only push the input out of the cache.
#[cfg(not(test))]
pub(crate) const STREAM_FROM: usize = 32 << 20;
/// The unit tests stream from 4 KiB, so that the kernel tests' windows run every
/// body's streaming stores too, at every offset.
#[cfg(test)]
pub(crate) const STREAM_FROM: usize = 4 << 10;
