//! Typed slices: [`cast_slice`], [`cast_vec`] and [`CastSliceExt::cast_to`], for
//! code that knows its element types at compile time. They reach the same kernels
//! as the byte-buffer API ([`Converter`]), fast paths included; 4- and 2-bit types (one
//! value per byte in a typed slice, two or four per byte in a buffer) go element by element
//! through the same scalar cast.

use super::buffer::Converter;
use super::error::ConvertError;
use super::options::CastOptions;
use super::values::{CastSource, CastTarget};
use crate::element::sealed::Sealed;
use crate::Element;

/// Converts every element of `src` into `dst` (`src.len() == dst.len()`) with ONNX
/// `Cast` semantics.
///
/// ```
/// use promo_core::cast::{cast_slice, CastOptions};
/// use promo_core::narrow::f8e4m3fn;
/// let src = [0.5f32, 300.0, 1e9];
/// let mut dst = [f8e4m3fn::default(); 3];
/// cast_slice(&src, &mut dst, &CastOptions::default()).unwrap();
/// assert_eq!(dst.map(f32::from), [0.5, 288.0, 448.0]); // saturating by default
/// ```
///
/// A length mismatch is [`ConvertError::LengthMismatch`], never a panic.
pub fn cast_slice<S, T>(src: &[S], dst: &mut [T], options: &CastOptions) -> Result<(), ConvertError>
where
    S: Element + CastSource,
    T: Element + CastTarget,
{
    if src.len() != dst.len() {
        return Err(ConvertError::LengthMismatch {
            src: src.len(),
            dst: dst.len(),
        });
    }
    let converter = Converter::new(S::DTYPE, T::DTYPE, *options)?;
    if let (Some(from), Some(to)) = (Sealed::__promo_bytes(src), Sealed::__promo_bytes_mut(dst)) {
        converter.run(from, to, src.len());
        return Ok(());
    }
    for (s, d) in src.iter().zip(dst.iter_mut()) {
        *d = T::from_value(s.value(), options);
    }
    Ok(())
}

/// `src` converted into a new vector of `T` with ONNX `Cast` semantics.
///
/// ```
/// use promo_core::cast::{cast_vec, CastOptions};
/// use promo_core::bf16;
/// let v: Vec<bf16> = cast_vec(&[1i32, 257, -3], &CastOptions::default());
/// assert_eq!(v.iter().map(|x| x.to_f32()).collect::<Vec<_>>(), [1.0, 256.0, -3.0]);
/// ```
pub fn cast_vec<S, T>(src: &[S], options: &CastOptions) -> Vec<T>
where
    S: Element + CastSource,
    T: Element + CastTarget + Default,
{
    let mut out = vec![T::default(); src.len()];
    // Both are element types ONNX Cast converts, and the lengths agree.
    if cast_slice(src, &mut out, options).is_err() {
        for (s, d) in src.iter().zip(out.iter_mut()) {
            *d = T::from_value(s.value(), options);
        }
    }
    out
}

/// `slice.cast_to::<T>()`: [`cast_vec`] with the default options, on any slice of
/// element types.
///
/// ```
/// use promo_core::cast::CastSliceExt;
/// use promo_core::{f16, narrow::f8e5m2};
/// let halves = [f16::from_f32(1.5), f16::from_f32(-0.25)];
/// let small: Vec<f8e5m2> = halves.cast_to();
/// let back: Vec<f32> = small.cast_to();
/// assert_eq!(back, [1.5, -0.25]);
/// ```
pub trait CastSliceExt {
    /// Every element converted to `T` with ONNX `Cast`'s defaults.
    fn cast_to<T: Element + CastTarget + Default>(&self) -> Vec<T>;
}

impl<S: Element + CastSource> CastSliceExt for [S] {
    fn cast_to<T: Element + CastTarget + Default>(&self) -> Vec<T> {
        cast_vec(self, &CastOptions::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::cast;
    use crate::narrow::{f4e2m1, f8e4m3fn, f8e5m2fnuz, f8e8m0, i4, u4};
    use crate::{bf16, f16};

    /// `cast_slice` agrees with the scalar `cast` element by element on `src`.
    fn agrees<S, T>(src: &[S])
    where
        S: Element + CastSource,
        T: Element + CastTarget + Default + PartialEq + core::fmt::Debug + crate::cast::CastFrom<S>,
    {
        for options in [
            CastOptions::default(),
            CastOptions {
                saturate: Some(false),
                ..CastOptions::default()
            },
        ] {
            let mut dst = vec![T::default(); src.len()];
            cast_slice(src, &mut dst, &options).unwrap();
            let each: Vec<T> = src.iter().map(|&s| cast::<S, T>(s, &options)).collect();
            // Compare bit patterns through the byte view where there is one (NaN != NaN).
            match (Sealed::__promo_bytes(&dst[..]), Sealed::__promo_bytes(&each[..])) {
                (Some(a), Some(b)) => assert_eq!(a, b, "{} -> {}", S::DTYPE, T::DTYPE),
                _ => assert_eq!(dst, each, "{} -> {}", S::DTYPE, T::DTYPE),
            }
        }
    }

    #[test]
    fn typed_slices_agree_with_the_scalar_cast() {
        let f32s: Vec<f32> = (0..4099u32)
            .map(|i| f32::from_bits(i.wrapping_mul(1_048_573)))
            .collect();
        agrees::<f32, f8e4m3fn>(&f32s);
        agrees::<f32, f8e5m2fnuz>(&f32s);
        agrees::<f32, f16>(&f32s);
        agrees::<f32, bf16>(&f32s);
        agrees::<f32, i32>(&f32s);
        agrees::<f32, f4e2m1>(&f32s);
        agrees::<f32, bool>(&f32s);
        let bytes: Vec<f8e4m3fn> = (0..=255u8).map(f8e4m3fn::from_bits).collect();
        agrees::<f8e4m3fn, f32>(&bytes);
        agrees::<f8e4m3fn, f16>(&bytes);
        let halves: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        agrees::<f16, f32>(&halves);
        agrees::<f16, f8e8m0>(&halves);
        let nibbles: Vec<i4> = (0..16u8).map(i4::from_bits).collect();
        agrees::<i4, f32>(&nibbles);
        agrees::<i4, u4>(&nibbles);
        agrees::<bool, f32>(&[true, false, true]);
        agrees::<i64, u8>(&[-1, 0, 255, 256, i64::MIN, i64::MAX]);
    }

    #[test]
    fn a_length_mismatch_is_an_error() {
        let mut dst = [0f32; 2];
        assert_eq!(
            cast_slice(&[1u8, 2, 3], &mut dst, &CastOptions::default()),
            Err(ConvertError::LengthMismatch { src: 3, dst: 2 })
        );
        assert_eq!(dst, [0.0, 0.0]);
    }
}
