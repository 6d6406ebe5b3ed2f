//! Stage 2b: the meaning of the parts of the rule language that derive cells
//! instead of listing them. Validation turns each derived layer into an ordinary
//! layer of cells with [`cells`], once. Nothing is parsed here: the lattice is
//! built from resolved nodes, a condition from its parsed form.
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
pub use lattice::{Chain, Join, Lattice, Node};
pub use select::select;

use crate::parse::Kind;
use promo_table::{Category, Cell, DType, Operand, Side};

/// The priority of a kind: bool 0, integer 1, float 2, complex 3 (`string`: none).
pub fn kind_rank(category: Category) -> Option<u8> {
    match category {
        Category::Bool => Some(0),
        Category::Unsigned | Category::Signed => Some(1),
        Category::Float => Some(2),
        Category::Complex => Some(3),
        Category::Bits | Category::String => None,
    }
}

/// The kind names a rule file may write, lowest priority first.
pub const KIND_NAMES: [&str; 4] = Kind::NAMES;

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
    /// The least upper bound of the two operands' types in the `[lattice]` (`lub`),
    /// a weakly typed operand joining as [`Lattice::entry`] says.
    Lub,
    /// `lub*`: the least upper bound of the two operands' dtypes, each taken as
    /// strongly typed, given weakly typed (JAX's bound of operands that are all weak).
    WeakLub,
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
/// dtype); `lub` is the least upper bound in `lattice` (a weakly typed operand
/// joining as [`Lattice::entry`] says), `lub*` that of the dtypes taken as strongly
/// typed, weakly typed; a pair without one is left to the next layer.
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
                    (Some(a), Some(b), Some(lattice)) => match lattice.join_operands(a, b) {
                        Join::Bound(d) => d.cell(),
                        Join::Unrelated | Join::Ambiguous(..) => Cell::Defer,
                    },
                    _ => Cell::Defer,
                },
                ResultRule::WeakLub => match (a, b, lattice) {
                    (Some(a), Some(b), Some(lattice)) => match lattice.join(a.dtype, b.dtype) {
                        Join::Bound(d) => Cell::Weak(d.dtype),
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
        let higher = condition::condition("kind(lhs) > kind(rhs)");
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

    #[test]
    fn weak_operands_join_as_listed_and_lub_star_joins_their_dtypes() {
        let mut l =
            lattice::tests::build("bool -> i64* -> u8 i8\nu8 i8 -> i16 -> i64 -> f64* -> f16").unwrap();
        let weak = |dtype| Node { dtype, weak: true };
        l.weak_operands = [DType::U8, DType::I8, DType::I16, DType::I64]
            .map(|d| (d, weak(DType::I64)))
            .into_iter()
            .chain([(DType::F16, weak(DType::F64))])
            .collect();
        let keys = |ds: &[DType]| ds.iter().map(|d| d.index()).collect::<Vec<_>>();
        let (rows, cols) = (keys(&[DType::U8, DType::F16]), keys(&[DType::I8, DType::U8]));
        let w = (Side::Weak, Side::Weak);
        let none = [None; 4];
        // `lub`: a weak u8 or i8 joins as i64*, a weak f16 as f64*.
        let lub = cells(ResultRule::Lub, None, w, (&rows, &cols), none, Some(&l));
        let (i64w, f64w) = (Cell::Weak(DType::I64), Cell::Weak(DType::F64));
        assert_eq!(lub, [i64w, i64w, f64w, f64w]);
        // With a strong operand, the weak one gives way: weak u8 with i8 is i8.
        let t = (Side::Weak, Side::Tensor);
        let mixed = cells(ResultRule::Lub, None, t, (&rows, &cols), none, Some(&l));
        assert_eq!(mixed, [Cell::Is(DType::I8), Cell::Is(DType::U8), f64w, f64w]);
        // `lub*`: the dtypes' own bound, weakly typed; f16 with an integer is f16.
        let star = cells(ResultRule::WeakLub, None, w, (&rows, &cols), none, Some(&l));
        let f16w = Cell::Weak(DType::F16);
        assert_eq!(star, [Cell::Weak(DType::I16), Cell::Weak(DType::U8), f16w, f16w]);
        // A pair whose dtypes have no bound is left to the next layer.
        let bool_row = keys(&[DType::Bool]);
        let c64 = keys(&[DType::C64]);
        let none_bound = cells(ResultRule::WeakLub, None, w, (&bool_row, &c64), none, Some(&l));
        assert_eq!(none_bound, [Cell::Defer]);
    }
}
