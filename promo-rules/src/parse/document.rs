//! The TOML document: a rule file's tables and keys as serde reads them, string
//! values still unparsed, and each `[[layer]]`'s `cases` expanded into layers.

use crate::diagnostic::escaped_message;
use crate::diagnostic::Diagnostic;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A rule file's TOML document, its string values unparsed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Document {
    /// `[rules]`: who and what.
    pub rules: RawHeader,
    /// `[options.NAME]`, each name with where it is written.
    #[serde(default)]
    pub options: BTreeMap<Spanned<String>, Spanned<RawOption>>,
    /// `[modes]`: extra marker types, `Marker = { option = value }`.
    #[serde(default)]
    pub modes: BTreeMap<String, Spanned<BTreeMap<String, Spanned<toml::Value>>>>,
    /// `[python]`: how Python scalars are typed where no layer covers them.
    #[serde(default)]
    pub python: BTreeMap<String, Spanned<String>>,
    /// `[aliases]`: the framework's own spellings, `name = "dtype"`, or a list of
    /// dtypes for a name that is ambiguous.
    #[serde(default)]
    pub aliases: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// `[reasons]`: refusal reasons by key (each key with where it is written).
    #[serde(default)]
    pub reasons: BTreeMap<Spanned<String>, Spanned<String>>,
    /// `[op_classes]`: names for groups of operations, usable in a layer's `ops`.
    #[serde(default)]
    pub op_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[dtype_classes]`: names for groups of dtypes, usable wherever a layer
    /// selects dtypes (`rows`, `cols`, `promoted`, `weak_operands`).
    #[serde(default)]
    pub dtype_classes: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
    /// `[lattice]`: the partial order whose least upper bounds `result = "lub"` takes.
    #[serde(default)]
    pub lattice: Option<Spanned<DocLattice>>,
    /// `[[layer]]`, most specific first; after [`read`], the `[[compute]]`
    /// statements first (each marked [`DocLayer::compute`]), then these.
    #[serde(default, rename = "layer")]
    pub layers: Vec<Spanned<DocLayer>>,
    /// `[[compute]]`: the dtype an operation computes in, stated as layers state
    /// results; read into `layers` ahead of the `[[layer]]` statements.
    #[serde(default, rename = "compute")]
    pub compute: Vec<Spanned<DocLayer>>,
}

/// `[lattice]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DocLattice {
    /// Lines of edges: `a -> b c` (a is below b and c), chains `a -> b -> c`.
    pub edges: Spanned<String>,
    /// How a weakly typed operand enters the lattice: each key (a dtype or a kind)
    /// selects dtypes whose weakly typed operands join as the value's node (`integer
    /// = "i64*"`); a weakly typed operand of a dtype no key selects joins as its own
    /// weak type.
    #[serde(default)]
    pub weak_operands: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
}

/// `[rules]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeader {
    /// Command-line name, e.g. `openvino`.
    pub name: Spanned<String>,
    /// Rust marker type for the default options, e.g. `OpenVino`.
    pub marker: Spanned<String>,
    /// Framework and operation, for people.
    pub title: Spanned<String>,
    /// The framework version the rules encode.
    pub version: Spanned<String>,
    /// How the rules were checked against the framework.
    #[serde(default)]
    pub verified: Option<Spanned<String>>,
    /// Whether swapping the operands never changes the result.
    pub commutative: bool,
    /// How a list of operands is combined: `"fold"` (the default), `"common"` or
    /// `"sequence"`.
    #[serde(default)]
    pub list: Option<Spanned<String>>,
    /// For `list = "sequence"`: every dtype of the rule set, in the order in which
    /// they answer for a pair.
    #[serde(default)]
    pub list_order: Option<Spanned<Vec<Spanned<String>>>>,
    /// Declared: `(a + b) + c == a + (b + c)` under every marker's options.
    #[serde(default)]
    pub associative: Option<Spanned<bool>>,
    /// Declared: the `add` table is the join of a partial order.
    #[serde(default)]
    pub lattice: Option<Spanned<bool>>,
    /// Accepted dtypes, canonical names.
    pub dtypes: Vec<Spanned<String>>,
    /// Operations the framework distinguishes (empty: op-independent).
    #[serde(default)]
    pub ops: Vec<Spanned<String>>,
    /// The framework's namespace for its dtypes (`torch.`), or a list of them
    /// (`["np.", "numpy."]`): every name promo knows a dtype of `dtypes` by, with
    /// each prefix, is an alias of it.
    #[serde(default)]
    pub alias_prefix: Option<Spanned<AliasPrefix>>,
}

impl RawHeader {
    /// The prefixes `alias_prefix` gives, each with where it is written.
    pub fn alias_prefixes(&self) -> Vec<Spanned<String>> {
        match &self.alias_prefix {
            None => Vec::new(),
            Some(p) => match p.get_ref() {
                AliasPrefix::One(text) => vec![Spanned::new(p.span(), text.clone())],
                AliasPrefix::Many(list) => list.clone(),
            },
        }
    }
}

/// `rules.alias_prefix`: one prefix, or a list of them.
#[derive(Debug)]
pub enum AliasPrefix {
    /// `alias_prefix = "torch."`.
    One(String),
    /// `alias_prefix = ["np.", "numpy."]`.
    Many(Vec<Spanned<String>>),
}

impl<'de> Deserialize<'de> for AliasPrefix {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = AliasPrefix;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a prefix (\"torch.\") or a list of prefixes ([\"np.\", \"numpy.\"])")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<AliasPrefix, E> {
                Ok(AliasPrefix::One(v.to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<AliasPrefix, A::Error> {
                let mut list = Vec::new();
                while let Some(p) = seq.next_element::<Spanned<String>>()? {
                    list.push(p);
                }
                Ok(AliasPrefix::Many(list))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// `[options.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    /// `bool`, `dtype` or `choice`.
    #[serde(rename = "type")]
    pub kind: Spanned<String>,
    /// The words of a `choice`.
    #[serde(default)]
    pub choices: Vec<Spanned<String>>,
    /// Value when unset.
    pub default: Spanned<toml::Value>,
    /// What it does.
    #[serde(default)]
    pub doc: Option<Spanned<String>>,
}

/// `[[layer]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DocLayer {
    /// A short description.
    pub name: Spanned<String>,
    /// Options that must have these values.
    #[serde(default)]
    pub when: BTreeMap<String, Spanned<toml::Value>>,
    /// Operations it applies to (default: all).
    #[serde(default)]
    pub ops: Vec<Spanned<String>>,
    /// `[row side, column side]`, default `["tensor", "tensor"]`.
    #[serde(default)]
    pub operands: Option<Spanned<Vec<String>>>,
    /// A literal matrix: a header line of column keys, then one line per row.
    #[serde(default)]
    pub matrix: Option<Spanned<String>>,
    /// Listed cells, one `"ROW COL = RESULT"` per entry (exceptions).
    #[serde(default)]
    pub cells: Option<Spanned<Vec<Spanned<String>>>>,
    /// A derived layer's result for every pair it covers: a dtype, `!reason`,
    /// `$option`, `lhs`, `rhs` or `lub`.
    #[serde(default)]
    pub result: Option<Spanned<String>>,
    /// Row keys a derived layer covers: dtypes, kinds or Python kinds (default: all).
    #[serde(default)]
    pub rows: Option<Spanned<Vec<Spanned<String>>>>,
    /// Column keys a derived layer covers (default: all).
    #[serde(default)]
    pub cols: Option<Spanned<Vec<Spanned<String>>>>,
    /// A condition on the pair, e.g. `"lhs == rhs"` or `"kind(lhs) > kind(rhs)"`.
    #[serde(default, rename = "where")]
    pub condition: Option<Spanned<String>>,
    /// Whether the layer also answers every pair with its operands exchanged (its
    /// mirror image: sides, rows and columns, `lhs` and `rhs` swapped).
    #[serde(default)]
    pub mirrored: bool,
    /// A result filter: dtypes or kinds; the layer covers a pair only when the
    /// layers after it promote the pair to one of them.
    #[serde(default)]
    pub promoted: Option<Spanned<Vec<Spanned<String>>>>,
    /// A result for each promoted dtype: `{ c64 = "f32", c128 = "f64" }`, each key a
    /// dtype, kind or dtype class. [`read`] expands it into one layer per entry, with
    /// that `promoted` filter and `result`.
    #[serde(default)]
    pub by_promoted: Option<Spanned<BTreeMap<Spanned<String>, Spanned<String>>>>,
    /// Whether the layer is an entry of a `by_promoted` map.
    #[serde(skip)]
    pub in_map: bool,
    /// Whether another entry of its `by_promoted` map follows it.
    #[serde(skip)]
    pub continues: bool,
    /// Whether a derived layer's results are strongly typed whatever the operands'
    /// weakness (`strong = true`: TensorFlow's operations that return a `Tensor`,
    /// not a `WeakTensor`); the span of the key, when given.
    #[serde(default)]
    pub strong: Option<Spanned<bool>>,
    /// Statements that share this layer's header: each case is a layer of its own,
    /// in order, with the keys it gives replacing the layer's. [`read`] expands
    /// them, so that only an empty list is left (an error the tree reports).
    #[serde(default)]
    pub cases: Option<Spanned<Vec<Spanned<DocCase>>>>,
    /// A retyping: operands of each key's dtype are taken as the value's dtype by
    /// the layers after this one, and their answer is mapped the same way.
    #[serde(default)]
    pub retype: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    /// The position of the `[[layer]]` this layer comes from: the cases of one
    /// layer share it.
    #[serde(skip)]
    pub statement: usize,
    /// Whether it is a `[[compute]]` statement: its cells are the dtype the
    /// operation computes in, not its result.
    #[serde(skip)]
    pub compute: bool,
}

/// One entry of a layer's `cases`: any of a layer's keys but `name`, `matrix` and
/// `cases`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DocCase {
    /// Replaces the layer's conditions on options.
    #[serde(default)]
    pub when: Option<BTreeMap<String, Spanned<toml::Value>>>,
    /// Replaces the layer's operations.
    #[serde(default)]
    pub ops: Option<Vec<Spanned<String>>>,
    /// Replaces the layer's operand kinds.
    #[serde(default)]
    pub operands: Option<Spanned<Vec<String>>>,
    /// Listed cells.
    #[serde(default)]
    pub cells: Option<Spanned<Vec<Spanned<String>>>>,
    /// The result for every pair the case covers.
    #[serde(default)]
    pub result: Option<Spanned<String>>,
    /// Row keys.
    #[serde(default)]
    pub rows: Option<Spanned<Vec<Spanned<String>>>>,
    /// Column keys.
    #[serde(default)]
    pub cols: Option<Spanned<Vec<Spanned<String>>>>,
    /// A condition on the pair.
    #[serde(default, rename = "where")]
    pub condition: Option<Spanned<String>>,
    /// Whether the case also answers the pairs with the operands exchanged.
    #[serde(default)]
    pub mirrored: Option<bool>,
    /// A result filter.
    #[serde(default)]
    pub promoted: Option<Spanned<Vec<Spanned<String>>>>,
    /// A result for each promoted dtype.
    #[serde(default)]
    pub by_promoted: Option<Spanned<BTreeMap<Spanned<String>, Spanned<String>>>>,
    /// Whether the case's results are strongly typed.
    #[serde(default)]
    pub strong: Option<Spanned<bool>>,
}

impl DocLayer {
    /// The layers this one stands for: itself, or one per case, each case's keys
    /// replacing the layer's (a case's `when` adds to the layer's conditions).
    fn expand_cases(statement: usize, layer: Spanned<DocLayer>) -> Vec<Spanned<DocLayer>> {
        let span = layer.span();
        let mut base = layer.into_inner();
        base.statement = statement;
        let Some(cases) = base.cases.take_if(|cases| !cases.get_ref().is_empty()) else {
            return vec![Spanned::new(span, base)];
        };
        let count = cases.get_ref().len();
        cases
            .into_inner()
            .into_iter()
            .enumerate()
            .map(|(i, case)| {
                let case_span = case.span();
                let case = case.into_inner();
                let mut layer = base.clone();
                if count > 1 {
                    let name = format!("{} (case {} of {count})", base.name.get_ref(), i + 1);
                    layer.name = Spanned::new(base.name.span(), name);
                }
                if let Some(when) = case.when {
                    layer.when.extend(when);
                }
                if let Some(ops) = case.ops {
                    layer.ops = ops;
                }
                layer.operands = case.operands.or(layer.operands);
                layer.cells = case.cells.or(layer.cells);
                layer.result = case.result.or(layer.result);
                layer.rows = case.rows.or(layer.rows);
                layer.cols = case.cols.or(layer.cols);
                layer.condition = case.condition.or(layer.condition);
                layer.mirrored = case.mirrored.unwrap_or(layer.mirrored);
                layer.promoted = case.promoted.or(layer.promoted);
                layer.by_promoted = case.by_promoted.or(layer.by_promoted);
                layer.strong = case.strong.or(layer.strong);
                Spanned::new(case_span, layer)
            })
            .collect()
    }

    /// The layers a `by_promoted` map stands for: one per entry, in the map's order,
    /// each with the entry's key as its `promoted` filter and its value as its
    /// `result`, all but the last passing a pair on to the next. A layer that also
    /// gives a `result` or `promoted` is an error.
    fn expand_map(layer: Spanned<DocLayer>) -> Result<Vec<Spanned<DocLayer>>, Diagnostic> {
        let span = layer.span();
        let mut base = layer.into_inner();
        let Some(map) = base.by_promoted.take() else {
            return Ok(vec![Spanned::new(span, base)]);
        };
        if base.result.is_some() || base.promoted.is_some() {
            return Err(Diagnostic::new(
                "`by_promoted` gives the results by the promoted dtype: a layer with it takes no `result` or `promoted`",
                map.span(),
            ));
        }
        if map.get_ref().is_empty() {
            return Err(Diagnostic::new(
                "`by_promoted` must map at least one dtype or kind",
                map.span(),
            ));
        }
        let count = map.get_ref().len();
        Ok(map
            .into_inner()
            .into_iter()
            .enumerate()
            .map(|(i, (key, result))| {
                let mut entry = base.clone();
                let name = format!("{} (promoted to {})", base.name.get_ref(), key.get_ref());
                entry.name = Spanned::new(base.name.span(), name);
                let key_span = key.span();
                entry.promoted = Some(Spanned::new(key_span.clone(), vec![key]));
                entry.result = Some(result);
                entry.in_map = true;
                entry.continues = i + 1 < count;
                Spanned::new(span.clone(), entry)
            })
            .collect())
    }
}

/// Reads the TOML text of a rule file, its layers' cases expanded.
pub(super) fn read(src: &str) -> Result<Document, Diagnostic> {
    let mut raw: Document = toml::from_str(src).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().trim_end_matches('.');
        let message = if !message.is_empty() {
            // A key or value the message quotes may hold any character; the
            // parser's own line break between its sentences stays.
            escaped_message(message)
        } else if src.get(span.clone()).is_some_and(|s| s.contains('\r')) {
            "a carriage return must be followed by a line feed".to_owned()
        } else {
            "not valid TOML here".to_owned()
        };
        Diagnostic::new(message, span)
    })?;
    let mut layers = Vec::new();
    let compute = std::mem::take(&mut raw.compute).into_iter().map(|l| (true, l));
    let results = std::mem::take(&mut raw.layers).into_iter().map(|l| (false, l));
    for (i, (is_compute, mut layer)) in compute.chain(results).enumerate() {
        layer.get_mut().compute = is_compute;
        for case in DocLayer::expand_cases(i, layer) {
            layers.extend(DocLayer::expand_map(case)?);
        }
    }
    raw.layers = layers;
    Ok(raw)
}
