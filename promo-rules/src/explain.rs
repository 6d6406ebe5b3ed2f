//! `promo explain`: which statement of a rule file decided a pair, and how.

use crate::derive::{Join, Node};
use crate::model::{Derivation, ResultRule, RuleFile};
use crate::Diagnostic;
use promo_table::{Cell, ListRule, Op, OpKind, Operand, Options, Refusal};
use std::fmt::Write as _;
use std::ops::Range;

/// Explains `op` on `operands` of any arity (docs/operations.md), written into an
/// array like `out` if one is given: the result and the dtype it is computed in,
/// then each cell the answer reads, explained as [`explain`] explains a pair: the
/// diagonal (x, x) of a unary operation or reduction, each step of a list's fold,
/// the operation and the store of an in-place or `out=` operation.
#[allow(clippy::too_many_arguments)]
pub fn explain_operation(
    rules: &RuleFile,
    path: &str,
    src: &str,
    options: &Options,
    op: Op,
    operands: &[Operand],
    out: Option<Operand>,
) -> String {
    rules.with_table(|table| {
        // One cell of two operands, as before: the pair's explanation, the compute
        // dtype added where it differs.
        if let (None, &[a, b], false) = (out, operands, op.on_diagonal()) {
            let plain = !matches!(op.kind(), OpKind::List | OpKind::Inplace(_))
                || (op.kind() != OpKind::List && !table.supports(Op::Store));
            if plain {
                let one = explain(rules, path, src, options, op, a, b);
                return match table.apply(options, op, operands, None) {
                    Ok(o) if o.compute != o.result.dtype => {
                        one.replacen('\n', &format!(" (computed in {})\n", o.compute), 1)
                    }
                    _ => one,
                };
            }
        }
        let mut text = String::new();
        let listed: Vec<String> = operands.iter().map(Operand::to_string).collect();
        let into = out.map_or(String::new(), |o| format!(", out={o}"));
        let shown = match table.apply(options, op, operands, out) {
            Ok(o) if o.compute != o.result.dtype => format!("{} (computed in {})", o.result, o.compute),
            Ok(o) => o.result.to_string(),
            Err(e) => refusal_text(rules, &e),
        };
        let _ = writeln!(
            text,
            "{}: {op}({}{into}) = {shown}",
            rules.name,
            listed.join(", ")
        );
        // The cells the answer reads, each explained as a pair.
        let mut cells: Vec<(Op, Operand, Operand)> = Vec::new();
        let mut done: Option<Operand> = None;
        match (op.kind(), operands) {
            (OpKind::Unary | OpKind::Reduction, &[x]) => {
                cells.push((op, x, x));
                done = table.promote_result(options, op, x, x).ok().map(|p| p.operand());
            }
            (OpKind::List, [first, rest @ ..]) if table.list == ListRule::Fold => {
                let mut acc = Some(*first);
                for &next in rest {
                    let Some(l) = acc else { break };
                    cells.push((op, l, next));
                    acc = table
                        .promote_result(options, op, l, next)
                        .ok()
                        .map(|p| p.operand());
                }
                done = acc;
            }
            (OpKind::List, _) => {
                let how = match table.list {
                    ListRule::Sequence => {
                        "the list reduced as a sequence (`list = \"sequence\"`): of two dtypes the one later in `list_order` answers with its cell, the list halved from both ends until the most knowledgeable stands first"
                    }
                    _ => "the list taken at once (`list = \"common\"`): the answer every pair's cell gives back",
                };
                let _ = writeln!(text, "  {how}");
                return text;
            }
            (OpKind::Inplace(base), &[a, b]) if table.supports(Op::Store) => {
                let _ = writeln!(text, "  {op}({a}, {b}) is store({base}({a}, {b}), {a})");
                cells.push((base, a, b));
                if let Ok(r) = table.promote_result(options, base, a, b) {
                    cells.push((Op::Store, r.operand(), a));
                }
            }
            (_, &[a, b]) => {
                cells.push((op, a, b));
                done = table.promote_result(options, op, a, b).ok().map(|p| p.operand());
            }
            _ => {}
        }
        if let (Some(into), Some(r)) = (out, done) {
            cells.push((table.store_for(op), r, into));
        }
        for (cell_op, l, r) in cells {
            let one = explain(rules, path, src, options, cell_op, l, r);
            let mut lines = one.lines();
            if let Some(head) = lines.next() {
                let head = head.strip_prefix(&format!("{}: ", rules.name)).unwrap_or(head);
                let head = if cell_op.on_diagonal() {
                    head.replacen(
                        &format!("({l}, {r})"),
                        &format!("({l}) on the diagonal ({l}, {l})"),
                        1,
                    )
                } else {
                    head.to_owned()
                };
                let _ = writeln!(text, "  {head}");
            }
            for line in lines {
                let _ = writeln!(text, "  {line}");
            }
        }
        text
    })
}

/// A refusal as `promo explain` shows it: with its reason's key.
fn refusal_text(rules: &RuleFile, e: &Refusal<'_>) -> String {
    match e {
        Refusal::Refused(reason) => {
            let key = rules.reasons.get(reason.index).map_or("", |(k, _)| k.as_str());
            format!("refused (!{key}): {reason}")
        }
        other => format!("refused: {other}"),
    }
}

/// Explains the answer of `rules` (read from `src` at `path`) for `op` on `lhs`
/// and `rhs` under `options`: the result, the layer that decided (its name and
/// `path:line:col`), the statement that gave the cell (a listed cell, an exception,
/// a derived `result` with its condition, or the lattice path to the least upper
/// bound), every `retype` layer the operands went through, in order, and whether a
/// Python scalar was typed as a tensor first.
pub fn explain(
    rules: &RuleFile,
    path: &str,
    src: &str,
    options: &Options,
    op: Op,
    lhs: Operand,
    rhs: Operand,
) -> String {
    let at = |span: &Range<usize>| {
        let (line, col) = Diagnostic::new("", span.clone()).line_col(src);
        format!("{path}:{line}:{col}")
    };
    rules.with_table(|table| {
        let mut out = String::new();
        // The result as `promo query` prints it: `weak:f64` for a weakly typed one.
        let answer = table.promote_result(options, op, lhs, rhs);
        let shown = match &answer {
            Ok(p) => p.to_string(),
            Err(e) => refusal_text(rules, e),
        };
        let _ = writeln!(out, "{}: {op}({lhs}, {rhs}) = {shown}", rules.name);
        if matches!(
            answer,
            Err(Refusal::UnsupportedOp(_) | Refusal::UnsupportedDType(_) | Refusal::TwoPythonScalars)
        ) {
            let _ = writeln!(out, "  decided before any layer: the rule set does not take these operands");
            return out;
        }
        let Some(trace) = table.trace(options, op, lhs, rhs) else {
            let _ = writeln!(out, "  no layer has a rule for this pair");
            return out;
        };
        let layer = &rules.layers[trace.layer];
        let _ = writeln!(
            out,
            "  decided by layer {} of {}, \"{}\" ({})",
            trace.layer + 1,
            rules.layers.len(),
            layer.name,
            at(&layer.span)
        );
        if !layer.when.is_empty() {
            let conditions: Vec<String> = layer
                .when
                .iter()
                .map(|c| {
                    let o = &rules.options[c.option as usize];
                    let spec = table.options[c.option as usize];
                    format!("{} = {}", o.name, spec.format_value(c.value))
                })
                .collect();
            let _ = writeln!(out, "  when {}", conditions.join(", "));
        }
        // The operands as the layer saw them.
        let typed = |o: Operand| match o {
            Operand::Python(k) if trace.python_typed => rules.python[k.index()].unwrap_or(o),
            other => other,
        };
        let (mut l, mut r) = (typed(lhs), typed(rhs));
        // The walk went through every retyping layer before the deciding one that
        // applies, in order, each retyping the operands as the one before left them.
        let walked = if trace.retyped_by.is_some() { trace.layer } else { 0 };
        let retypings = (0..walked)
            .filter(|&i| !rules.layers[i].retype.is_empty() && table.layers[i].applies(options, op));
        for (nth, index) in retypings.enumerate() {
            let retyping = &rules.layers[index];
            let retyped = |o: Operand| {
                o.dtype()
                    .and_then(|d| retyping.retype.iter().find(|(a, _)| *a == d))
                    .map_or(o, |&(_, b)| o.with_dtype(b))
            };
            let (rl, rr) = (retyped(l), retyped(r));
            let changed: Vec<String> = [(l, rl), (r, rr)]
                .iter()
                .filter(|(was, now)| was != now)
                .map(|(was, now)| format!("{} as {}", node_name(*was), node_name(*now)))
                .collect();
            let map: Vec<String> = retyping.retype.iter().map(|(a, b)| format!("{a} as {b}")).collect();
            let here = if changed.is_empty() {
                "neither operand is one of them".to_owned()
            } else {
                format!("here {}", changed.join(" and "))
            };
            let _ = writeln!(
                out,
                "  {} by layer {}, \"{}\" ({}): {}, the answer mapped the same way; {here}",
                if nth == 0 { "operands retyped first" } else { "then retyped" },
                index + 1,
                retyping.name,
                at(&retyping.span),
                map.join(", ")
            );
            (l, r) = (rl, rr);
        }
        if trace.python_typed {
            for o in [lhs, rhs] {
                if let Operand::Python(k) = o {
                    if let Some(t) = rules.python[k.index()] {
                        let typed = match t {
                            Operand::Weak(d) => format!("a weakly typed tensor of dtype {d}"),
                            other => format!("a tensor of dtype {}", key_name(other)),
                        };
                        let _ = writeln!(
                            out,
                            "  no layer speaks of a Python {k} here: it is typed as {typed} ([python])"
                        );
                    }
                }
            }
        }
        if trace.swapped {
            std::mem::swap(&mut l, &mut r);
            let _ = writeln!(
                out,
                "  the layer answers ({l}, {r}); the rule set is commutative"
            );
        }
        if layer.mirror {
            let _ = writeln!(
                out,
                "  mirrored: the statement as written answers ({}, {}), the operands exchanged",
                key_name(r),
                key_name(l)
            );
        }
        if !layer.promoted.is_empty() {
            let (pl, pr) = if trace.swapped { (r, l) } else { (l, r) };
            if let Some(below) = table.trace_after(trace.layer, options, op, pl, pr) {
                let promoted = match below.cell {
                    promo_table::Cell::Is(d) => d.name().to_owned(),
                    promo_table::Cell::Weak(d) => format!("{d}*"),
                    other => format!("{other:?}"),
                };
                let _ = writeln!(
                    out,
                    "  applies because the layers after it promote the pair to {promoted} (layer {}, \"{}\"), one of `promoted`",
                    below.layer + 1,
                    rules.layers[below.layer].name
                );
            }
        }
        let cell_span = cell_span(rules, trace.layer, l, r);
        match &layer.how {
            Derivation::Matrix => {
                let _ = writeln!(
                    out,
                    "  listed in its matrix: row {}, column {} ({})",
                    key_name(l),
                    key_name(r),
                    cell_span.as_ref().map_or(String::new(), &at)
                );
            }
            Derivation::Cells => {
                let text = cell_span.as_ref().and_then(|s| src.get(s.clone())).unwrap_or("?");
                let _ = writeln!(
                    out,
                    "  an exception, listed as `{} {} = {text}` ({})",
                    key_name(l),
                    key_name(r),
                    cell_span.as_ref().map_or(String::new(), &at)
                );
            }
            // A retyping layer never decides: the walk goes on below it.
            Derivation::Retype => {}
            Derivation::Result {
                rule,
                condition,
                strong,
            } => {
                let written = cell_span
                    .as_ref()
                    .and_then(|s| src.get(s.clone()))
                    .unwrap_or("?")
                    .trim_matches(['"', '\'']);
                let place = cell_span.as_ref().map_or(String::new(), &at);
                match rule {
                    ResultRule::Lub | ResultRule::WeakLub => {
                        let weak_lub = *rule == ResultRule::WeakLub;
                        if weak_lub {
                            let _ = writeln!(out, "  result = \"lub*\": the least upper bound of the operands' dtypes in the [lattice], weakly typed ({place})");
                        } else {
                            let _ = writeln!(out, "  result = \"lub\": the least upper bound in the [lattice] ({place})");
                        }
                        let top = match trace.cell {
                            Cell::Is(d) => Some(Node::from(d)),
                            Cell::Weak(d) => Some(Node { dtype: d, weak: true }),
                            _ => None,
                        };
                        if let Some(lattice) = &rules.lattice {
                            // A weakly typed operand joins as `weak_operands` says.
                            for o in [l, r] {
                                let Some(node) = operand_node(rules, o) else { continue };
                                let entry = lattice.entry(node);
                                if entry != node && !weak_lub {
                                    let _ = writeln!(out, "    {node} joins as {entry} (weak_operands)");
                                }
                            }
                        }
                        // `lub*` joins the dtypes as strongly typed ones; `lub` the nodes
                        // the operands join as.
                        let joined = |o: Operand| {
                            let node = operand_node(rules, o)?;
                            let lattice = rules.lattice.as_ref()?;
                            Some(if weak_lub {
                                Node::from(node.dtype)
                            } else {
                                lattice.entry(node)
                            })
                        };
                        if let (Some(a), Some(b), Some(lattice), Some(top)) =
                            (joined(l), joined(r), &rules.lattice, top)
                        {
                            // Under `strong`, the bound may be the weak type of the
                            // answer; under `lub*`, the strong type of the answer.
                            let bound = lattice.join(a, b);
                            let top = match bound {
                                Join::Bound(n) if *strong || weak_lub => n,
                                _ => top,
                            };
                            if let Join::Bound(_) = bound {
                                for from in if a == b { vec![a] } else { vec![a, b] } {
                                    if from == top {
                                        let _ = writeln!(out, "    {top} is itself the bound");
                                    } else if let Some(chain) = lattice.path(from, top) {
                                        let names: Vec<String> = chain.iter().map(|d| d.to_string()).collect();
                                        let _ = writeln!(out, "    {}", names.join(" -> "));
                                    }
                                }
                            }
                        }
                    }
                    ResultRule::Cell(_) => {
                        let _ = writeln!(out, "  result = \"{written}\" for the pairs it covers ({place})");
                    }
                }
                if let Some(c) = condition {
                    let _ = writeln!(out, "  where {}", c.text);
                }
                if *strong && matches!(trace.cell, Cell::Is(_)) {
                    let _ = writeln!(out, "  strong = true: the result is strongly typed, whatever the operands' weakness");
                }
            }
        }
        out
    })
}

/// Where the cell of (`l`, `r`) of a layer was written.
fn cell_span(rules: &RuleFile, layer: usize, l: Operand, r: Operand) -> Option<Range<usize>> {
    let layer = &rules.layers[layer];
    let (row_key, col_key) = (layer.lhs.key(l)?, layer.rhs.key(r)?);
    let row = layer.rows.iter().position(|&k| k == row_key)?;
    let col = layer.cols.iter().position(|&k| k == col_key)?;
    layer.spans.get(row * layer.cols.len() + col).cloned()
}

/// An operand as the lattice names it: a weakly typed one with `*` (`f64*`).
fn node_name(o: Operand) -> String {
    match o {
        Operand::Weak(d) => format!("{d}*"),
        other => key_name(other),
    }
}

fn key_name(o: Operand) -> String {
    match o {
        Operand::Dimensioned(d) | Operand::Scalar(d) | Operand::Weak(d) => d.to_string(),
        Operand::Python(k) => k.to_string(),
    }
}

/// The lattice's type for an operand: its dtype, weak or not, or a Python scalar's
/// `[python]` type.
fn operand_node(rules: &RuleFile, o: Operand) -> Option<Node> {
    match o {
        Operand::Python(k) => rules.python[k.index()].and_then(Node::of),
        other => Node::of(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use promo_table::DType;

    #[test]
    fn a_refusal_names_its_own_reason_key_when_two_are_worded_alike() {
        let rules = crate::load("twin.toml", TWIN).unwrap();
        let (i8, u8) = (Operand::Dimensioned(DType::I8), Operand::Dimensioned(DType::U8));
        let options = Options::from_values(&[]);
        let first_line = |lhs, rhs| {
            let text = explain(&rules, "twin.toml", TWIN, &options, Op::Add, lhs, rhs);
            text.lines().next().unwrap_or_default().to_owned()
        };
        assert_eq!(
            first_line(i8, u8),
            "twin: add(i8, u8) = refused (!first): mixed signedness"
        );
        assert_eq!(
            first_line(u8, i8),
            "twin: add(u8, i8) = refused (!second): mixed signedness"
        );
    }

    /// Two reasons worded alike.
    const TWIN: &str = include_str!("../../tests/data/twin_reasons.toml");
}
