//! The integers narrower than a byte — [`i2`], [`u2`], [`i4`], [`u4`] — and ONNX's
//! packing of them, several per byte. One definition, parameterised by the width
//! and the signedness.

use core::fmt;

macro_rules! small_int {
    ($(#[$doc:meta])* $name:ident, $bits:expr, $signed:expr) => {
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        ///
        #[doc = concat!(
            "The value is kept in the low ", stringify!($bits), " bits of a byte, the ",
            "others zero, so not every byte is a valid value: with the `bytemuck` feature ",
            "the type is `Zeroable` but not `Pod` (use [`pack_codes`] for buffers)."
        )]
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
        #[derive(bytemuck::Zeroable)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl $name {
            /// Bits per value.
            pub const BITS: u32 = $bits;
            /// The code's bits within a byte.
            const MASK: u8 = (1 << $bits) - 1;
            /// The value with this code (the bits above the width are dropped).
            pub const fn from_bits(bits: u8) -> Self {
                $name(bits & Self::MASK)
            }
            /// The code, in the low [`BITS`](Self::BITS) bits.
            pub const fn to_bits(self) -> u8 {
                self.0
            }
            /// The smallest value.
            pub const MIN: Self = Self::wrapping_from(if $signed { -(1 << ($bits - 1)) } else { 0 });
            /// The largest value.
            pub const MAX: Self =
                Self::wrapping_from(if $signed { (1 << ($bits - 1)) - 1 } else { (1 << $bits) - 1 });
            /// The low bits of `x` (two's complement), as ONNX `Cast` keeps them:
            /// 200 is `0b1100_1000`, whose low nibble `0b1000` is 8 as a `u4` and −8
            /// as an `i4`, and whose low two bits `0b00` are 0 as an `i2`.
            ///
            /// ```
            /// use promo_core::narrow::{i2, i4, u2, u4};
            /// assert_eq!(i4::wrapping_from(200).get(), -8);
            /// assert_eq!(u4::wrapping_from(200).get(), 8);
            /// assert_eq!(i2::wrapping_from(3).get(), -1);
            /// assert_eq!(u2::wrapping_from(-1).get(), 3);
            /// ```
            pub const fn wrapping_from(x: i64) -> Self {
                $name((x as u8) & Self::MASK)
            }
            /// The value.
            pub const fn get(self) -> i8 {
                if $signed {
                    ((self.0 << (8 - $bits)) as i8) >> (8 - $bits)
                } else {
                    self.0 as i8
                }
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            /// Orders values, not codes (for `i4`, `-1` = `0xf` is below `7`).
            fn cmp(&self, other: &Self) -> core::cmp::Ordering {
                self.get().cmp(&other.get())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.get(), f)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.get())
            }
        }

        impl core::str::FromStr for $name {
            type Err = super::ParseNarrowError;

            /// Parses an integer in range.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let x: i64 = s.trim().parse().map_err(|_| super::ParseNarrowError(s.to_owned()))?;
                if (Self::MIN.get() as i64..=Self::MAX.get() as i64).contains(&x) {
                    Ok(Self::wrapping_from(x))
                } else {
                    Err(super::ParseNarrowError(s.to_owned()))
                }
            }
        }
    };
}

small_int!(
    /// A 2-bit two's complement integer, −2..=1 (ONNX `INT2`).
    i2, 2, true
);
small_int!(
    /// A 2-bit unsigned integer, 0..=3 (ONNX `UINT2`).
    u2, 2, false
);
small_int!(
    /// A 4-bit two's complement integer, −8..=7 (ONNX `INT4`).
    i4, 4, true
);
small_int!(
    /// A 4-bit unsigned integer, 0..=15 (ONNX `UINT4`).
    u4, 4, false
);

/// Packs `bits`-bit codes (`bits` 1, 2 or 4) `8 / bits` per byte, element 0 in the
/// low bits (ONNX's layout); the unused high bits of a last, partly filled byte are
/// zero, as ONNX pads.
///
/// ```
/// let mut packed = Vec::new();
/// promo_core::narrow::pack_codes(2, &[1, 2, 3, 0, 3], &mut packed);
/// assert_eq!(packed, [0b00_11_10_01, 0b11]);
/// ```
pub fn pack_codes(bits: u32, codes: &[u8], out: &mut Vec<u8>) {
    assert!(
        matches!(bits, 1 | 2 | 4),
        "{bits}-bit codes do not pack into whole bytes"
    );
    let mask = (1u8 << bits) - 1;
    for group in codes.chunks(8 / bits as usize) {
        out.push(
            group
                .iter()
                .enumerate()
                .fold(0, |byte, (i, &c)| byte | (c & mask) << (i as u32 * bits)),
        );
    }
}

/// Unpacks `count` `bits`-bit codes from bytes packed by [`pack_codes`] (fewer
/// when `bytes` holds fewer than `count`).
pub fn unpack_codes(bits: u32, bytes: &[u8], count: usize, out: &mut Vec<u8>) {
    assert!(
        matches!(bits, 1 | 2 | 4),
        "{bits}-bit codes do not pack into whole bytes"
    );
    let per_byte = 8 / bits as usize;
    let mask = (1u8 << bits) - 1;
    for i in 0..count.min(bytes.len() * per_byte) {
        out.push(bytes[i / per_byte] >> ((i % per_byte) as u32 * bits) & mask);
    }
}

/// Packs 4-bit codes two per byte, element 0 in the low nibble (ONNX's layout); an
/// odd count leaves the last high nibble zero. [`pack_codes`] with 4 bits.
pub fn pack_nibbles(codes: &[u8], out: &mut Vec<u8>) {
    pack_codes(4, codes, out);
}

/// Unpacks `count` 4-bit codes from bytes packed by [`pack_nibbles`] (fewer when
/// `bytes` holds fewer than `count` nibbles). [`unpack_codes`] with 4 bits.
pub fn unpack_nibbles(bytes: &[u8], count: usize, out: &mut Vec<u8>) {
    unpack_codes(4, bytes, count, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_and_value() {
        assert_eq!(i4::wrapping_from(200).get(), -8);
        assert_eq!(i4::wrapping_from(-1).to_bits(), 0xf);
        assert_eq!(u4::wrapping_from(16).get(), 0);
        assert_eq!((i4::MIN.get(), i4::MAX.get(), u4::MAX.get()), (-8, 7, 15));
        assert!(i4::wrapping_from(-1) < i4::wrapping_from(7));
        assert!(i4::MIN < i4::MAX && u4::MIN < u4::MAX);
        let mut all: Vec<i4> = (0..16).map(i4::from_bits).collect();
        all.sort();
        assert_eq!(
            all.iter().map(|x| x.get()).collect::<Vec<_>>(),
            (-8..8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn two_bit_values() {
        // Codes 0, 1, 2, 3: i2 0, 1, -2, -1; u2 0..=3.
        let i: Vec<i8> = (0..4).map(|c| i2::from_bits(c).get()).collect();
        let u: Vec<i8> = (0..4).map(|c| u2::from_bits(c).get()).collect();
        assert_eq!((i, u), (vec![0, 1, -2, -1], vec![0, 1, 2, 3]));
        assert_eq!(
            (i2::MIN.get(), i2::MAX.get(), u2::MIN.get(), u2::MAX.get()),
            (-2, 1, 0, 3)
        );
        assert_eq!(i2::from_bits(0xff).to_bits(), 3);
        assert_eq!(i2::wrapping_from(-3).get(), 1);
        assert_eq!(u2::wrapping_from(6).get(), 2);
        assert_eq!("-2".parse::<i2>().map(i2::get), Ok(-2));
        assert!("2".parse::<i2>().is_err() && "4".parse::<u2>().is_err());
        assert_eq!(format!("{:?} {}", i2::MIN, u2::MAX), "i2(-2) 3");
    }

    #[test]
    fn packing_is_low_bits_first() {
        let mut packed = Vec::new();
        pack_nibbles(&[1, 2, 3], &mut packed);
        assert_eq!(packed, [0x21, 0x03]);
        let mut codes = Vec::new();
        unpack_nibbles(&packed, 3, &mut codes);
        assert_eq!(codes, [1, 2, 3]);
        let mut packed = Vec::new();
        pack_codes(2, &[3, 0, 1, 2, 1], &mut packed);
        assert_eq!(packed, [0b10_01_00_11, 0b01]);
        let mut codes = Vec::new();
        unpack_codes(2, &packed, 5, &mut codes);
        assert_eq!(codes, [3, 0, 1, 2, 1]);
        codes.clear();
        unpack_codes(2, &packed, 100, &mut codes);
        assert_eq!(codes.len(), 8, "capped at what the bytes hold");
    }
}
