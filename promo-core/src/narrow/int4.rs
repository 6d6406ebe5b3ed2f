//! [`i4`] and [`u4`]: 4-bit integers, and ONNX's packing of them two per byte.

use core::fmt;

macro_rules! int4 {
    ($(#[$doc:meta])* $name:ident, $signed:expr, $min:expr, $max:expr) => {
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        ///
        /// The value is kept in the low four bits of a byte, the high four zero, so
        /// not every byte is a valid value: with the `bytemuck` feature the type is
        /// `Zeroable` but not `Pod` (use [`pack_nibbles`] for buffers).
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
        #[derive(bytemuck::Zeroable)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl $name {
            /// The value with this 4-bit code (the high nibble is dropped).
            pub const fn from_bits(bits: u8) -> Self {
                $name(bits & 0xf)
            }
            /// The 4-bit code.
            pub const fn to_bits(self) -> u8 {
                self.0
            }
            /// The smallest value.
            pub const MIN: Self = Self::wrapping_from($min);
            /// The largest value.
            pub const MAX: Self = Self::wrapping_from($max);
            /// The low four bits of `x`, as ONNX `Cast` keeps them: 200 is
            /// `0b1100_1000`, whose low nibble `0b1000` is 8 as a `u4` and −8 as an `i4`.
            ///
            /// ```
            /// use promo_core::narrow::{i4, u4};
            /// assert_eq!(i4::wrapping_from(200).get(), -8);
            /// assert_eq!(u4::wrapping_from(200).get(), 8);
            /// ```
            pub const fn wrapping_from(x: i64) -> Self {
                $name((x & 0xf) as u8)
            }
            /// The value.
            pub const fn get(self) -> i8 {
                if $signed {
                    ((self.0 << 4) as i8) >> 4
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
                if ($min..=$max).contains(&x) {
                    Ok(Self::wrapping_from(x))
                } else {
                    Err(super::ParseNarrowError(s.to_owned()))
                }
            }
        }
    };
}

int4!(
    /// A 4-bit two's complement integer, −8..=7.
    i4, true, -8, 7
);
int4!(
    /// A 4-bit unsigned integer, 0..=15.
    u4, false, 0, 15
);

/// Packs 4-bit codes two per byte, element 0 in the low nibble (ONNX's layout); an
/// odd count leaves the last high nibble zero.
pub fn pack_nibbles(codes: &[u8], out: &mut Vec<u8>) {
    for pair in codes.chunks(2) {
        out.push((pair[0] & 0xf) | (pair.get(1).copied().unwrap_or(0) << 4));
    }
}

/// Unpacks `count` 4-bit codes from bytes packed by [`pack_nibbles`] (fewer when
/// `bytes` holds fewer than `count` nibbles).
pub fn unpack_nibbles(bytes: &[u8], count: usize, out: &mut Vec<u8>) {
    for i in 0..count.min(bytes.len() * 2) {
        let byte = bytes[i / 2];
        out.push(if i % 2 == 0 { byte & 0xf } else { byte >> 4 });
    }
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
    fn packing_is_low_nibble_first() {
        let mut packed = Vec::new();
        pack_nibbles(&[1, 2, 3], &mut packed);
        assert_eq!(packed, [0x21, 0x03]);
        let mut codes = Vec::new();
        unpack_nibbles(&packed, 3, &mut codes);
        assert_eq!(codes, [1, 2, 3]);
    }
}
