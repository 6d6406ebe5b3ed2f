//! The narrow number formats: float8, float4 and 4-bit integers.
//!
//! PLACEHOLDER: the full generic implementation lands with the ONNX Cast work.

#![allow(non_camel_case_types)]

macro_rules! bits_newtype {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Default)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl $name {
            /// The value with this bit pattern.
            pub const fn from_bits(bits: u8) -> Self {
                Self(bits)
            }
            /// The bit pattern.
            pub const fn to_bits(self) -> u8 {
                self.0
            }
        }
    )*};
}

bits_newtype! {
    /// float8 E4M3FN.
    f8e4m3fn;
    /// float8 E4M3FNUZ.
    f8e4m3fnuz;
    /// float8 E5M2.
    f8e5m2;
    /// float8 E5M2FNUZ.
    f8e5m2fnuz;
    /// float8 E8M0.
    f8e8m0;
    /// float4 E2M1.
    f4e2m1;
    /// 4-bit signed integer.
    i4;
    /// 4-bit unsigned integer.
    u4;
}
