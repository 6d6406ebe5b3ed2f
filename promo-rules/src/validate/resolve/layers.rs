//! Resolution of the `[[layer]]` tables: operand kinds, matrix keys, cells (of a
//! matrix, a `cells` list or a derivation), retypes and the promoted dtypes, each
//! name resolved against what the header declared ([`Env`]).

use crate::derive::{self, Lattice, PairCondition, ResultRule};
use crate::model::{Derivation, LayerDef, OptionDef, OptionDefKind};
use crate::parse::{CellEntry, CellWord, Matrix, RawLayer, ResultWord, TypeName};
use crate::validate::classes::{find_class, resolve_ops};
use crate::validate::ctxt::Ctxt;
use promo_table::{Cell, Condition, DType, Op, Operand, PyScalar, Side};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

use super::{resolve_dtype, resolve_settings};

/// What a layer's names resolve against.
pub(super) struct Env<'a> {
    pub(super) dtypes: &'a [DType],
    pub(super) ops: &'a [Op],
    pub(super) op_classes: &'a [(String, Vec<Op>)],
    pub(super) dtype_classes: &'a [(String, Vec<String>)],
    pub(super) options: &'a [OptionDef],
    pub(super) reasons: &'a [(String, String)],
    pub(super) python: [Option<Operand>; 4],
    /// The `[lattice]`, if it was declared and built.
    pub(super) lattice: Option<&'a Lattice>,
    /// Whether the file declares a `[lattice]` (one that failed to build has its
    /// own errors).
    pub(super) lattice_declared: bool,
}

/// An operand kind of `operands`.
fn side(cx: &mut Ctxt, text: &str, span: Range<usize>) -> Option<Side> {
    match text {
        "tensor" => Some(Side::Tensor),
        "scalar" => Some(Side::Scalar),
        "dimensioned" => Some(Side::Dimensioned),
        "python" => Some(Side::Python),
        "weak" => Some(Side::Weak),
        "any" => Some(Side::Any),
        _ => {
            cx.error(
                format!(
                    "unknown operand kind `{text}`: expected `tensor`, `scalar`, `dimensioned`, `weak`, `python` or `any`"
                ),
                span,
            );
            None
        }
    }
}

/// A matrix key is an accepted dtype (tensor sides) or a Python kind (python side).
fn resolve_key(cx: &mut Ctxt, side: Side, key: &Spanned<String>, dtypes: &[DType]) -> Option<usize> {
    if side == Side::Python {
        let k = PyScalar::parse_name(key.get_ref());
        if k.is_none() {
            cx.error(
                format!(
                    "unknown Python scalar kind `{}`: expected `bool`, `int`, `float` or `complex`",
                    key.get_ref()
                ),
                key.span(),
            );
        }
        return k.map(PyScalar::index);
    }
    let d = resolve_dtype(cx, key.get_ref(), key.span())?;
    if !dtypes.contains(&d) {
        cx.error(format!("dtype `{d}` is not in `rules.dtypes`"), key.span());
        return None;
    }
    Some(d.index())
}

/// A cell is a dtype, `.`, `lhs`, `rhs`, `$option` (a dtype option) or `!reason`.
fn resolve_cell(
    cx: &mut Ctxt,
    cell: &Spanned<CellWord>,
    lhs: Side,
    rhs: Side,
    env: &Env<'_>,
    used: &mut [bool],
) -> Option<Cell> {
    let span = cell.span();
    match cell.get_ref() {
        CellWord::Defer => Some(Cell::Defer),
        CellWord::Lhs | CellWord::Rhs => {
            let (text, side, cell) = match cell.get_ref() {
                CellWord::Lhs => ("lhs", lhs, Cell::Lhs),
                _ => ("rhs", rhs, Cell::Rhs),
            };
            if side == Side::Python {
                cx.error(
                    format!("`{text}` names a Python scalar, which has no dtype"),
                    span,
                );
                return None;
            }
            Some(cell)
        }
        CellWord::Option(name) => match env.options.iter().position(|o| &o.name == name) {
            Some(i) if env.options[i].kind == OptionDefKind::DType => Some(Cell::Option(i as u8)),
            Some(_) => {
                cx.error(format!("option `{name}` is not a dtype option"), span);
                None
            }
            None => {
                cx.error(format!("unknown option `{name}`"), span);
                None
            }
        },
        CellWord::Refuse(key) => match env.reasons.iter().position(|(k, _)| k == key) {
            Some(i) => {
                used[i] = true;
                Some(Cell::Refuse(i as u16))
            }
            None => {
                cx.error(format!("unknown reason `{key}`: declare it in `[reasons]`"), span);
                None
            }
        },
        // `f64*`: a weakly typed result.
        CellWord::Type(TypeName { name, weak }) => {
            let d = resolve_dtype(cx, name, span.clone())?;
            if !env.dtypes.contains(&d) {
                cx.error(format!("result dtype `{d}` is not in `rules.dtypes`"), span);
                return None;
            }
            Some(if *weak { Cell::Weak(d) } else { Cell::Is(d) })
        }
    }
}

/// The cells of one layer as resolved: keys, cells and where each cell was written.
struct Grid {
    rows: Vec<usize>,
    cols: Vec<usize>,
    cells: Vec<Cell>,
    spans: Vec<Range<usize>>,
}

/// A layer gives its cells in exactly one way (`matrix`, `cells` or `result`),
/// under conditions on declared options, for operations of the rule set.
pub(super) fn resolve_layer(
    cx: &mut Ctxt,
    layer: &Spanned<RawLayer>,
    env: &Env<'_>,
    used: &mut [bool],
) -> Option<LayerDef> {
    let raw = layer.get_ref();
    let errors_before = cx.reported();
    let when = resolve_settings(cx, &raw.when, env.options, layer.span());
    let ops = resolve_ops(cx, &raw.ops, env.ops, |name| find_class(env.op_classes, name));
    if env.ops.is_empty() && !raw.ops.is_empty() {
        // Without `rules.ops` the rule set answers every operation as `add`.
        cx.error(
            "a layer's `ops` needs `rules.ops`: list the operations whose results differ",
            raw.ops[0].span(),
        );
    }
    let (lhs, rhs) = match &raw.operands {
        // A result filter tests what the layers after it give, whatever the operands.
        None if raw.promoted.is_some() => (Some(Side::Any), Some(Side::Any)),
        None => (Some(Side::Tensor), Some(Side::Tensor)),
        Some(sides) if sides.get_ref().len() == 2 => {
            let s = sides.get_ref();
            (side(cx, &s[0], sides.span()), side(cx, &s[1], sides.span()))
        }
        Some(sides) => {
            cx.error(
                "`operands` must name two operand kinds, e.g. [\"tensor\", \"python\"]",
                sides.span(),
            );
            (None, None)
        }
    };
    let (lhs, rhs) = (lhs?, rhs?);
    if let Some(map) = &raw.retype {
        return resolve_retype(cx, raw, layer.span(), map, (when, ops), env);
    }
    let given = [raw.matrix.is_some(), raw.cells.is_some(), raw.result.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        cx.error(
            format!(
                "layer `{}` must give its cells one way: `matrix`, `cells` or `result` (or retype its operands: `retype`)",
                raw.name.get_ref()
            ),
            layer.span(),
        );
        return None;
    }
    if raw.result.is_none() && (lhs == Side::Any || rhs == Side::Any) {
        cx.error(
            "`any` operands take a `result`, not a `matrix` or `cells`",
            layer.span(),
        );
        return None;
    }
    if raw.result.is_none() {
        for (field, present) in [
            ("rows", raw.rows.as_ref().map(|r| r.span())),
            ("cols", raw.cols.as_ref().map(|r| r.span())),
            ("where", raw.condition.as_ref().map(|r| r.span())),
            ("strong", raw.strong.as_ref().map(|r| r.span())),
        ] {
            if let Some(span) = present {
                cx.error(format!("`{field}` belongs to a layer with a `result`"), span);
            }
        }
    }
    let (grid, how) = if let Some(matrix) = &raw.matrix {
        (
            resolve_matrix(cx, matrix.get_ref(), (lhs, rhs), env, used),
            Derivation::Matrix,
        )
    } else if let Some(cells) = &raw.cells {
        (
            resolve_listed(cx, cells.get_ref(), cells.span(), (lhs, rhs), env, used),
            Derivation::Cells,
        )
    } else {
        resolve_derived(cx, raw, (lhs, rhs), env, used)?
    };
    let promoted = resolve_promoted(cx, raw, env);
    if raw.malformed || cx.reported() > errors_before {
        return None;
    }
    Some(LayerDef {
        name: raw.name.get_ref().clone(),
        when,
        ops,
        lhs,
        rhs,
        rows: grid.rows,
        cols: grid.cols,
        cells: grid.cells,
        spans: grid.spans,
        span: layer.span(),
        how,
        mirror: false,
        promoted,
        statement: raw.statement,
        compute: raw.compute,
        continues: raw.continues,
        retype: Vec::new(),
    })
}

/// A retyping layer (`retype = { i64 = "i32" }`) maps dtypes of `rules.dtypes` to
/// dtypes of `rules.dtypes`, each at most once, and gives no cells of its own.
fn resolve_retype(
    cx: &mut Ctxt,
    raw: &RawLayer,
    span: Range<usize>,
    map: &Spanned<BTreeMap<String, Spanned<String>>>,
    (when, ops): (Vec<Condition>, Vec<Op>),
    env: &Env<'_>,
) -> Option<LayerDef> {
    let errors_before = cx.reported();
    for (field, present) in [
        ("matrix", raw.matrix.as_ref().map(|r| r.span())),
        ("cells", raw.cells.as_ref().map(|r| r.span())),
        ("result", raw.result.as_ref().map(|r| r.span())),
        ("rows", raw.rows.as_ref().map(|r| r.span())),
        ("cols", raw.cols.as_ref().map(|r| r.span())),
        ("where", raw.condition.as_ref().map(|r| r.span())),
        ("promoted", raw.promoted.as_ref().map(|r| r.span())),
        ("operands", raw.operands.as_ref().map(|r| r.span())),
        ("strong", raw.strong.as_ref().map(|r| r.span())),
    ] {
        if let Some(span) = present {
            cx.error(format!("a layer with `retype` takes no `{field}`"), span);
        }
    }
    if raw.mirrored {
        cx.error("a layer with `retype` cannot be `mirrored`", map.span());
    }
    if map.get_ref().is_empty() {
        cx.error("`retype` must map at least one dtype", map.span());
    }
    let mut retype = Vec::new();
    for (from, to) in map.get_ref() {
        let from_d = resolve_dtype(cx, from, to.span());
        let to_d = resolve_dtype(cx, to.get_ref(), to.span());
        for d in [from_d, to_d].into_iter().flatten() {
            if !env.dtypes.contains(&d) {
                cx.error(format!("dtype `{d}` is not in `rules.dtypes`"), to.span());
            }
        }
        if let (Some(a), Some(b)) = (from_d, to_d) {
            if retype.iter().any(|&(x, _)| x == a) {
                cx.error(format!("`{a}` is retyped twice"), to.span());
            }
            retype.push((a, b));
        }
    }
    if cx.reported() > errors_before {
        return None;
    }
    Some(LayerDef {
        name: raw.name.get_ref().clone(),
        when,
        ops,
        lhs: Side::Tensor,
        rhs: Side::Tensor,
        rows: Vec::new(),
        cols: Vec::new(),
        cells: Vec::new(),
        spans: Vec::new(),
        span,
        how: Derivation::Retype,
        mirror: false,
        promoted: Vec::new(),
        statement: raw.statement,
        compute: raw.compute,
        continues: false,
        retype,
    })
}

/// A result filter names dtypes of `rules.dtypes` or kinds, at least one.
fn resolve_promoted(cx: &mut Ctxt, raw: &RawLayer, env: &Env<'_>) -> Vec<DType> {
    let Some(list) = &raw.promoted else {
        return Vec::new();
    };
    if list.get_ref().is_empty() {
        cx.error("`promoted` must name at least one dtype or kind", list.span());
    }
    let mut out = Vec::new();
    for name in list.get_ref() {
        match derive::select(Side::Tensor, name.get_ref(), env.dtypes, env.dtype_classes) {
            Ok(keys) => out.extend(keys.into_iter().filter_map(DType::from_index)),
            Err(message) => cx.error(message, name.span()),
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A literal matrix has unique keys (its shape parse has checked).
fn resolve_matrix(
    cx: &mut Ctxt,
    matrix: &Matrix,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut [bool],
) -> Grid {
    let mut cols = Vec::new();
    let mut seen_cols = BTreeSet::new();
    for key in &matrix.columns {
        if let Some(k) = resolve_key(cx, rhs, key, env.dtypes) {
            if !seen_cols.insert(k) {
                cx.error(format!("duplicate column `{}`", key.get_ref()), key.span());
            }
            cols.push(k);
        }
    }
    let mut rows = Vec::new();
    let mut seen_rows = BTreeSet::new();
    let mut cells = Vec::new();
    let mut spans = Vec::new();
    for row in &matrix.rows {
        let k = resolve_key(cx, lhs, &row.key, env.dtypes);
        if let Some(k) = k {
            if !seen_rows.insert(k) {
                cx.error(format!("duplicate row `{}`", row.key.get_ref()), row.key.span());
            }
        }
        let resolved: Vec<Option<Cell>> = row
            .cells
            .iter()
            .map(|c| resolve_cell(cx, c, lhs, rhs, env, used))
            .collect();
        if let Some(k) = k {
            rows.push(k);
            cells.extend(resolved.into_iter().map(|c| c.unwrap_or(Cell::Defer)));
            spans.extend(row.cells.iter().map(Spanned::span));
        }
    }
    Grid {
        rows,
        cols,
        cells,
        spans,
    }
}

/// Listed cells (`"ROW COL = RESULT"`, written at `whole`) give each pair once.
fn resolve_listed(
    cx: &mut Ctxt,
    entries: &[CellEntry],
    whole: Range<usize>,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut [bool],
) -> Grid {
    let mut listed: Vec<(usize, usize, Cell, Range<usize>)> = Vec::new();
    for CellEntry { row, col, cell } in entries {
        let r = resolve_key(cx, lhs, row, env.dtypes);
        let c = resolve_key(cx, rhs, col, env.dtypes);
        let resolved = resolve_cell(cx, cell, lhs, rhs, env, used);
        if let (Some(r), Some(c), Some(resolved)) = (r, c, resolved) {
            if listed.iter().any(|(lr, lc, _, _)| (*lr, *lc) == (r, c)) {
                cx.error(
                    format!("duplicate cell `{} {}`", row.get_ref(), col.get_ref()),
                    row.span(),
                );
            }
            listed.push((r, c, resolved, cell.span()));
        }
    }
    let mut rows: Vec<usize> = Vec::new();
    let mut cols: Vec<usize> = Vec::new();
    for (r, c, _, _) in &listed {
        if !rows.contains(r) {
            rows.push(*r);
        }
        if !cols.contains(c) {
            cols.push(*c);
        }
    }
    let mut cells = vec![Cell::Defer; rows.len() * cols.len()];
    let mut spans = vec![whole; rows.len() * cols.len()];
    for (r, c, cell, span) in listed {
        let at = rows.iter().position(|k| *k == r).unwrap_or(0) * cols.len()
            + cols.iter().position(|k| *k == c).unwrap_or(0);
        cells[at] = cell;
        spans[at] = span;
    }
    Grid {
        rows,
        cols,
        cells,
        spans,
    }
}

/// The keys of one side a derived layer covers: the listed selectors, or every key.
fn resolve_selection(
    cx: &mut Ctxt,
    side: Side,
    names: Option<&Spanned<Vec<Spanned<String>>>>,
    env: &Env<'_>,
) -> Vec<usize> {
    let dtypes = env.dtypes;
    let Some(names) = names else {
        return match side {
            Side::Python => (0..PyScalar::ALL.len()).collect(),
            // Tensors, Python scalars and weakly typed tensors, as `select` gives them.
            Side::Any => dtypes
                .iter()
                .map(|d| d.index())
                .chain((0..PyScalar::ALL.len()).map(|k| DType::COUNT + k))
                .chain(dtypes.iter().map(|d| DType::COUNT + 4 + d.index()))
                .collect(),
            _ => dtypes.iter().map(|d| d.index()).collect(),
        };
    };
    let mut keys: Vec<usize> = Vec::new();
    for name in names.get_ref() {
        match derive::select(side, name.get_ref(), dtypes, env.dtype_classes) {
            Ok(selected) => {
                for k in selected {
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
            }
            Err(message) => cx.error(message, name.span()),
        }
    }
    keys
}

/// A derived layer: `result` for every selected pair that meets `where`, the cells
/// derived by [`derive::cells`].
fn resolve_derived(
    cx: &mut Ctxt,
    raw: &RawLayer,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut [bool],
) -> Option<(Grid, Derivation)> {
    let result = raw.result.as_ref()?;
    let rows = resolve_selection(cx, lhs, raw.rows.as_ref(), env);
    let cols = resolve_selection(cx, rhs, raw.cols.as_ref(), env);
    let condition = raw
        .condition
        .as_ref()
        .map(|w| PairCondition::new(w.get_ref().text.clone(), &w.get_ref().condition));
    let span = result.span();
    let rule = match result.get_ref() {
        ResultWord::Lub => ResultRule::Lub,
        ResultWord::WeakLub => ResultRule::WeakLub,
        ResultWord::Cell(CellWord::Lhs) => ResultRule::Cell(Cell::Lhs),
        ResultWord::Cell(CellWord::Rhs) => ResultRule::Cell(Cell::Rhs),
        ResultWord::Cell(CellWord::Defer) => {
            cx.error(
                "a derived layer's `result` cannot be `.`: leave the pairs out instead",
                span,
            );
            return None;
        }
        ResultWord::Cell(word) => {
            let word = Spanned::new(span.clone(), word.clone());
            ResultRule::Cell(resolve_cell(cx, &word, Side::Tensor, Side::Tensor, env, used)?)
        }
    };
    let lub = matches!(rule, ResultRule::Lub | ResultRule::WeakLub);
    if lub && env.lattice.is_none() {
        // A declared lattice that did not build has reported its own errors.
        if !env.lattice_declared {
            let word = if rule == ResultRule::Lub { "lub" } else { "lub*" };
            cx.error(format!("`result = \"{word}\"` needs a `[lattice]`"), span);
        }
        return None;
    }
    let strong = raw.strong.as_ref().is_some_and(|s| *s.get_ref());
    if let (ResultRule::WeakLub, Some(given)) = (rule, raw.strong.as_ref().filter(|_| strong)) {
        cx.error(
            "`strong` cannot go with `result = \"lub*\"`, whose results are weakly typed: write `lub`",
            given.span(),
        );
        return None;
    }
    let mut cells = derive::cells(
        rule,
        condition.as_ref(),
        (lhs, rhs),
        (&rows, &cols),
        env.python,
        env.lattice,
    );
    if strong {
        // `strong = true`: the dtype of a weak result, strongly typed.
        for cell in &mut cells {
            if let Cell::Weak(d) = *cell {
                *cell = Cell::Is(d);
            }
        }
    }
    let spans = vec![span; cells.len()];
    Some((
        Grid {
            rows,
            cols,
            cells,
            spans,
        },
        Derivation::Result {
            rule,
            condition,
            strong,
        },
    ))
}
