//! ONNX's `TensorProto.DataType` codes for promo's dtypes.

use crate::dtype::DType;

/// Each dtype ONNX names, with its `TensorProto.DataType` code (onnx 1.23.2).
/// `u1`, `i1`, `u3`, `i3`, `u5`..`u7`, `i5`..`i7` and `nf4` have none.
const CODES: &[(DType, i32)] = &[
    (DType::F32, 1),
    (DType::U8, 2),
    (DType::I8, 3),
    (DType::U16, 4),
    (DType::I16, 5),
    (DType::I32, 6),
    (DType::I64, 7),
    (DType::String, 8),
    (DType::Bool, 9),
    (DType::F16, 10),
    (DType::F64, 11),
    (DType::U32, 12),
    (DType::U64, 13),
    (DType::C64, 14),
    (DType::C128, 15),
    (DType::BF16, 16),
    (DType::F8E4M3FN, 17),
    (DType::F8E4M3FNUZ, 18),
    (DType::F8E5M2, 19),
    (DType::F8E5M2FNUZ, 20),
    (DType::U4, 21),
    (DType::I4, 22),
    (DType::F4E2M1, 23),
    (DType::F8E8M0, 24),
    (DType::U2, 25),
    (DType::I2, 26),
];

impl DType {
    /// The dtype of ONNX `TensorProto.DataType` code `code` (`1` is `f32`), or
    /// `None` for a code promo has no dtype for (`0`, `UNDEFINED`, among them).
    ///
    /// ```
    /// use promo_table::DType;
    /// assert_eq!(DType::from_onnx(17), Some(DType::F8E4M3FN));
    /// assert_eq!(DType::from_onnx(0), None);
    /// ```
    pub fn from_onnx(code: i32) -> Option<DType> {
        CODES.iter().find(|&&(_, c)| c == code).map(|&(d, _)| d)
    }

    /// This dtype's ONNX `TensorProto.DataType` code, if ONNX has the type.
    ///
    /// ```
    /// use promo_table::DType;
    /// assert_eq!(DType::BF16.to_onnx(), Some(16));
    /// assert_eq!(DType::Nf4.to_onnx(), None);
    /// ```
    pub fn to_onnx(self) -> Option<i32> {
        CODES.iter().find(|&&(d, _)| d == self).map(|&(_, c)| c)
    }
}
