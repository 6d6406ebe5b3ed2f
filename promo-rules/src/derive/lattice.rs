//! The `[lattice]`: edges `a -> b` between dtypes (and weak types), and the least
//! upper bound of two nodes, or why there is none.

use crate::diagnostic::Diagnostic;
use promo_table::{Cell, DType, Operand};
use std::ops::Range;

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

/// One line of `edges` with its names resolved: groups of nodes, lowest first,
/// every node of a group below every node of the next; each node with where it is
/// written.
pub type Chain = Vec<Vec<(Node, Range<usize>)>>;

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
    /// `weak_operands`: the node a weakly typed operand of each listed dtype joins
    /// as (JAX's `_jax_type`: a weak `u8` is the weak integer type); a weak operand
    /// of a dtype not listed joins as its own weak type.
    pub weak_operands: Vec<(DType, Node)>,
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
    /// Builds the order from `chains`, the lines of `edges` with their names
    /// resolved (each line's groups, each node with where it is written: every
    /// node of a group is below every node of the next), with every problem
    /// reported: cycles, and pairs without a unique least upper bound.
    pub fn build(chains: &[Chain]) -> Result<Lattice, Vec<Diagnostic>> {
        let mut nodes: Vec<Node> = Vec::new();
        let mut up: Vec<Vec<(usize, Range<usize>)>> = Vec::new();
        let mut named_at: Vec<Range<usize>> = Vec::new();
        for chain in chains {
            // The chain's groups, each node by its index.
            let groups: Vec<Vec<(usize, Range<usize>)>> = chain
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(|(d, span)| {
                            let i = nodes.iter().position(|n| n == d).unwrap_or_else(|| {
                                nodes.push(*d);
                                up.push(Vec::new());
                                named_at.push(span.clone());
                                nodes.len() - 1
                            });
                            (i, span.clone())
                        })
                        .collect()
                })
                .collect();
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
            weak_operands: Vec::new(),
        };
        let mut errors = Vec::new();
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

    /// Whether `n` is a node of the lattice.
    pub fn contains(&self, n: Node) -> bool {
        self.index(n).is_some()
    }

    /// The node an operand's type `n` joins as: for a weak type, the node
    /// [`Lattice::weak_operands`] lists for its dtype, if any; else `n` itself.
    pub fn entry(&self, n: Node) -> Node {
        if !n.weak {
            return n;
        }
        self.weak_operands
            .iter()
            .find(|(d, _)| *d == n.dtype)
            .map_or(n, |&(_, to)| to)
    }

    /// The least upper bound of two operands' types, each taken as the node it
    /// joins as ([`Lattice::entry`]).
    pub fn join_operands(&self, a: Node, b: Node) -> Join {
        self.join(self.entry(a), self.entry(b))
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The lattice of `edges` lines (`a b -> c`, `i64*` a weak type), every
    /// name a known dtype.
    pub(crate) fn build(edges: &str) -> Result<Lattice, Vec<Diagnostic>> {
        let node = |word: &str| {
            let (name, weak) = word.strip_suffix('*').map_or((word, false), |n| (n, true));
            let dtype = DType::parse_name(name).expect("a dtype");
            (Node { dtype, weak }, 0..0)
        };
        let chains: Vec<Chain> = edges
            .lines()
            .map(|line| {
                line.split(" -> ")
                    .map(|group| group.split_whitespace().map(node).collect())
                    .collect()
            })
            .collect();
        Lattice::build(&chains)
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
    fn a_weak_operand_joins_as_the_node_listed_for_its_dtype() {
        let mut l = build("bool -> i64* -> u8 i8\nu8 -> i16\ni8 -> i16").unwrap();
        let weak = |dtype| Node { dtype, weak: true };
        // Not listed: a weak u16 is its own weak type, which is no node.
        assert_eq!(
            l.join_operands(weak(DType::U16), DType::U8.into()),
            Join::Unrelated
        );
        l.weak_operands = vec![(DType::U16, weak(DType::I64)), (DType::Bool, DType::Bool.into())];
        assert_eq!(l.entry(weak(DType::U16)), weak(DType::I64));
        // Only weak types are mapped: a strong u16 stays itself.
        assert_eq!(l.entry(DType::U16.into()), DType::U16.into());
        assert_eq!(
            l.join_operands(weak(DType::U16), DType::U8.into()),
            Join::Bound(DType::U8.into())
        );
        assert_eq!(
            l.join_operands(weak(DType::U16), weak(DType::Bool)),
            Join::Bound(weak(DType::I64))
        );
        // An unlisted weak type that is a node joins as itself.
        assert_eq!(
            l.join_operands(weak(DType::I64), DType::I8.into()),
            Join::Bound(DType::I8.into())
        );
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
}
