//! Buffer conversion: raw little-endian buffers from one dtype to another, through a
//! `const` table of monomorphized kernels chosen once per call.

use super::error::ConvertError;
use super::kernels::{self, Backend};
use super::options::CastOptions;
use super::raw::Raw;
use super::scalar::{bytes_for, kernel, Kernel};
use crate::element::for_each_element;
use crate::DType;
use core::fmt;

/// The identity conversion: the bytes as they are.
fn copy(src: &[u8], dst: &mut [u8], _count: usize, _: &CastOptions) {
    let n = dst.len().min(src.len());
    dst[..n].copy_from_slice(&src[..n]);
}

macro_rules! table {
    ($($s:ident: $st:ty = $layout:ident / $text:ident),* $(,)?) => {
        /// The dtypes a buffer conversion takes, in table order.
        pub(crate) const CASTABLE: &[DType] = &[$(DType::$s),*];
        /// Bits each of them takes in a buffer, in table order: the element's own
        /// width when packed (2 and 4 bits), else whole bytes (a 6-bit float takes
        /// a byte, as ml_dtypes stores it).
        const STORAGE_BITS: &[usize] = &[$(<$st as Raw>::BITS),*];
        table!(@rows [$($s: $st),*] [$($s: $st),*]);
    };
    (@rows [$($s:ident: $st:ty),*] $all:tt) => {
        /// `KERNELS[i][j]` converts `CASTABLE[i]` to `CASTABLE[j]`.
        const KERNELS: &[&[Kernel]] = &[$(table!(@row $st $all)),*];
    };
    (@row $st:ty [$($t:ident: $tt:ty),*]) => {
        &[$(kernel::<$st, $tt> as Kernel),*]
    };
}

for_each_element!(table);

/// Bits per element of `dtype` in a buffer, if buffers of it can be converted: 2
/// or 4 for the packed types, 8 for the byte formats (the 6-bit floats, one per
/// byte, included), else the dtype's width.
///
/// ```
/// use promo_core::cast::element_size;
/// use promo_core::DType;
/// assert_eq!(element_size(DType::F4E2M1), Some(4));
/// assert_eq!(element_size(DType::F6E2M3FN), Some(8));
/// assert_eq!(element_size(DType::C64), None);
/// ```
pub fn element_size(dtype: DType) -> Option<usize> {
    CASTABLE.iter().position(|&c| c == dtype).map(|i| STORAGE_BITS[i])
}

/// A conversion from one dtype to another, its kernel chosen once.
#[derive(Clone, Copy)]
pub struct Converter {
    kernel: Kernel,
    backend: Backend,
    options: CastOptions,
    from_bits: usize,
    to_bits: usize,
}

impl fmt::Debug for Converter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Converter")
            .field("backend", &self.backend)
            .field("from_bits", &self.from_bits)
            .field("to_bits", &self.to_bits)
            .finish()
    }
}

impl Converter {
    /// The conversion from `from` to `to` with `options`: the scalar kernel, or a
    /// faster one with the same results where there is one (see the table in
    /// [`cast`](super)), on the fastest backend this CPU has ([`Backend::detect`]),
    /// chosen here, once.
    pub fn new(from: DType, to: DType, options: CastOptions) -> Result<Self, ConvertError> {
        Self::with_backend(from, to, options, Backend::detect())
    }

    /// [`Converter::new`] on the given backend: every backend gives the same bits,
    /// so this is for tests and benchmarks that compare them. A backend whose
    /// instructions this CPU lacks is [`ConvertError::BackendUnavailable`].
    ///
    /// ```
    /// use promo_core::cast::{Backend, CastOptions, Converter};
    /// use promo_core::DType;
    /// for backend in Backend::available() {
    ///     let c = Converter::with_backend(DType::F32, DType::F8E4M3FN, CastOptions::default(), backend)?;
    ///     let mut out = Vec::new();
    ///     c.convert_into(&448.0f32.to_le_bytes(), 1, &mut out);
    ///     assert_eq!(out, [0x7e]);
    /// }
    /// # Ok::<(), promo_core::cast::ConvertError>(())
    /// ```
    pub fn with_backend(
        from: DType,
        to: DType,
        options: CastOptions,
        backend: Backend,
    ) -> Result<Self, ConvertError> {
        if !backend.is_available() {
            return Err(ConvertError::BackendUnavailable(backend));
        }
        let mut converter = Self::scalar(from, to, options)?;
        if from != to {
            if let Some(kernel) = kernels::find(from, to, backend) {
                converter.kernel = kernel;
                converter.backend = backend;
            }
        }
        Ok(converter)
    }

    /// The backend whose kernel this conversion runs: the one asked for where it
    /// has a fast kernel for the pair, else [`Backend::Portable`] (the scalar
    /// kernel, or a copy for the same dtype).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether this conversion from `from` to `to` runs the scalar kernel (or the
    /// copy of a dtype into itself) rather than a fast one: what the kernel tests
    /// need not run twice.
    #[cfg(test)]
    pub(crate) fn is_scalar(&self, from: DType, to: DType) -> bool {
        let find = |d: DType| CASTABLE.iter().position(|&c| c == d);
        match (find(from), find(to)) {
            (Some(i), Some(j)) => i == j || core::ptr::fn_addr_eq(self.kernel, KERNELS[i][j]),
            _ => true,
        }
    }

    /// The conversion from `from` to `to` with `options` through the scalar kernel
    /// only: the reference the SIMD kernels are tested against.
    pub fn scalar(from: DType, to: DType, options: CastOptions) -> Result<Self, ConvertError> {
        let find = |d: DType| CASTABLE.iter().position(|&c| c == d);
        let (Some(i), Some(j)) = (find(from), find(to)) else {
            return Err(ConvertError::Unsupported { from, to });
        };
        Ok(Converter {
            // A cast to the same type copies the bits (NaN payloads included).
            kernel: if i == j { copy } else { KERNELS[i][j] },
            backend: Backend::Portable,
            options,
            from_bits: STORAGE_BITS[i],
            to_bits: STORAGE_BITS[j],
        })
    }

    /// Converts exactly `count` elements of `src` into `dst`, which hold them
    /// (the typed-slice path).
    pub(crate) fn run(&self, src: &[u8], dst: &mut [u8], count: usize) {
        (self.kernel)(src, dst, count, &self.options);
    }

    /// Bits per source element.
    pub fn from_bits(&self) -> usize {
        self.from_bits
    }

    /// Bits per target element.
    pub fn to_bits(&self) -> usize {
        self.to_bits
    }

    /// The number of elements in `src`, or where a trailing partial element starts.
    pub(crate) fn whole_elements(&self, src: &[u8]) -> Result<usize, ConvertError> {
        let bits = self.from_bits;
        let count = src.len() * 8 / bits;
        if bits >= 8 && !src.len().is_multiple_of(bits / 8) {
            return Err(ConvertError::PartialElement {
                offset: (count * bits / 8) as u64,
                size: bits / 8,
            });
        }
        Ok(count)
    }

    /// Converts `count` elements of `src` (which holds them) into the start of
    /// `out` (which has room for them) and returns the bytes written; a packed
    /// target's last partly used byte has its unused high bits zero (ONNX's padding).
    pub(crate) fn convert_to(&self, src: &[u8], count: usize, out: &mut [u8]) -> usize {
        let needed = bytes_for(self.to_bits, count);
        let out = &mut out[..needed];
        (self.kernel)(src, out, count, &self.options);
        self.clear_padding(out, count);
        needed
    }

    /// Zeroes the bits after element `count` in the last byte of `out` (which
    /// holds exactly `count` elements): the kernels keep the other elements of a
    /// byte they write, and a copy brings the source's padding along.
    fn clear_padding(&self, out: &mut [u8], count: usize) {
        let used = (count * self.to_bits) % 8;
        if used != 0 {
            if let Some(last) = out.last_mut() {
                *last &= (1u8 << used) - 1;
            }
        }
    }

    /// Converts every element of `src` into the start of `dst` and returns the
    /// number of bytes written, as [`convert_to_slice`] does with this conversion's
    /// kernel (chosen once, so a loop over many slices pays for the choice once).
    /// A trailing partial element is [`ConvertError::PartialElement`] and a `dst`
    /// too short [`ConvertError::OutputTooSmall`]; in both cases `dst` is left
    /// untouched.
    pub fn convert_to_slice(&self, src: &[u8], dst: &mut [u8]) -> Result<usize, ConvertError> {
        let count = self.slice_count(src, dst.len())?;
        Ok(self.convert_to(src, count, dst))
    }

    /// The number of elements of `src` when an output of `dst_len` bytes holds
    /// them all: [`ConvertError::PartialElement`] for a trailing partial element,
    /// [`ConvertError::OutputTooSmall`] for too short an output.
    pub(crate) fn slice_count(&self, src: &[u8], dst_len: usize) -> Result<usize, ConvertError> {
        let count = self.whole_elements(src)?;
        let needed = bytes_for(self.to_bits, count);
        if dst_len < needed {
            return Err(ConvertError::OutputTooSmall { needed, len: dst_len });
        }
        Ok(count)
    }

    /// Converts `count` elements of `src` and appends them to `out` (`count` is
    /// capped at the number of whole elements `src` holds); unused bits of a
    /// packed target's last byte are zero.
    pub fn convert_into(&self, src: &[u8], count: usize, out: &mut Vec<u8>) {
        let count = count.min(src.len() * 8 / self.from_bits);
        let start = out.len();
        out.resize(start + bytes_for(self.to_bits, count), 0);
        self.convert_to(src, count, &mut out[start..]);
    }
}

/// Converts a whole buffer: `src` holds elements of `from` (little-endian; 4-bit
/// types two per byte, low nibble first; 2-bit types four per byte, element 0 in
/// the low bits) and the result holds them as `to`.
///
/// For packed sources every slot is an element (a count that does not fill the
/// last byte is not expressible here; see [`convert_stream_exact`](super::convert_stream_exact));
/// a trailing partial element of a wider type is [`ConvertError::PartialElement`].
pub fn convert(from: DType, to: DType, src: &[u8], options: &CastOptions) -> Result<Vec<u8>, ConvertError> {
    let converter = Converter::new(from, to, *options)?;
    let count = converter.whole_elements(src)?;
    let mut out = Vec::new();
    converter.convert_into(src, count, &mut out);
    Ok(out)
}

/// [`convert`] into a caller's slice: converts every element of `src` into the
/// start of `dst` and returns the number of bytes written. A trailing partial
/// element is [`ConvertError::PartialElement`] and a `dst` too short for the result
/// [`ConvertError::OutputTooSmall`]; in both cases `dst` is left untouched.
pub fn convert_to_slice(
    from: DType,
    to: DType,
    src: &[u8],
    dst: &mut [u8],
    options: &CastOptions,
) -> Result<usize, ConvertError> {
    Converter::new(from, to, *options)?.convert_to_slice(src, dst)
}

/// [`convert`] with `from`/`to` given as names.
pub fn convert_bytes(
    from: &str,
    to: &str,
    src: &[u8],
    options: &CastOptions,
) -> Result<Vec<u8>, ConvertError> {
    convert(from.parse()?, to.parse()?, src, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_and_unknown_names_are_typed_errors() {
        let o = CastOptions::default();
        assert_eq!(
            convert_bytes("float32", "f16", &1.0f32.to_le_bytes(), &o),
            Ok(vec![0x00, 0x3c])
        );
        let err = convert_bytes("f9", "f16", &[], &o).unwrap_err();
        assert_eq!(
            err,
            ConvertError::UnknownDType(promo_table::UnknownDType("f9".into()))
        );
        assert_eq!(err.to_string(), "unknown dtype `f9`");
        assert!(std::error::Error::source(&err).is_some());
    }

    #[test]
    fn slices_and_errors() {
        let o = CastOptions::default();
        let src: Vec<u8> = [1.0f32, -2.5, 464.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let mut dst = [0xaau8; 4];
        assert_eq!(
            convert_to_slice(DType::F32, DType::F8E4M3FN, &src, &mut dst, &o),
            Ok(3)
        );
        assert_eq!(dst, [0x38, 0xc2, 0x7e, 0xaa]);
        assert_eq!(
            convert_to_slice(DType::F32, DType::F4E2M1, &src, &mut dst, &o),
            Ok(2)
        );
        assert_eq!(dst[..2], [0xc2, 0x07]);
        assert_eq!(
            convert_to_slice(DType::F32, DType::F64, &src, &mut dst, &o),
            Err(ConvertError::OutputTooSmall { needed: 24, len: 4 })
        );
        let err = convert(DType::F32, DType::F16, &src[..7], &o).unwrap_err();
        assert_eq!(err, ConvertError::PartialElement { offset: 4, size: 4 });
        assert!(err.to_string().contains("byte offset 4"), "{err}");
        assert_eq!(
            convert(DType::C64, DType::F32, &src, &o),
            Err(ConvertError::Unsupported {
                from: DType::C64,
                to: DType::F32
            })
        );
        // 4-bit sources: every nibble is an element.
        assert_eq!(convert(DType::I4, DType::I8, &[0x9f], &o), Ok(vec![0xff, 0xf9]));
        // Fewer source bytes than `count` asks for: capped, no panic.
        let mut out = Vec::new();
        Converter::new(DType::F32, DType::F16, o)
            .unwrap()
            .convert_into(&src, 100, &mut out);
        assert_eq!(out.len(), 6);
    }
}
