//! Algebraic properties of a promotion table, checked with a counterexample:
//! what a rule file may declare (`associative = true`, `lattice = true`) and what
//! `promo check --properties` reports for any rule set.
//!
//! Each property is checked on the tensor-with-tensor `add` table under given
//! options. A refusal counts as one more value, which absorbs every other: `(a + b)
//! + c` is refused when `a + b` is.

use promo_table::{DType, Op, Operand, Options, RuleTable};

/// A property a promotion table may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// `a + b == b + a` for every pair.
    Commutative,
    /// `(a + b) + c == a + (b + c)` for every triple.
    Associative,
    /// The table is the join of a partial order: commutative, associative and
    /// idempotent (`a + a == a`), as JAX's type-promotion lattice is.
    Lattice,
}

impl Property {
    /// Every property, in report order.
    pub const ALL: [Property; 3] = [Property::Commutative, Property::Associative, Property::Lattice];

    /// The name a rule file and the report use.
    pub const fn name(self) -> &'static str {
        match self {
            Property::Commutative => "commutative",
            Property::Associative => "associative",
            Property::Lattice => "lattice",
        }
    }
}

/// The table one property is checked on: every accepted dtype's sum with every other.
struct AddTable {
    dtypes: Vec<DType>,
    /// `cells[i * n + j]`: `dtypes[i] + dtypes[j]`, `None` when refused.
    cells: Vec<Option<DType>>,
}

impl AddTable {
    fn new(table: &RuleTable<'_>, options: &Options) -> AddTable {
        let dtypes = table.dtypes.to_vec();
        let mut cells = Vec::with_capacity(dtypes.len() * dtypes.len());
        for &a in &dtypes {
            for &b in &dtypes {
                cells.push(
                    table
                        .promote(options, Op::Add, Operand::Dimensioned(a), Operand::Dimensioned(b))
                        .ok(),
                );
            }
        }
        AddTable { dtypes, cells }
    }

    fn add(&self, a: Option<DType>, b: Option<DType>) -> Option<DType> {
        let i = self.dtypes.iter().position(|&d| Some(d) == a)?;
        let j = self.dtypes.iter().position(|&d| Some(d) == b)?;
        self.cells[i * self.dtypes.len() + j]
    }
}

fn shown(d: Option<DType>) -> String {
    d.map_or("refused".to_owned(), |d| d.to_string())
}

/// Checks `property` on the `add` table of `table` under `options`: `Err` holds a
/// counterexample, e.g. `(u8 + i8) + u64 = f32 but u8 + (i8 + u64) = refused`.
pub fn check(table: &RuleTable<'_>, options: &Options, property: Property) -> Result<(), String> {
    let t = AddTable::new(table, options);
    let all: Vec<Option<DType>> = t.dtypes.iter().map(|&d| Some(d)).collect();
    let commutative = || {
        for &a in &all {
            for &b in &all {
                let (ab, ba) = (t.add(a, b), t.add(b, a));
                if ab != ba {
                    return Err(format!(
                        "{} + {} = {} but {} + {} = {}",
                        shown(a),
                        shown(b),
                        shown(ab),
                        shown(b),
                        shown(a),
                        shown(ba)
                    ));
                }
            }
        }
        Ok(())
    };
    let associative = || {
        for &a in &all {
            for &b in &all {
                for &c in &all {
                    let left = t.add(t.add(a, b), c);
                    let right = t.add(a, t.add(b, c));
                    if left != right {
                        return Err(format!(
                            "({} + {}) + {} = {} but {} + ({} + {}) = {}",
                            shown(a),
                            shown(b),
                            shown(c),
                            shown(left),
                            shown(a),
                            shown(b),
                            shown(c),
                            shown(right)
                        ));
                    }
                }
            }
        }
        Ok(())
    };
    match property {
        Property::Commutative => commutative(),
        Property::Associative => associative(),
        Property::Lattice => {
            for &a in &all {
                let aa = t.add(a, a);
                if aa != a {
                    return Err(format!(
                        "{} + {} = {}, not {}",
                        shown(a),
                        shown(a),
                        shown(aa),
                        shown(a)
                    ));
                }
            }
            commutative().map_err(|e| format!("not commutative: {e}"))?;
            associative().map_err(|e| format!("not associative: {e}"))
        }
    }
}
