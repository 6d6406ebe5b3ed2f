//! The compiled form of a rule file, and the lookup that answers a promotion.
//!
//! A [`RuleTable`] is plain data made of slices, so the same shape serves the
//! `const` tables that `promo-macros` generates and the tables `promo-rules`
//! compiles from a rule file at run time. [`RuleTable::promote`] walks its
//! layers in order; each step is an indexed load, never a `match` over dtypes.

use crate::{DType, Op, Operand};
use core::fmt;

/// The largest number of options one rule file may declare.
pub const MAX_OPTIONS: usize = 8;

/// A row or column index meaning "this layer has no row/column for that key".
pub const ABSENT: u8 = u8::MAX;

/// What one side of a [`Layer`] matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A tensor of any rank, rank 0 included. Keys are dtypes.
    Tensor,
    /// A rank-0 tensor only. Keys are dtypes.
    Scalar,
    /// A tensor with at least one dimension only. Keys are dtypes.
    Dimensioned,
    /// A Python scalar. Keys are [`PyScalar`](crate::PyScalar) kinds.
    Python,
    /// Any operand: a tensor of any rank (keys are dtypes) or a Python scalar (keys
    /// [`DType::COUNT`] + its [`PyScalar`](crate::PyScalar) kind).
    Any,
}

impl Side {
    /// The side's name as rule files spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Tensor => "tensor",
            Side::Scalar => "scalar",
            Side::Dimensioned => "dimensioned",
            Side::Python => "python",
            Side::Any => "any",
        }
    }

    /// The index of `operand` on this side's axis, or `None` if the side does not match.
    pub const fn key(self, operand: Operand) -> Option<usize> {
        match (self, operand) {
            (Side::Tensor, Operand::Dimensioned(d) | Operand::Scalar(d)) => Some(d.index()),
            (Side::Scalar, Operand::Scalar(d)) | (Side::Dimensioned, Operand::Dimensioned(d)) => {
                Some(d.index())
            }
            (Side::Python, Operand::Python(k)) => Some(k.index()),
            (Side::Any, Operand::Dimensioned(d) | Operand::Scalar(d)) => Some(d.index()),
            (Side::Any, Operand::Python(k)) => Some(DType::COUNT + k.index()),
            _ => None,
        }
    }
}

/// The value of one option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    /// A boolean option's value.
    Bool(bool),
    /// A dtype option's value.
    DType(DType),
    /// A choice option's value: the index into [`OptionKind::Choice`].
    Choice(u8),
}

/// The type of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind<'a> {
    /// `true` or `false`.
    Bool,
    /// Any dtype name.
    DType,
    /// One of the listed words.
    Choice(&'a [&'a str]),
}

/// One option a rule set takes (an OpenVINO attribute, Paddle's execution mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec<'a> {
    /// The framework's own name for it, e.g. `promote_unsafe`.
    pub name: &'a str,
    /// Its type.
    pub kind: OptionKind<'a>,
    /// Its value when not set.
    pub default: OptionValue,
    /// One line saying what it does.
    pub doc: &'a str,
}

impl OptionSpec<'_> {
    /// Parses `text` as a value of this option.
    pub fn parse_value(&self, text: &str) -> Result<OptionValue, OptionError> {
        let bad = |expected: String| OptionError::BadValue {
            option: self.name.to_owned(),
            value: text.to_owned(),
            expected,
        };
        match self.kind {
            OptionKind::Bool => match text {
                "true" | "1" => Ok(OptionValue::Bool(true)),
                "false" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(bad("`true` or `false`".into())),
            },
            OptionKind::DType => text
                .parse()
                .map(OptionValue::DType)
                .map_err(|_| bad("a dtype name".into())),
            OptionKind::Choice(words) => words
                .iter()
                .position(|w| *w == text)
                .map(|i| OptionValue::Choice(i as u8))
                .ok_or_else(|| bad(format!("one of {}", quoted_list(words)))),
        }
    }

    /// Renders a value of this option as a rule file or the command line spells it.
    pub fn format_value(&self, value: OptionValue) -> String {
        match (value, self.kind) {
            (OptionValue::Bool(b), _) => b.to_string(),
            (OptionValue::DType(d), _) => d.name().to_owned(),
            (OptionValue::Choice(i), OptionKind::Choice(words)) => {
                words.get(i as usize).copied().unwrap_or("?").to_owned()
            }
            (OptionValue::Choice(i), _) => i.to_string(),
        }
    }
}

fn quoted_list(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `option == value`, a precondition of a [`Layer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// Index into [`RuleTable::options`].
    pub option: u8,
    /// The value the option must have.
    pub value: OptionValue,
}

/// One cell of a layer's matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No opinion: the next layer decides (`"."` in a rule file).
    Defer,
    /// The result is this dtype.
    Is(DType),
    /// The result is the left operand's dtype (`"lhs"`).
    Lhs,
    /// The result is the right operand's dtype (`"rhs"`).
    Rhs,
    /// The result is the value of this dtype option (`"$name"`).
    Option(u8),
    /// Refused, for the reason at this index of [`RuleTable::reasons`] (`"!key"`).
    Refuse(u16),
}

impl Cell {
    /// The cell as one `u16`, the form of [`Flat::cells`]: `0` defer, `0x100 | dtype`
    /// a result, `0x200 | option` a dtype option's value, `0x4000 + reason` a refusal.
    /// `lhs` and `rhs` have no code: flattening resolves them.
    pub const fn code(self) -> u16 {
        match self {
            Cell::Defer | Cell::Lhs | Cell::Rhs => 0,
            Cell::Is(d) => 0x100 | d as u16,
            Cell::Option(i) => 0x200 | i as u16,
            Cell::Refuse(r) => 0x4000 + r,
        }
    }

    /// The cell with this [`Cell::code`].
    pub const fn from_code(code: u16) -> Cell {
        match code {
            0x4000.. => Cell::Refuse(code - 0x4000),
            0x200..=0x2ff => Cell::Option((code & 0xff) as u8),
            0x100..=0x1ff => match DType::from_index((code & 0xff) as usize) {
                Some(d) => Cell::Is(d),
                None => Cell::Defer,
            },
            _ => Cell::Defer,
        }
    }
}

/// Every answer of a rule set precomputed: one indexed load per lookup.
///
/// Generated by `promo-macros` from the layers (which stay the reference: tests
/// compare the two on every input). Indexed by option combination, operation,
/// left operand and right operand; dtype options do not select cells (their value
/// is read when a cell says [`Cell::Option`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flat<'a> {
    /// For each option, how many values select different cells (`bool`: 2, a
    /// choice: its length, `dtype`: 1).
    pub radix: &'a [u8],
    /// For each [`Op::index`], its slot, or [`ABSENT`] if the rule set lacks it.
    pub op_slot: &'a [u8],
    /// The number of op slots.
    pub op_slots: usize,
    /// For each operand key ([`operand_key`]), its compact index, or [`ABSENT`].
    pub key_of: &'a [u8],
    /// The number of compact keys.
    pub keys: usize,
    /// [`Cell::code`]s, indexed `((combo * op_slots + slot) * keys + lhs) * keys + rhs`.
    pub cells: &'a [u16],
}

/// The number of distinct operand keys: tensors, rank-0 tensors, Python kinds.
pub const OPERAND_KEYS: usize = 2 * DType::COUNT + 4;

/// An operand's key: `dtype` for a tensor, `COUNT + dtype` for a rank-0 tensor,
/// `2 * COUNT + kind` for a Python scalar.
pub const fn operand_key(operand: Operand) -> usize {
    match operand {
        Operand::Dimensioned(d) => d.index(),
        Operand::Scalar(d) => DType::COUNT + d.index(),
        Operand::Python(k) => 2 * DType::COUNT + k.index(),
    }
}

/// The operand with key `key` (the inverse of [`operand_key`]).
pub fn operand_of_key(key: usize) -> Option<Operand> {
    let python = [
        crate::PyScalar::Bool,
        crate::PyScalar::Int,
        crate::PyScalar::Float,
        crate::PyScalar::Complex,
    ];
    match key {
        k if k < DType::COUNT => DType::from_index(k).map(Operand::Dimensioned),
        k if k < 2 * DType::COUNT => DType::from_index(k - DType::COUNT).map(Operand::Scalar),
        k => python.get(k - 2 * DType::COUNT).copied().map(Operand::Python),
    }
}

/// One matrix of a rule set, with the conditions under which it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer<'a> {
    /// A short description, e.g. `"tensor with tensor"`.
    pub name: &'a str,
    /// Every condition must hold for the layer to apply.
    pub when: &'a [Condition],
    /// The operations it applies to; empty means every operation.
    pub ops: &'a [Op],
    /// What the row operand must be.
    pub lhs: Side,
    /// What the column operand must be.
    pub rhs: Side,
    /// Row of each key ([`DType::index`] or [`PyScalar::index`](crate::PyScalar::index)), or [`ABSENT`].
    pub row_of: &'a [u8],
    /// Column of each key, or [`ABSENT`].
    pub col_of: &'a [u8],
    /// The number of columns.
    pub width: usize,
    /// The cells, row by row.
    pub cells: &'a [Cell],
    /// A result filter: when not empty, the layer covers a pair only when the
    /// layers after it promote the pair to one of these dtypes.
    pub promoted: &'a [DType],
    /// The index of the first layer after this layer's statement: a result filter
    /// that covers a pair but does not change it leaves the pair to the layers from
    /// there on (the other cases of its statement are alternatives, not layers below).
    pub statement_end: usize,
}

/// A whole rule set: what one rule file says, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleTable<'a> {
    /// The short name used on the command line, e.g. `openvino`.
    pub name: &'a str,
    /// The framework and the operation, e.g. `OpenVINO ConvertPromoteTypes-14`.
    pub title: &'a str,
    /// The framework version whose behaviour the rules encode.
    pub version: &'a str,
    /// Whether `promote(a, b) == promote(b, a)` always holds.
    pub commutative: bool,
    /// The dtypes the framework accepts, in listing order.
    pub dtypes: &'a [DType],
    /// The operations the framework distinguishes; empty means the result does not
    /// depend on the operation.
    pub ops: &'a [Op],
    /// Options and their defaults.
    pub options: &'a [OptionSpec<'a>],
    /// How each Python scalar kind is typed when no layer covers it
    /// (DALI: `int` is `i32`); `None` if the framework takes no Python scalars.
    pub python: [Option<DType>; 4],
    /// Refusal reasons, referenced by [`Cell::Refuse`].
    pub reasons: &'a [&'a str],
    /// The layers, most specific first; the last is the tensor-with-tensor base.
    pub layers: &'a [Layer<'a>],
    /// Every answer precomputed, when the rule set was compiled ahead of time;
    /// `None` makes [`RuleTable::promote`] walk the layers.
    pub flat: Option<Flat<'a>>,
}

/// Values for every option of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    values: [OptionValue; MAX_OPTIONS],
    len: usize,
}

/// A bad option key or value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The rule set has no such option.
    Unknown {
        /// The rule set's name.
        rules: String,
        /// The key given.
        option: String,
        /// The keys it does have.
        known: Vec<String>,
    },
    /// The value does not parse as the option's type.
    BadValue {
        /// The option.
        option: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A `KEY=VALUE` setting without `=`.
    NotKeyValue(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { rules, option, known } if known.is_empty() => {
                write!(f, "unknown option `{option}`: {rules} takes no options")
            }
            OptionError::Unknown { rules, option, known } => write!(
                f,
                "unknown option `{option}` for {rules}: expected one of {}",
                quoted_list(&known.iter().map(String::as_str).collect::<Vec<_>>())
            ),
            OptionError::BadValue {
                option,
                value,
                expected,
            } => {
                write!(f, "bad value `{value}` for `{option}`: expected {expected}")
            }
            OptionError::NotKeyValue(s) => write!(f, "bad setting `{s}`: expected KEY=VALUE"),
        }
    }
}

impl std::error::Error for OptionError {}

impl Options {
    /// Options with these values, in the rule set's option order (at most
    /// [`MAX_OPTIONS`]; extra values are ignored).
    pub const fn from_values(given: &[OptionValue]) -> Options {
        let mut values = [OptionValue::Bool(false); MAX_OPTIONS];
        let mut i = 0;
        while i < given.len() && i < MAX_OPTIONS {
            values[i] = given[i];
            i += 1;
        }
        Options { values, len: i }
    }

    /// The value of the option at `index`.
    pub fn get(&self, index: usize) -> OptionValue {
        self.values[..self.len][index]
    }

    /// Every value, in the rule set's option order.
    pub fn values(&self) -> &[OptionValue] {
        &self.values[..self.len]
    }
}

/// Why a promotion has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal<'a> {
    /// The rule set refuses the pair, for this reason.
    Refused(&'a str),
    /// The framework does not accept this dtype.
    UnsupportedDType(DType),
    /// The framework does not have this operation.
    UnsupportedOp(Op),
    /// The framework takes no Python scalar operands.
    PythonScalar,
    /// Both operands are Python scalars: that is plain Python, not the framework.
    TwoPythonScalars,
    /// No layer covers the pair (a rule file that `promo check` would reject).
    NoRule,
}

impl fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Refused(reason) => f.write_str(reason),
            Refusal::UnsupportedDType(d) => write!(f, "dtype `{d}` is not supported"),
            Refusal::UnsupportedOp(op) => write!(f, "operation `{op}` is not covered"),
            Refusal::PythonScalar => f.write_str("Python scalar operands are not supported"),
            Refusal::TwoPythonScalars => f.write_str("both operands are Python scalars"),
            Refusal::NoRule => f.write_str("no rule covers this pair"),
        }
    }
}

impl std::error::Error for Refusal<'_> {}

impl<'a> RuleTable<'a> {
    /// Every option at its default value.
    pub fn default_options(&self) -> Options {
        let mut values = [OptionValue::Bool(false); MAX_OPTIONS];
        for (slot, spec) in values.iter_mut().zip(self.options) {
            *slot = spec.default;
        }
        Options {
            values,
            len: self.options.len(),
        }
    }

    /// The index of the option called `name`.
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|o| o.name == name)
    }

    /// Sets option `key` to the value spelled `value` in `options`.
    pub fn set_option(&self, options: &mut Options, key: &str, value: &str) -> Result<(), OptionError> {
        let index = self.option_index(key).ok_or_else(|| OptionError::Unknown {
            rules: self.name.to_owned(),
            option: key.to_owned(),
            known: self.options.iter().map(|o| o.name.to_owned()).collect(),
        })?;
        let parsed = self.options[index].parse_value(value)?;
        if let OptionValue::DType(d) = parsed {
            // A dtype option takes the dtypes the rule set covers, nothing else.
            if !self.dtypes.contains(&d) {
                return Err(OptionError::BadValue {
                    option: key.to_owned(),
                    value: value.to_owned(),
                    expected: format!(
                        "one of the dtypes of {}: {}",
                        self.name,
                        self.dtypes.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
                    ),
                });
            }
        }
        options.values[index] = parsed;
        Ok(())
    }

    /// Parses `KEY=VALUE` settings on top of the defaults.
    pub fn options_from<'s>(
        &self,
        settings: impl IntoIterator<Item = &'s str>,
    ) -> Result<Options, OptionError> {
        let mut options = self.default_options();
        for setting in settings {
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| OptionError::NotKeyValue(setting.to_owned()))?;
            self.set_option(&mut options, key.trim(), value.trim())?;
        }
        Ok(options)
    }

    /// Whether the framework accepts `dtype`.
    pub fn accepts(&self, dtype: DType) -> bool {
        match &self.flat {
            Some(flat) => flat.key_of.get(dtype.index()).is_some_and(|&k| k != ABSENT),
            None => self.dtypes.contains(&dtype),
        }
    }

    /// The common dtype of `lhs` and `rhs` under `op`, or why there is none.
    ///
    /// With a [`Flat`] table this is a few checks and one indexed load; otherwise it
    /// walks the layers ([`RuleTable::resolve`]).
    pub fn promote(
        &self,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<DType, Refusal<'a>> {
        self.check_operands(op, lhs, rhs)?;
        let cell = match &self.flat {
            Some(flat) => flat_cell(flat, options, op, lhs, rhs),
            None => self.resolve(options, op, lhs, rhs),
        };
        match cell {
            Cell::Is(d) => Ok(d),
            Cell::Option(i) => match options.get(i as usize) {
                OptionValue::DType(d) => Ok(d),
                _ => Err(Refusal::NoRule),
            },
            Cell::Refuse(r) => Err(Refusal::Refused(self.reasons[r as usize])),
            Cell::Defer | Cell::Lhs | Cell::Rhs => Err(self.no_cell(lhs, rhs)),
        }
    }

    /// What went wrong when no layer gave a cell.
    fn no_cell(&self, lhs: Operand, rhs: Operand) -> Refusal<'a> {
        match (lhs, rhs) {
            (Operand::Python(k), _) | (_, Operand::Python(k)) if self.python[k.index()].is_none() => {
                Refusal::PythonScalar
            }
            _ => Refusal::NoRule,
        }
    }

    /// The refusals that need no table: an op or dtype the framework lacks, or two
    /// Python scalars.
    fn check_operands(&self, op: Op, lhs: Operand, rhs: Operand) -> Result<(), Refusal<'a>> {
        let has_op = match &self.flat {
            Some(flat) => flat.op_slot.get(op.index()).is_some_and(|&s| s != ABSENT),
            None => self.ops.is_empty() || self.ops.contains(&op),
        };
        if !has_op {
            return Err(Refusal::UnsupportedOp(op));
        }
        for operand in [lhs, rhs] {
            if let Some(d) = operand.dtype() {
                if !self.accepts(d) {
                    return Err(Refusal::UnsupportedDType(d));
                }
            }
        }
        if matches!((lhs, rhs), (Operand::Python(_), Operand::Python(_))) {
            return Err(Refusal::TwoPythonScalars);
        }
        Ok(())
    }

    /// The answer the layers give for an accepted pair, as a cell: [`Cell::Is`] (with
    /// `lhs`/`rhs` already replaced by the operand's dtype), [`Cell::Option`],
    /// [`Cell::Refuse`], or [`Cell::Defer`] when no layer has an opinion. This walk
    /// is the reference that [`Flat`] tables are generated from.
    pub fn resolve(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Cell {
        self.trace(options, op, lhs, rhs).map_or(Cell::Defer, |t| t.cell)
    }

    /// Which layer decided a pair, and how: the walk behind [`RuleTable::resolve`].
    /// `None` when no layer has an opinion.
    pub fn trace(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Option<Trace> {
        if let Some(found) = self.walk_layers(options, op, lhs, rhs) {
            return Some(found);
        }
        // No layer speaks of a Python scalar here: type it as a tensor.
        let typed = |o: Operand| match o {
            Operand::Python(k) => self.python[k.index()].map(Operand::Dimensioned),
            other => Some(other),
        };
        match (lhs, rhs) {
            (Operand::Python(_), _) | (_, Operand::Python(_)) => {
                let (l, r) = (typed(lhs)?, typed(rhs)?);
                let mut found = self.walk_layers(options, op, l, r)?;
                found.python_typed = true;
                Some(found)
            }
            _ => None,
        }
    }

    /// The walk of [`RuleTable::trace`] from the layer after `layer` on: what a
    /// result filter ([`Layer::promoted`]) at `layer` tests.
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
        self.walk_layers_from(start, options, op, lhs, rhs)
    }

    /// The first layer with an opinion on the pair.
    fn walk_layers(&self, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Option<Trace> {
        self.walk_layers_from(0, options, op, lhs, rhs)
    }

    /// The first layer from `start` on with an opinion on the pair. A layer with a
    /// [`Layer::promoted`] filter has an opinion only when the layers after it give
    /// one of its dtypes.
    fn walk_layers_from(
        &self,
        start: usize,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Trace> {
        for (index, layer) in self.layers.iter().enumerate().skip(start) {
            if !layer
                .when
                .iter()
                .all(|c| options.get(c.option as usize) == c.value)
            {
                continue;
            }
            if !layer.ops.is_empty() && !layer.ops.contains(&op) {
                continue;
            }
            let trace = |cell, swapped| Trace {
                layer: index,
                swapped,
                python_typed: false,
                cell,
            };
            let found = match layer_cell(layer, lhs, rhs) {
                Some(found) => Some(trace(found, false)),
                None if self.commutative => layer_cell(layer, rhs, lhs).map(|found| trace(found, true)),
                None => None,
            };
            let Some(found) = found else { continue };
            if layer.promoted.is_empty() {
                return Some(found);
            }
            let below = self.walk_layers_from(layer.statement_end.max(index + 1), options, op, lhs, rhs);
            let promoted = match below.map(|t| t.cell) {
                Some(Cell::Is(d)) => Some(d),
                Some(Cell::Option(i)) => match options.get(i as usize) {
                    OptionValue::DType(d) => Some(d),
                    _ => None,
                },
                _ => None,
            };
            if promoted.is_some_and(|d| layer.promoted.contains(&d)) {
                return Some(found);
            }
            return below;
        }
        None
    }

    /// The tensor-with-tensor matrix under `op`: one entry per ordered pair of
    /// accepted dtypes, in [`RuleTable::dtypes`] order.
    pub fn matrix(&self, options: &Options, op: Op) -> Vec<Vec<Result<DType, Refusal<'a>>>> {
        self.dtypes
            .iter()
            .map(|&l| {
                self.dtypes
                    .iter()
                    .map(|&r| self.promote(options, op, Operand::Dimensioned(l), Operand::Dimensioned(r)))
                    .collect()
            })
            .collect()
    }
}

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
}

/// The layer's cell for (`lhs`, `rhs`) with `lhs`/`rhs` resolved, or `None` if the
/// layer has no such cell or defers.
fn layer_cell(layer: &Layer<'_>, lhs: Operand, rhs: Operand) -> Option<Cell> {
    let row = *layer.row_of.get(layer.lhs.key(lhs)?)?;
    let col = *layer.col_of.get(layer.rhs.key(rhs)?)?;
    if row == ABSENT || col == ABSENT {
        return None;
    }
    match layer.cells[row as usize * layer.width + col as usize] {
        Cell::Defer => None,
        Cell::Lhs => lhs.dtype().map(Cell::Is),
        Cell::Rhs => rhs.dtype().map(Cell::Is),
        other => Some(other),
    }
}

/// The index of an option value among the values that select cells.
const fn value_digit(value: OptionValue) -> usize {
    match value {
        OptionValue::Bool(b) => b as usize,
        OptionValue::Choice(c) => c as usize,
        OptionValue::DType(_) => 0,
    }
}

/// The combination index of `options` in a flat table with these radices.
pub fn option_combo(radix: &[u8], options: &Options) -> usize {
    radix.iter().zip(options.values()).fold(0, |combo, (&r, &v)| {
        combo * r as usize + value_digit(v) % (r as usize).max(1)
    })
}

/// One indexed load. The caller has checked the op and the operands' dtypes.
fn flat_cell(flat: &Flat<'_>, options: &Options, op: Op, lhs: Operand, rhs: Operand) -> Cell {
    let combo = option_combo(flat.radix, options);
    let slot = flat.op_slot[op.index()] as usize;
    let (l, r) = (
        flat.key_of[operand_key(lhs)] as usize,
        flat.key_of[operand_key(rhs)] as usize,
    );
    if l == ABSENT as usize || r == ABSENT as usize {
        return Cell::Defer;
    }
    let index = ((combo * flat.op_slots + slot) * flat.keys + l) * flat.keys + r;
    flat.cells.get(index).map_or(Cell::Defer, |&c| Cell::from_code(c))
}

/// The owned parts of a [`Flat`] table, as [`RuleTable::flatten`] computes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatParts {
    /// See [`Flat::radix`].
    pub radix: Vec<u8>,
    /// See [`Flat::op_slot`].
    pub op_slot: Vec<u8>,
    /// See [`Flat::op_slots`].
    pub op_slots: usize,
    /// See [`Flat::key_of`].
    pub key_of: Vec<u8>,
    /// See [`Flat::keys`].
    pub keys: usize,
    /// See [`Flat::cells`].
    pub cells: Vec<u16>,
}

impl FlatParts {
    /// Lends the parts as a [`Flat`].
    pub fn as_flat(&self) -> Flat<'_> {
        Flat {
            radix: &self.radix,
            op_slot: &self.op_slot,
            op_slots: self.op_slots,
            key_of: &self.key_of,
            keys: self.keys,
            cells: &self.cells,
        }
    }
}

impl RuleTable<'_> {
    /// Precomputes every answer of the layers, or `None` when a layer's condition
    /// tests a dtype option (whose values are too many to enumerate).
    pub fn flatten(&self) -> Option<FlatParts> {
        let radix: Vec<u8> = self
            .options
            .iter()
            .map(|o| match o.kind {
                OptionKind::Bool => 2,
                OptionKind::Choice(words) => words.len().max(1) as u8,
                OptionKind::DType => 1,
            })
            .collect();
        let dtype_condition = self.layers.iter().flat_map(|l| l.when).any(|c| {
            matches!(
                self.options.get(c.option as usize).map(|o| o.kind),
                Some(OptionKind::DType)
            )
        });
        if dtype_condition {
            return None;
        }
        let mut op_slot = vec![ABSENT; Op::ALL.len()];
        let slot_ops: Vec<Op> = if self.ops.is_empty() {
            // Op-independent: every op shares one slot, answered as `add`.
            op_slot.iter_mut().for_each(|s| *s = 0);
            vec![Op::Add]
        } else {
            for (i, op) in self.ops.iter().enumerate() {
                op_slot[op.index()] = i as u8;
            }
            self.ops.to_vec()
        };
        let mut key_of = vec![ABSENT; OPERAND_KEYS];
        let mut operands = Vec::new();
        for (key, slot) in key_of.iter_mut().enumerate() {
            let Some(operand) = operand_of_key(key) else {
                continue;
            };
            if operand.dtype().is_none_or(|d| self.accepts(d)) {
                *slot = operands.len() as u8;
                operands.push(operand);
            }
        }
        let combos: usize = radix.iter().map(|&r| r as usize).product();
        let mut cells = Vec::with_capacity(combos * slot_ops.len() * operands.len() * operands.len());
        for combo in 0..combos {
            let options = self.combo_options(&radix, combo);
            for &op in &slot_ops {
                for &lhs in &operands {
                    for &rhs in &operands {
                        let both_python = matches!((lhs, rhs), (Operand::Python(_), Operand::Python(_)));
                        let cell = if both_python {
                            Cell::Defer
                        } else {
                            self.resolve(&options, op, lhs, rhs)
                        };
                        cells.push(cell.code());
                    }
                }
            }
        }
        Some(FlatParts {
            radix,
            op_slot,
            op_slots: slot_ops.len(),
            keys: operands.len(),
            key_of,
            cells,
        })
    }

    /// The options of combination `combo` (dtype options at their defaults).
    fn combo_options(&self, radix: &[u8], mut combo: usize) -> Options {
        let mut values: Vec<OptionValue> = self.options.iter().map(|o| o.default).collect();
        for (i, &r) in radix.iter().enumerate().rev() {
            let digit = combo % r as usize;
            combo /= r as usize;
            values[i] = match self.options[i].kind {
                OptionKind::Bool => OptionValue::Bool(digit == 1),
                OptionKind::Choice(_) => OptionValue::Choice(digit as u8),
                OptionKind::DType => values[i],
            };
        }
        Options::from_values(&values)
    }
}
