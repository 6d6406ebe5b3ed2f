//! Row and column selectors: what a `rows` or `cols` entry names on a side.

use super::KIND_NAMES;
use promo_table::{Category, DType, PyScalar, Side};

/// The keys a `rows`/`cols` entry selects on a side: a dtype of the rule set, a
/// kind (`integer`, `signed`, `unsigned`, `float`, `complex`; `bool` is the dtype),
/// a class of `[dtype_classes]` (`classes`, in name order, each with the dtype and
/// kind names it stands for: it selects what they select), or on a Python side a
/// Python scalar kind.
pub fn select(
    side: Side,
    name: &str,
    dtypes: &[DType],
    classes: &[(String, Vec<String>)],
) -> Result<Vec<usize>, String> {
    if side != Side::Python {
        if let Ok(i) = classes.binary_search_by(|(c, _)| c.as_str().cmp(name)) {
            let mut keys: Vec<usize> = Vec::new();
            for member in &classes[i].1 {
                for k in select(side, member, dtypes, &[])? {
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
            }
            return Ok(keys);
        }
    }
    if side == Side::Any {
        // Tensors as on a tensor side, and weakly typed tensors of those dtypes; a
        // kind also selects the Python scalar of that kind (`integer`: a Python int).
        let tensors = select(Side::Tensor, name, dtypes, classes)?;
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
                "unknown dtype, kind or dtype class `{name}`: expected a dtype of `rules.dtypes`, `integer`, `signed`, `unsigned`, `float`, `complex` or a class of `[dtype_classes]`"
            )),
        },
    }
}
