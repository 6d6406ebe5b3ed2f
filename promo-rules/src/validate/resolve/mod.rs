//! Resolution: every name of a raw rule file turned into the model ([`RuleFile`]),
//! with the spans the checks and diagnostics point at. A name that resolves to
//! nothing (an unknown dtype, operation, option or reason), a value of the wrong
//! type, or a shape the model cannot hold is an error here; the rules of the
//! language that a resolved model can break are checked after, in `check`.
//!
//! The header (dtypes, options, modes, Python scalars, aliases) resolves here; the
//! `[[layer]]` tables in [`layers`], where a derived layer's cells are derived once.

use super::classes::{resolve_dtype_classes, resolve_op_classes, resolve_ops, ClassRef};
use super::ctxt::Ctxt;
use super::lattice::resolve_lattice;
use crate::model::{LayerDef, Mode, OptionDef, OptionDefKind, RuleFile, Spans};
use crate::parse::{RawFile, RawHeader, RawOption, TypeName, Where};
use crate::properties::Property;
use promo_table::{Condition, DType, ListRule, Operand, OptionValue, PyScalar, MAX_OPTIONS};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use toml::Spanned;

mod layers;
use layers::{resolve_layer, Env};

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
    let (mut map_selects, mut map_continues): (Vec<DType>, bool) = (Vec::new(), false);
    let layers: Vec<LayerDef> = raw
        .layers
        .iter()
        .flat_map(|layer| {
            let mut resolved = resolve_layer(cx, layer, &env, &mut used_reasons);
            let raw_layer = layer.get_ref();
            if raw_layer.in_map {
                // The entries of one `by_promoted` map select different dtypes.
                if !map_continues {
                    map_selects.clear();
                }
                let selects = resolved.as_ref().map_or(&[][..], |l| &l.promoted[..]);
                if let Some(d) = selects.iter().find(|d| map_selects.contains(d)) {
                    let span = raw_layer.promoted.as_ref().map_or(layer.span(), |p| p.span());
                    cx.error(format!("`by_promoted` selects `{d}` under two keys"), span);
                }
                map_selects.extend_from_slice(selects);
            }
            map_continues = raw_layer.continues;
            let mirror = resolved
                .as_ref()
                .filter(|_| layer.get_ref().mirrored)
                .map(LayerDef::mirror_image);
            // An entry of a `by_promoted` map passes a pair on to its mirror image,
            // the map's next layer.
            if let Some(written) = resolved.as_mut().filter(|_| mirror.is_some()) {
                written.continues |= layer.get_ref().in_map;
            }
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
        list: resolve_list_rule(cx, header),
        list_order: resolve_list_order(cx, header, &dtypes),
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

/// `rules.list`: how a list of operands is combined, [`ListRule::Fold`] if unset.
fn resolve_list_rule(cx: &mut Ctxt, header: &RawHeader) -> ListRule {
    let Some(list) = &header.list else {
        return ListRule::Fold;
    };
    ListRule::from_name(list.get_ref()).unwrap_or_else(|| {
        cx.error(
            format!(
                "unknown list rule `{}`: `fold`, `common` or `sequence`",
                list.get_ref()
            ),
            list.span(),
        );
        ListRule::Fold
    })
}

/// `rules.list_order`: with `list = "sequence"`, every dtype of the rule set once;
/// with another list rule, absent.
fn resolve_list_order(cx: &mut Ctxt, header: &RawHeader, dtypes: &[DType]) -> Vec<DType> {
    let sequence = header
        .list
        .as_ref()
        .is_some_and(|l| ListRule::from_name(l.get_ref()) == Some(ListRule::Sequence));
    let Some(order) = &header.list_order else {
        if let (true, Some(list)) = (sequence, &header.list) {
            cx.error(
                "`list = \"sequence\"` needs `list_order`: every dtype of `rules.dtypes`, in the order in which they answer for a pair".to_owned(),
                list.span(),
            );
        }
        return Vec::new();
    };
    if !sequence {
        cx.error(
            "`list_order` is read only with `list = \"sequence\"`".to_owned(),
            order.span(),
        );
        return Vec::new();
    }
    let mut out = Vec::new();
    for name in order.get_ref() {
        let Some(d) = resolve_dtype(cx, name.get_ref(), name.span()) else {
            continue;
        };
        if out.contains(&d) {
            cx.error(format!("`list_order` names `{d}` twice"), name.span());
        } else if !dtypes.contains(&d) {
            cx.error(
                format!("`list_order` names `{d}`, which is not in `rules.dtypes`"),
                name.span(),
            );
        } else {
            out.push(d);
        }
    }
    let missing: Vec<String> = dtypes
        .iter()
        .filter(|d| !out.contains(d))
        .map(|d| d.to_string())
        .collect();
    if !missing.is_empty() {
        cx.error(
            format!(
                "`list_order` leaves out {}: it must list every dtype of `rules.dtypes`",
                missing.join(", ")
            ),
            order.span(),
        );
    }
    out
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
    out.extend(
        header
            .alias_prefixes()
            .iter()
            .map(|v| text("`rules.alias_prefix`".into(), v)),
    );
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

/// The longest `rules.alias_prefix`: a framework's namespace is a short word, and
/// every name the prefix makes is written out by `promo gen`.
pub const MAX_PREFIX_BYTES: usize = 32;

/// The most prefixes `rules.alias_prefix` lists: each names every dtype again.
pub const MAX_PREFIXES: usize = 8;

/// Why `name`, as an alias or an alias prefix, would collide with what the command
/// line and `--stdin` lines read around a dtype name: an operand kind
/// (`python:int`, `scalar:f32`, `weak:f32`) or a setting (`KEY=VALUE`; a leading
/// `=`, NumPy's native byte order in `=i8`, makes none).
fn operand_syntax(name: &str) -> Option<&'static str> {
    if name.contains(':') {
        Some("holds `:`, which the command line reads as an operand kind (`scalar:f32`, `python:int`)")
    } else if name.strip_prefix('=').unwrap_or(name).contains('=') {
        // A leading `=` is NumPy's native byte order (`=i8`): no setting has an
        // empty key, so `=i8` reads as no `KEY=VALUE`.
        Some("holds `=`, which the command line reads as a setting (`KEY=VALUE`)")
    } else {
        None
    }
}

/// `[aliases]` gives the framework's own spellings: each name is new (no
/// canonical dtype name, none given twice in another case), and means one dtype of
/// `rules.dtypes`, or a list of two or more (a name the framework reads several
/// ways, refused with the choices), each by its canonical name. With
/// `rules.alias_prefix` (one word, such as `torch.`, or a list of up to
/// [`MAX_PREFIXES`], such as `["np.", "numpy."]`), every name of every dtype of
/// `rules.dtypes` (canonical or alias) with each prefix is an alias too, unless
/// `[aliases]` gives that name itself.
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
        if let Some(why) = operand_syntax(text) {
            cx.error(format!("alias `{text}` {why}"), name.span());
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
    let mut prefixes = raw.rules.alias_prefixes();
    if let Some(p) = &raw.rules.alias_prefix {
        if prefixes.is_empty() {
            cx.error(
                "`rules.alias_prefix` is an empty list: give a prefix, or leave the key out".to_owned(),
                p.span(),
            );
        } else if prefixes.len() > MAX_PREFIXES {
            cx.error(
                format!(
                    "`rules.alias_prefix` lists {} prefixes: a framework's namespaces (`np.`, `numpy.`) are at most {MAX_PREFIXES}",
                    prefixes.len()
                ),
                p.span(),
            );
            prefixes.clear();
        }
    }
    // In name order after the names `[aliases]` gives, as `[aliases]` is read (a
    // message naming a dtype's spelling gives the first); a name two prefixes make
    // alike (in another case) once.
    let mut generated: Vec<(String, Vec<DType>)> = Vec::new();
    for (i, prefix) in prefixes.iter().enumerate() {
        let text = prefix.get_ref();
        if let Some(earlier) = prefixes[..i]
            .iter()
            .find(|p| p.get_ref().eq_ignore_ascii_case(text))
        {
            cx.error(
                format!(
                    "`rules.alias_prefix` `{text}` is given twice (as `{}`): names are compared without case",
                    earlier.get_ref()
                ),
                prefix.span(),
            );
            continue;
        }
        if text.is_empty() || text.contains(char::is_whitespace) {
            cx.error(
                format!("`rules.alias_prefix` `{text}` is not one word: a prefix is written without spaces"),
                prefix.span(),
            );
            continue;
        }
        if text.len() > MAX_PREFIX_BYTES {
            cx.error(
                format!(
                    "`rules.alias_prefix` is {} bytes: a framework's namespace (`torch.`) takes at most {MAX_PREFIX_BYTES}",
                    text.len()
                ),
                prefix.span(),
            );
            continue;
        }
        if let Some(why) = operand_syntax(text) {
            cx.error(format!("`rules.alias_prefix` `{text}` {why}"), prefix.span());
            continue;
        }
        let mut made: Vec<(String, Vec<DType>)> = Vec::new();
        'dtypes: for &d in dtypes {
            for name in core::iter::once(d.name()).chain(d.aliases().iter().copied()) {
                let alias = format!("{text}{name}");
                // The prefix may not turn one dtype's name into another's
                // (`u` + `int8` is `uint8`).
                if let Some(other) = DType::parse_name(&alias).filter(|&o| o != d) {
                    cx.error(
                        format!(
                            "`rules.alias_prefix` `{text}` makes `{alias}` a name of `{d}`, but `{alias}` is `{other}`: a prefix may not rename a dtype"
                        ),
                        prefix.span(),
                    );
                    made.clear();
                    break 'dtypes;
                }
                if !out
                    .iter()
                    .chain(&generated)
                    .any(|(o, _)| o.eq_ignore_ascii_case(&alias))
                {
                    made.push((alias, vec![d]));
                }
            }
        }
        generated.extend(made);
    }
    generated.sort();
    out.extend(generated);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::Op;

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
