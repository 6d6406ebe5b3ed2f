//! Named groups that may name each other: `[op_classes]` (operations) and
//! `[dtype_classes]` (dtypes). One mechanism resolves both: each class once, after
//! the classes it names, a cycle an error.

use super::ctxt::Ctxt;
use crate::derive;
use promo_table::{DType, Op, PyScalar, Side};
use std::collections::BTreeMap;
use toml::Spanned;

/// A table of classes as the file writes it: each name with its members.
type RawClasses = BTreeMap<String, Spanned<Vec<Spanned<String>>>>;

/// What a member name is, as far as the classes go.
pub(super) enum ClassRef<'c, T> {
    /// No class has this name.
    NotAClass,
    /// A class that did not resolve (its error is reported).
    Failed,
    /// A class, and what it stands for.
    Members(&'c [T]),
}

/// The resolved class called `name` in `classes` (in name order), if any.
pub(super) fn find_class<'c, T>(classes: &'c [(String, Vec<T>)], name: &str) -> ClassRef<'c, T> {
    match classes.binary_search_by(|(c, _)| c.as_str().cmp(name)) {
        Ok(i) => ClassRef::Members(&classes[i].1),
        Err(_) => ClassRef::NotAClass,
    }
}

/// Resolves every class of `table`, each after the classes it names; `is_member`
/// says which names are members in their own right (an operation, a dtype), never
/// classes, and `resolve_one` resolves one class given a lookup of the classes
/// resolved so far. The classes come out in name order, those that resolve.
///
/// The order is that of the strongly connected components of the graph of classes
/// (Tarjan's algorithm, without recursion), so a chain of thousands of classes
/// takes linear time; a component of more than one class (or a class naming
/// itself) is a cycle, each of its classes an error.
fn resolve_classes<T>(
    cx: &mut Ctxt,
    table: &RawClasses,
    what: &str,
    is_member: impl Fn(&str) -> bool,
    mut resolve_one: impl for<'c> FnMut(
        &mut Ctxt,
        &str,
        &Spanned<Vec<Spanned<String>>>,
        &dyn Fn(&str) -> ClassRef<'c, T>,
    ) -> Option<Vec<T>>,
) -> Vec<(String, Vec<T>)> {
    let names: Vec<&String> = table.keys().collect();
    let lists: Vec<&Spanned<Vec<Spanned<String>>>> = table.values().collect();
    // The class a member names: not a member's own name, and a key of the table
    // (a class with a member's name is an error, and the name the member).
    let class_of = |member: &str| {
        if is_member(member) {
            return None;
        }
        names.binary_search_by(|n| n.as_str().cmp(member)).ok()
    };
    const UNSEEN: usize = usize::MAX;
    let n = names.len();
    // Tarjan's bookkeeping: visit order, lowest order reachable, on the stack.
    let (mut order, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
    let mut names_itself = vec![false; n];
    let mut component_stack = Vec::new();
    let mut resolved: Vec<Option<Option<Vec<T>>>> = (0..n).map(|_| None).collect();
    let mut visited = 0;
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        // The walk: each class with the position of its next member to follow.
        let mut walk = vec![(root, 0)];
        order[root] = visited;
        low[root] = visited;
        visited += 1;
        component_stack.push(root);
        on_stack[root] = true;
        while let Some(&(class, next)) = walk.last() {
            let members = lists[class].get_ref();
            if let Some(member) = members.get(next) {
                walk.last_mut().expect("a class on the walk").1 += 1;
                let Some(named) = class_of(member.get_ref()) else {
                    continue;
                };
                if named == class {
                    names_itself[class] = true;
                } else if order[named] == UNSEEN {
                    order[named] = visited;
                    low[named] = visited;
                    visited += 1;
                    component_stack.push(named);
                    on_stack[named] = true;
                    walk.push((named, 0));
                } else if on_stack[named] {
                    low[class] = low[class].min(order[named]);
                }
                continue;
            }
            // Every member followed: the class is done.
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent] = low[parent].min(low[class]);
            }
            if low[class] != order[class] {
                continue;
            }
            // `class` roots a component: the classes above it on the stack.
            let at = component_stack
                .iter()
                .rposition(|&c| c == class)
                .expect("a component's root is on the stack");
            let component = component_stack.split_off(at);
            let cycle = component.len() > 1 || names_itself[class];
            for &c in &component {
                on_stack[c] = false;
                if cycle {
                    cx.error(
                        format!("{what} `{}` names itself through other classes", names[c]),
                        lists[c].span(),
                    );
                    resolved[c] = Some(None);
                }
            }
            if !cycle {
                let lookup = |member: &str| match class_of(member).map(|c| &resolved[c]) {
                    Some(Some(Some(members))) => ClassRef::Members(members.as_slice()),
                    Some(_) => ClassRef::Failed,
                    None => ClassRef::NotAClass,
                };
                let out = resolve_one(cx, names[class], lists[class], &lookup);
                resolved[class] = Some(out);
            }
        }
    }
    names
        .into_iter()
        .zip(resolved)
        .filter_map(|(name, members)| Some((name.clone(), members.flatten()?)))
        .collect()
}

/// A class name is lowercase letters, digits and `_`, and not a member's name.
fn check_class_name(
    cx: &mut Ctxt,
    what: &str,
    name: &str,
    members: &Spanned<Vec<Spanned<String>>>,
    taken: Option<&str>,
) -> bool {
    if let Some(taken) = taken {
        cx.error(
            format!("{what} `{name}` has the name of {taken}: choose another name"),
            members.span(),
        );
        return false;
    }
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        cx.error(
            format!("bad {what} name `{name}`: use lowercase letters, digits and `_`"),
            members.span(),
        );
        return false;
    }
    true
}

/// Operations are API names, and a layer's operations are among the rule set's; a
/// layer may also name a class of `[op_classes]` (`class` says which names are
/// classes), which stands for its operations.
pub(super) fn resolve_ops<'c>(
    cx: &mut Ctxt,
    names: &[Spanned<String>],
    allowed: &[Op],
    class: impl Fn(&str) -> ClassRef<'c, Op>,
) -> Vec<Op> {
    let mut out = Vec::new();
    for name in names {
        match class(name.get_ref()) {
            ClassRef::Members(members) => {
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
            ClassRef::Failed => continue,
            ClassRef::NotAClass => {}
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
/// (without a cycle); a class name is not an operation's name, and is lowercase
/// letters, digits and `_`. The classes come out in name order, those that
/// resolve.
pub(super) fn resolve_op_classes(cx: &mut Ctxt, table: &RawClasses, ops: &[Op]) -> Vec<(String, Vec<Op>)> {
    let is_op = |name: &str| Op::parse_name(name).is_some();
    resolve_classes(cx, table, "op class", is_op, |cx, name, members, lookup| {
        let taken = is_op(name).then_some("an operation");
        if !check_class_name(cx, "op class", name, members, taken) {
            return None;
        }
        let resolved = resolve_ops(cx, members.get_ref(), ops, lookup);
        if resolved.is_empty() && members.get_ref().is_empty() {
            cx.error(format!("op class `{name}` has no operations"), members.span());
        }
        Some(resolved)
    })
}

/// `[dtype_classes]` name groups of the rule set's dtypes: each member a dtype of
/// `rules.dtypes`, a kind (`integer`, `signed`, `unsigned`, `float`, `complex`) or
/// another class (without a cycle). A class name is lowercase letters, digits and
/// `_`, and neither a dtype's, a kind's nor a Python scalar kind's name; no dtype is
/// in a class twice. Each class comes out as the dtype and kind names it stands for
/// (another class's written out), so that it selects what its members would, on
/// every side (a kind on an `any` side also selects its Python scalar); the classes
/// come out in name order, those that resolve.
pub(super) fn resolve_dtype_classes(
    cx: &mut Ctxt,
    table: &RawClasses,
    dtypes: &[DType],
) -> Vec<(String, Vec<String>)> {
    let taken = |name: &str| {
        if derive::KIND_NAMES.contains(&name)
            || ["signed", "unsigned"].contains(&name)
            || PyScalar::parse_name(name).is_some()
        {
            Some("a kind")
        } else if DType::parse_name(name).is_some() {
            Some("a dtype")
        } else {
            None
        }
    };
    resolve_classes(
        cx,
        table,
        "dtype class",
        |name| taken(name).is_some(),
        |cx, name, members, lookup| {
            if !check_class_name(cx, "dtype class", name, members, taken(name)) {
                return None;
            }
            if members.get_ref().is_empty() {
                cx.error(format!("dtype class `{name}` has no dtypes"), members.span());
                return None;
            }
            let (mut leaves, mut seen): (Vec<String>, Vec<DType>) = (Vec::new(), Vec::new());
            let errors_before = cx.reported();
            for member in members.get_ref() {
                let named: Vec<String> = match lookup(member.get_ref()) {
                    ClassRef::Members(names) => names.to_vec(),
                    ClassRef::Failed => continue,
                    ClassRef::NotAClass => vec![member.get_ref().clone()],
                };
                for leaf in named {
                    let selected = match derive::select(Side::Tensor, &leaf, dtypes, &[]) {
                        Ok(keys) => keys,
                        Err(message) => {
                            cx.error(message, member.span());
                            continue;
                        }
                    };
                    for d in selected.into_iter().filter_map(DType::from_index) {
                        if seen.contains(&d) {
                            cx.error(
                                format!("dtype `{d}` is in dtype class `{name}` twice"),
                                member.span(),
                            );
                        }
                        seen.push(d);
                    }
                    leaves.push(leaf);
                }
            }
            (cx.reported() == errors_before).then_some(leaves)
        },
    )
}
