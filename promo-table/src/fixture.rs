//! A small rule set built by hand: the table the unit tests walk and flatten.

use crate::layer::{Condition, Layer, Side, ABSENT};
use crate::options::{OptionKind, OptionSpec, OptionValue};
use crate::table::RuleTable;
use crate::{Cell, DType, Op, Operand, PyScalar};

/// `index_of[key] = position` for each of `keys`, [`ABSENT`] elsewhere, leaked so
/// that the table can borrow it for `'static`.
fn index_of(keys: &[usize], domain: usize) -> &'static [u8] {
    let mut map = vec![ABSENT; domain];
    for (i, &k) in keys.iter().enumerate() {
        map[k] = i as u8;
    }
    map.leak()
}

fn dtypes(ds: &[DType]) -> Vec<usize> {
    ds.iter().map(|d| d.index()).collect()
}

/// A layer of `cells` over `rows` × `cols`.
fn layer(
    name: &'static str,
    (lhs, rhs): (Side, Side),
    rows: &[usize],
    cols: &[usize],
    cells: Vec<Cell>,
) -> Layer<'static> {
    let domain = |side| match side {
        Side::Python => PyScalar::ALL.len(),
        _ => DType::COUNT,
    };
    assert_eq!(cells.len(), rows.len() * cols.len(), "{name}");
    Layer {
        name,
        when: &[],
        ops: &[],
        lhs,
        rhs,
        row_of: index_of(rows, domain(lhs)),
        col_of: index_of(cols, domain(rhs)),
        width: cols.len(),
        cells: cells
            .iter()
            .flat_map(|c| c.code().to_le_bytes())
            .collect::<Vec<u8>>()
            .leak(),
        promoted: &[],
        strong: false,
        statement_end: 0,
        continues: false,
        retype: &[],
    }
}

/// `layers`, each a statement of its own.
fn statements(mut layers: Vec<Layer<'static>>) -> &'static [Layer<'static>] {
    for (i, layer) in layers.iter_mut().enumerate() {
        layer.statement_end = i + 1;
    }
    layers.leak()
}

/// "tiny": bool, i8, u8, i16 and f32, commutative, with options `strict` (bool) and
/// `out` (a dtype, default f32), Python `bool`, `int` and `float` typed as bool, i8
/// and f32. Its layers, most specific first:
///
/// 0. under `strict = true`, (i8, u8) is refused for reason 0;
/// 1. `divide` of two integers gives `$out`;
/// 2. a tensor with a Python `int` gives the tensor's dtype, with a Python `float`
///    f32 (an f32 tensor: `lhs`); no row for `bool`;
/// 3. a rank-0 i16 with a dimensioned i8 gives `rhs`;
/// 4. the base: every pair, (bool, f32) refused for reason 1, (f32, bool) deferred
///    (the commutative lookup answers it from (bool, f32)).
pub(crate) fn tiny_table() -> RuleTable<'static> {
    use Cell::{Defer, Is, Lhs, Option as Opt, Refuse, Rhs};
    use DType::{Bool, F32, I16, I8, U8};
    let tensors = (Side::Tensor, Side::Tensor);
    let strict = Layer {
        when: vec![Condition {
            option: 0,
            value: OptionValue::Bool(true),
        }]
        .leak(),
        ..layer(
            "strict mode",
            tensors,
            &dtypes(&[I8]),
            &dtypes(&[U8]),
            vec![Refuse(0)],
        )
    };
    let ints = dtypes(&[I8, U8, I16]);
    let divide = Layer {
        ops: &[Op::Divide],
        ..layer("divide", tensors, &ints, &ints, vec![Opt(1); 9])
    };
    let python = layer(
        "python",
        (Side::Tensor, Side::Python),
        &dtypes(&[I8, U8, I16, F32]),
        &[PyScalar::Int.index(), PyScalar::Float.index()],
        vec![Lhs, Is(F32), Lhs, Is(F32), Lhs, Is(F32), Lhs, Lhs],
    );
    let rank0 = layer(
        "rank 0",
        (Side::Scalar, Side::Dimensioned),
        &dtypes(&[I16]),
        &dtypes(&[I8]),
        vec![Rhs],
    );
    let all = dtypes(&[Bool, I8, U8, I16, F32]);
    #[rustfmt::skip]
    let base = layer("base", tensors, &all, &all, vec![
        Is(Bool), Is(I8),  Is(U8),  Is(I16), Refuse(1),
        Is(I8),   Is(I8),  Is(I16), Is(I16), Is(F32),
        Is(U8),   Is(I16), Is(U8),  Is(I16), Is(F32),
        Is(I16),  Is(I16), Is(I16), Is(I16), Is(F32),
        Defer,    Is(F32), Is(F32), Is(F32), Is(F32),
    ]);
    RuleTable {
        name: "tiny",
        title: "Tiny framework",
        version: "1",
        commutative: true,
        list: crate::op::ListRule::Fold,
        list_order: &[],
        results_from: 0,
        dtypes: &[Bool, I8, U8, I16, F32],
        ops: &[Op::Add, Op::Divide],
        aliases: &[],
        options: &[
            OptionSpec {
                name: "strict",
                kind: OptionKind::Bool,
                default: OptionValue::Bool(false),
                doc: "refuse mixed signedness",
            },
            OptionSpec {
                name: "out",
                kind: OptionKind::DType,
                default: OptionValue::DType(F32),
                doc: "what integer division gives",
            },
        ],
        python: [
            Some(Operand::Dimensioned(Bool)),
            Some(Operand::Dimensioned(I8)),
            Some(Operand::Dimensioned(F32)),
            None,
        ],
        reasons: &["mixed signedness", "bool does not mix with f32"],
        layers: statements(vec![strict, divide, python, rank0, base]),
        flat: None,
    }
}
