//! Rounding to odd: the narrowing steps that let a later rounding round once.

/// `x` narrowed to `f32` rounding to odd: truncated, with the last bit set when
/// anything was dropped. A later rounding to 22 bits or fewer of mantissa then
/// gives the same result as rounding `x` once.
pub fn f64_to_f32_round_odd(x: f64) -> f32 {
    let nearest = x as f32;
    if !x.is_finite() || nearest as f64 == x {
        return nearest;
    }
    // Step toward zero if rounding went away from it, then mark the loss.
    let toward_zero = if (nearest as f64).abs() > x.abs() || nearest.is_infinite() {
        f32::from_bits(nearest.to_bits() - 1)
    } else {
        nearest
    };
    f32::from_bits(toward_zero.to_bits() | 1)
}

/// `i` as `f64` rounding to odd (exact below 2^53 in magnitude), so that a later
/// rounding to a narrower format rounds once.
pub fn int_to_f64_round_odd(i: i128) -> f64 {
    let magnitude = i.unsigned_abs();
    let bits = 128 - magnitude.leading_zeros();
    let value = if bits <= 53 {
        magnitude as f64
    } else {
        let shift = bits - 53;
        let kept = magnitude >> shift;
        let sticky = (magnitude & ((1u128 << shift) - 1) != 0) as u128;
        (kept | sticky) as f64 * 2f64.powi(shift as i32)
    };
    if i < 0 {
        -value
    } else {
        value
    }
}
