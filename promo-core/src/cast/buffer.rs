//! Buffer conversion: raw little-endian buffers from one dtype to another, through a
//! `const` table of monomorphized kernels chosen once per call.

use super::simd;
use super::values::{CastSource, CastTarget};
use super::CastOptions;
use crate::narrow::{f4e2m1, f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz, f8e8m0, i4, u4, Format, Minifloat};
use crate::DType;
use core::fmt;
use half::{bf16, f16};

/// Why a buffer could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// ONNX `Cast` has no such conversion (complex, string, or a type ONNX lacks).
    Unsupported {
        /// The source dtype.
        from: DType,
        /// The target dtype.
        to: DType,
    },
    /// The input ends inside an element.
    PartialElement {
        /// The byte offset where the incomplete element starts.
        offset: u64,
        /// The element size in bytes.
        size: usize,
    },
    /// A dtype name that promo does not know.
    UnknownDType(promo_table::UnknownDType),
    /// Typed slices of different lengths ([`cast_slice`](crate::cast::cast_slice)).
    LengthMismatch {
        /// Elements in the source.
        src: usize,
        /// Elements in the destination.
        dst: usize,
    },
    /// The output slice cannot hold the converted elements.
    OutputTooSmall {
        /// Bytes the output needs.
        needed: usize,
        /// Bytes the output has.
        len: usize,
    },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Unsupported { from, to } => write!(f, "no ONNX Cast from {from} to {to}"),
            ConvertError::PartialElement { offset, size } => write!(
                f,
                "the input ends inside an element: the element at byte offset {offset} is incomplete \
                 (elements are {size} bytes)"
            ),
            ConvertError::UnknownDType(e) => e.fmt(f),
            ConvertError::OutputTooSmall { needed, len } => {
                write!(f, "the output needs {needed} bytes but has {len}")
            }
            ConvertError::LengthMismatch { src, dst } => {
                write!(f, "the source has {src} elements but the destination {dst}")
            }
        }
    }
}

impl std::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConvertError::UnknownDType(e) => Some(e),
            _ => None,
        }
    }
}

impl From<promo_table::UnknownDType> for ConvertError {
    fn from(e: promo_table::UnknownDType) -> Self {
        ConvertError::UnknownDType(e)
    }
}

/// How an element lies in a buffer.
pub trait Raw: Copy {
    /// Bits per element: 4 (packed two per byte, low nibble first) or a multiple of 8.
    const BITS: usize;
    /// Element `i` of `bytes`.
    fn read(bytes: &[u8], i: usize) -> Self;
    /// Stores `self` as element `i` of `bytes`.
    fn write(self, bytes: &mut [u8], i: usize);
}

macro_rules! raw_le {
    ($($t:ty: $n:expr, |$v:ident| $to:expr, |$b:ident| $from:expr;)*) => {$(
        impl Raw for $t {
            const BITS: usize = $n * 8;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                let mut $b = [0u8; $n];
                $b.copy_from_slice(&bytes[i * $n..i * $n + $n]);
                $from
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                let $v = self;
                bytes[i * $n..i * $n + $n].copy_from_slice(&$to);
            }
        }
    )*};
}

raw_le! {
    bool: 1, |v| [v as u8], |b| b[0] != 0;
    i8: 1, |v| v.to_le_bytes(), |b| i8::from_le_bytes(b);
    u8: 1, |v| v.to_le_bytes(), |b| u8::from_le_bytes(b);
    i16: 2, |v| v.to_le_bytes(), |b| i16::from_le_bytes(b);
    u16: 2, |v| v.to_le_bytes(), |b| u16::from_le_bytes(b);
    i32: 4, |v| v.to_le_bytes(), |b| i32::from_le_bytes(b);
    u32: 4, |v| v.to_le_bytes(), |b| u32::from_le_bytes(b);
    i64: 8, |v| v.to_le_bytes(), |b| i64::from_le_bytes(b);
    u64: 8, |v| v.to_le_bytes(), |b| u64::from_le_bytes(b);
    f32: 4, |v| v.to_le_bytes(), |b| f32::from_le_bytes(b);
    f64: 8, |v| v.to_le_bytes(), |b| f64::from_le_bytes(b);
    f16: 2, |v| v.to_bits().to_le_bytes(), |b| f16::from_bits(u16::from_le_bytes(b));
    bf16: 2, |v| v.to_bits().to_le_bytes(), |b| bf16::from_bits(u16::from_le_bytes(b));
    f8e8m0: 1, |v| [v.to_bits()], |b| f8e8m0::from_bits(b[0]);
}

macro_rules! raw_byte_float {
    ($($t:ty),*) => {$(
        impl Raw for $t {
            const BITS: usize = 8;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                <$t>::from_bits(bytes[i])
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                bytes[i] = self.to_bits();
            }
        }
    )*};
}
raw_byte_float!(f8e4m3fn, f8e4m3fnuz, f8e5m2, f8e5m2fnuz);

macro_rules! raw_nibble {
    ($($t:ty),*) => {$(
        impl Raw for $t {
            const BITS: usize = 4;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                let byte = bytes[i / 2];
                <$t>::from_bits(if i % 2 == 0 { byte & 0xf } else { byte >> 4 })
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                let byte = &mut bytes[i / 2];
                *byte = if i % 2 == 0 {
                    (*byte & 0xf0) | self.to_bits()
                } else {
                    (*byte & 0x0f) | (self.to_bits() << 4)
                };
            }
        }
    )*};
}
raw_nibble!(i4, u4, f4e2m1);

/// Bytes taken by `count` elements of `bits` bits.
const fn bytes_for(bits: usize, count: usize) -> usize {
    (count * bits).div_ceil(8)
}

/// One monomorphized conversion of `count` elements.
pub(super) type Kernel = fn(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions);

/// The identity conversion: the bytes as they are.
fn copy(src: &[u8], dst: &mut [u8], _count: usize, _: &CastOptions) {
    let n = dst.len().min(src.len());
    dst[..n].copy_from_slice(&src[..n]);
}

#[inline(never)]
pub(super) fn kernel<S: Raw + CastSource, T: Raw + CastTarget>(
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

/// `f32` into `T`: the SIMD kernel for as many elements as it takes (none without
/// AVX2), the scalar kernel for the rest.
fn f32_fast<T: Raw + CastTarget + simd::Target>(
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    options: &CastOptions,
) {
    let done = simd::f32_to::<T>(src, dst, count, options);
    kernel::<f32, T>(
        &src[done * 4..],
        &mut dst[done * T::BITS / 8..],
        count - done,
        options,
    );
}

/// [`f32_fast`] for f8e8m0.
fn f32_fast_e8m0(src: &[u8], dst: &mut [u8], count: usize, options: &CastOptions) {
    let done = simd::f32_to_e8m0(src, dst, count, options);
    kernel::<f32, f8e8m0>(&src[done * 4..], &mut dst[done..], count - done, options);
}

/// The SIMD-backed kernel for `f32` into `to` with `options`, if there is one.
fn fast_f32_kernel(to: DType, options: &CastOptions) -> Option<Kernel> {
    fn pick<T: Raw + CastTarget + simd::Target>(options: &CastOptions) -> Option<Kernel> {
        simd::handles(&T::SPEC, options).then_some(f32_fast::<T> as Kernel)
    }
    match to {
        DType::F8E4M3FN => pick::<f8e4m3fn>(options),
        DType::F8E4M3FNUZ => pick::<f8e4m3fnuz>(options),
        DType::F8E5M2 => pick::<f8e5m2>(options),
        DType::F8E5M2FNUZ => pick::<f8e5m2fnuz>(options),
        DType::F4E2M1 => pick::<f4e2m1>(options),
        DType::F16 => pick::<f16>(options),
        DType::BF16 => pick::<bf16>(options),
        DType::F8E8M0 => Some(f32_fast_e8m0 as Kernel),
        _ => None,
    }
}

/// A `Minifloat` marker check that every format here is byte-sized or a nibble.
const _: () = assert!(<crate::narrow::E4M3FN as Format>::SPEC.bits() == 8);
const _: () = assert!(core::mem::size_of::<Minifloat<crate::narrow::E2M1>>() == 1);

macro_rules! table {
    ($($s:ident: $st:ty),* $(,)?) => {
        /// The dtypes a buffer conversion takes, in table order.
        const CASTABLE: &[DType] = &[$(DType::$s),*];
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

table! {
    Bool: bool, I4: i4, U4: u4, I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64,
    F4E2M1: f4e2m1, F8E4M3FN: f8e4m3fn, F8E4M3FNUZ: f8e4m3fnuz, F8E5M2: f8e5m2, F8E5M2FNUZ: f8e5m2fnuz,
    F8E8M0: f8e8m0, F16: f16, BF16: bf16, F32: f32, F64: f64,
}

/// Bits per element of `dtype` in a buffer, if buffers of it can be converted.
pub fn element_size(dtype: DType) -> Option<usize> {
    CASTABLE.contains(&dtype).then(|| dtype.bits() as usize)
}

/// A conversion from one dtype to another, its kernel chosen once.
#[derive(Clone, Copy)]
pub struct Converter {
    kernel: Kernel,
    options: CastOptions,
    from_bits: usize,
    to_bits: usize,
}

impl fmt::Debug for Converter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Converter")
            .field("from_bits", &self.from_bits)
            .field("to_bits", &self.to_bits)
            .finish()
    }
}

impl Converter {
    /// The conversion from `from` to `to` with `options`: the scalar kernel, or a
    /// faster one with the same results (see [`Converter::scalar`]): for `f32` into
    /// a narrow format, f16 or bf16 the SIMD kernel where the CPU has AVX2; into
    /// `f32` from an 8- or 4-bit float or i4/u4 a table of the scalar results, from
    /// bf16 a shift, from f16 F16C where the CPU has it; from `f32` into an integer of
    /// 32 bits or fewer `vcvttps2dq` where the CPU has AVX2.
    pub fn new(from: DType, to: DType, options: CastOptions) -> Result<Self, ConvertError> {
        let mut converter = Self::scalar(from, to, options)?;
        if from == DType::F32 {
            if let Some(kernel) = fast_f32_kernel(to, &options).or_else(|| super::to_int::from_f32_kernel(to))
            {
                converter.kernel = kernel;
            }
        }
        if to == DType::F32 {
            if let Some(kernel) = super::decode::to_f32_kernel(from) {
                converter.kernel = kernel;
            }
        }
        Ok(converter)
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
            options,
            from_bits: from.bits() as usize,
            to_bits: to.bits() as usize,
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

    /// Converts `count` elements of `src` and appends them to `out` (`count` is
    /// capped at the number of whole elements `src` holds).
    pub fn convert_into(&self, src: &[u8], count: usize, out: &mut Vec<u8>) {
        let count = count.min(src.len() * 8 / self.from_bits);
        let start = out.len();
        out.resize(start + bytes_for(self.to_bits, count), 0);
        (self.kernel)(src, &mut out[start..], count, &self.options);
    }
}

/// The number of elements in `src`, or where a trailing partial element starts.
fn whole_elements(converter: &Converter, src: &[u8]) -> Result<usize, ConvertError> {
    let bits = converter.from_bits;
    let count = src.len() * 8 / bits;
    if bits >= 8 && !src.len().is_multiple_of(bits / 8) {
        return Err(ConvertError::PartialElement {
            offset: (count * bits / 8) as u64,
            size: bits / 8,
        });
    }
    Ok(count)
}

/// Converts a whole buffer: `src` holds elements of `from` (little-endian; 4-bit
/// types two per byte, low nibble first) and the result holds them as `to`.
///
/// For 4-bit sources every nibble is an element (an odd count is not expressible);
/// a trailing partial element of a wider type is [`ConvertError::PartialElement`].
pub fn convert(from: DType, to: DType, src: &[u8], options: &CastOptions) -> Result<Vec<u8>, ConvertError> {
    let converter = Converter::new(from, to, *options)?;
    let count = whole_elements(&converter, src)?;
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
    let converter = Converter::new(from, to, *options)?;
    let count = whole_elements(&converter, src)?;
    let needed = bytes_for(converter.to_bits, count);
    let Some(out) = dst.get_mut(..needed) else {
        return Err(ConvertError::OutputTooSmall {
            needed,
            len: dst.len(),
        });
    };
    if converter.to_bits == 4 && count % 2 == 1 {
        // The kernels keep the other nibble of the last byte; start it at zero.
        out[needed - 1] = 0;
    }
    (converter.kernel)(src, out, count, &converter.options);
    Ok(needed)
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
