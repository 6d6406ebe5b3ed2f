//! The `[lattice]` resolved: the names of its parsed `edges` to nodes of
//! `rules.dtypes`, the order built from them ([`Lattice::build`]), and
//! `weak_operands`.

use super::ctxt::Ctxt;
use crate::derive::{self, Chain, Lattice, Node};
use crate::parse::{RawLattice, TypeName};
use promo_table::{DType, Side};
use std::collections::BTreeMap;
use toml::Spanned;

/// `[lattice]`: edges between accepted dtypes, without cycles, where every pair
/// with an upper bound has a least one.
pub(super) fn resolve_lattice(
    cx: &mut Ctxt,
    lattice: &RawLattice,
    dtypes: &[DType],
    classes: &[(String, Vec<String>)],
) -> Option<Lattice> {
    let errors_before = cx.reported();
    let chains: Vec<Chain> = lattice
        .edges
        .get_ref()
        .iter()
        .map(|line| {
            let group = |names: &Vec<Spanned<TypeName>>| {
                names
                    .iter()
                    .filter_map(|name| Some((lattice_node(cx, name, dtypes)?, name.span())))
                    .collect()
            };
            line.groups.iter().map(group).collect()
        })
        .collect();
    if lattice.malformed || cx.reported() > errors_before {
        return None;
    }
    let mut built = match Lattice::build(&chains) {
        Ok(l) => l,
        Err(errors) => {
            for e in errors {
                cx.error(e.message, e.span);
            }
            return None;
        }
    };
    if let Some(map) = &lattice.weak_operands {
        built.weak_operands = resolve_weak_operands(cx, map, &built, dtypes, classes)?;
    }
    Some(built)
}

/// A node of the lattice's `edges`: a dtype of `rules.dtypes`, or its weak type.
fn lattice_node(cx: &mut Ctxt, name: &Spanned<TypeName>, dtypes: &[DType]) -> Option<Node> {
    match node(name.get_ref()) {
        Ok(n) if dtypes.contains(&n.dtype) => Some(n),
        Ok(n) => {
            let message = format!("lattice dtype `{}` is not in `rules.dtypes`", n.dtype);
            cx.error(message, name.span());
            None
        }
        Err(message) if message.starts_with("unknown dtype") => {
            cx.error(format!("{message} in the lattice"), name.span());
            None
        }
        Err(message) => {
            cx.error(message, name.span());
            None
        }
    }
}

/// The node a type name names: a dtype by its canonical name, weak with `*`.
fn node(name: &TypeName) -> Result<Node, String> {
    match DType::parse_name(&name.name) {
        Some(dtype) if dtype.name() == name.name => Ok(Node {
            dtype,
            weak: name.weak,
        }),
        Some(d) => Err(format!(
            "write dtype `{}` by its canonical name `{}`",
            name.name,
            d.name()
        )),
        None => Err(format!("unknown dtype `{name}`")),
    }
}

/// `weak_operands = { integer = "i64*" }`: each key a dtype or kind of
/// `rules.dtypes`, each value a node of the lattice, no dtype selected twice.
fn resolve_weak_operands(
    cx: &mut Ctxt,
    map: &Spanned<BTreeMap<String, Spanned<TypeName>>>,
    lattice: &Lattice,
    dtypes: &[DType],
    classes: &[(String, Vec<String>)],
) -> Option<Vec<(DType, Node)>> {
    let errors_before = cx.reported();
    if map.get_ref().is_empty() {
        cx.error("`weak_operands` must map at least one dtype or kind", map.span());
    }
    let mut out: Vec<(DType, Node)> = Vec::new();
    for (key, to) in map.get_ref() {
        let selected = match derive::select(Side::Tensor, key, dtypes, classes) {
            Ok(keys) => keys,
            Err(message) => {
                cx.error(message, to.span());
                continue;
            }
        };
        let node = match node(to.get_ref()) {
            Ok(n) if lattice.contains(n) => n,
            Ok(n) => {
                cx.error(format!("`{n}` is not a node of the lattice"), to.span());
                continue;
            }
            Err(message) => {
                cx.error(message, to.span());
                continue;
            }
        };
        for d in selected.into_iter().filter_map(DType::from_index) {
            if out.iter().any(|&(x, _)| x == d) {
                cx.error(
                    format!("`{d}` is selected by two keys of `weak_operands`"),
                    to.span(),
                );
            }
            out.push((d, node));
        }
    }
    (cx.reported() == errors_before).then_some(out)
}
