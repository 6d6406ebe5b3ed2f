//! Stage 2b: the parts of the rule language that derive cells instead of listing
//! them. Validation turns each derived layer into an ordinary layer of cells with
//! [`cells`], once.
//!
//! | part | module |
//! | --- | --- |
//! | kinds (bool < integer < float < complex) and a derived layer's cells | here |
//! | the `[lattice]`: least upper bounds | [`lattice`] |
//! | pair conditions (`where`) | [`condition`] |
//! | row and column selectors (`rows`, `cols`) | [`select`](mod@select) |

pub mod condition;
pub mod lattice;
pub mod select;

pub use condition::{PairCondition, Test};
pub use lattice::{Join, Lattice, Node};
pub use select::select;

use promo_table::{Category, Cell, DType, Operand, Side};

/// The priority of a kind: bool 0, integer 1, float 2, complex 3 (`string`: none).
pub fn kind_rank(category: Category) -> Option<u8> {
    match category {
        Category::Bool => Some(0),
        Category::Unsigned | Category::Signed => Some(1),
        Category::Float => Some(2),
        Category::Complex => Some(3),
        Category::String => None,
    }
}

/// The kind names a rule file may write, lowest priority first.
pub const KIND_NAMES: [&str; 4] = ["bool", "integer", "float", "complex"];

/// The priority of a key of a layer side: a dtype's kind, or a Python scalar's
/// (`bool` 0, `int` 1, `float` 2, `complex` 3).
pub fn key_rank(side: Side, key: usize) -> Option<u8> {
    match side {
        Side::Python => Some(key as u8),
        Side::Any if key >= DType::COUNT + 4 => {
            DType::from_index(key - DType::COUNT - 4).and_then(|d| kind_rank(d.category()))
        }
        Side::Any if key >= DType::COUNT => Some((key - DType::COUNT) as u8),
        _ => DType::from_index(key).and_then(|d| kind_rank(d.category())),
    }
}

/// The `result` of a derived layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRule {
    /// The same cell for every pair: a dtype, `lhs`, `rhs`, `$option` or `!reason`.
    Cell(Cell),
    /// The least upper bound of the two operands' dtypes in the `[lattice]`.
    Lub,
}

/// The type a key of a side stands for in a derived layer: the dtype itself (weak
/// on a `weak` side), or the `[python]` type of a Python scalar kind.
fn key_node(side: Side, key: usize, python: [Option<Operand>; 4]) -> Option<Node> {
    let weak = |d: usize| DType::from_index(d).map(|dtype| Node { dtype, weak: true });
    match side {
        Side::Python => python[key].and_then(Node::of),
        Side::Weak => weak(key),
        Side::Any if key >= DType::COUNT + 4 => weak(key - DType::COUNT - 4),
        Side::Any if key >= DType::COUNT => python[key - DType::COUNT].and_then(Node::of),
        _ => DType::from_index(key).map(Node::from),
    }
}

/// The cells of a derived layer over `rows` × `cols` (keys of the two `sides`), row
/// by row: `rule` for every pair that meets `condition`, [`Cell::Defer`] for the
/// others. `lhs` and `rhs` become the operand's dtype (a Python scalar's `[python]`
/// dtype); `lub` is the least upper bound in `lattice`, and a pair without one is
/// left to the next layer.
pub fn cells(
    rule: ResultRule,
    condition: Option<&PairCondition>,
    sides: (Side, Side),
    (rows, cols): (&[usize], &[usize]),
    python: [Option<Operand>; 4],
    lattice: Option<&Lattice>,
) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(rows.len() * cols.len());
    for &r in rows {
        for &c in cols {
            let (a, b) = (key_node(sides.0, r, python), key_node(sides.1, c, python));
            let dtypes = (a.map(|n| n.dtype), b.map(|n| n.dtype));
            if condition.is_some_and(|cond| !cond.holds(sides, (r, c), dtypes)) {
                cells.push(Cell::Defer);
                continue;
            }
            let cell = match rule {
                ResultRule::Cell(Cell::Lhs) => a.map_or(Cell::Defer, Node::cell),
                ResultRule::Cell(Cell::Rhs) => b.map_or(Cell::Defer, Node::cell),
                ResultRule::Cell(cell) => cell,
                ResultRule::Lub => match (a, b, lattice) {
                    (Some(a), Some(b), Some(lattice)) => match lattice.join(a, b) {
                        Join::Bound(d) => d.cell(),
                        Join::Unrelated | Join::Ambiguous(..) => Cell::Defer,
                    },
                    _ => Cell::Defer,
                },
            };
            cells.push(cell);
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::PyScalar;

    #[test]
    fn derived_cells_follow_the_rule_where_the_condition_holds() {
        let l = lattice::tests::build("i8 u8 -> i16 -> f32").unwrap();
        let keys = |ds: &[DType]| ds.iter().map(|d| d.index()).collect::<Vec<_>>();
        let (rows, cols) = (keys(&[DType::I8, DType::F32]), keys(&[DType::U8, DType::C64]));
        let t = (Side::Tensor, Side::Tensor);
        let none = [None; 4];
        let lub = cells(ResultRule::Lub, None, t, (&rows, &cols), none, Some(&l));
        // c64 is not in the lattice: no upper bound, left to the next layer.
        assert_eq!(
            lub,
            [
                Cell::Is(DType::I16),
                Cell::Defer,
                Cell::Is(DType::F32),
                Cell::Defer
            ]
        );
        let higher = PairCondition::parse("kind(lhs) > kind(rhs)").unwrap();
        let lhs = cells(
            ResultRule::Cell(Cell::Lhs),
            Some(&higher),
            t,
            (&rows, &cols),
            none,
            None,
        );
        assert_eq!(lhs, [Cell::Defer, Cell::Defer, Cell::Is(DType::F32), Cell::Defer]);
        // `rhs` on a Python side is the scalar's `[python]` dtype, or nothing.
        let py = (Side::Tensor, Side::Python);
        let python = [None, Some(Operand::Dimensioned(DType::I16)), None, None];
        let ints = [PyScalar::Int.index(), PyScalar::Float.index()];
        let rhs = cells(
            ResultRule::Cell(Cell::Rhs),
            None,
            py,
            (&rows[..1], &ints),
            python,
            None,
        );
        assert_eq!(rhs, [Cell::Is(DType::I16), Cell::Defer]);
        let refuse = cells(
            ResultRule::Cell(Cell::Refuse(2)),
            None,
            t,
            (&rows, &cols[..1]),
            none,
            None,
        );
        assert_eq!(refuse, [Cell::Refuse(2); 2]);
    }
}
