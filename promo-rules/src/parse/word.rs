//! The single words of the rule language: a type name with its weak mark (`i64*`),
//! a cell (`i16`, `.`, `lhs`, `$out`, `!mixed`), a derived layer's result (`lub`).
//! None of them can be malformed: what their names mean is resolution's question.

use std::fmt;

/// A dtype's name, with `*` after it for its weak type (`i64*`): a node of the
/// `[lattice]`, a `[python]` type, a `weak_operands` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeName {
    /// The dtype's name, without the mark.
    pub name: String,
    /// Whether `*` follows it.
    pub weak: bool,
}

impl TypeName {
    /// Reads `word`: a name, with or without `*` after it.
    pub fn new(word: &str) -> TypeName {
        match word.strip_suffix('*') {
            Some(name) => TypeName {
                name: name.to_owned(),
                weak: true,
            },
            None => TypeName {
                name: word.to_owned(),
                weak: false,
            },
        }
    }
}

impl fmt::Display for TypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, if self.weak { "*" } else { "" })
    }
}

/// A cell of a `matrix` or a `cells` entry, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellWord {
    /// `.`: no answer here, the next layer decides.
    Defer,
    /// `lhs`: the left operand's dtype.
    Lhs,
    /// `rhs`: the right operand's dtype.
    Rhs,
    /// `$NAME`: the value of a dtype option.
    Option(String),
    /// `!KEY`: refused, for the reason with that key.
    Refuse(String),
    /// A dtype, weakly typed with `*`.
    Type(TypeName),
}

impl CellWord {
    /// Reads one word of a matrix or a `cells` entry.
    pub fn new(word: &str) -> CellWord {
        match word {
            "." => CellWord::Defer,
            "lhs" => CellWord::Lhs,
            "rhs" => CellWord::Rhs,
            _ => {
                if let Some(name) = word.strip_prefix('$') {
                    CellWord::Option(name.to_owned())
                } else if let Some(key) = word.strip_prefix('!') {
                    CellWord::Refuse(key.to_owned())
                } else {
                    CellWord::Type(TypeName::new(word))
                }
            }
        }
    }
}

/// A derived layer's `result`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultWord {
    /// `lub`: the least upper bound in the `[lattice]`.
    Lub,
    /// `lub*`: the least upper bound of the dtypes, weakly typed.
    WeakLub,
    /// Any cell: the same for every pair.
    Cell(CellWord),
}

impl ResultWord {
    /// Reads a `result` value.
    pub fn new(word: &str) -> ResultWord {
        match word {
            "lub" => ResultWord::Lub,
            "lub*" => ResultWord::WeakLub,
            _ => ResultWord::Cell(CellWord::new(word)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_as_written() {
        assert_eq!(TypeName::new("i64*").to_string(), "i64*");
        assert!(!TypeName::new("i64").weak);
        assert_eq!(CellWord::new("$out"), CellWord::Option("out".into()));
        assert_eq!(CellWord::new("!mixed"), CellWord::Refuse("mixed".into()));
        assert_eq!(CellWord::new("f32*"), CellWord::Type(TypeName::new("f32*")));
        assert_eq!(ResultWord::new("lub*"), ResultWord::WeakLub);
        assert_eq!(ResultWord::new("."), ResultWord::Cell(CellWord::Defer));
    }
}
