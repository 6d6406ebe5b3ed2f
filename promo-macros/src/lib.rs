//! The `rules!` proc-macro: reads one promo rule file at compile time and emits,
//! into a module named after the rule set, its marker types, a `const` run-time
//! table, `Promote` impls for every pair of element types, and a diagnostic trait
//! per refusal reason so that a refused pair fails to compile with the reason.
//!
//! The entry point only reads the input; `expand::expand` does the work on
//! `proc_macro2` tokens and is unit-tested.

mod expand;

use proc_macro::TokenStream;

/// `rules!("rules/openvino.toml")`: the rule set in that file, as Rust items.
///
/// A relative path is resolved against the manifest directory of the crate that
/// invokes the macro (`CARGO_MANIFEST_DIR`), so `rules!("rules/mine.toml")` in any
/// crate reads that crate's `rules/mine.toml`. A path that starts with `./` or `../`
/// is relative to the invoking source file instead, as with `include_str!`. The file
/// is tracked: editing it rebuilds the crate. A bad rule file is a compile error per
/// problem, each naming `--> path:line:col`.
#[proc_macro]
pub fn rules(input: TokenStream) -> TokenStream {
    let path = syn::parse_macro_input!(input as syn::LitStr);
    expand::expand_path(&path).into()
}

/// The `At` impls of the tuples promo-core's type-level rows are made of: one per
/// column of a tuple of `DType::COUNT` entries (every dtype) and of four (the Python
/// kinds). Invoked once, in promo-core's `rows` module, where `At` and `Col` are.
#[doc(hidden)]
#[proc_macro]
pub fn __row_access(_: TokenStream) -> TokenStream {
    expand::row_access().into()
}
