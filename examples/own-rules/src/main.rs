//! A crate with its own rule file: the rule set becomes the module `mini`, with the
//! marker type `Mini`, `Promote` impls for promo-core's element types, and `TABLE`.

use promo_core::{Arithmetic, DType, Element, Promoted, PromoteArith};

promo_core::rules!("rules/mini.toml");

use mini::Mini;

/// Adds two numbers of different types in the type the rule set promotes them to:
/// both are cast to it with ONNX `Cast`, and the sum is computed there.
fn add<A: Element, B: Element>(a: A, b: B) -> <Mini as PromoteArith<A, B>>::Common
where
    Mini: PromoteArith<A, B>,
{
    let (x, y) = Mini::convert(a, b);
    x.add(y)
}

fn main() {
    let sum = add(100i8, 1000i16);
    println!("compile time: i8 + i16 = {sum} ({})", DType::of::<Promoted<Mini, i8, i16>>());
    let dtypes = [DType::I8, DType::I16, DType::U8, DType::F32];
    for a in dtypes {
        let row: Vec<String> = dtypes
            .iter()
            .map(|&b| match promo_core::promote(&mini::TABLE, a, b) {
                Ok(d) => d.to_string(),
                Err(_) => "refused".to_owned(),
            })
            .collect();
        println!("{a:>4}: {}", row.join(" "));
    }
}
