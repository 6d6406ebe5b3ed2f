//! The walk over the layers that answers a pair ([`RuleTable::resolve`],
//! [`RuleTable::trace`]), and where it stopped ([`Trace`]).
//!
//! The walk asks the layers in order and the first with an opinion decides; a
//! commutative rule set also asks each layer for the swapped pair; a result filter
//! ([`Layer::promoted`](crate::Layer::promoted)) has an opinion only when the layers after it promote the
//! pair to one of its dtypes; when no layer speaks of a Python scalar, the scalar is
//! typed as its `[python]` dtype and the walk starts again.

use crate::cell::Cell;
use crate::dtype::DType;
use crate::op::Op;
use crate::operand::Operand;
use crate::options::{OptionValue, Options};
use crate::table::RuleTable;

/// Where the walk of [`RuleTable::trace`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The index into [`RuleTable::layers`] of the layer that decided.
    pub layer: usize,
    /// Whether the layer answered the swapped pair (a commutative rule set).
    pub swapped: bool,
    /// Whether a Python scalar was typed as its `[python]` dtype first.
    pub python_typed: bool,
    /// The cell it gave, `lhs`/`rhs` resolved.
    pub cell: Cell,
    /// The last retyping layer ([`Layer::retype`](crate::Layer::retype)) the walk went through, if any.
    /// The walk goes through every retyping layer before [`Trace::layer`] that
    /// [applies](crate::Layer::applies), in order, each taking the operands as the one
    /// before it left them.
    pub retyped_by: Option<usize>,
}

impl RuleTable<'_> {
    /// The answer the layers give for an accepted pair, as a cell: [`Cell::Is`] (with
    /// `lhs`/`rhs` already replaced by the operand's dtype), [`Cell::Option`],
    /// [`Cell::Refuse`], or [`Cell::Defer`] when no layer has an opinion. This walk
    /// is the reference that [`Flat`](crate::Flat) tables are generated from.
    pub fn resolve(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Cell {
        self.trace(options, op, lhs, rhs).map_or(Cell::Defer, |t| t.cell)
    }

    /// Which layer decided a pair, and how: the walk behind [`RuleTable::resolve`].
    /// `None` when no layer has an opinion.
    pub fn trace(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Option<Trace> {
        self.trace_from(self.results_from, options, op, lhs, rhs)
    }

    /// The dtype `op` on `lhs` and `rhs` computes in where a `[[compute]]` layer
    /// says one, walking those layers and then the result layers (so that a
    /// `promoted` filter reads the result); `None` where none speaks (it computes in
    /// its result's dtype).
    pub fn compute_dtype(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Option<DType> {
        if self.results_from == 0 {
            return None;
        }
        let found = self.trace_from(0, options, op, lhs, rhs)?;
        if found.layer >= self.results_from {
            return None;
        }
        cell_dtype(found.cell, options)
    }

    /// The walk of [`RuleTable::trace`] from layer `start` on.
    fn trace_from(
        &self,
        start: usize,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Trace> {
        if let Some(found) = self.first_opinion(start, options, op, lhs, rhs) {
            return Some(found);
        }
        // No layer speaks of a Python scalar here: type it as a tensor.
        let typed = |o: Operand| match o {
            Operand::Python(k) => self.python[k.index()],
            other => Some(other),
        };
        match (lhs, rhs) {
            // Two Python scalars are plain Python unless a layer says otherwise;
            // one, on the diagonal of a unary operation, is typed as below.
            (Operand::Python(_), Operand::Python(_)) if !op.on_diagonal() => None,
            (Operand::Python(_), _) | (_, Operand::Python(_)) => {
                let (l, r) = (typed(lhs)?, typed(rhs)?);
                let mut found = self.first_opinion(start, options, op, l, r)?;
                found.python_typed = true;
                Some(found)
            }
            _ => None,
        }
    }

    /// The walk of [`RuleTable::trace`] from the layer after `layer` on: what a
    /// result filter ([`Layer::promoted`](crate::Layer::promoted)) at `layer` tests.
    pub fn trace_after(
        &self,
        layer: usize,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Trace> {
        let start = self
            .layers
            .get(layer)
            .map_or(layer + 1, |l| l.statement_end.max(layer + 1));
        self.first_opinion(start, options, op, lhs, rhs)
    }

    /// The first layer from index `start` on that applies and has an opinion on the
    /// pair (or, in a commutative rule set, on the swapped pair). A layer with a
    /// [`Layer::promoted`](crate::Layer::promoted) filter has an opinion only when the layers after its
    /// statement give one of its dtypes; otherwise theirs is the answer, once the
    /// other entries of its result map ([`Layer::continues`](crate::Layer::continues)) have been tried.
    pub(crate) fn first_opinion(
        &self,
        start: usize,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Trace> {
        // Within a result map whose entry did not hold: what the layers after the
        // statement give, which every entry tests and which is the answer past the map.
        let mut in_map: Option<Option<Trace>> = None;
        let layers = self.layers.iter().enumerate().skip(start);
        for (index, layer) in layers.filter(|(_, l)| l.applies(options, op)) {
            if !layer.retype.is_empty() {
                let retyped = |d: DType| {
                    layer
                        .retype
                        .iter()
                        .find(|(from, _)| *from == d)
                        .map_or(d, |&(_, to)| to)
                };
                let operand = |o: Operand| o.dtype().map_or(o, |d| o.with_dtype(retyped(d)));
                let below = self.first_opinion(index + 1, options, op, operand(lhs), operand(rhs))?;
                let cell = match below.cell {
                    Cell::Is(d) => Cell::Is(retyped(d)),
                    Cell::Weak(d) => Cell::Weak(retyped(d)),
                    other => other,
                };
                return Some(Trace {
                    cell,
                    retyped_by: Some(below.retyped_by.unwrap_or(index)),
                    ..below
                });
            }
            let trace = |cell, swapped| Trace {
                layer: index,
                swapped,
                python_typed: false,
                cell,
                retyped_by: None,
            };
            let found = match layer.opinion(lhs, rhs) {
                Some(found) => Some(trace(found, false)),
                None if self.commutative && op.symmetric() => {
                    layer.opinion(rhs, lhs).map(|found| trace(found, true))
                }
                None => None,
            };
            let Some(found) = found else {
                match in_map {
                    Some(below) if !layer.continues => return below,
                    _ => continue,
                }
            };
            if layer.promoted.is_empty() {
                return Some(found);
            }
            let below = match in_map {
                Some(below) => below,
                None => self.first_opinion(layer.statement_end.max(index + 1), options, op, lhs, rhs),
            };
            let promoted = below.and_then(|t| cell_dtype(t.cell, options));
            if promoted.is_some_and(|d| layer.promoted.contains(&d)) {
                // A weakly typed promotion gives a weakly typed result, unless the
                // filter's results are strongly typed.
                let weak = !layer.strong && matches!(below.map(|t| t.cell), Some(Cell::Weak(_)));
                return Some(match found.cell {
                    Cell::Is(d) if weak => Trace {
                        cell: Cell::Weak(d),
                        ..found
                    },
                    _ => found,
                });
            }
            if !layer.continues {
                return below;
            }
            in_map = Some(below);
        }
        in_map.flatten()
    }
}

/// The dtype a walk's cell gives under `options`: its own, or a dtype option's
/// value; `None` for a refusal or no cell.
fn cell_dtype(cell: Cell, options: &Options) -> Option<DType> {
    match cell {
        Cell::Is(d) | Cell::Weak(d) => Some(d),
        Cell::Option(i) => match options.get(i as usize) {
            OptionValue::DType(d) => Some(d),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::tiny_table;
    use crate::layer::{Layer, Side, ABSENT};
    use crate::operand::PyScalar;

    const T: fn(DType) -> Operand = Operand::Dimensioned;

    fn trace(table: &RuleTable<'_>, settings: &[&str], op: Op, lhs: Operand, rhs: Operand) -> Option<Trace> {
        let options = table.options_from(settings.iter().copied()).unwrap();
        table.trace(&options, op, lhs, rhs)
    }

    fn decided(layer: usize, cell: Cell) -> Option<Trace> {
        Some(Trace {
            layer,
            swapped: false,
            python_typed: false,
            cell,
            retyped_by: None,
        })
    }

    #[test]
    fn the_first_layer_with_an_opinion_decides() {
        let t = tiny_table();
        // The strict layer applies only when `strict` is set; otherwise the base decides.
        let (i8, u8) = (T(DType::I8), T(DType::U8));
        assert_eq!(
            trace(&t, &["strict=true"], Op::Add, i8, u8),
            decided(0, Cell::Refuse(0))
        );
        assert_eq!(trace(&t, &[], Op::Add, i8, u8), decided(4, Cell::Is(DType::I16)));
        // The divide layer applies to `divide` only, and gives the `out` option.
        assert_eq!(trace(&t, &[], Op::Divide, i8, u8), decided(1, Cell::Option(1)));
        // It has no `bool` row: the base decides.
        let b = T(DType::Bool);
        assert_eq!(trace(&t, &[], Op::Divide, b, i8), decided(4, Cell::Is(DType::I8)));
        // A deferring cell is no opinion.
        let f32 = T(DType::F32);
        let no_swap = RuleTable {
            commutative: false,
            ..t
        };
        assert_eq!(trace(&no_swap, &[], Op::Add, f32, b), None);
        assert_eq!(
            no_swap.resolve(&t.default_options(), Op::Add, f32, b),
            Cell::Defer
        );
    }

    #[test]
    fn a_commutative_rule_set_asks_each_layer_for_the_swapped_pair() {
        let t = tiny_table();
        let (i8, u8) = (T(DType::I8), T(DType::U8));
        // The strict layer lists (i8, u8) only; (u8, i8) is its mirror.
        let swapped = trace(&t, &["strict=true"], Op::Add, u8, i8).unwrap();
        assert_eq!(
            (swapped.layer, swapped.swapped, swapped.cell),
            (0, true, Cell::Refuse(0))
        );
        let (b, f32) = (T(DType::Bool), T(DType::F32));
        let swapped = trace(&t, &[], Op::Add, f32, b).unwrap();
        assert_eq!(
            (swapped.layer, swapped.swapped, swapped.cell),
            (4, true, Cell::Refuse(1))
        );
        // Not commutative: the strict layer has no opinion on (u8, i8).
        let t = RuleTable {
            commutative: false,
            ..t
        };
        assert_eq!(
            trace(&t, &["strict=true"], Op::Add, u8, i8),
            decided(4, Cell::Is(DType::I16))
        );
    }

    #[test]
    fn lhs_and_rhs_cells_take_the_operands_dtypes() {
        let t = tiny_table();
        let (s16, i8) = (Operand::Scalar(DType::I16), T(DType::I8));
        // A rank-0 i16 with a dimensioned i8 gives `rhs`; a dimensioned i16 does not match.
        assert_eq!(trace(&t, &[], Op::Add, s16, i8), decided(3, Cell::Is(DType::I8)));
        assert_eq!(
            trace(&t, &[], Op::Add, T(DType::I16), i8),
            decided(4, Cell::Is(DType::I16))
        );
        // Swapped, `rhs` still names the right operand of the layer's own order.
        let swapped = trace(&t, &[], Op::Add, i8, s16).unwrap();
        assert_eq!(
            (swapped.layer, swapped.swapped, swapped.cell),
            (3, true, Cell::Is(DType::I8))
        );
        let int = Operand::Python(PyScalar::Int);
        assert_eq!(
            trace(&t, &[], Op::Add, T(DType::U8), int),
            decided(2, Cell::Is(DType::U8))
        );
    }

    #[test]
    fn a_python_scalar_no_layer_speaks_of_is_typed_as_a_tensor() {
        let t = tiny_table();
        let (b, int) = (T(DType::Bool), Operand::Python(PyScalar::Int));
        // The Python layer has no `bool` row: `int` is typed as i8, and bool with i8 is i8.
        let typed = trace(&t, &[], Op::Add, b, int).unwrap();
        assert_eq!(
            (typed.layer, typed.python_typed, typed.cell),
            (4, true, Cell::Is(DType::I8))
        );
        // A Python complex has no `[python]` dtype: nothing decides.
        assert_eq!(
            trace(&t, &[], Op::Add, b, Operand::Python(PyScalar::Complex)),
            None
        );
        // A layer's own opinion comes before typing.
        let float = Operand::Python(PyScalar::Float);
        assert_eq!(
            trace(&t, &[], Op::Add, T(DType::I8), float),
            decided(2, Cell::Is(DType::F32))
        );
    }

    #[test]
    fn the_walk_after_a_layer_starts_past_its_statement() {
        let t = tiny_table();
        let options = t.options_from(["strict=true"]).unwrap();
        let (i8, u8) = (T(DType::I8), T(DType::U8));
        let after = |layer| t.trace_after(layer, &options, Op::Add, i8, u8);
        assert_eq!(after(0), decided(4, Cell::Is(DType::I16)));
        assert_eq!(after(t.layers.len() - 1), None);
        // Layers 0 and 1 as one statement: after layer 0 is after layer 1 too.
        let mut layers = t.layers.to_vec();
        layers[0].statement_end = 2;
        let t = RuleTable { layers: &layers, ..t };
        let divide = t.trace_after(0, &options, Op::Divide, i8, u8);
        assert_eq!(divide, decided(4, Cell::Is(DType::I16)));
    }

    #[test]
    fn a_result_filter_applies_only_to_what_the_layers_after_it_give() {
        let t = tiny_table();
        // Integers promoted to i16 become f32; others keep what the layers below give.
        let all: Vec<usize> = t.dtypes.iter().map(|d| d.index()).collect();
        let mut rows_of = vec![ABSENT; DType::COUNT];
        for (i, &k) in all.iter().enumerate() {
            rows_of[k] = i as u8;
        }
        let cells: Vec<u8> = vec![Cell::Is(DType::F32); all.len() * all.len()]
            .iter()
            .flat_map(|c| c.code().to_le_bytes())
            .collect();
        let filter = Layer {
            name: "i16 becomes f32",
            when: &[],
            ops: &[],
            lhs: Side::Tensor,
            rhs: Side::Tensor,
            row_of: &rows_of,
            col_of: &rows_of,
            width: all.len(),
            cells: &cells,
            promoted: &[DType::I16],
            strong: false,
            statement_end: 1,
            continues: false,
            retype: &[],
        };
        let layers: Vec<Layer<'_>> = [filter].into_iter().chain(t.layers.iter().copied()).collect();
        let t = RuleTable { layers: &layers, ..t };
        let (i8, u8, b) = (T(DType::I8), T(DType::U8), T(DType::Bool));
        // The base gives i16 for (i8, u8): the filter applies.
        assert_eq!(trace(&t, &[], Op::Add, i8, u8), decided(0, Cell::Is(DType::F32)));
        // The base gives i8 for (bool, i8): the filter does not, and the base decides.
        assert_eq!(trace(&t, &[], Op::Add, b, i8), decided(5, Cell::Is(DType::I8)));
        // Under `strict`, (i8, u8) is refused below: a refusal is no dtype to filter.
        assert_eq!(
            trace(&t, &["strict=true"], Op::Add, i8, u8),
            decided(1, Cell::Refuse(0))
        );
        // `divide` gives `$out`: the filter tests the option's value.
        let out_i16 = trace(&t, &["out=i16"], Op::Divide, i8, u8);
        assert_eq!(out_i16, decided(0, Cell::Is(DType::F32)));
        assert_eq!(trace(&t, &[], Op::Divide, i8, u8), decided(2, Cell::Option(1)));
    }
}
