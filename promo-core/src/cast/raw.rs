//! How each element type lies in a buffer ([`Raw`]) and as a bit pattern
//! ([`Bits`]), from the element table (`for_each_element!`).

use crate::element::for_each_element;

/// How an element lies in a buffer.
pub trait Raw: Copy {
    /// Bits per element: 2 or 4 (packed four or two per byte, element 0 in the low
    /// bits) or a multiple of 8.
    const BITS: usize;
    /// Element `i` of `bytes`.
    fn read(bytes: &[u8], i: usize) -> Self;
    /// Stores `self` as element `i` of `bytes`.
    fn write(self, bytes: &mut [u8], i: usize);
}

/// An element as its bit pattern, zero-extended to 64 bits (2- and 4-bit types as
/// their code): what `promo cast` prints and reads after `0x`.
pub trait Bits: Copy {
    /// The element whose pattern is the low bits of `bits`.
    fn from_bits64(bits: u64) -> Self;
    /// The bit pattern, zero-extended.
    fn to_bits64(self) -> u64;
}

macro_rules! layouts {
    ($($dtype:ident: $ty:ty = $layout:ident / $text:ident),* $(,)?) => {
        $(layouts!(@$layout $ty);)*
    };
    (@bool $ty:ty) => {
        impl Raw for bool {
            const BITS: usize = 8;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                bytes[i] != 0
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                bytes[i] = self as u8;
            }
        }
        impl Bits for bool {
            fn from_bits64(bits: u64) -> Self {
                bits != 0
            }
            fn to_bits64(self) -> u64 {
                self as u64
            }
        }
    };
    (@int $ty:ty) => {
        layouts!(@le $ty, |v| v.to_le_bytes(), |b| <$ty>::from_le_bytes(b));
        impl Bits for $ty {
            fn from_bits64(bits: u64) -> Self {
                bits as $ty
            }
            fn to_bits64(self) -> u64 {
                (self as u64) & (u64::MAX >> (64 - <$ty>::BITS))
            }
        }
    };
    (@float $ty:ty) => {
        layouts!(@le $ty, |v| v.to_le_bytes(), |b| <$ty>::from_le_bytes(b));
        layouts!(@bits $ty, |x| x.to_bits() as u64, |b| <$ty>::from_bits(b as _));
    };
    (@half $ty:ty) => {
        layouts!(@le $ty, |v| v.to_bits().to_le_bytes(), |b| <$ty>::from_bits(u16::from_le_bytes(b)));
        layouts!(@bits $ty, |x| x.to_bits() as u64, |b| <$ty>::from_bits(b as u16));
    };
    (@byte $ty:ty) => {
        impl Raw for $ty {
            const BITS: usize = 8;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                <$ty>::from_bits(bytes[i])
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                bytes[i] = self.to_bits();
            }
        }
        layouts!(@bits $ty, |x| x.to_bits() as u64, |b| <$ty>::from_bits(b as u8));
    };
    (@nibble $ty:ty) => {
        layouts!(@packed $ty, 4);
    };
    (@crumb $ty:ty) => {
        layouts!(@packed $ty, 2);
    };
    // `8 / $bits` codes per byte, element 0 in the low bits.
    (@packed $ty:ty, $bits:expr) => {
        impl Raw for $ty {
            const BITS: usize = $bits;
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                const PER_BYTE: usize = 8 / $bits;
                const MASK: u8 = (1 << $bits) - 1;
                let shift = (i % PER_BYTE) * $bits;
                <$ty>::from_bits((bytes[i / PER_BYTE] >> shift) & MASK)
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                const PER_BYTE: usize = 8 / $bits;
                const MASK: u8 = (1 << $bits) - 1;
                let shift = (i % PER_BYTE) * $bits;
                let byte = &mut bytes[i / PER_BYTE];
                *byte = (*byte & !(MASK << shift)) | (self.to_bits() << shift);
            }
        }
        layouts!(@bits $ty, |x| x.to_bits() as u64, |b| <$ty>::from_bits(b as u8 & ((1 << $bits) - 1)));
    };
    (@le $ty:ty, |$v:ident| $to:expr, |$b:ident| $from:expr) => {
        impl Raw for $ty {
            const BITS: usize = 8 * core::mem::size_of::<$ty>();
            #[inline]
            fn read(bytes: &[u8], i: usize) -> Self {
                const N: usize = core::mem::size_of::<$ty>();
                let mut $b = [0u8; N];
                $b.copy_from_slice(&bytes[i * N..i * N + N]);
                $from
            }
            #[inline]
            fn write(self, bytes: &mut [u8], i: usize) {
                const N: usize = core::mem::size_of::<$ty>();
                let $v = self;
                bytes[i * N..i * N + N].copy_from_slice(&$to);
            }
        }
    };
    (@bits $ty:ty, |$x:ident| $to:expr, |$b:ident| $from:expr) => {
        impl Bits for $ty {
            fn from_bits64($b: u64) -> Self {
                $from
            }
            fn to_bits64(self) -> u64 {
                let $x = self;
                $to
            }
        }
    };
}

for_each_element!(layouts);
