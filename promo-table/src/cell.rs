//! [`Cell`]: one entry of a layer's matrix.

use crate::dtype::DType;

/// One cell of a layer's matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No opinion: the next layer decides (`"."` in a rule file).
    Defer,
    /// The result is this dtype.
    Is(DType),
    /// The result is this dtype, weakly typed (`"f64*"`: JAX's and TensorFlow's
    /// weak types).
    Weak(DType),
    /// The result is the left operand's dtype (`"lhs"`).
    Lhs,
    /// The result is the right operand's dtype (`"rhs"`).
    Rhs,
    /// The result is the value of this dtype option (`"$name"`).
    Option(u8),
    /// Refused, for the reason at this index of
    /// [`RuleTable::reasons`](crate::RuleTable::reasons) (`"!key"`).
    Refuse(u16),
}

impl Cell {
    /// The cell as one `u16`, the form of [`Layer::cells`](crate::Layer::cells):
    /// `dtype` a result, `0x100 | dtype` a weakly typed one, `0x200 | option` a dtype
    /// option's value, `0x300` `lhs`, `0x301` `rhs`, `0x302` no opinion, `0x4000 +
    /// reason` a refusal.
    pub const fn code(self) -> u16 {
        match self {
            Cell::Is(d) => d as u16,
            Cell::Weak(d) => 0x100 | d as u16,
            Cell::Option(i) => 0x200 | i as u16,
            Cell::Lhs => 0x300,
            Cell::Rhs => 0x301,
            Cell::Defer => 0x302,
            Cell::Refuse(r) => 0x4000u16.saturating_add(r),
        }
    }

    /// The cell with this [`Cell::code`]; a code no cell has reads as no opinion.
    #[inline]
    pub const fn from_code(code: u16) -> Cell {
        let dtype = DType::from_index((code & 0xff) as usize);
        match (code, dtype) {
            (0..=0xff, Some(d)) => Cell::Is(d),
            (0x100..=0x1ff, Some(d)) => Cell::Weak(d),
            (0x200..=0x2ff, _) => Cell::Option((code & 0xff) as u8),
            (0x300, _) => Cell::Lhs,
            (0x301, _) => Cell::Rhs,
            (0x4000.., _) => Cell::Refuse(code - 0x4000),
            _ => Cell::Defer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_reads_back_from_its_code() {
        let mut cells = vec![
            Cell::Defer,
            Cell::Lhs,
            Cell::Rhs,
            Cell::Option(0),
            Cell::Option(255),
        ];
        cells.extend(DType::ALL.iter().flat_map(|&d| [Cell::Is(d), Cell::Weak(d)]));
        cells.extend([0u16, 1, 4095, 0x3fff].map(Cell::Refuse));
        for cell in cells {
            assert_eq!(Cell::from_code(cell.code()), cell, "{cell:?}");
        }
    }
}
