//! [`Cell`]: one entry of a layer's matrix, and its one-`u16` code in flat tables.

use crate::DType;

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

/// The first code of a refusal: [`Cell::Refuse`]`(r)` is `REFUSE + r`.
const REFUSE: u16 = 0x4000;

impl Cell {
    /// The cell as one `u16`, the form of [`Flat::cells`](crate::Flat::cells): `0`
    /// defer, `0x100 | dtype` a result, `0x300 | dtype` a weakly typed result,
    /// `0x200 | option` a dtype option's value, `0x4000 + reason` a refusal. `lhs` and `rhs` have no code: flattening
    /// resolves them.
    pub const fn code(self) -> u16 {
        match self {
            Cell::Defer | Cell::Lhs | Cell::Rhs => 0,
            Cell::Is(d) => 0x100 | d as u16,
            Cell::Weak(d) => 0x300 | d as u16,
            Cell::Option(i) => 0x200 | i as u16,
            Cell::Refuse(r) => REFUSE + r,
        }
    }

    /// The cell with this [`Cell::code`]; a code no cell has reads as [`Cell::Defer`].
    pub const fn from_code(code: u16) -> Cell {
        match code {
            REFUSE.. => Cell::Refuse(code - REFUSE),
            0x200..=0x2ff => Cell::Option((code & 0xff) as u8),
            0x100..=0x1ff => match DType::from_index((code & 0xff) as usize) {
                Some(d) => Cell::Is(d),
                None => Cell::Defer,
            },
            0x300..=0x3ff => match DType::from_index((code & 0xff) as usize) {
                Some(d) => Cell::Weak(d),
                None => Cell::Defer,
            },
            _ => Cell::Defer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell that has a code.
    fn coded_cells() -> impl Iterator<Item = Cell> {
        let results = DType::ALL.iter().flat_map(|&d| [Cell::Is(d), Cell::Weak(d)]);
        let options = (0..=u8::MAX).map(Cell::Option);
        let refusals = (0..=u16::MAX - REFUSE).map(Cell::Refuse);
        [Cell::Defer]
            .into_iter()
            .chain(results)
            .chain(options)
            .chain(refusals)
    }

    #[test]
    fn every_cell_round_trips_through_its_code() {
        for cell in coded_cells() {
            assert_eq!(
                Cell::from_code(cell.code()),
                cell,
                "{cell:?} = {:#x}",
                cell.code()
            );
        }
    }

    #[test]
    fn codes_are_distinct() {
        let mut seen = vec![false; 1 << 16];
        for cell in coded_cells() {
            let code = cell.code() as usize;
            assert!(!seen[code], "{cell:?} shares code {code:#x}");
            seen[code] = true;
        }
    }

    #[test]
    fn lhs_and_rhs_have_no_code_and_unused_codes_defer() {
        assert_eq!(Cell::Lhs.code(), Cell::Defer.code());
        assert_eq!(Cell::Rhs.code(), Cell::Defer.code());
        // A result code past the last dtype, and the gaps between the ranges.
        let unused = [
            0x100 | DType::COUNT as u16,
            0x300 | DType::COUNT as u16,
            0x1ff,
            0x1,
            0xff,
            0x400,
            REFUSE - 1,
        ];
        for code in unused {
            assert_eq!(Cell::from_code(code), Cell::Defer, "{code:#x}");
        }
    }
}
