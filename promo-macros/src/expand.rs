//! Stage 3: a checked rule set to Rust items.

use proc_macro2::{Ident, Span, TokenStream};
use promo_rules::model::{OptionDefKind, RuleFile};
use promo_rules::names::camel;
use promo_table::{Cell, DType, Op, Operand, OptionKind, OptionValue, PyScalar, Refusal, RuleTable, Side};
use quote::{format_ident, quote};
use std::path::PathBuf;

/// Reads, checks and expands the rule file named by `lit`; problems become
/// `compile_error!`s.
pub fn expand_path(lit: &syn::LitStr) -> TokenStream {
    let rel = lit.value();
    let full = match resolve(&rel, source_dir()) {
        Ok(full) => full,
        Err(msg) => return quote::quote_spanned!(lit.span()=> ::core::compile_error!(#msg);),
    };
    // The same bounded reader as the command line: a huge file or an endless
    // stream (`/dev/zero`) is refused after one byte past the limit.
    let src = match promo_rules::read_source(&full) {
        Ok(src) => src,
        Err(e) => {
            let msg = format!("cannot read rule file `{}`: {e}", full.display());
            return quote::quote_spanned!(lit.span()=> ::core::compile_error!(#msg););
        }
    };
    match promo_rules::load(&rel, &src) {
        Ok(rules) => expand(&rules, &rel, &full.to_string_lossy()),
        Err(diagnostics) => {
            let errors = diagnostics.errors.iter().map(|d| {
                let rendered = d.render(&rel, &src);
                // rustc prints its own `error: ` before the message.
                let msg = rendered.strip_prefix("error: ").unwrap_or(&rendered);
                quote::quote_spanned!(lit.span()=> ::core::compile_error!(#msg);)
            });
            let tracked = full.to_string_lossy().into_owned();
            quote! { #(#errors)* const _: &[u8] = ::core::include_bytes!(#tracked); }
        }
    }
}

/// The directory of the source file that invokes the macro, when it is a real file.
fn source_dir() -> Option<PathBuf> {
    // `Span::local_file` is only callable inside a running proc-macro.
    if !proc_macro::is_available() {
        return None;
    }
    let file = proc_macro::Span::call_site().local_file()?;
    let file = if file.is_relative() {
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?).join(file)
    } else {
        file
    };
    file.parent().map(PathBuf::from)
}

/// Where the rule file named `rel` lives.
///
/// A path that starts with `./` or `../` is relative to the directory of the source
/// file that invokes the macro, as `include_str!` does; any other relative path is
/// relative to the invoking crate's manifest directory (`CARGO_MANIFEST_DIR`), which
/// cargo sets for every crate it builds, so no environment of the user's is needed.
fn resolve(rel: &str, source_dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let path = std::path::Path::new(rel);
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    if rel.starts_with("./") || rel.starts_with("../") {
        return source_dir.map(|dir| dir.join(path)).ok_or_else(|| {
            format!("rule file `{rel}` is relative to the invoking source file, but this invocation has none; name it relative to the crate's manifest directory")
        });
    }
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => Ok(PathBuf::from(dir).join(path)),
        None => Err(format!(
            "rule file `{rel}` is relative to the crate's manifest directory, but `CARGO_MANIFEST_DIR` is not set (build with cargo)"
        )),
    }
}

/// The Rust type that stores `d`, if there is one (the promotion-only dtypes have
/// none): promo-table's element-type table, each type named through promo-core.
fn rust_type(d: DType) -> Option<TokenStream> {
    macro_rules! types {
        ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {
            match d {
                $(DType::$dtype => Some(types!(@$home $($ty)*)),)*
                _ => None,
            }
        };
        (@std $($ty:tt)*) => { quote!($($ty)*) };
        (@half $($ty:tt)*) => { quote!(::promo_core::__private::$($ty)*) };
        (@num_complex $($ty:tt)*) => { quote!(::promo_core::__private::$($ty)*) };
        (@narrow $($ty:tt)*) => { quote!(::promo_core::narrow::$($ty)*) };
    }
    promo_table::for_each_element_type!(types)
}

fn dtype_tokens(d: DType) -> TokenStream {
    let v = Ident::new(&format!("{d:?}"), Span::call_site());
    quote!(::promo_core::__private::table::DType::#v)
}

fn op_tokens(op: Op) -> TokenStream {
    let v = Ident::new(&format!("{op:?}"), Span::call_site());
    quote!(::promo_core::__private::table::Op::#v)
}

fn value_tokens(v: OptionValue) -> TokenStream {
    let t = quote!(::promo_core::__private::table);
    match v {
        OptionValue::Bool(b) => quote!(#t::OptionValue::Bool(#b)),
        OptionValue::DType(d) => {
            let d = dtype_tokens(d);
            quote!(#t::OptionValue::DType(#d))
        }
        OptionValue::Choice(i) => quote!(#t::OptionValue::Choice(#i)),
    }
}

fn side_tokens(s: Side) -> TokenStream {
    match s {
        Side::Tensor => quote!(::promo_core::__private::table::Side::Tensor),
        Side::Scalar => quote!(::promo_core::__private::table::Side::Scalar),
        Side::Dimensioned => quote!(::promo_core::__private::table::Side::Dimensioned),
        Side::Python => quote!(::promo_core::__private::table::Side::Python),
        Side::Weak => quote!(::promo_core::__private::table::Side::Weak),
        Side::Any => quote!(::promo_core::__private::table::Side::Any),
    }
}

fn cell_tokens(c: Cell) -> TokenStream {
    let t = quote!(::promo_core::__private::table::Cell);
    match c {
        Cell::Defer => quote!(#t::Defer),
        Cell::Is(d) => {
            let d = dtype_tokens(d);
            quote!(#t::Is(#d))
        }
        Cell::Weak(d) => {
            let d = dtype_tokens(d);
            quote!(#t::Weak(#d))
        }
        Cell::Lhs => quote!(#t::Lhs),
        Cell::Rhs => quote!(#t::Rhs),
        Cell::Option(i) => quote!(#t::Option(#i)),
        Cell::Refuse(r) => quote!(#t::Refuse(#r)),
    }
}

/// `text` inside a `#[diagnostic::on_unimplemented]` format string: `{` and `}`
/// doubled, so a rule file's braces print as themselves and name no parameter.
fn braces_as_text(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The `const` table: the [`RuleTable`] the rule file lends through
/// [`RuleFile::with_table`] (the one mapping from the model, the CLI's too), written
/// out as slices.
fn expand_table(rules: &RuleFile) -> TokenStream {
    rules.with_table(table_tokens)
}

/// A [`RuleTable`] as a `const` expression.
fn table_tokens(table: &RuleTable<'_>) -> TokenStream {
    let t = quote!(::promo_core::__private::table);
    let (name, title, version, commutative) = (table.name, table.title, table.version, table.commutative);
    let dtypes = table.dtypes.iter().map(|&d| dtype_tokens(d));
    let ops = table.ops.iter().map(|&o| op_tokens(o));
    let aliases = table.aliases.iter().map(|&(alias, d)| {
        let d = dtype_tokens(d);
        quote!((#alias, #d))
    });
    let options = table.options.iter().map(|o| {
        let (oname, doc, default) = (o.name, o.doc, value_tokens(o.default));
        let kind = match o.kind {
            OptionKind::Bool => quote!(#t::OptionKind::Bool),
            OptionKind::DType => quote!(#t::OptionKind::DType),
            OptionKind::Choice(words) => quote!(#t::OptionKind::Choice(&[#(#words),*])),
        };
        quote!(#t::OptionSpec { name: #oname, kind: #kind, default: #default, doc: #doc })
    });
    let python = table.python.iter().map(|p| {
        let typed = |d: DType, kind: TokenStream| {
            let d = dtype_tokens(d);
            quote!(::core::option::Option::Some(#t::Operand::#kind(#d)))
        };
        match *p {
            Some(Operand::Weak(d)) => typed(d, quote!(Weak)),
            Some(o) => match o.dtype() {
                Some(d) => typed(d, quote!(Dimensioned)),
                None => quote!(::core::option::Option::None),
            },
            None => quote!(::core::option::Option::None),
        }
    });
    let reasons = table.reasons.iter();
    let layers = table.layers.iter().map(|l| {
        let lname = l.name;
        let when = l.when.iter().map(|c| {
            let (opt, value) = (c.option, value_tokens(c.value));
            quote!(#t::Condition { option: #opt, value: #value })
        });
        let lops = l.ops.iter().map(|&o| op_tokens(o));
        let (lhs, rhs) = (side_tokens(l.lhs), side_tokens(l.rhs));
        let (row_of, col_of, width, statement_end) = (l.row_of, l.col_of, l.width, l.statement_end);
        let cells = l.cells.iter().map(|&c| cell_tokens(c));
        let promoted = l.promoted.iter().map(|&d| dtype_tokens(d));
        let (strong, continues) = (l.strong, l.continues);
        let retype = l.retype.iter().map(|&(a, b)| {
            let (a, b) = (dtype_tokens(a), dtype_tokens(b));
            quote!((#a, #b))
        });
        quote! {
            #t::Layer {
                name: #lname,
                when: &[#(#when),*],
                ops: &[#(#lops),*],
                lhs: #lhs,
                rhs: #rhs,
                row_of: &[#(#row_of),*],
                col_of: &[#(#col_of),*],
                width: #width,
                cells: &[#(#cells),*],
                promoted: &[#(#promoted),*],
                strong: #strong,
                statement_end: #statement_end,
                continues: #continues,
                retype: &[#(#retype),*],
            }
        }
    });
    let flat = match table.flatten() {
        Some(parts) => {
            let (radix, op_slot, op_slots, key_of, keys, cells) = (
                &parts.radix,
                &parts.op_slot,
                parts.op_slots,
                &parts.key_of,
                parts.keys,
                &parts.cells,
            );
            quote! {
                ::core::option::Option::Some(#t::Flat {
                    radix: &[#(#radix),*],
                    op_slot: &[#(#op_slot),*],
                    op_slots: #op_slots,
                    key_of: &[#(#key_of),*],
                    keys: #keys,
                    cells: &[#(#cells),*],
                })
            }
        }
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #t::RuleTable {
            name: #name,
            title: #title,
            version: #version,
            commutative: #commutative,
            dtypes: &[#(#dtypes),*],
            ops: &[#(#ops),*],
            aliases: &[#(#aliases),*],
            options: &[#(#options),*],
            python: [#(#python),*],
            reasons: &[#(#reasons),*],
            layers: &[#(#layers),*],
            flat: #flat,
        }
    }
}

/// Every item the rule file becomes.
pub fn expand(rules: &RuleFile, rel_path: &str, tracked_path: &str) -> TokenStream {
    let module = format_ident!("{}", rules.name);
    let table = expand_table(rules);
    let doc = format!(
        " {} (version {}), from `{rel_path}`.\n\n Verified: {}",
        rules.title, rules.version, rules.verified
    );
    let rules_name = &rules.name;
    let mut items = Vec::new();
    for mode in &rules.modes {
        let marker = format_ident!("{}", mode.marker);
        let settings: Vec<String> = rules
            .options
            .iter()
            .zip(&mode.values)
            .map(|(o, v)| {
                let shown = match (v, &o.kind) {
                    (OptionValue::Bool(b), _) => b.to_string(),
                    (OptionValue::DType(d), _) => d.to_string(),
                    (OptionValue::Choice(i), OptionDefKind::Choice(w)) => w[*i as usize].clone(),
                    (OptionValue::Choice(i), _) => i.to_string(),
                };
                format!("{}={shown}", o.name)
            })
            .collect();
        let who = if settings.is_empty() {
            rules.title.clone()
        } else {
            format!("{} ({})", rules.title, settings.join(", "))
        };
        let marker_doc = format!(" Marker type: {who}.");
        let values = mode.values.iter().map(|&v| value_tokens(v));
        items.push(quote! {
            #[doc = #marker_doc]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #marker;

            #[automatically_derived]
            impl ::promo_core::RuleSet for #marker {
                const TABLE: &'static ::promo_core::__private::table::RuleTable<'static> = &TABLE;
                const OPTIONS: ::promo_core::__private::table::Options =
                    ::promo_core::__private::table::Options::from_values(&[#(#values),*]);
            }
        });
        // One diagnostic trait per refusal reason of this marker.
        let options = promo_table::Options::from_values(&mode.values);
        let mut reason_traits = std::collections::BTreeMap::new();
        let mut pair_kernels = Vec::new();
        rules.with_table(|table| {
            let cx = PairCx {
                rules,
                table,
                options: &options,
                marker: &marker,
                marker_name: &mode.marker,
                who: &who,
                rules_name,
            };
            let promote = quote!(::promo_core::Promote);
            items.extend(cx.pair_impls(
                Op::Add,
                (&promote, &quote!()),
                &cx.operands(true),
                &mut reason_traits,
                Some(&mut pair_kernels),
            ));
            items.extend(cx.op_impls(&mut reason_traits));
        });
        items.extend(reason_traits.into_values());
        let slots = DType::COUNT * DType::COUNT;
        items.push(quote! {
            #[automatically_derived]
            impl ::promo_core::convert_promote::PairKernels for #marker {
                const PAIR_KERNELS: &'static [::core::option::Option<::promo_core::convert_promote::PairEntry>] = &{
                    let mut t: [::core::option::Option<::promo_core::convert_promote::PairEntry>; #slots] =
                        [::core::option::Option::None; #slots];
                    #(#pair_kernels)*
                    t
                };
            }
        });
    }
    quote! {
        #[doc = #doc]
        pub mod #module {
            /// The rule file's text, as `promo explain` reads it back.
            pub const SOURCE: &str = ::core::include_str!(#tracked_path);
            /// The rule file's path as the invocation named it.
            pub const PATH: &str = #rel_path;

            /// The rule set as a run-time table.
            pub const TABLE: ::promo_core::__private::table::RuleTable<'static> = #table;

            #(#items)*
        }
    }
}

/// The answers of one operation for every pair: a result, a refusal's reason key,
/// or none.
type Answers = Vec<Option<Result<DType, String>>>;

/// What the impls of one marker type are generated from.
struct PairCx<'a> {
    rules: &'a RuleFile,
    table: &'a promo_table::RuleTable<'a>,
    options: &'a promo_table::Options,
    marker: &'a Ident,
    marker_name: &'a str,
    who: &'a str,
    rules_name: &'a str,
}

impl PairCx<'_> {
    /// The answers of `op` for every pair of dtypes with Rust types: a result or
    /// the key of a refusal reason (`None` where the rule set has no answer).
    fn answers(&self, op: Op) -> Answers {
        let mut out = Vec::new();
        for &a in &self.rules.dtypes {
            for &b in &self.rules.dtypes {
                out.push(
                    match self.table.promote(
                        self.options,
                        op,
                        Operand::Dimensioned(a),
                        Operand::Dimensioned(b),
                    ) {
                        Ok(d) => Some(Ok(d)),
                        Err(Refusal::Refused(reason)) => Some(Err(self.reason_key(reason.index).to_owned())),
                        Err(_) => None,
                    },
                );
            }
        }
        out
    }

    /// The key of the reason at `index` (the table's reasons are the model's, in
    /// order), so two reasons worded alike keep their own keys.
    fn reason_key(&self, index: usize) -> &str {
        self.rules.reasons.get(index).map_or("refused", |(k, _)| k)
    }

    /// The operands the type level names for this rule set, each with its type: a
    /// tensor of every dtype with a Rust type (the bare element type), and with
    /// `every_kind` also a rank-0 one (`Scalar<T>`), a weakly typed one where the
    /// rule set has them (`Weak<T>`), and each Python scalar kind.
    fn operands(&self, every_kind: bool) -> Vec<(Operand, TokenStream)> {
        let kinds = quote!(::promo_core::operand_types);
        let mut out = Vec::new();
        for &d in &self.rules.dtypes {
            let Some(t) = rust_type(d) else { continue };
            out.push((Operand::Dimensioned(d), t.clone()));
            if every_kind {
                out.push((Operand::Scalar(d), quote!(#kinds::Scalar<#t>)));
                if self.table.takes_weak() {
                    out.push((Operand::Weak(d), quote!(#kinds::Weak<#t>)));
                }
            }
        }
        if every_kind {
            // Where the rule set takes none, no pair with one has an answer.
            for k in PyScalar::ALL {
                let ty = format_ident!("Py{}", camel(k.name()));
                out.push((Operand::Python(k), quote!(#kinds::#ty)));
            }
        }
        out
    }

    /// `impl TRAIT<A, B> for Marker` for every pair of `operands` under `op`
    /// (`TRAIT` is `Promote` or `PromoteOp<O>`), with the diagnostic trait of each
    /// refusal, and for `Promote` the convert-promote kernels of tensor pairs.
    fn pair_impls(
        &self,
        op: Op,
        (trait_path, first): (&TokenStream, &TokenStream),
        operands: &[(Operand, TokenStream)],
        reason_traits: &mut std::collections::BTreeMap<String, TokenStream>,
        mut pair_kernels: Option<&mut Vec<TokenStream>>,
    ) -> Vec<TokenStream> {
        let marker = self.marker;
        let mut items = Vec::new();
        for (a, ta) in operands {
            for (b, tb) in operands {
                match self.table.promote_result(self.options, op, *a, *b) {
                    Ok(out) => {
                        let Some(tout) = rust_type(out.dtype) else {
                            continue;
                        };
                        let weak = out.weak.then(|| {
                            quote!(
                                const WEAK: bool = true;
                            )
                        });
                        items.push(quote! {
                            #[automatically_derived]
                            impl #trait_path<#first #ta, #tb> for #marker { type Output = #tout; #weak }
                        });
                        if let (Some(kernels), Operand::Dimensioned(a), Operand::Dimensioned(b)) =
                            (pair_kernels.as_deref_mut(), a, b)
                        {
                            if ![*a, *b, out.dtype].iter().any(|d| d.is_complex()) {
                                let slot = a.index() * DType::COUNT + b.index();
                                let dt = dtype_tokens(out.dtype);
                                kernels.push(quote! {
                                    t[#slot] = ::core::option::Option::Some(::promo_core::convert_promote::PairEntry {
                                        dtype: #dt,
                                        kernel: ::promo_core::convert_promote::pair_kernel::<#ta, #tb, #tout>,
                                    });
                                });
                            }
                        }
                    }
                    Err(Refusal::Refused(reason)) => {
                        let key = self.reason_key(reason.index);
                        let tr = format_ident!("{}Refuses{}", self.marker_name, camel(key));
                        reason_traits.entry(tr.to_string()).or_insert_with(|| {
                            // The message is a format string: the rule file's braces are text.
                            let message = format!(
                                "{} refuses `{{A}}` with `{{B}}`: {}",
                                braces_as_text(self.who),
                                braces_as_text(&reason.to_string())
                            );
                            let label = format!("refused by `{}`", self.rules_name);
                            let tdoc = format!(
                                " Diagnostic only: `{}` refuses the pair because {reason}.",
                                self.marker_name
                            );
                            quote! {
                                #[doc = #tdoc]
                                #[diagnostic::on_unimplemented(message = #message, label = #label)]
                                pub trait #tr<A, B>: ::promo_core::__private::Sealed {}
                            }
                        });
                        items.push(quote! {
                            #[automatically_derived]
                            impl<Why: #tr<#ta, #tb>> #trait_path<#first #ta, #tb, Why> for #marker {
                                type Output = ::promo_core::__private::Refused;
                            }
                        });
                    }
                    Err(_) => {}
                }
            }
        }
        items
    }

    /// `PromoteOp` for every operation of the rule set. Operations whose answers
    /// equal another's forward to it, so each distinct table is written once; those
    /// that answer as `add` forward to `Promote`. An op-independent rule set answers
    /// every operation as `Promote`.
    fn op_impls(
        &self,
        reason_traits: &mut std::collections::BTreeMap<String, TokenStream>,
    ) -> Vec<TokenStream> {
        let marker = self.marker;
        // `impl PromoteOp<OP, A, B> for Marker` answering as `TO<FIRST A, B>`.
        let forward = |op: Option<Op>, to: TokenStream, first: TokenStream| {
            let (params, op_ty) = match op {
                Some(op) => {
                    let v = format_ident!("{op:?}");
                    (quote!(), quote!(::promo_core::op_types::#v))
                }
                None => (quote!(O: ::promo_core::OpType,), quote!(O)),
            };
            quote! {
                #[automatically_derived]
                impl<#params A: ::promo_core::Element, B: ::promo_core::Element, Why>
                    ::promo_core::PromoteOp<#op_ty, A, B, Why> for #marker
                where
                    #marker: #to<#first A, B, Why>,
                {
                    type Output = <#marker as #to<#first A, B, Why>>::Output;
                    const WEAK: bool = <#marker as #to<#first A, B, Why>>::WEAK;
                }
            }
        };
        let promote = quote!(::promo_core::Promote);
        let promote_op = quote!(::promo_core::PromoteOp);
        if self.rules.ops.is_empty() {
            return vec![forward(None, promote, quote!())];
        }
        let add = self.answers(Op::Add);
        let mut items = Vec::new();
        let mut written: Vec<(Op, Answers)> = Vec::new();
        for &op in &self.rules.ops {
            let answers = self.answers(op);
            if answers == add {
                items.push(forward(Some(op), promote.clone(), quote!()));
            } else if let Some((same, _)) = written.iter().find(|(_, a)| *a == answers) {
                let v = format_ident!("{same:?}");
                items.push(forward(
                    Some(op),
                    promote_op.clone(),
                    quote!(::promo_core::op_types::#v,),
                ));
            } else {
                let v = format_ident!("{op:?}");
                let first = quote!(::promo_core::op_types::#v,);
                items.extend(self.pair_impls(
                    op,
                    (&promote_op, &first),
                    &self.operands(false),
                    reason_traits,
                    None,
                ));
                written.push((op, answers));
            }
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated code for the README's example rule file, pretty-printed, is
    /// pinned in `tests/golden/example_rules.rs`; `PROMO_BLESS=1` rewrites it.
    #[test]
    fn generated_code_matches_the_golden_file() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let src = std::fs::read_to_string(format!("{root}/tests/data/example_rules.toml")).unwrap();
        let rules = promo_rules::load("tests/data/example_rules.toml", &src).unwrap();
        let tokens = expand(
            &rules,
            "tests/data/example_rules.toml",
            "/PROMO_WORKSPACE_ROOT/tests/data/example_rules.toml",
        );
        let file: syn::File = syn::parse2(tokens).expect("generated code parses");
        let pretty = prettyplease::unparse(&file);
        let golden = format!("{}/tests/golden/example_rules.rs", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("PROMO_BLESS").is_some() {
            std::fs::create_dir_all(format!("{}/tests/golden", env!("CARGO_MANIFEST_DIR"))).unwrap();
            std::fs::write(&golden, &pretty).unwrap();
        }
        let expected = std::fs::read_to_string(&golden).expect("golden file (run with PROMO_BLESS=1)");
        assert_eq!(
            pretty, expected,
            "generated code changed; review and rerun with PROMO_BLESS=1"
        );
    }

    #[test]
    fn paths_resolve_against_the_manifest_or_the_source_file() {
        let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
        assert_eq!(
            resolve("rules/x.toml", None).unwrap(),
            manifest.join("rules/x.toml")
        );
        let dir = PathBuf::from("/src/dir");
        assert_eq!(
            resolve("./x.toml", Some(dir.clone())).unwrap(),
            dir.join("./x.toml")
        );
        assert_eq!(
            resolve("../x.toml", Some(dir.clone())).unwrap(),
            dir.join("../x.toml")
        );
        assert_eq!(
            resolve("/abs/x.toml", Some(dir)).unwrap(),
            PathBuf::from("/abs/x.toml")
        );
        let err = resolve("./x.toml", None).unwrap_err();
        assert!(err.contains("relative to the invoking source file"), "{err}");
    }

    /// Rule files one line away from a bundled one (a line deleted or doubled)
    /// either fail with diagnostics or expand to code that parses: the macro's side
    /// of the rule-file fuzzing (`tests/fuzz.rs` mutates further). Every bundled
    /// file takes its turn, in a shuffled order, for `PROMO_FUZZ_SECONDS` (15 by
    /// default; a big rule set expands in about a second); `PROMO_FUZZ_SEED`
    /// replays an order.
    #[test]
    fn files_one_line_off_the_bundled_ones_expand_or_fail_cleanly() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules");
        let mut files: Vec<(String, String)> = std::fs::read_dir(root)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        files.sort();
        let seconds: u64 = std::env::var("PROMO_FUZZ_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(15);
        let mut seed: u64 = std::env::var("PROMO_FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x5eed_0ff1);
        eprintln!("one line off: PROMO_FUZZ_SEED={seed}, {seconds} s");
        let mut next = move |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % bound.max(1)
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        let (mut expanded, mut rejected) = (0, 0);
        let mut round = 0;
        while round < 2 || std::time::Instant::now() < deadline {
            for (name, src) in &files {
                let mut lines: Vec<&str> = src.lines().collect();
                let i = next(lines.len());
                if next(2) == 1 {
                    lines.insert(i, lines[i]);
                } else {
                    lines.remove(i);
                }
                match promo_rules::load("m.toml", &lines.join("\n")) {
                    Ok(rules) => {
                        let tokens = expand(&rules, "m.toml", "/m.toml");
                        syn::parse2::<syn::File>(tokens).unwrap_or_else(|e| panic!("{name} line {i}: {e}"));
                        expanded += 1;
                    }
                    Err(d) => {
                        assert!(!d.errors.is_empty());
                        rejected += 1;
                    }
                }
            }
            round += 1;
        }
        eprintln!("one line off: {expanded} expanded, {rejected} rejected in {round} rounds");
        assert!(
            expanded > 0 && rejected > 0,
            "{expanded} expanded, {rejected} rejected"
        );
    }

    #[test]
    fn reasons_worded_alike_keep_their_own_diagnostic_traits() {
        let rules = promo_rules::load("twin.toml", TWIN).unwrap();
        let file: syn::File = syn::parse2(expand(&rules, "twin.toml", "/twin.toml")).unwrap();
        let code = prettyplease::unparse(&file);
        for wanted in [
            "pub trait TwinRefusesFirst<A, B>",
            "pub trait TwinRefusesSecond<A, B>",
            "impl<Why: TwinRefusesFirst<i8, u8>> ::promo_core::Promote<i8, u8, Why>",
            "impl<Why: TwinRefusesSecond<u8, i8>> ::promo_core::Promote<u8, i8, Why>",
        ] {
            assert!(code.contains(wanted), "no `{wanted}` in:\n{code}");
        }
    }

    /// Two reasons worded alike.
    const TWIN: &str = include_str!("../../tests/data/twin_reasons.toml");
}
