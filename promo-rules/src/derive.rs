//! Stage 2b: the parts of the rule language that derive cells instead of listing
//! them: the `[lattice]` (least upper bounds), kinds (bool < integer < float <
//! complex), pair conditions (`where`) and row/column selectors. Validation turns
//! each derived layer into an ordinary layer of cells with [`cells`], once.

use crate::parse::Token;
use crate::Diagnostic;
use promo_table::{Category, Cell, DType, Operand, PyScalar, Side};
use std::ops::Range;

/// The priority of a kind: bool 0, integer 1, float 2, complex 3 (`string`: none).
pub fn kind_rank(category: Category) -> Option<u8> {
    match category {
        Category::Bool => Some(0),
        Category::Unsigned | Category::Signed => Some(1),
        Category::Float => Some(2),
        Category::Complex => Some(3),
        Category::String => None,
    }
}

/// The kind names a rule file may write, lowest priority first.
pub const KIND_NAMES: [&str; 4] = ["bool", "integer", "float", "complex"];

/// The priority of a key of a layer side: a dtype's kind, or a Python scalar's
/// (`bool` 0, `int` 1, `float` 2, `complex` 3).
pub fn key_rank(side: Side, key: usize) -> Option<u8> {
    match side {
        Side::Python => Some(key as u8),
        Side::Any if key >= DType::COUNT + 4 => {
            DType::from_index(key - DType::COUNT - 4).and_then(|d| kind_rank(d.category()))
        }
        Side::Any if key >= DType::COUNT => Some((key - DType::COUNT) as u8),
        _ => DType::from_index(key).and_then(|d| kind_rank(d.category())),
    }
}

/// A node of a `[lattice]`: a dtype, or the weak type of a dtype (`i64*`, the type
/// of a Python scalar or of a weakly typed tensor in JAX and TensorFlow).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The dtype.
    pub dtype: DType,
    /// Whether this is the dtype's weak type.
    pub weak: bool,
}

impl Node {
    /// The result cell of this type: [`Cell::Is`], or [`Cell::Weak`] for a weak type.
    pub const fn cell(self) -> Cell {
        if self.weak {
            Cell::Weak(self.dtype)
        } else {
            Cell::Is(self.dtype)
        }
    }

    /// The type of an operand as the lattice sees it, if it has a dtype.
    pub const fn of(operand: Operand) -> Option<Node> {
        match operand {
            Operand::Weak(dtype) => Some(Node { dtype, weak: true }),
            Operand::Dimensioned(dtype) | Operand::Scalar(dtype) => Some(Node { dtype, weak: false }),
            Operand::Python(_) => None,
        }
    }

    /// Parses a dtype's canonical name, with `*` after it for its weak type.
    pub fn parse(text: &str) -> Result<Node, String> {
        let (name, weak) = match text.strip_suffix('*') {
            Some(name) => (name, true),
            None => (text, false),
        };
        match DType::parse_name(name) {
            Some(dtype) if dtype.name() == name => Ok(Node { dtype, weak }),
            Some(d) => Err(format!(
                "write dtype `{name}` by its canonical name `{}`",
                d.name()
            )),
            None => Err(format!("unknown dtype `{text}`")),
        }
    }
}

impl From<DType> for Node {
    fn from(dtype: DType) -> Node {
        Node { dtype, weak: false }
    }
}

impl core::fmt::Display for Node {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.dtype, if self.weak { "*" } else { "" })
    }
}

/// A partial order on dtypes given by its covering edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// The dtypes and weak types the edges name, in first-mention order.
    pub nodes: Vec<Node>,
    /// `up[i]`: the nodes directly above `nodes[i]`, with the span of that edge's
    /// upper end in the rule file.
    pub up: Vec<Vec<(usize, Range<usize>)>>,
    /// `above[i][j]`: `nodes[j]` is `nodes[i]` or above it.
    above: Vec<Vec<bool>>,
    /// Where each node is first named.
    named_at: Vec<Range<usize>>,
}

/// The least upper bound of two nodes, if the order gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// The unique least upper bound.
    Bound(Node),
    /// No node is above both.
    Unrelated,
    /// Two minimal upper bounds, neither above the other.
    Ambiguous(Node, Node),
}

impl Lattice {
    /// Builds the order from `edges` lines (`a -> b c -> d`: every name on the left
    /// of an arrow is below every name on its right), with every problem reported:
    /// unknown dtypes, dtypes outside `allowed`, cycles, and pairs without a unique
    /// least upper bound.
    pub fn build(
        lines: &[Vec<Token>],
        allowed: &[DType],
        whole: Range<usize>,
    ) -> Result<Lattice, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut up: Vec<Vec<(usize, Range<usize>)>> = Vec::new();
        let mut named_at: Vec<Range<usize>> = Vec::new();
        for line in lines {
            // Groups of names separated by `->`.
            let mut groups: Vec<Vec<(usize, Range<usize>)>> = vec![Vec::new()];
            let mut ok = true;
            for token in line {
                if token.text == "->" {
                    groups.push(Vec::new());
                    continue;
                }
                match Node::parse(&token.text) {
                    Ok(d) if allowed.contains(&d.dtype) => {
                        let i = nodes.iter().position(|&n| n == d).unwrap_or_else(|| {
                            nodes.push(d);
                            up.push(Vec::new());
                            named_at.push(token.span.clone());
                            nodes.len() - 1
                        });
                        groups
                            .last_mut()
                            .expect("one group")
                            .push((i, token.span.clone()));
                    }
                    Ok(d) => {
                        errors.push(Diagnostic::new(
                            format!("lattice dtype `{}` is not in `rules.dtypes`", d.dtype),
                            token.span.clone(),
                        ));
                        ok = false;
                    }
                    Err(message) => {
                        let message = if message.starts_with("unknown dtype") {
                            format!("{message} in the lattice")
                        } else {
                            message
                        };
                        errors.push(Diagnostic::new(message, token.span.clone()));
                        ok = false;
                    }
                }
            }
            if groups.len() < 2 || groups.iter().any(Vec::is_empty) {
                if ok {
                    let span = line.first().map_or(whole.clone(), |t| t.span.clone());
                    errors.push(Diagnostic::new(
                        "a lattice line is `lower -> upper`, with dtypes on both sides of every `->`",
                        span,
                    ));
                }
                continue;
            }
            for pair in groups.windows(2) {
                for (lo, _) in &pair[0] {
                    for (hi, span) in &pair[1] {
                        if !up[*lo].iter().any(|(h, _)| h == hi) {
                            up[*lo].push((*hi, span.clone()));
                        }
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        if let Some((cycle, span)) = find_cycle(&nodes, &up) {
            return Err(vec![Diagnostic::new(
                format!("the lattice has a cycle: {cycle}"),
                span,
            )]);
        }
        let n = nodes.len();
        let mut above = vec![vec![false; n]; n];
        for (i, row) in above.iter_mut().enumerate() {
            let mut stack = vec![i];
            while let Some(x) = stack.pop() {
                if !row[x] {
                    row[x] = true;
                    stack.extend(up[x].iter().map(|(h, _)| *h));
                }
            }
        }
        let lattice = Lattice {
            nodes,
            up,
            above,
            named_at,
        };
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (lattice.nodes[i], lattice.nodes[j]);
                if let Join::Ambiguous(x, y) = lattice.join(a, b) {
                    errors.push(Diagnostic::new(
                        format!(
                            "no unique least upper bound for `{a}` and `{b}`: `{x}` and `{y}` are both above them and neither is above the other"
                        ),
                        lattice.named_at[j].clone(),
                    ));
                }
            }
        }
        if errors.is_empty() {
            Ok(lattice)
        } else {
            Err(errors)
        }
    }

    fn index(&self, d: Node) -> Option<usize> {
        self.nodes.iter().position(|&n| n == d)
    }

    /// Whether `b` is `a` or above it.
    pub fn le(&self, a: impl Into<Node>, b: impl Into<Node>) -> bool {
        match (self.index(a.into()), self.index(b.into())) {
            (Some(i), Some(j)) => self.above[i][j],
            _ => false,
        }
    }

    /// The least upper bound of `a` and `b` (unrelated if either is not a node).
    pub fn join(&self, a: impl Into<Node>, b: impl Into<Node>) -> Join {
        let (Some(i), Some(j)) = (self.index(a.into()), self.index(b.into())) else {
            return Join::Unrelated;
        };
        let common: Vec<usize> = (0..self.nodes.len())
            .filter(|&k| self.above[i][k] && self.above[j][k])
            .collect();
        let minimal: Vec<usize> = common
            .iter()
            .copied()
            .filter(|&k| !common.iter().any(|&m| m != k && self.above[m][k]))
            .collect();
        match minimal.as_slice() {
            [] => Join::Unrelated,
            [k] => Join::Bound(self.nodes[*k]),
            [x, y, ..] => Join::Ambiguous(self.nodes[*x], self.nodes[*y]),
        }
    }

    /// A shortest chain of edges from `from` up to `to` (both included), if `to`
    /// is above `from`.
    pub fn path(&self, from: impl Into<Node>, to: impl Into<Node>) -> Option<Vec<Node>> {
        let (start, goal) = (self.index(from.into())?, self.index(to.into())?);
        let mut previous = vec![usize::MAX; self.nodes.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        previous[start] = start;
        while let Some(x) = queue.pop_front() {
            if x == goal {
                let mut chain = vec![self.nodes[x]];
                let mut at = x;
                while at != start {
                    at = previous[at];
                    chain.push(self.nodes[at]);
                }
                chain.reverse();
                return Some(chain);
            }
            for (h, _) in &self.up[x] {
                if previous[*h] == usize::MAX {
                    previous[*h] = x;
                    queue.push_back(*h);
                }
            }
        }
        None
    }
}

/// A cycle of edges, written `a -> b -> a`, with the span of its closing edge.
fn find_cycle(nodes: &[Node], up: &[Vec<(usize, Range<usize>)>]) -> Option<(String, Range<usize>)> {
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; nodes.len()];
    let mut stack: Vec<usize> = Vec::new();
    fn visit(
        x: usize,
        up: &[Vec<(usize, Range<usize>)>],
        state: &mut [u8],
        stack: &mut Vec<usize>,
    ) -> Option<(Vec<usize>, Range<usize>)> {
        state[x] = 1;
        stack.push(x);
        for (h, span) in &up[x] {
            match state[*h] {
                1 => {
                    let from = stack.iter().position(|s| s == h).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(*h);
                    return Some((cycle, span.clone()));
                }
                0 => {
                    if let Some(found) = visit(*h, up, state, stack) {
                        return Some(found);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state[x] = 2;
        None
    }
    for start in 0..nodes.len() {
        if state[start] == 0 {
            if let Some((cycle, span)) = visit(start, up, &mut state, &mut stack) {
                let names: Vec<String> = cycle.iter().map(|&i| nodes[i].to_string()).collect();
                return Some((names.join(" -> "), span));
            }
        }
    }
    None
}

/// One comparison of a `where` condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The two operands have the same dtype (`lhs == rhs`), or not (`lhs != rhs`).
    SameDType(bool),
    /// `kind(lhs) OP kind(rhs)`: the ordering of the two kinds' priorities is one
    /// of these (`<`, `==`, `>`).
    Kinds([bool; 3]),
    /// `kind(SIDE) OP NAME`: side 0 is lhs, 1 rhs; the allowed orderings of the
    /// side's kind against the named kind's priority.
    KindIs(u8, u8, [bool; 3]),
}

/// A `where` condition: every test must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairCondition {
    /// Alternatives joined by `or`, each a list of tests joined by `and` (`and`
    /// binds tighter).
    pub alternatives: Vec<Vec<Test>>,
    /// The condition as written.
    pub text: String,
}

impl PairCondition {
    /// Parses `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or
    /// `kind(lhs|rhs) OP KIND`, joined by `and` and `or` (`and` binds tighter).
    pub fn parse(text: &str) -> Result<PairCondition, String> {
        let mut alternatives = Vec::new();
        for alternative in text.split(" or ") {
            let mut tests = Vec::new();
            for part in alternative.split(" and ") {
                tests.push(parse_test(part.trim())?);
            }
            alternatives.push(tests);
        }
        Ok(PairCondition {
            alternatives,
            text: text.to_owned(),
        })
    }

    /// Whether the pair of keys (on sides `lhs` and `rhs`) meets the condition;
    /// `dtypes` are the keys' dtypes, a Python scalar's from `[python]` (`lhs == rhs`
    /// compares those).
    pub fn holds(
        &self,
        sides: (Side, Side),
        keys: (usize, usize),
        dtypes: (Option<DType>, Option<DType>),
    ) -> bool {
        let ranks = (key_rank(sides.0, keys.0), key_rank(sides.1, keys.1));
        let holds = |test: &Test| match *test {
            Test::SameDType(same) => {
                let equal = matches!(dtypes, (Some(a), Some(b)) if a == b);
                equal == same
            }
            Test::Kinds(allowed) => match ranks {
                (Some(a), Some(b)) => allowed[ordering_index(a, b)],
                _ => false,
            },
            Test::KindIs(side, rank, allowed) => {
                let r = if side == 0 { ranks.0 } else { ranks.1 };
                r.is_some_and(|r| allowed[ordering_index(r, rank)])
            }
        };
        self.alternatives.iter().any(|tests| tests.iter().all(holds))
    }
}

/// 0 for `a < b`, 1 for `a == b`, 2 for `a > b`.
fn ordering_index(a: u8, b: u8) -> usize {
    match a.cmp(&b) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Greater => 2,
    }
}

fn parse_test(part: &str) -> Result<Test, String> {
    const OPS: [(&str, [bool; 3]); 6] = [
        ("==", [false, true, false]),
        ("!=", [true, false, true]),
        ("<=", [true, true, false]),
        (">=", [false, true, true]),
        ("<", [true, false, false]),
        (">", [false, false, true]),
    ];
    let expected = "expected `lhs == rhs`, `lhs != rhs`, `kind(lhs) OP kind(rhs)` or `kind(lhs) OP KIND` (OP one of == != < <= > >=, KIND one of bool, integer, float, complex)";
    let Some((op, allowed, at)) = OPS
        .iter()
        .find_map(|(op, allowed)| part.find(op).map(|at| (*op, *allowed, at)))
    else {
        return Err(format!("bad condition `{part}`: {expected}"));
    };
    let (left, right) = (part[..at].trim(), part[at + op.len()..].trim());
    let side = |s: &str| match s {
        "kind(lhs)" => Some(0u8),
        "kind(rhs)" => Some(1u8),
        _ => None,
    };
    match (left, right) {
        ("lhs", "rhs") | ("rhs", "lhs") if op == "==" || op == "!=" => Ok(Test::SameDType(op == "==")),
        _ => match (side(left), side(right)) {
            (Some(0), Some(1)) => Ok(Test::Kinds(allowed)),
            (Some(1), Some(0)) => Ok(Test::Kinds([allowed[2], allowed[1], allowed[0]])),
            (Some(s), None) => match KIND_NAMES.iter().position(|k| *k == right) {
                Some(rank) => Ok(Test::KindIs(s, rank as u8, allowed)),
                None => Err(format!(
                    "bad condition `{part}`: unknown kind `{right}`; {expected}"
                )),
            },
            _ => Err(format!("bad condition `{part}`: {expected}")),
        },
    }
}

/// The keys a `rows`/`cols` entry selects on a side: a dtype of the rule set, a
/// kind (`integer`, `signed`, `unsigned`, `float`, `complex`; `bool` is the dtype),
/// or on a Python side a Python scalar kind.
pub fn select(side: Side, name: &str, dtypes: &[DType]) -> Result<Vec<usize>, String> {
    if side == Side::Any {
        // Tensors as on a tensor side, and weakly typed tensors of those dtypes; a
        // kind also selects the Python scalar of that kind (`integer`: a Python int).
        let tensors = select(Side::Tensor, name, dtypes)?;
        let weak = tensors.iter().map(|k| DType::COUNT + 4 + k);
        let mut keys: Vec<usize> = tensors.iter().copied().chain(weak).collect();
        if let Some(rank) = KIND_NAMES.iter().position(|k| *k == name) {
            keys.push(DType::COUNT + rank);
        }
        return Ok(keys);
    }
    if side == Side::Python {
        return PyScalar::parse_name(name)
            .map(|k| vec![k.index()])
            .ok_or_else(|| {
                format!("unknown Python scalar kind `{name}`: expected `bool`, `int`, `float` or `complex`")
            });
    }
    let of = |keep: &dyn Fn(Category) -> bool| -> Vec<usize> {
        dtypes
            .iter()
            .filter(|d| keep(d.category()))
            .map(|d| d.index())
            .collect()
    };
    match name {
        "integer" => Ok(of(&|c| matches!(c, Category::Signed | Category::Unsigned))),
        "signed" => Ok(of(&|c| c == Category::Signed)),
        "unsigned" => Ok(of(&|c| c == Category::Unsigned)),
        "float" => Ok(of(&|c| c == Category::Float)),
        "complex" => Ok(of(&|c| c == Category::Complex)),
        _ => match DType::parse_name(name) {
            Some(d) if d.name() != name => Err(format!("write dtype `{name}` by its canonical name `{}`", d.name())),
            Some(d) if dtypes.contains(&d) => Ok(vec![d.index()]),
            Some(d) => Err(format!("dtype `{d}` is not in `rules.dtypes`")),
            None => Err(format!(
                "unknown dtype or kind `{name}`: expected a dtype of `rules.dtypes` or `integer`, `signed`, `unsigned`, `float`, `complex`"
            )),
        },
    }
}

/// The `result` of a derived layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRule {
    /// The same cell for every pair: a dtype, `lhs`, `rhs`, `$option` or `!reason`.
    Cell(Cell),
    /// The least upper bound of the two operands' dtypes in the `[lattice]`.
    Lub,
}

/// The type a key of a side stands for in a derived layer: the dtype itself (weak
/// on a `weak` side), or the `[python]` type of a Python scalar kind.
fn key_node(side: Side, key: usize, python: [Option<Operand>; 4]) -> Option<Node> {
    let weak = |d: usize| DType::from_index(d).map(|dtype| Node { dtype, weak: true });
    match side {
        Side::Python => python[key].and_then(Node::of),
        Side::Weak => weak(key),
        Side::Any if key >= DType::COUNT + 4 => weak(key - DType::COUNT - 4),
        Side::Any if key >= DType::COUNT => python[key - DType::COUNT].and_then(Node::of),
        _ => DType::from_index(key).map(Node::from),
    }
}

/// The cells of a derived layer over `rows` × `cols` (keys of the two `sides`), row
/// by row: `rule` for every pair that meets `condition`, [`Cell::Defer`] for the
/// others. `lhs` and `rhs` become the operand's dtype (a Python scalar's `[python]`
/// dtype); `lub` is the least upper bound in `lattice`, and a pair without one is
/// left to the next layer.
pub fn cells(
    rule: ResultRule,
    condition: Option<&PairCondition>,
    sides: (Side, Side),
    (rows, cols): (&[usize], &[usize]),
    python: [Option<Operand>; 4],
    lattice: Option<&Lattice>,
) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(rows.len() * cols.len());
    for &r in rows {
        for &c in cols {
            let (a, b) = (key_node(sides.0, r, python), key_node(sides.1, c, python));
            let dtypes = (a.map(|n| n.dtype), b.map(|n| n.dtype));
            if condition.is_some_and(|cond| !cond.holds(sides, (r, c), dtypes)) {
                cells.push(Cell::Defer);
                continue;
            }
            let cell = match rule {
                ResultRule::Cell(Cell::Lhs) => a.map_or(Cell::Defer, Node::cell),
                ResultRule::Cell(Cell::Rhs) => b.map_or(Cell::Defer, Node::cell),
                ResultRule::Cell(cell) => cell,
                ResultRule::Lub => match (a, b, lattice) {
                    (Some(a), Some(b), Some(lattice)) => match lattice.join(a, b) {
                        Join::Bound(d) => d.cell(),
                        Join::Unrelated | Join::Ambiguous(..) => Cell::Defer,
                    },
                    _ => Cell::Defer,
                },
            };
            cells.push(cell);
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Vec<Token>> {
        let mut offset = 0;
        text.lines()
            .map(|line| {
                let words = line
                    .split_whitespace()
                    .map(|w| {
                        let at = offset + line.find(w).unwrap_or(0);
                        Token {
                            text: w.to_owned(),
                            span: at..at + w.len(),
                        }
                    })
                    .collect();
                offset += line.len() + 1;
                words
            })
            .collect()
    }

    fn build(edges: &str) -> Result<Lattice, Vec<Diagnostic>> {
        Lattice::build(&tokens(edges), DType::ALL, 0..0)
    }

    #[test]
    fn joins_are_least_upper_bounds() {
        let l = build("bool -> u8 i8\nu8 -> u16 i16\ni8 -> i16 -> i32\nu16 -> i32").unwrap();
        assert_eq!(l.join(DType::U8, DType::I8), Join::Bound(DType::I16.into()));
        assert_eq!(l.join(DType::U16, DType::I8), Join::Bound(DType::I32.into()));
        assert_eq!(l.join(DType::Bool, DType::Bool), Join::Bound(DType::Bool.into()));
        assert_eq!(l.join(DType::I8, DType::F32), Join::Unrelated);
        assert_eq!(l.path(DType::Bool, DType::I32).unwrap().len(), 4);
        assert!(l.le(DType::U8, DType::I32));
        assert!(!l.le(DType::I32, DType::U8));
    }

    #[test]
    fn two_minimal_bounds_are_an_error_naming_the_pair() {
        let e = build("u8 -> i16 u16\ni8 -> i16 u16").unwrap_err();
        assert!(e[0].message.contains("`u8` and `i8`"), "{e:?}");
    }

    #[test]
    fn cycles_are_named() {
        let e = build("i8 -> i16 -> i32\ni32 -> i8").unwrap_err();
        assert!(e[0].message.contains("i8 -> i16 -> i32 -> i8"), "{e:?}");
    }

    #[test]
    fn derived_cells_follow_the_rule_where_the_condition_holds() {
        let l = build("i8 u8 -> i16 -> f32").unwrap();
        let keys = |ds: &[DType]| ds.iter().map(|d| d.index()).collect::<Vec<_>>();
        let (rows, cols) = (keys(&[DType::I8, DType::F32]), keys(&[DType::U8, DType::C64]));
        let t = (Side::Tensor, Side::Tensor);
        let none = [None; 4];
        let lub = cells(ResultRule::Lub, None, t, (&rows, &cols), none, Some(&l));
        // c64 is not in the lattice: no upper bound, left to the next layer.
        assert_eq!(
            lub,
            [
                Cell::Is(DType::I16),
                Cell::Defer,
                Cell::Is(DType::F32),
                Cell::Defer
            ]
        );
        let higher = PairCondition::parse("kind(lhs) > kind(rhs)").unwrap();
        let lhs = cells(
            ResultRule::Cell(Cell::Lhs),
            Some(&higher),
            t,
            (&rows, &cols),
            none,
            None,
        );
        assert_eq!(lhs, [Cell::Defer, Cell::Defer, Cell::Is(DType::F32), Cell::Defer]);
        // `rhs` on a Python side is the scalar's `[python]` dtype, or nothing.
        let py = (Side::Tensor, Side::Python);
        let python = [None, Some(Operand::Dimensioned(DType::I16)), None, None];
        let ints = [PyScalar::Int.index(), PyScalar::Float.index()];
        let rhs = cells(
            ResultRule::Cell(Cell::Rhs),
            None,
            py,
            (&rows[..1], &ints),
            python,
            None,
        );
        assert_eq!(rhs, [Cell::Is(DType::I16), Cell::Defer]);
        let refuse = cells(
            ResultRule::Cell(Cell::Refuse(2)),
            None,
            t,
            (&rows, &cols[..1]),
            none,
            None,
        );
        assert_eq!(refuse, [Cell::Refuse(2); 2]);
    }

    #[test]
    fn conditions_compare_kinds_and_dtypes() {
        let t = (Side::Tensor, Side::Tensor);
        // The keys and their dtypes (a Python scalar typed by `[python]`).
        let holds = |c: &PairCondition, sides: (Side, Side), keys: (usize, usize)| {
            let typed = |side: Side, key: usize| match side {
                Side::Python => [None, Some(DType::I64), Some(DType::F32), None][key],
                _ => DType::from_index(key),
            };
            c.holds(sides, keys, (typed(sides.0, keys.0), typed(sides.1, keys.1)))
        };
        let (i8, f32) = (DType::I8.index(), DType::F32.index());
        let c = PairCondition::parse("kind(lhs) > kind(rhs)").unwrap();
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, f32)) && !holds(&c, t, (i8, i8)));
        let c = PairCondition::parse("kind(rhs) <= kind(lhs)").unwrap();
        assert!(holds(&c, t, (f32, i8)) && holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let c = PairCondition::parse("lhs != rhs and kind(rhs) == integer").unwrap();
        assert!(holds(&c, t, (f32, i8)) && !holds(&c, t, (i8, i8)) && !holds(&c, t, (i8, f32)));
        let py = (Side::Tensor, Side::Python);
        let c = PairCondition::parse("kind(lhs) >= kind(rhs)").unwrap();
        assert!(holds(&c, py, (f32, PyScalar::Float.index())));
        assert!(!holds(&c, py, (i8, PyScalar::Float.index())));
        // A Python int is the same dtype as an i64 tensor when `[python] int = "i64"`.
        let same = PairCondition::parse("lhs == rhs").unwrap();
        assert!(holds(&same, py, (DType::I64.index(), PyScalar::Int.index())));
        assert!(!holds(&same, py, (i8, PyScalar::Int.index())));
        let c = PairCondition::parse("kind(lhs) == integer or kind(rhs) == integer and lhs != rhs").unwrap();
        assert!(holds(&c, t, (i8, i8)) && holds(&c, t, (f32, i8)) && !holds(&c, t, (f32, f32)));
        let u8 = DType::U8.index();
        assert!(holds(&c, t, (u8, i8)) && !holds(&c, t, (f32, DType::F64.index())));
        assert!(PairCondition::parse("lhs ~ rhs").is_err());
        assert!(PairCondition::parse("lhs == rhs or").is_err());
        assert!(PairCondition::parse("kind(lhs) < quaternion").is_err());
    }
}
