//! Stage 2: resolve every name of a raw rule file and check every rule, collecting
//! all problems instead of stopping at the first.

use crate::derive::{self, Join, Lattice, PairCondition};
use crate::model::{Derivation, LayerDef, Mode, OptionDef, OptionDefKind, ResultRule, RuleFile};
use crate::parse::{split_lines, split_matrix, RawFile, RawLayer, RawOption, Token};
use crate::properties::{self, Property};
use crate::Diagnostic;
use promo_table::{Cell, Condition, DType, Op, OptionValue, PyScalar, Side, MAX_OPTIONS};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

/// How many errors of one kind are shown before the rest are counted.
const MAX_ERRORS_OF_A_KIND: usize = 20;

/// Collects problems while the model is built; past [`MAX_ERRORS_OF_A_KIND`] of
/// one kind (the same message but for the names in backticks) it only counts
/// them, so a file with thousands of one mistake gives a short report.
#[derive(Default)]
struct Ctxt {
    errors: Vec<Diagnostic>,
    /// Per kind: how many were seen, and the span of the last one dropped.
    kinds: BTreeMap<String, (usize, Range<usize>)>,
}

impl Ctxt {
    fn error(&mut self, message: impl Into<String>, span: Range<usize>) {
        let message = message.into();
        let entry = self.kinds.entry(error_kind(&message)).or_insert((0, 0..0));
        entry.0 += 1;
        if entry.0 <= MAX_ERRORS_OF_A_KIND {
            self.errors.push(Diagnostic::new(message, span));
        } else {
            entry.1 = span;
        }
    }

    /// The errors, in file order, with one closing line per kind that was cut.
    fn finish(mut self) -> Vec<Diagnostic> {
        for (kind, (count, span)) in &self.kinds {
            if *count > MAX_ERRORS_OF_A_KIND {
                let more = count - MAX_ERRORS_OF_A_KIND;
                self.errors.push(Diagnostic::new(
                    format!(
                        "and {more} more error{} like `{kind}`",
                        if more == 1 { "" } else { "s" }
                    ),
                    span.clone(),
                ));
            }
        }
        self.errors.sort_by_key(|e| e.span.start);
        self.errors
    }
}

/// A message with every backticked part replaced by `_`: its kind.
fn error_kind(message: &str) -> String {
    let mut kind = String::with_capacity(message.len());
    for (i, part) in message.split('`').enumerate() {
        kind.push_str(if i % 2 == 1 { "_" } else { part });
    }
    kind
}

/// Checks a raw rule file and builds its model, or returns every problem found.
pub fn validate(src: &str, raw: &RawFile) -> Result<RuleFile, Vec<Diagnostic>> {
    let mut cx = Ctxt::default();
    let header = &raw.rules;
    check_identifier(&mut cx, &header.name, "rule set name", |c| {
        c.is_ascii_lowercase() || c == '_'
    });
    check_identifier(&mut cx, &header.marker, "marker type", |c| {
        c.is_ascii_alphanumeric()
    });
    if !header
        .marker
        .get_ref()
        .starts_with(|c: char| c.is_ascii_uppercase())
    {
        cx.error(
            format!(
                "marker type `{}` must start with an uppercase letter",
                header.marker.get_ref()
            ),
            header.marker.span(),
        );
    }
    let dtypes = resolve_dtype_list(&mut cx, &header.dtypes);
    let ops = resolve_ops(&mut cx, &header.ops, &[], &[]);
    let op_classes = resolve_op_classes(&mut cx, raw, &ops);
    let lattice = resolve_lattice(&mut cx, src, raw, &dtypes);
    let options = resolve_options(&mut cx, raw);
    check_dtype_option_defaults(&mut cx, raw, &options, &dtypes);
    let modes = resolve_modes(&mut cx, raw, header.marker.get_ref(), &options);
    let python = resolve_python(&mut cx, raw, &dtypes);
    check_reasons(&mut cx, raw);
    let reasons: Vec<(String, String)> = raw
        .reasons
        .iter()
        .map(|(k, v)| (k.clone(), v.get_ref().clone()))
        .collect();
    let mut used_reasons = BTreeSet::new();
    let layers: Vec<LayerDef> = raw
        .layers
        .iter()
        .flat_map(|layer| {
            let env = Env {
                dtypes: &dtypes,
                ops: &ops,
                op_classes: &op_classes,
                options: &options,
                reasons: &reasons,
                python,
                lattice: lattice.as_ref(),
            };
            let resolved = resolve_layer(&mut cx, src, layer, &env, &mut used_reasons);
            let mirror = resolved
                .as_ref()
                .filter(|_| layer.get_ref().mirrored)
                .map(LayerDef::mirror_image);
            resolved.into_iter().chain(mirror)
        })
        .collect();
    check_unused_reasons(&mut cx, raw, &used_reasons);
    // The checks across layers need layers that resolved cleanly; after errors in
    // them they would only repeat those errors (and take long on a broken file).
    if cx.errors.is_empty() {
        if header.commutative {
            check_commutative(&mut cx, src, &layers);
        }
        check_base_layers(&mut cx, raw, &layers, &dtypes, header.commutative);
    }
    if !cx.errors.is_empty() {
        return Err(cx.finish());
    }
    let rules = RuleFile {
        name: header.name.get_ref().clone(),
        marker: header.marker.get_ref().clone(),
        title: header.title.clone(),
        version: header.version.clone(),
        verified: header.verified.clone(),
        commutative: header.commutative,
        dtypes,
        ops,
        options,
        modes,
        python,
        reasons,
        op_classes,
        lattice,
        layers,
    };
    check_declared_properties(&mut cx, raw, &rules);
    if !cx.errors.is_empty() {
        return Err(cx.finish());
    }
    Ok(rules)
}

/// A declared property (`associative = true`, `lattice = true`) holds for the
/// `add` table under every marker's options; the error gives a counterexample.
fn check_declared_properties(cx: &mut Ctxt, raw: &RawFile, rules: &RuleFile) {
    for (declared, property) in [
        (&raw.rules.associative, Property::Associative),
        (&raw.rules.lattice, Property::Lattice),
    ] {
        let Some(declared) = declared.as_ref().filter(|d| *d.get_ref()) else {
            continue;
        };
        rules.with_table(|table| {
            for mode in &rules.modes {
                let options = promo_table::Options::from_values(&mode.values);
                if let Err(counterexample) = properties::check(table, &options, property) {
                    cx.error(
                        format!(
                            "`{}` is declared, but under `{}`: {counterexample}",
                            property.name(),
                            mode.marker
                        ),
                        declared.span(),
                    );
                    break;
                }
            }
        });
    }
}

/// The most refusal reasons a rule set may declare (the compiled cell code has room
/// for 49,152; a framework needs a handful).
pub const MAX_REASONS: usize = 4096;

/// The most words a `choice` option may have (the compiled table keeps one byte
/// per value, and each word multiplies the precomputed table).
pub const MAX_CHOICES: usize = 64;

/// Rust's keywords, which cannot name a module or a type the macro generates.
const RUST_KEYWORDS: &[&str] = &[
    "_", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Names of rule sets and marker types are identifiers made of the allowed
/// characters, and not Rust keywords (they name a module and types).
fn check_identifier(cx: &mut Ctxt, name: &Spanned<String>, what: &str, ok: impl Fn(char) -> bool) {
    let text = name.get_ref();
    if text.is_empty()
        || !text.chars().all(|c| ok(c) || c.is_ascii_digit())
        || text.starts_with(|c: char| c.is_ascii_digit())
    {
        cx.error(format!("bad {what} `{text}`"), name.span());
    } else if RUST_KEYWORDS.contains(&text.as_str()) {
        cx.error(
            format!("{what} `{text}` is a Rust keyword: choose another name"),
            name.span(),
        );
    }
}

/// A dtype option's default is one of the rule set's dtypes (the only values
/// `--set` accepts).
fn check_dtype_option_defaults(cx: &mut Ctxt, raw: &RawFile, options: &[OptionDef], dtypes: &[DType]) {
    for option in options {
        if let OptionValue::DType(d) = option.default {
            if !dtypes.contains(&d) {
                let span = raw
                    .options
                    .get(&option.name)
                    .map_or(0..0, |o| o.get_ref().default.span());
                cx.error(
                    format!(
                        "default `{d}` of option `{}` is not in `rules.dtypes`",
                        option.name
                    ),
                    span,
                );
            }
        }
    }
}

/// At most [`MAX_REASONS`] reasons, and no two keys that differ only in `_` and `-`
/// (they name the same generated diagnostic trait).
fn check_reasons(cx: &mut Ctxt, raw: &RawFile) {
    if let Some((_, text)) = raw.reasons.iter().nth(MAX_REASONS) {
        cx.error(
            format!(
                "{} reasons: at most {MAX_REASONS} are supported",
                raw.reasons.len()
            ),
            text.span(),
        );
    }
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (key, text) in &raw.reasons {
        let folded = key.replace('-', "_");
        if let Some(first) = seen.insert(folded, key) {
            cx.error(
                format!("reason keys `{first}` and `{key}` differ only in `_` and `-`: rename one"),
                text.span(),
            );
        }
    }
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

/// Operations are API names, and a layer's operations are among the rule set's; a
/// layer may also name a class of `[op_classes]`, which stands for its operations.
fn resolve_ops(
    cx: &mut Ctxt,
    names: &[Spanned<String>],
    allowed: &[Op],
    classes: &[(String, Vec<Op>)],
) -> Vec<Op> {
    let mut out = Vec::new();
    for name in names {
        if let Some((_, members)) = classes.iter().find(|(c, _)| c == name.get_ref()) {
            for op in members {
                if out.contains(op) {
                    cx.error(
                        format!("duplicate operation `{op}` (in class `{}`)", name.get_ref()),
                        name.span(),
                    );
                } else {
                    out.push(*op);
                }
            }
            continue;
        }
        match Op::parse_name(name.get_ref()) {
            Some(op) if op.name() != name.get_ref() => cx.error(
                format!("write operation `{}` by its API name `{op}`", name.get_ref()),
                name.span(),
            ),
            Some(op) if !allowed.is_empty() && !allowed.contains(&op) => {
                cx.error(format!("operation `{op}` is not in `rules.ops`"), name.span())
            }
            Some(op) if out.contains(&op) => cx.error(format!("duplicate operation `{op}`"), name.span()),
            Some(op) => out.push(op),
            None => cx.error(
                format!("unknown operation or op class `{}`", name.get_ref()),
                name.span(),
            ),
        }
    }
    out
}

/// `[op_classes]` name groups of the rule set's operations, or of other classes
/// (without a cycle); a class name is not an operation's name.
fn resolve_op_classes(cx: &mut Ctxt, raw: &RawFile, ops: &[Op]) -> Vec<(String, Vec<Op>)> {
    let mut out: Vec<(String, Vec<Op>)> = Vec::new();
    // A class is resolved once every class it names is: in dependency order.
    let mut pending: Vec<_> = raw.op_classes.iter().collect();
    while !pending.is_empty() {
        let ready = |members: &Spanned<Vec<Spanned<String>>>, done: &[(String, Vec<Op>)]| {
            members.get_ref().iter().all(|m| {
                Op::parse_name(m.get_ref()).is_some()
                    || done.iter().any(|(c, _)| c == m.get_ref())
                    || !raw.op_classes.contains_key(m.get_ref())
            })
        };
        let Some(at) = pending.iter().position(|(_, members)| ready(members, &out)) else {
            for (name, members) in pending {
                cx.error(
                    format!("op class `{name}` names itself through other classes"),
                    members.span(),
                );
            }
            break;
        };
        let (name, members) = pending.remove(at);
        if Op::parse_name(name).is_some() {
            cx.error(
                format!("op class `{name}` has the name of an operation: choose another name"),
                members.span(),
            );
            continue;
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            || name.is_empty()
        {
            cx.error(
                format!("bad op class name `{name}`: use lowercase letters, digits and `_`"),
                members.span(),
            );
            continue;
        }
        let resolved = resolve_ops(cx, members.get_ref(), ops, &out);
        if resolved.is_empty() && members.get_ref().is_empty() {
            cx.error(format!("op class `{name}` has no operations"), members.span());
        }
        out.push((name.clone(), resolved));
    }
    out
}

/// `[lattice]`: edges between accepted dtypes, without cycles, where every pair
/// with an upper bound has a least one.
fn resolve_lattice(cx: &mut Ctxt, src: &str, raw: &RawFile, dtypes: &[DType]) -> Option<Lattice> {
    let lattice = raw.lattice.as_ref()?;
    let edges = &lattice.get_ref().edges;
    let lines = match split_lines(src, edges, "edges") {
        Ok(lines) => lines,
        Err(e) => {
            cx.errors.push(e);
            return None;
        }
    };
    match Lattice::build(&lines, dtypes, edges.span()) {
        Ok(l) => Some(l),
        Err(errors) => {
            for e in errors {
                cx.error(e.message, e.span);
            }
            None
        }
    }
}

/// Each option has a known type and a default of that type.
fn resolve_options(cx: &mut Ctxt, raw: &RawFile) -> Vec<OptionDef> {
    let mut out = Vec::new();
    for (name, spec) in &raw.options {
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
            "choice" if !choices.is_empty() => OptionDefKind::Choice(choices.clone()),
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
        let Some(default) = option_value(cx, name, &kind_def, default) else {
            continue;
        };
        out.push(OptionDef {
            name: name.clone(),
            kind: kind_def,
            default,
            doc: doc.clone(),
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

/// Each mode is a marker type distinct from the others, fixing declared options.
fn resolve_modes(cx: &mut Ctxt, raw: &RawFile, default_marker: &str, options: &[OptionDef]) -> Vec<Mode> {
    let defaults: Vec<OptionValue> = options.iter().map(|o| o.default).collect();
    let mut out = vec![Mode {
        marker: default_marker.to_owned(),
        values: defaults.clone(),
    }];
    for (marker, settings) in &raw.modes {
        if !marker.starts_with(|c: char| c.is_ascii_uppercase())
            || !marker.chars().all(|c| c.is_ascii_alphanumeric())
            || RUST_KEYWORDS.contains(&marker.as_str())
        {
            cx.error(
                format!("bad marker type `{marker}`: expected a CamelCase identifier"),
                settings.span(),
            );
        }
        if out.iter().any(|m| &m.marker == marker) {
            cx.error(format!("duplicate marker type `{marker}`"), settings.span());
        }
        let mut values = defaults.clone();
        for c in resolve_settings(cx, settings.get_ref(), options, settings.span()) {
            values[c.option as usize] = c.value;
        }
        out.push(Mode {
            marker: marker.clone(),
            values,
        });
    }
    out
}

/// `[python]` maps Python kinds to accepted dtypes.
fn resolve_python(cx: &mut Ctxt, raw: &RawFile, dtypes: &[DType]) -> [Option<DType>; 4] {
    let mut out = [None; 4];
    for (kind, dtype) in &raw.python {
        let Some(k) = PyScalar::parse_name(kind) else {
            cx.error(
                format!("unknown Python scalar kind `{kind}`: expected `bool`, `int`, `float` or `complex`"),
                dtype.span(),
            );
            continue;
        };
        if let Some(d) = resolve_dtype(cx, dtype.get_ref(), dtype.span()) {
            if !dtypes.contains(&d) {
                cx.error(format!("dtype `{d}` is not in `rules.dtypes`"), dtype.span());
            }
            out[k.index()] = Some(d);
        }
    }
    out
}

struct Env<'a> {
    dtypes: &'a [DType],
    ops: &'a [Op],
    op_classes: &'a [(String, Vec<Op>)],
    options: &'a [OptionDef],
    reasons: &'a [(String, String)],
    python: [Option<DType>; 4],
    lattice: Option<&'a Lattice>,
}

fn side(cx: &mut Ctxt, text: &str, span: Range<usize>) -> Option<Side> {
    match text {
        "tensor" => Some(Side::Tensor),
        "scalar" => Some(Side::Scalar),
        "dimensioned" => Some(Side::Dimensioned),
        "python" => Some(Side::Python),
        "any" => Some(Side::Any),
        _ => {
            cx.error(
                format!(
                    "unknown operand kind `{text}`: expected `tensor`, `scalar`, `dimensioned`, `python` or `any`"
                ),
                span,
            );
            None
        }
    }
}

/// A matrix key is an accepted dtype (tensor sides) or a Python kind (python side).
fn resolve_key(cx: &mut Ctxt, side: Side, token: &Token, dtypes: &[DType]) -> Option<usize> {
    if side == Side::Python {
        let k = PyScalar::parse_name(&token.text);
        if k.is_none() {
            cx.error(
                format!(
                    "unknown Python scalar kind `{}`: expected `bool`, `int`, `float` or `complex`",
                    token.text
                ),
                token.span.clone(),
            );
        }
        return k.map(PyScalar::index);
    }
    let d = resolve_dtype(cx, &token.text, token.span.clone())?;
    if !dtypes.contains(&d) {
        cx.error(
            format!("dtype `{d}` is not in `rules.dtypes`"),
            token.span.clone(),
        );
        return None;
    }
    Some(d.index())
}

/// A cell is a dtype, `.`, `lhs`, `rhs`, `$option` (a dtype option) or `!reason`.
fn resolve_cell(
    cx: &mut Ctxt,
    token: &Token,
    lhs: Side,
    rhs: Side,
    env: &Env<'_>,
    used: &mut BTreeSet<String>,
) -> Option<Cell> {
    let text = token.text.as_str();
    let span = token.span.clone();
    match text {
        "." => return Some(Cell::Defer),
        "lhs" | "rhs" => {
            let side = if text == "lhs" { lhs } else { rhs };
            if side == Side::Python {
                cx.error(
                    format!("`{text}` names a Python scalar, which has no dtype"),
                    span,
                );
                return None;
            }
            return Some(if text == "lhs" { Cell::Lhs } else { Cell::Rhs });
        }
        _ => {}
    }
    if let Some(name) = text.strip_prefix('$') {
        return match env.options.iter().position(|o| o.name == name) {
            Some(i) if env.options[i].kind == OptionDefKind::DType => Some(Cell::Option(i as u8)),
            Some(_) => {
                cx.error(format!("option `{name}` is not a dtype option"), span);
                None
            }
            None => {
                cx.error(format!("unknown option `{name}`"), span);
                None
            }
        };
    }
    if let Some(key) = text.strip_prefix('!') {
        return match env.reasons.iter().position(|(k, _)| k == key) {
            Some(i) => {
                used.insert(key.to_owned());
                Some(Cell::Refuse(i as u16))
            }
            None => {
                cx.error(format!("unknown reason `{key}`: declare it in `[reasons]`"), span);
                None
            }
        };
    }
    let d = resolve_dtype(cx, text, span.clone())?;
    if !env.dtypes.contains(&d) {
        cx.error(format!("result dtype `{d}` is not in `rules.dtypes`"), span);
        return None;
    }
    Some(Cell::Is(d))
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
    src: &str,
    layer: &Spanned<RawLayer>,
    env: &Env<'_>,
    used: &mut BTreeSet<String>,
) -> Option<LayerDef> {
    let raw = layer.get_ref();
    let errors_before = cx.errors.len();
    let when = resolve_settings(cx, &raw.when, env.options, layer.span());
    let ops = resolve_ops(cx, &raw.ops, env.ops, env.op_classes);
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
    if lhs == Side::Python && rhs == Side::Python {
        cx.error("a layer cannot have Python scalars on both sides", layer.span());
    }
    let given = [raw.matrix.is_some(), raw.cells.is_some(), raw.result.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        cx.error(
            format!(
                "layer `{}` must give its cells one way: `matrix`, `cells` or `result`",
                raw.name
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
        ] {
            if let Some(span) = present {
                cx.error(format!("`{field}` belongs to a layer with a `result`"), span);
            }
        }
    }
    let (grid, how) = if let Some(matrix) = &raw.matrix {
        (
            resolve_matrix(cx, src, matrix, (lhs, rhs), env, used)?,
            Derivation::Matrix,
        )
    } else if let Some(cells) = &raw.cells {
        (
            resolve_listed(cx, src, cells, (lhs, rhs), env, used)?,
            Derivation::Cells,
        )
    } else {
        resolve_derived(cx, raw, (lhs, rhs), env, used)?
    };
    let promoted = resolve_promoted(cx, raw, env.dtypes);
    if cx.errors.len() > errors_before {
        return None;
    }
    Some(LayerDef {
        name: raw.name.clone(),
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
    })
}

/// A result filter names dtypes of `rules.dtypes` or kinds, at least one.
fn resolve_promoted(cx: &mut Ctxt, raw: &RawLayer, dtypes: &[DType]) -> Vec<DType> {
    let Some(list) = &raw.promoted else {
        return Vec::new();
    };
    if list.get_ref().is_empty() {
        cx.error("`promoted` must name at least one dtype or kind", list.span());
    }
    let mut out = Vec::new();
    for name in list.get_ref() {
        match crate::derive::select(Side::Tensor, name.get_ref(), dtypes) {
            Ok(keys) => out.extend(keys.into_iter().filter_map(DType::from_index)),
            Err(message) => cx.error(message, name.span()),
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A literal matrix has unique keys and exactly one cell per row and column.
fn resolve_matrix(
    cx: &mut Ctxt,
    src: &str,
    matrix: &Spanned<String>,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut BTreeSet<String>,
) -> Option<Grid> {
    let matrix = match split_matrix(src, matrix) {
        Ok(m) => m,
        Err(e) => {
            cx.errors.push(e);
            return None;
        }
    };
    let mut cols = Vec::new();
    let mut seen_cols = BTreeSet::new();
    for token in &matrix.columns {
        if let Some(k) = resolve_key(cx, rhs, token, env.dtypes) {
            if !seen_cols.insert(k) {
                cx.error(format!("duplicate column `{}`", token.text), token.span.clone());
            }
            cols.push(k);
        }
    }
    let mut rows = Vec::new();
    let mut seen_rows = BTreeSet::new();
    let mut cells = Vec::new();
    let mut spans = Vec::new();
    for (key, row) in &matrix.rows {
        let k = resolve_key(cx, lhs, key, env.dtypes);
        if let Some(k) = k {
            if !seen_rows.insert(k) {
                cx.error(format!("duplicate row `{}`", key.text), key.span.clone());
            }
        }
        if row.len() < matrix.columns.len() {
            let missing = &matrix.columns[row.len()].text;
            let at = row.last().map_or(key.span.clone(), |t| t.span.clone());
            cx.error(
                format!(
                    "missing cell: row `{}` has {} cells for {} columns (no cell for column `{missing}`)",
                    key.text,
                    row.len(),
                    matrix.columns.len()
                ),
                at,
            );
        }
        for extra in row.iter().skip(matrix.columns.len()) {
            cx.error(
                format!(
                    "extra cell `{}` in row `{}`: the header has {} columns",
                    extra.text,
                    key.text,
                    matrix.columns.len()
                ),
                extra.span.clone(),
            );
        }
        let resolved: Vec<Option<Cell>> = row
            .iter()
            .take(matrix.columns.len())
            .map(|t| resolve_cell(cx, t, lhs, rhs, env, used))
            .collect();
        if let Some(k) = k {
            rows.push(k);
            cells.extend(resolved.into_iter().map(|c| c.unwrap_or(Cell::Defer)));
            spans.extend(row.iter().take(matrix.columns.len()).map(|t| t.span.clone()));
        }
    }
    Some(Grid {
        rows,
        cols,
        cells,
        spans,
    })
}

/// Listed cells are `"ROW COL = RESULT"`, each pair once.
fn resolve_listed(
    cx: &mut Ctxt,
    src: &str,
    entries: &Spanned<Vec<Spanned<String>>>,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut BTreeSet<String>,
) -> Option<Grid> {
    let mut listed: Vec<(usize, usize, Cell, Range<usize>)> = Vec::new();
    for entry in entries.get_ref() {
        let lines = match split_lines(src, entry, "cells") {
            Ok(lines) => lines,
            Err(e) => {
                cx.errors.push(e);
                continue;
            }
        };
        let words: Vec<&Token> = lines.iter().flatten().collect();
        let [row, col, eq, result] = words.as_slice() else {
            cx.error(
                format!("bad cell `{}`: expected `ROW COL = RESULT`", entry.get_ref()),
                entry.span(),
            );
            continue;
        };
        if eq.text != "=" {
            cx.error(
                format!("bad cell `{}`: expected `ROW COL = RESULT`", entry.get_ref()),
                eq.span.clone(),
            );
            continue;
        }
        let r = resolve_key(cx, lhs, row, env.dtypes);
        let c = resolve_key(cx, rhs, col, env.dtypes);
        let cell = resolve_cell(cx, result, lhs, rhs, env, used);
        if let (Some(r), Some(c), Some(cell)) = (r, c, cell) {
            if listed.iter().any(|(lr, lc, _, _)| (*lr, *lc) == (r, c)) {
                cx.error(
                    format!("duplicate cell `{} {}`", row.text, col.text),
                    row.span.clone(),
                );
            }
            listed.push((r, c, cell, result.span.clone()));
        }
    }
    if entries.get_ref().is_empty() {
        cx.error("`cells` lists no cell", entries.span());
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
    let mut spans = vec![entries.span(); rows.len() * cols.len()];
    for (r, c, cell, span) in listed {
        let at = rows.iter().position(|k| *k == r).unwrap_or(0) * cols.len()
            + cols.iter().position(|k| *k == c).unwrap_or(0);
        cells[at] = cell;
        spans[at] = span;
    }
    Some(Grid {
        rows,
        cols,
        cells,
        spans,
    })
}

/// The keys of one side a derived layer covers: the listed selectors, or every key.
fn resolve_selection(
    cx: &mut Ctxt,
    side: Side,
    names: Option<&Spanned<Vec<Spanned<String>>>>,
    dtypes: &[DType],
) -> Vec<usize> {
    let Some(names) = names else {
        return match side {
            Side::Python => (0..PyScalar::ALL.len()).collect(),
            Side::Any => dtypes
                .iter()
                .map(|d| d.index())
                .chain((0..PyScalar::ALL.len()).map(|k| DType::COUNT + k))
                .collect(),
            _ => dtypes.iter().map(|d| d.index()).collect(),
        };
    };
    let mut keys: Vec<usize> = Vec::new();
    for name in names.get_ref() {
        match derive::select(side, name.get_ref(), dtypes) {
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

/// The dtype a key of a side stands for in a derived layer: the dtype itself, or
/// the `[python]` dtype of a Python scalar kind.
fn key_dtype(side: Side, key: usize, python: [Option<DType>; 4]) -> Option<DType> {
    match side {
        Side::Python => python[key],
        Side::Any if key >= DType::COUNT => python[key - DType::COUNT],
        _ => DType::from_index(key),
    }
}

/// A derived layer: `result` for every selected pair that meets `where`. `lhs`
/// and `rhs` on a Python side stand for the scalar's `[python]` dtype; `lub` is
/// the least upper bound in the `[lattice]`, and pairs without an upper bound are
/// left to the next layer.
fn resolve_derived(
    cx: &mut Ctxt,
    raw: &RawLayer,
    (lhs, rhs): (Side, Side),
    env: &Env<'_>,
    used: &mut BTreeSet<String>,
) -> Option<(Grid, Derivation)> {
    let result = raw.result.as_ref()?;
    let rows = resolve_selection(cx, lhs, raw.rows.as_ref(), env.dtypes);
    let cols = resolve_selection(cx, rhs, raw.cols.as_ref(), env.dtypes);
    let condition = match &raw.condition {
        None => None,
        Some(text) => match PairCondition::parse(text.get_ref()) {
            Ok(c) => Some(c),
            Err(message) => {
                cx.error(message, text.span());
                return None;
            }
        },
    };
    let token = Token {
        text: result.get_ref().clone(),
        span: result.span(),
    };
    let rule = match token.text.as_str() {
        "lub" => ResultRule::Lub,
        "lhs" => ResultRule::Cell(Cell::Lhs),
        "rhs" => ResultRule::Cell(Cell::Rhs),
        "." => {
            cx.error(
                "a derived layer's `result` cannot be `.`: leave the pairs out instead",
                token.span,
            );
            return None;
        }
        _ => ResultRule::Cell(resolve_cell(cx, &token, Side::Tensor, Side::Tensor, env, used)?),
    };
    let lattice = match (rule, env.lattice) {
        (ResultRule::Lub, None) => {
            if env.lattice.is_none() && cx.errors.is_empty() {
                cx.error("`result = \"lub\"` needs a `[lattice]`", token.span);
            }
            return None;
        }
        (_, lattice) => lattice,
    };
    let mut cells = Vec::with_capacity(rows.len() * cols.len());
    for &r in &rows {
        for &c in &cols {
            let (a, b) = (key_dtype(lhs, r, env.python), key_dtype(rhs, c, env.python));
            if condition
                .as_ref()
                .is_some_and(|cond| !cond.holds((lhs, rhs), (r, c), (a, b)))
            {
                cells.push(Cell::Defer);
                continue;
            }
            let cell = match rule {
                ResultRule::Cell(Cell::Lhs) => a.map_or(Cell::Defer, Cell::Is),
                ResultRule::Cell(Cell::Rhs) => b.map_or(Cell::Defer, Cell::Is),
                ResultRule::Cell(cell) => cell,
                ResultRule::Lub => match (a, b, lattice) {
                    (Some(a), Some(b), Some(lattice)) => match lattice.join(a, b) {
                        Join::Bound(d) => Cell::Is(d),
                        Join::Unrelated | Join::Ambiguous(..) => Cell::Defer,
                    },
                    _ => Cell::Defer,
                },
            };
            cells.push(cell);
        }
    }
    let spans = vec![token.span; cells.len()];
    Some((
        Grid {
            rows,
            cols,
            cells,
            spans,
        },
        Derivation::Result { rule, condition },
    ))
}

/// Every declared reason is used by some cell.
fn check_unused_reasons(cx: &mut Ctxt, raw: &RawFile, used: &BTreeSet<String>) {
    for (key, text) in &raw.reasons {
        if !used.contains(key) {
            cx.error(format!("reason `{key}` is never used"), text.span());
        }
    }
}

/// In a commutative rule set, a layer with the same kind on both sides is symmetric:
/// the cell of (b, a) is the cell of (a, b) with `lhs` and `rhs` swapped. A derived
/// or listed layer may leave one of the two to the other (the lookup tries both
/// orders); a matrix lists both.
fn check_commutative(cx: &mut Ctxt, src: &str, layers: &[LayerDef]) {
    for layer in layers {
        if layer.lhs != layer.rhs {
            continue;
        }
        let literal = layer.how == Derivation::Matrix;
        for (ri, &a) in layer.rows.iter().enumerate() {
            for (ci, &b) in layer.cols.iter().enumerate() {
                let at = ri * layer.cols.len() + ci;
                let here = layer.cells[at];
                let mirrored = match here {
                    Cell::Lhs => Cell::Rhs,
                    Cell::Rhs => Cell::Lhs,
                    other => other,
                };
                match layer.cell(b, a) {
                    Some(there) if there == mirrored => {}
                    Some(there) if !literal && (there == Cell::Defer || here == Cell::Defer) => {}
                    Some(_) if (b, a) < (a, b) => {} // reported from the other cell
                    Some(_) => {
                        let span = layer.spans[at].clone();
                        let name = |k: usize| DType::ALL[k].name();
                        cx.error(
                            format!(
                                "asymmetric cell: ({}, {}) is `{}` but ({}, {}) differs, and `rules.commutative` is true",
                                name(a),
                                name(b),
                                src.get(span.clone()).unwrap_or("?"),
                                name(b),
                                name(a)
                            ),
                            span,
                        );
                    }
                    None => {}
                }
            }
        }
    }
}

/// The base: the layers without `when` or `ops`, with tensor operands, give a
/// result or a refusal for every ordered pair of accepted dtypes.
fn check_base_layers(cx: &mut Ctxt, raw: &RawFile, layers: &[LayerDef], dtypes: &[DType], commutative: bool) {
    let Some(raw_last) = raw.layers.last() else {
        cx.error(
            "no `[[layer]]`: the layers must cover every pair of `rules.dtypes`",
            raw.rules.name.span(),
        );
        return;
    };
    // Only when every layer resolved (a mirrored layer resolves to two).
    let expected = raw.layers.len() + raw.layers.iter().filter(|l| l.get_ref().mirrored).count();
    if layers.len() != expected {
        return;
    }
    let base: Vec<&LayerDef> = layers
        .iter()
        .filter(|l| {
            l.when.is_empty()
                && l.ops.is_empty()
                && l.promoted.is_empty()
                && l.lhs == Side::Tensor
                && l.rhs == Side::Tensor
        })
        .collect();
    let decided = |a: usize, b: usize| {
        base.iter().any(|l| {
            l.cell(a, b).is_some_and(|c| c != Cell::Defer)
                || (commutative && l.cell(b, a).is_some_and(|c| c != Cell::Defer))
        })
    };
    let mut missing = Vec::new();
    for &a in dtypes {
        for &b in dtypes {
            if !decided(a.index(), b.index()) {
                missing.push(format!("({a}, {b})"));
            }
        }
    }
    if !missing.is_empty() {
        let shown: Vec<_> = missing.iter().take(6).cloned().collect();
        let more = if missing.len() > 6 {
            format!(" and {} more", missing.len() - 6)
        } else {
            String::new()
        };
        cx.error(
            format!(
                "missing cell: no layer without `when` or `ops` has a result for {}{more}",
                shown.join(", ")
            ),
            raw_last.span(),
        );
    }
}
