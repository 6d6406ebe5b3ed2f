//! Resolution: every name of a raw rule file turned into the model ([`RuleFile`]),
//! with the spans the checks and diagnostics point at. A name that resolves to
//! nothing (an unknown dtype, operation, option or reason), a value of the wrong
//! type, or a shape the model cannot hold is an error here; the rules of the
//! language that a resolved model can break are checked after, in `check`.
//!
//! A derived layer's cells are derived here, once, by [`derive::cells`].

use super::classes::{find_class, resolve_dtype_classes, resolve_op_classes, resolve_ops, ClassRef};
use super::ctxt::Ctxt;
use super::lattice::resolve_lattice;
use crate::derive::{self, Lattice, PairCondition, ResultRule};
use crate::model::{Derivation, LayerDef, Mode, OptionDef, OptionDefKind, RuleFile, Spans};
use crate::parse::{CellEntry, CellWord, Matrix, RawFile, RawLayer, RawOption, ResultWord, TypeName, Where};
use crate::properties::Property;
use promo_table::{Cell, Condition, DType, Op, Operand, OptionValue, PyScalar, Side, MAX_OPTIONS};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

/// The most words a `choice` option may have (the compiled table keeps one byte
/// per value, and each word multiplies the precomputed table).
pub const MAX_CHOICES: usize = 64;

/// The model of a rule file, and what the checks need that the model does not keep.
pub(super) struct Resolved {
    /// The model; complete only when no error was reported.
    pub rules: RuleFile,
    /// For each reason, whether some cell names it (in a layer that resolved or not).
    pub used_reasons: Vec<bool>,
    /// The texts of the file that reach output, in file order.
    pub texts: Vec<Text>,
}

/// A text of a rule file that reaches output (its title, a reason, a layer's name):
/// what the checks call it, and where it is written.
pub(super) struct Text {
    /// What it is, e.g. `` `rules.title` `` or `` `reasons.mixed` ``.
    pub what: String,
    /// The text.
    pub text: String,
    /// Where it is written.
    pub span: Range<usize>,
}

/// Resolves every name of `raw`, reporting what does not resolve.
pub(super) fn resolve(cx: &mut Ctxt, raw: &RawFile) -> Resolved {
    let header = &raw.rules;
    let dtypes = resolve_dtype_list(cx, &header.dtypes);
    let ops = resolve_ops(cx, &header.ops, &[], |_| ClassRef::NotAClass);
    let op_classes = resolve_op_classes(cx, &raw.op_classes, &ops);
    let dtype_classes = resolve_dtype_classes(cx, &raw.dtype_classes, &dtypes);
    let lattice = raw
        .lattice
        .as_ref()
        .and_then(|l| resolve_lattice(cx, l.get_ref(), &dtypes, &dtype_classes));
    let options = resolve_options(cx, raw);
    let modes = resolve_modes(cx, raw, &options);
    let python = resolve_python(cx, raw, &dtypes);
    let aliases = resolve_aliases(cx, raw, &dtypes);
    let reasons: Vec<(String, String)> = raw
        .reasons
        .iter()
        .map(|(k, v)| (k.get_ref().clone(), v.get_ref().clone()))
        .collect();
    let mut used_reasons = vec![false; reasons.len()];
    let env = Env {
        dtypes: &dtypes,
        ops: &ops,
        op_classes: &op_classes,
        dtype_classes: &dtype_classes,
        options: &options,
        reasons: &reasons,
        python,
        lattice: lattice.as_ref(),
        lattice_declared: raw.lattice.is_some(),
    };
    let layers: Vec<LayerDef> = raw
        .layers
        .iter()
        .flat_map(|layer| {
            let resolved = resolve_layer(cx, layer, &env, &mut used_reasons);
            let mirror = resolved
                .as_ref()
                .filter(|_| layer.get_ref().mirrored)
                .map(LayerDef::mirror_image);
            resolved.into_iter().chain(mirror)
        })
        .collect();
    let declared = [
        (&header.associative, Property::Associative),
        (&header.lattice, Property::Lattice),
    ]
    .into_iter()
    .filter_map(|(declared, property)| {
        declared
            .as_ref()
            .filter(|d| *d.get_ref())
            .map(|d| (property, d.span()))
    })
    .collect();
    let rules = RuleFile {
        name: header.name.get_ref().clone(),
        marker: header.marker.get_ref().clone(),
        title: header.title.get_ref().clone(),
        version: header.version.get_ref().clone(),
        verified: header
            .verified
            .as_ref()
            .map_or_else(String::new, |v| v.get_ref().clone()),
        commutative: header.commutative,
        dtypes,
        ops,
        aliases,
        options,
        modes,
        python,
        reasons,
        op_classes,
        lattice,
        layers,
        declared,
        spans: Spans {
            name: header.name.span(),
            marker: header.marker.span(),
            reasons: raw.reasons.values().map(Spanned::span).collect(),
        },
    };
    Resolved {
        rules,
        used_reasons,
        texts: texts(raw),
    }
}

/// Every text of `raw` that reaches output: the header's free texts, the options'
/// docs, the reasons and their keys, and each statement's name and `where`.
fn texts(raw: &RawFile) -> Vec<Text> {
    let text = |what: String, value: &Spanned<String>| Text {
        what,
        text: value.get_ref().clone(),
        span: value.span(),
    };
    let where_text = |value: &Spanned<Where>| Spanned::new(value.span(), value.get_ref().text.clone());
    let header = &raw.rules;
    let mut out = vec![
        text("`rules.title`".into(), &header.title),
        text("`rules.version`".into(), &header.version),
    ];
    out.extend(header.verified.iter().map(|v| text("`rules.verified`".into(), v)));
    for (name, option) in &raw.options {
        let doc = option.get_ref().doc.as_ref();
        out.extend(doc.map(|d| text(format!("`options.{}.doc`", name.get_ref()), d)));
    }
    for name in raw.aliases.keys() {
        out.push(text(format!("alias `{}`", name.get_ref()), name));
    }
    for (key, reason) in &raw.reasons {
        out.push(text(format!("reason key `{}`", key.get_ref()), key));
        out.push(text(format!("`reasons.{}`", key.get_ref()), reason));
    }
    // The cases of a statement share its name, and may share its `where`.
    let mut seen = BTreeSet::new();
    for layer in &raw.layers {
        let layer = layer.get_ref();
        let name = Some(("`layer.name`", layer.name.clone()));
        let condition = layer.condition.as_ref().map(|c| ("`layer.where`", where_text(c)));
        for (what, value) in name.into_iter().chain(condition) {
            if seen.insert(value.span().start) {
                out.push(text(what.into(), &value));
            }
        }
    }
    out.sort_by_key(|t| t.span.start);
    out
}

/// A dtype is written by its canonical name; an alias or unknown name is an error.
fn resolve_dtype(cx: &mut Ctxt, text: &str, span: Range<usize>) -> Option<DType> {
    match DType::parse_name(text) {
        Some(d) if d.name() == text => Some(d),
        Some(d) => {
            cx.error(
                format!("write dtype `{text}` by its canonical name `{}`", d.name()),
                span,
            );
            None
        }
        None => {
            cx.error(format!("unknown dtype `{text}`"), span);
            None
        }
    }
}
/// The accepted dtypes are known, canonical and listed once.
fn resolve_dtype_list(cx: &mut Ctxt, names: &[Spanned<String>]) -> Vec<DType> {
    let mut out = Vec::new();
    for name in names {
        if let Some(d) = resolve_dtype(cx, name.get_ref(), name.span()) {
            if out.contains(&d) {
                cx.error(format!("duplicate dtype `{d}`"), name.span());
            } else {
                out.push(d);
            }
        }
    }
    if out.len() > 64 {
        cx.error("too many dtypes", 0..0);
    }
    out
}

/// Each option has a known type and a default of that type.
fn resolve_options(cx: &mut Ctxt, raw: &RawFile) -> Vec<OptionDef> {
    let mut out = Vec::new();
    for (spanned_name, spec) in &raw.options {
        let name = spanned_name.get_ref();
        let RawOption {
            kind,
            choices,
            default,
            doc,
        } = spec.get_ref();
        let kind_def = match kind.get_ref().as_str() {
            "bool" => OptionDefKind::Bool,
            "dtype" => OptionDefKind::DType,
            "choice" if choices.len() > MAX_CHOICES => {
                cx.error(
                    format!(
                        "option `{name}` has {} choices: at most {MAX_CHOICES} are supported",
                        choices.len()
                    ),
                    kind.span(),
                );
                continue;
            }
            "choice" if !choices.is_empty() => {
                OptionDefKind::Choice(choices.iter().map(|w| w.get_ref().clone()).collect())
            }
            "choice" => {
                cx.error(
                    format!("option `{name}` of type `choice` needs `choices`"),
                    kind.span(),
                );
                continue;
            }
            other => {
                cx.error(
                    format!("unknown option type `{other}`: expected `bool`, `dtype` or `choice`"),
                    kind.span(),
                );
                continue;
            }
        };
        let Some(value) = option_value(cx, name, &kind_def, default) else {
            continue;
        };
        let choice_spans = match kind_def {
            OptionDefKind::Choice(_) => choices.iter().map(Spanned::span).collect(),
            _ => Vec::new(),
        };
        out.push(OptionDef {
            name: name.clone(),
            kind: kind_def,
            default: value,
            doc: doc.as_ref().map_or_else(String::new, |d| d.get_ref().clone()),
            default_span: default.span(),
            name_span: spanned_name.span(),
            choice_spans,
        });
    }
    if out.len() > MAX_OPTIONS {
        cx.error(
            format!("at most {MAX_OPTIONS} options are supported"),
            raw.options.values().next().map_or(0..0, |o| o.span()),
        );
    }
    out
}

/// A TOML value read as a value of the option.
fn option_value(
    cx: &mut Ctxt,
    name: &str,
    kind: &OptionDefKind,
    value: &Spanned<toml::Value>,
) -> Option<OptionValue> {
    let v = match (kind, value.get_ref()) {
        (OptionDefKind::Bool, toml::Value::Boolean(b)) => Some(OptionValue::Bool(*b)),
        (OptionDefKind::DType, toml::Value::String(s)) => {
            return resolve_dtype(cx, s, value.span()).map(OptionValue::DType)
        }
        (OptionDefKind::Choice(words), toml::Value::String(s)) => words
            .iter()
            .position(|w| w == s)
            .map(|i| OptionValue::Choice(i as u8)),
        _ => None,
    };
    if v.is_none() {
        let expected = match kind {
            OptionDefKind::Bool => "`true` or `false`".to_owned(),
            OptionDefKind::DType => "a dtype name".to_owned(),
            OptionDefKind::Choice(words) => format!(
                "one of {}",
                words
                    .iter()
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        cx.error(
            format!(
                "bad value `{}` for option `{name}`: expected {expected}",
                value.get_ref()
            ),
            value.span(),
        );
    }
    v
}

/// Conditions and mode settings name declared options with values of their type.
fn resolve_settings(
    cx: &mut Ctxt,
    settings: &BTreeMap<String, Spanned<toml::Value>>,
    options: &[OptionDef],
    whole: Range<usize>,
) -> Vec<Condition> {
    let mut out = Vec::new();
    for (key, value) in settings {
        let Some(index) = options.iter().position(|o| &o.name == key) else {
            let known: Vec<String> = options.iter().map(|o| format!("`{}`", o.name)).collect();
            let span = if value.span().start > 0 {
                value.span()
            } else {
                whole.clone()
            };
            cx.error(
                format!(
                    "unknown option `{key}`: expected one of {}",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                ),
                span,
            );
            continue;
        };
        if let Some(v) = option_value(cx, key, &options[index].kind, value) {
            out.push(Condition {
                option: index as u8,
                value: v,
            });
        }
    }
    out
}

/// Each mode is a marker type fixing declared options to values of their type; the
/// header's marker is the first, with every option at its default.
fn resolve_modes(cx: &mut Ctxt, raw: &RawFile, options: &[OptionDef]) -> Vec<Mode> {
    let defaults: Vec<OptionValue> = options.iter().map(|o| o.default).collect();
    let marker = &raw.rules.marker;
    let mut out = vec![Mode {
        marker: marker.get_ref().clone(),
        values: defaults.clone(),
        span: marker.span(),
    }];
    for (marker, settings) in &raw.modes {
        let mut values = defaults.clone();
        for c in resolve_settings(cx, settings.get_ref(), options, settings.span()) {
            values[c.option as usize] = c.value;
        }
        out.push(Mode {
            marker: marker.clone(),
            values,
            span: settings.span(),
        });
    }
    out
}

/// `[python]` maps Python kinds to accepted dtypes.
fn resolve_python(cx: &mut Ctxt, raw: &RawFile, dtypes: &[DType]) -> [Option<Operand>; 4] {
    let mut out = [None; 4];
    for (kind, dtype) in &raw.python {
        let Some(k) = PyScalar::parse_name(kind) else {
            cx.error(
                format!("unknown Python scalar kind `{kind}`: expected `bool`, `int`, `float` or `complex`"),
                dtype.span(),
            );
            continue;
        };
        // `i64*`: the scalar is weakly typed (JAX, TensorFlow).
        let TypeName { name, weak } = dtype.get_ref();
        if let Some(d) = resolve_dtype(cx, name, dtype.span()) {
            if !dtypes.contains(&d) {
                cx.error(format!("dtype `{d}` is not in `rules.dtypes`"), dtype.span());
            }
            out[k.index()] = Some(if *weak {
                Operand::Weak(d)
            } else {
                Operand::Dimensioned(d)
            });
        }
    }
    out
}

/// `[aliases]` gives the framework's own spellings: each name is new (no
/// canonical dtype name, none given twice in another case), and means one dtype of
/// `rules.dtypes`, or a list of two or more (a name the framework reads several
/// ways, refused with the choices), each by its canonical name.
fn resolve_aliases(cx: &mut Ctxt, raw: &RawFile, dtypes: &[DType]) -> Vec<(String, Vec<DType>)> {
    let mut out: Vec<(String, Vec<DType>)> = Vec::new();
    for (name, value) in &raw.aliases {
        let text = name.get_ref();
        if text.trim().is_empty() || text.trim() != text || text.contains(char::is_whitespace) {
            cx.error(
                format!("alias `{text}` is not one word: a name is written without spaces"),
                name.span(),
            );
            continue;
        }
        if let Some(d) = DType::ALL.iter().find(|d| d.name().eq_ignore_ascii_case(text)) {
            cx.error(
                format!("alias `{text}` is the canonical name of `{d}`: an alias may not rename a dtype"),
                name.span(),
            );
            continue;
        }
        if let Some((other, _)) = out.iter().find(|(o, _)| o.eq_ignore_ascii_case(text)) {
            cx.error(
                format!("alias `{text}` is given twice (as `{other}`): names are compared without case"),
                name.span(),
            );
            continue;
        }
        let mut dtype = |word: &str| {
            let d = resolve_dtype(cx, word, value.span())?;
            if !dtypes.contains(&d) {
                cx.error(
                    format!("dtype `{d}` of alias `{text}` is not in `rules.dtypes`"),
                    value.span(),
                );
                return None;
            }
            Some(d)
        };
        let meant = match value.get_ref() {
            toml::Value::String(word) => dtype(word).map(|d| vec![d]),
            toml::Value::Array(words) if words.len() >= 2 && words.iter().all(toml::Value::is_str) => {
                let resolved: Vec<Option<DType>> = words
                    .iter()
                    .map(|w| dtype(w.as_str().unwrap_or_default()))
                    .collect();
                let resolved: Option<Vec<DType>> = resolved.into_iter().collect();
                match resolved {
                    Some(list) if (1..list.len()).any(|i| list[..i].contains(&list[i])) => {
                        cx.error(
                            format!("alias `{text}` lists a dtype twice: an ambiguous name lists each dtype it may mean once"),
                            value.span(),
                        );
                        None
                    }
                    other => other,
                }
            }
            _ => {
                cx.error(
                    format!("bad value for alias `{text}`: expected a dtype name, or a list of two or more for a name that is ambiguous"),
                    value.span(),
                );
                None
            }
        };
        if let Some(meant) = meant {
            out.push((text.clone(), meant));
        }
    }
    out
}

/// What a layer's names resolve against.
struct Env<'a> {
    dtypes: &'a [DType],
    ops: &'a [Op],
    op_classes: &'a [(String, Vec<Op>)],
    dtype_classes: &'a [(String, Vec<String>)],
    options: &'a [OptionDef],
    reasons: &'a [(String, String)],
    python: [Option<Operand>; 4],
    /// The `[lattice]`, if it was declared and built.
    lattice: Option<&'a Lattice>,
    /// Whether the file declares a `[lattice]` (one that failed to build has its
    /// own errors).
    lattice_declared: bool,
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
fn resolve_layer(
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
    if let (Some(strong), Some(_)) = (&raw.strong, &raw.promoted) {
        cx.error(
            "`strong` cannot go with `promoted`: a result filter keeps the weakness of the promotion it tests",
            strong.span(),
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"
[rules]
name = "t"
marker = "T"
title = "t"
version = "1"
commutative = false
associative = true
dtypes = ["i8", "u8"]

[options.strict]
type = "bool"
default = false

[modes]
TStrict = { strict = true }

[reasons]
mixed = "mixed signedness"
unused = "never named"

[[layer]]
name = "base"
matrix = '''
     i8      u8
i8   i8      !mixed
u8   !mixed  u8
'''
"#;

    #[test]
    fn the_model_keeps_where_each_part_is_written() {
        let raw = crate::parse::parse_file(SRC).unwrap().file;
        let mut cx = Ctxt::default();
        let Resolved {
            rules,
            used_reasons,
            texts,
        } = resolve(&mut cx, &raw);
        assert!(!cx.has_errors());
        let text = |span: &Range<usize>| &SRC[span.clone()];
        assert_eq!(text(&rules.spans.name), "\"t\"");
        assert_eq!(text(&rules.spans.marker), "\"T\"");
        let reasons: Vec<&str> = rules.spans.reasons.iter().map(text).collect();
        assert_eq!(reasons, ["\"mixed signedness\"", "\"never named\""]);
        assert_eq!(used_reasons, [true, false]);
        assert_eq!(text(&rules.options[0].default_span), "false");
        assert_eq!(text(&rules.modes[0].span), "\"T\"");
        assert_eq!(text(&rules.modes[1].span), "{ strict = true }");
        assert_eq!(rules.declared.len(), 1);
        assert_eq!(text(&rules.declared[0].1), "true");
        // Each cell of the matrix, as written.
        let cells: Vec<&str> = rules.layers[0].spans.iter().map(text).collect();
        assert_eq!(cells, ["i8", "!mixed", "!mixed", "u8"]);
        // Each text that reaches output, and where it is.
        let texts: Vec<(&str, &str)> = texts.iter().map(|t| (t.what.as_str(), text(&t.span))).collect();
        assert_eq!(
            texts,
            [
                ("`rules.title`", "\"t\""),
                ("`rules.version`", "\"1\""),
                ("reason key `mixed`", "mixed"),
                ("`reasons.mixed`", "\"mixed signedness\""),
                ("reason key `unused`", "unused"),
                ("`reasons.unused`", "\"never named\""),
                ("`layer.name`", "\"base\""),
            ]
        );
    }

    /// The op classes `classes` (TOML lines) resolve to, and the errors reported.
    fn op_classes_of(classes: &str) -> (Vec<(String, Vec<Op>)>, Vec<String>) {
        let src = format!("{SRC}\n[op_classes]\n{classes}");
        let raw = crate::parse::parse_file(&src).unwrap().file;
        let mut cx = Ctxt::default();
        let out = resolve_op_classes(&mut cx, &raw.op_classes, &[Op::Add, Op::Divide, Op::Equal]);
        (out, cx.finish().into_iter().map(|d| d.message).collect())
    }

    fn class(name: &str, ops: &[Op]) -> (String, Vec<Op>) {
        (name.to_owned(), ops.to_vec())
    }

    #[test]
    fn op_classes_resolve_through_each_other_in_any_order() {
        use Op::{Add, Divide, Equal};
        let (out, errors) =
            op_classes_of("x = [\"y\", \"z\"]\ny = [\"w\"]\nz = [\"equal\"]\nw = [\"add\", \"divide\"]\n");
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(
            out,
            [
                class("w", &[Add, Divide]),
                class("x", &[Add, Divide, Equal]),
                class("y", &[Add, Divide]),
                class("z", &[Equal]),
            ]
        );
        // Two classes that share an operation, named by a third.
        let (_, errors) = op_classes_of("p = [\"q\", \"r\"]\nq = [\"add\"]\nr = [\"add\"]\n");
        assert_eq!(errors, ["duplicate operation `add` (in class `r`)"]);
    }

    #[test]
    fn each_class_on_a_cycle_is_named_and_the_classes_that_name_one_are_not() {
        use Op::Add;
        // A class naming itself.
        let (out, errors) = op_classes_of("s = [\"s\", \"add\"]\nt = [\"s\", \"add\"]\n");
        assert_eq!(errors, ["op class `s` names itself through other classes"]);
        assert_eq!(out, [class("t", &[Add])]);
        // A cycle of three, and a class that names it.
        let (out, errors) = op_classes_of("d = [\"a\", \"add\"]\na = [\"b\"]\nb = [\"c\"]\nc = [\"a\"]\n");
        assert_eq!(
            errors,
            ["a", "b", "c"].map(|c| format!("op class `{c}` names itself through other classes"))
        );
        assert_eq!(out, [class("d", &[Add])]);
        // A class with an operation's name is an error, and the name the operation.
        let (out, errors) = op_classes_of("add = [\"divide\"]\nm = [\"add\"]\n");
        assert_eq!(
            errors,
            ["op class `add` has the name of an operation: choose another name"]
        );
        assert_eq!(out, [class("m", &[Add])]);
    }

    #[test]
    fn a_layer_with_errors_is_left_out_and_its_reasons_count_as_used() {
        let src = SRC.replace("u8   !mixed  u8", "u8   !mixed  f9");
        let raw = crate::parse::parse_file(&src).unwrap().file;
        let mut cx = Ctxt::default();
        let resolved = resolve(&mut cx, &raw);
        assert!(resolved.rules.layers.is_empty());
        assert_eq!(resolved.used_reasons, [true, false]);
        let errors = cx.finish();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "unknown dtype `f9`");
    }
}
