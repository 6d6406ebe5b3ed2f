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
}

impl Side {
    /// The side's name as rule files spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Tensor => "tensor",
            Side::Scalar => "scalar",
            Side::Dimensioned => "dimensioned",
            Side::Python => "python",
        }
    }

    /// The index of `operand` on this side's axis, or `None` if the side does not match.
    const fn key(self, operand: Operand) -> Option<usize> {
        match (self, operand) {
            (Side::Tensor, Operand::Tensor(d) | Operand::Scalar(d)) => Some(d.index()),
            (Side::Scalar, Operand::Scalar(d)) | (Side::Dimensioned, Operand::Tensor(d)) => Some(d.index()),
            (Side::Python, Operand::Python(k)) => Some(k.index()),
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
        options.values[index] = self.options[index].parse_value(value)?;
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
        // The base layer (the last) has a row for every accepted dtype and no other.
        match self.layers.last() {
            Some(base) => base.row_of.get(dtype.index()).is_some_and(|&r| r != ABSENT),
            None => self.dtypes.contains(&dtype),
        }
    }

    /// The common dtype of `lhs` and `rhs` under `op`, or why there is none.
    pub fn promote(
        &self,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<DType, Refusal<'a>> {
        if !self.ops.is_empty() && !self.ops.contains(&op) {
            return Err(Refusal::UnsupportedOp(op));
        }
        for operand in [lhs, rhs] {
            if let Some(d) = operand.dtype() {
                if !self.accepts(d) {
                    return Err(Refusal::UnsupportedDType(d));
                }
            }
        }
        match (lhs, rhs) {
            (Operand::Python(_), Operand::Python(_)) => Err(Refusal::TwoPythonScalars),
            (Operand::Python(k), other) | (other, Operand::Python(k)) => {
                if let Some(found) = self.walk_layers(options, op, lhs, rhs) {
                    return found;
                }
                // No layer speaks of Python scalars: type the scalar as a tensor.
                let Some(as_tensor) = self.python[k.index()] else {
                    return Err(Refusal::PythonScalar);
                };
                let scalar = Operand::Tensor(as_tensor);
                let (l, r) = if matches!(lhs, Operand::Python(_)) {
                    (scalar, other)
                } else {
                    (other, scalar)
                };
                self.walk_layers(options, op, l, r)
                    .unwrap_or(Err(Refusal::NoRule))
            }
            _ => self
                .walk_layers(options, op, lhs, rhs)
                .unwrap_or(Err(Refusal::NoRule)),
        }
    }

    /// The first layer with an opinion on the pair, or `None` if none has one.
    fn walk_layers(
        &self,
        options: &Options,
        op: Op,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Result<DType, Refusal<'a>>> {
        for layer in self.layers {
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
            if let Some(found) = self.cell(layer, options, lhs, rhs) {
                return Some(found);
            }
            if self.commutative {
                if let Some(found) = self.cell(layer, options, rhs, lhs) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// The layer's cell for (`lhs`, `rhs`) resolved, or `None` if the layer has no
    /// such cell or defers.
    fn cell(
        &self,
        layer: &Layer<'a>,
        options: &Options,
        lhs: Operand,
        rhs: Operand,
    ) -> Option<Result<DType, Refusal<'a>>> {
        let row = *layer.row_of.get(layer.lhs.key(lhs)?)?;
        let col = *layer.col_of.get(layer.rhs.key(rhs)?)?;
        if row == ABSENT || col == ABSENT {
            return None;
        }
        let result = match layer.cells[row as usize * layer.width + col as usize] {
            Cell::Defer => return None,
            Cell::Is(d) => Ok(d),
            Cell::Lhs => lhs.dtype().ok_or(Refusal::NoRule),
            Cell::Rhs => rhs.dtype().ok_or(Refusal::NoRule),
            Cell::Option(i) => match options.get(i as usize) {
                OptionValue::DType(d) => Ok(d),
                _ => Err(Refusal::NoRule),
            },
            Cell::Refuse(r) => Err(Refusal::Refused(self.reasons[r as usize])),
        };
        Some(result)
    }

    /// The tensor-with-tensor matrix under `op`: one entry per ordered pair of
    /// accepted dtypes, in [`RuleTable::dtypes`] order.
    pub fn matrix(&self, options: &Options, op: Op) -> Vec<Vec<Result<DType, Refusal<'a>>>> {
        self.dtypes
            .iter()
            .map(|&l| {
                self.dtypes
                    .iter()
                    .map(|&r| self.promote(options, op, Operand::Tensor(l), Operand::Tensor(r)))
                    .collect()
            })
            .collect()
    }
}
