//! Stage 3: a checked rule set to Rust items.

use proc_macro2::{Ident, Span, TokenStream};
use promo_rules::model::RuleFile;
use promo_rules::names::camel;
use promo_table::{DType, Op, OpKind, Operand, OptionKind, OptionValue, PyScalar, Refusal, RuleTable, Side};
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

/// `text` inside a `#[diagnostic::on_unimplemented]` format string: `{` and `}`
/// doubled, so a rule file's braces print as themselves and name no parameter.
fn braces_as_text(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// A [`RuleTable`] as a `const` expression, with its precomputed answers (`flat`).
fn table_tokens(table: &RuleTable<'_>, flat: Option<&promo_table::FlatParts>) -> TokenStream {
    let t = quote!(::promo_core::__private::table);
    let (name, title, version, commutative) = (table.name, table.title, table.version, table.commutative);
    let list = format_ident!("{}", format!("{:?}", table.list));
    let list = quote!(#t::ListRule::#list);
    let results_from = table.results_from;
    let list_order = table.list_order.iter().map(|&d| dtype_tokens(d));
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
        let (row_of, col_of) = (
            proc_macro2::Literal::byte_string(l.row_of),
            proc_macro2::Literal::byte_string(l.col_of),
        );
        let (width, statement_end) = (l.width, l.statement_end);
        let cells = proc_macro2::Literal::byte_string(l.cells);
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
                row_of: #row_of,
                col_of: #col_of,
                width: #width,
                cells: #cells,
                promoted: &[#(#promoted),*],
                strong: #strong,
                statement_end: #statement_end,
                continues: #continues,
                retype: &[#(#retype),*],
            }
        }
    });
    let flat = match flat {
        Some(parts) => {
            let (radix, op_slot, op_slots, key_of, keys, cells) = (
                &parts.radix,
                &parts.op_slot,
                parts.op_slots,
                &parts.key_of,
                parts.keys,
                &parts.cells,
            );
            // Byte strings: one token each, however many cells.
            let (radix, op_slot, key_of, cells) = (
                proc_macro2::Literal::byte_string(radix),
                proc_macro2::Literal::byte_string(op_slot),
                proc_macro2::Literal::byte_string(key_of),
                proc_macro2::Literal::byte_string(cells),
            );
            quote! {
                ::core::option::Option::Some(#t::Flat {
                    radix: #radix,
                    op_slot: #op_slot,
                    op_slots: #op_slots,
                    key_of: #key_of,
                    keys: #keys,
                    cells: #cells,
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
            list: #list,
            list_order: &[#(#list_order),*],
            dtypes: &[#(#dtypes),*],
            ops: &[#(#ops),*],
            aliases: &[#(#aliases),*],
            options: &[#(#options),*],
            python: [#(#python),*],
            reasons: &[#(#reasons),*],
            layers: &[#(#layers),*],
            results_from: #results_from,
            flat: #flat,
        }
    }
}

/// Every item the rule file becomes.
pub fn expand(rules: &RuleFile, rel_path: &str, tracked_path: &str) -> TokenStream {
    rules.with_table(|table| {
        // Every answer precomputed once: the const table's, and the rows' (one
        // load each, where the walk would visit the layers pair by pair).
        let parts = table.flatten();
        let fast = RuleTable {
            flat: parts.as_ref().map(promo_table::FlatParts::as_flat),
            ..*table
        };
        expand_with(
            rules,
            rel_path,
            tracked_path,
            table_tokens(table, parts.as_ref()),
            &fast,
        )
    })
}

/// [`expand`] with the const table's tokens and a table whose answers are one load.
fn expand_with(
    rules: &RuleFile,
    rel_path: &str,
    tracked_path: &str,
    table: TokenStream,
    fast: &RuleTable<'_>,
) -> TokenStream {
    let module = format_ident!("{}", rules.name);
    let doc = format!(
        " {} (version {}), from `{rel_path}`.\n\n Verified: {}",
        rules.title, rules.version, rules.verified
    );
    let rules_name = &rules.name;
    let mut items = Vec::new();
    for mode in &rules.modes {
        let marker = format_ident!("{}", mode.marker);
        // Each value as the rule file and the command line spell it.
        let settings: Vec<String> = fast
            .options
            .iter()
            .zip(&mode.values)
            .map(|(o, &v)| format!("{}={}", o.name, o.format_value(v)))
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
        // Each table's rows, and each refusal's diagnostic trait and tag.
        let options = promo_table::Options::from_values(&mode.values);
        let mut reasons = std::collections::BTreeMap::new();
        let cx = PairCx {
            rules,
            table: fast,
            options: &options,
            marker: &marker,
            marker_name: &mode.marker,
            who: &who,
            rules_name,
        };
        items.extend(cx.tables(&mut reasons));
        items.extend(reasons.into_values());
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

            /// The element types the rows name, in short.
            #[allow(unused_imports)]
            use ::promo_core::__private::rows::types as t;

            #(#items)*
        }
    }
}

/// The answers of one operation for every pair of tensors, as the rows give them:
/// a result, a refusal's reason key, or none.
type Answers = Vec<Option<Result<(DType, bool), String>>>;

/// The trait an impl of [`PairCx::forward`] implements.
#[derive(Clone, Copy)]
enum Target {
    /// `Promote`, whose answers are `add`'s over every operand kind.
    Promote,
    /// `PromoteOp` of one operation.
    Op(Op),
    /// `PromoteOp` of every operation (a rule set whose answers do not depend on it).
    EveryOp,
}

/// What the rows of one marker type are generated from.
struct PairCx<'a> {
    rules: &'a RuleFile,
    /// The rule set, its answers one load each.
    table: &'a RuleTable<'a>,
    options: &'a promo_table::Options,
    marker: &'a Ident,
    marker_name: &'a str,
    who: &'a str,
    rules_name: &'a str,
}

impl PairCx<'_> {
    /// The answer of `op` for `a` with `b`: a result and whether it is weakly typed,
    /// the key of a refusal reason, or `None` where the rule set has none (or the
    /// result has no Rust type).
    fn answer(&self, op: Op, a: Operand, b: Operand) -> Option<Result<(DType, bool), String>> {
        match self.table.promote_result(self.options, op, a, b) {
            Ok(out) => rust_type(out.dtype).map(|_| Ok((out.dtype, out.weak))),
            Err(Refusal::Refused(reason)) => Some(Err(self.reason_key(reason.index).to_owned())),
            Err(_) => None,
        }
    }

    /// The answers of `op` for every pair of tensors of the rule set's dtypes.
    fn answers(&self, op: Op) -> Answers {
        let dtypes = &self.rules.dtypes;
        dtypes
            .iter()
            .flat_map(|&a| {
                dtypes
                    .iter()
                    .map(move |&b| self.answer(op, Operand::Dimensioned(a), Operand::Dimensioned(b)))
            })
            .collect()
    }

    /// The key of the reason at `index` (the table's reasons are the model's, in
    /// order), so two reasons worded alike keep their own keys.
    fn reason_key(&self, index: usize) -> &str {
        self.rules.reasons.get(index).map_or("refused", |(k, _)| k)
    }

    /// The left operands the rows of `every_kind` tables have (tensors of every dtype
    /// with a Rust type; for `Promote`, also rank-0 and weakly typed tensors and the
    /// Python kinds), each with its type.
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
            for k in PyScalar::ALL {
                let ty = format_ident!("Py{}", camel(k.name()));
                out.push((Operand::Python(k), quote!(#kinds::#ty)));
            }
        }
        out
    }

    /// Every table of this marker: `add`'s over every operand kind (what `Promote`
    /// reads) and each operation's whose answers differ from every earlier one's
    /// (what `PromoteOp` reads), as a row trait, its rows and the impl that reads
    /// them; the diagnostic trait and tag of each refusal go to `reasons`.
    fn tables(&self, reasons: &mut std::collections::BTreeMap<String, TokenStream>) -> Vec<TokenStream> {
        let mut items = Vec::new();
        let add_row = self.row(Op::Add);
        items.push(self.row_trait(Op::Add, &add_row));
        items.push(self.forward(Target::Promote, &add_row));
        items.extend(self.rows(Op::Add, &add_row, &self.operands(true), reasons));
        if self.rules.ops.is_empty() {
            items.push(self.forward(Target::EveryOp, &add_row));
            return items;
        }
        let add = self.answers(Op::Add);
        let mut written: Vec<(Ident, Answers)> = Vec::new();
        // The operations of two operands (elementwise, and `matmul`): the others of
        // two (updates, stores, a reduction's `dtype=`) and lists are answered at run
        // time (`RuleTable::apply`).
        for op in self
            .rules
            .ops
            .iter()
            .copied()
            .filter(|o| matches!(o.kind(), OpKind::Elementwise | OpKind::Binary))
        {
            let answers = self.answers(op);
            if answers == add {
                items.push(self.forward(Target::Op(op), &add_row));
            } else if let Some((row, _)) = written.iter().find(|(_, a)| *a == answers) {
                items.push(self.forward(Target::Op(op), row));
            } else {
                let row = self.row(op);
                items.push(self.row_trait(op, &row));
                items.push(self.forward(Target::Op(op), &row));
                items.extend(self.rows(op, &row, &self.operands(false), reasons));
                written.push((row, answers));
            }
        }
        // The one-operand operations (unary operations, reductions with their default
        // arguments): a row of results and one of compute dtypes per operation, for
        // `PromoteOne`; operations with equal rows share a type alias.
        let mut shared: Vec<(String, Ident)> = Vec::new();
        for op in self
            .rules
            .ops
            .iter()
            .copied()
            .filter(|o| matches!(o.kind(), OpKind::Unary | OpKind::Reduction))
        {
            items.extend(self.one_row(op, &mut shared, reasons));
        }
        items
    }

    /// `impl OneRow<op_types::OP> for MARKER { type Results = …; type Computes =
    /// …; }`: for each dtype in [`DType::ALL`] order, the result of `op` on a tensor
    /// of it and the dtype it computes in (a refusal's tag in both where the rule set
    /// refuses, the marker where there is no answer). A tuple written before for
    /// another operation is named by its alias in `shared`.
    fn one_row(
        &self,
        op: Op,
        shared: &mut Vec<(String, Ident)>,
        reasons: &mut std::collections::BTreeMap<String, TokenStream>,
    ) -> Vec<TokenStream> {
        let marker = self.marker;
        let mut results = Vec::new();
        let mut computes = Vec::new();
        for &d in DType::ALL {
            let answer = match rust_type(d) {
                Some(_) if self.rules.dtypes.contains(&d) => {
                    self.table
                        .apply(self.options, op, &[Operand::Dimensioned(d)], None)
                }
                _ => Err(Refusal::NoRule),
            };
            let (result, compute) = match answer {
                Ok(o) => {
                    let typed = |d: DType| rust_type(d).map_or(quote!(#marker), |_| short_type(d));
                    (typed(o.result.dtype), typed(o.compute))
                }
                Err(Refusal::Refused(reason)) => {
                    let tag = self.refusal(self.reason_key(reason.index), true, reasons);
                    (tag.clone(), tag)
                }
                Err(_) => (quote!(#marker), quote!(#marker)),
            };
            results.push(result);
            computes.push(compute);
        }
        let mut items = Vec::new();
        let mut named = |tuple: TokenStream, items: &mut Vec<TokenStream>| -> Ident {
            let key = tuple.to_string();
            if let Some((_, alias)) = shared.iter().find(|(k, _)| *k == key) {
                return alias.clone();
            }
            let alias = format_ident!("{}_One{}", self.marker_name, shared.len());
            items.push(quote! {
                #[doc(hidden)]
                #[allow(non_camel_case_types)]
                pub type #alias = #tuple;
            });
            shared.push((key, alias.clone()));
            alias
        };
        let results = named(quote!((#(#results,)*)), &mut items);
        let computes = named(quote!((#(#computes,)*)), &mut items);
        let v = format_ident!("{op:?}");
        items.push(quote! {
            impl ::promo_core::__private::rows::OneRow<::promo_core::op_types::#v> for #marker {
                type Results = #results;
                type Computes = #computes;
            }
        });
        items
    }

    /// The text of the reason `key`, as the rule file words it.
    fn reason_text<'k>(&'k self, key: &'k str) -> &'k str {
        self.rules
            .reasons
            .iter()
            .find(|(k, _)| k == key)
            .map_or(key, |(_, t)| t.as_str())
    }

    /// The row trait of `op`'s table under this marker (`Torch_Add`, `Torch_Divide`).
    fn row(&self, op: Op) -> Ident {
        format_ident!("{}_{op:?}", self.marker_name)
    }

    /// The row trait `row` of `op`, with the message a left operand without a row
    /// gives: the one `Promote` (for `add`) or `PromoteOp` gives, the marker named.
    fn row_trait(&self, op: Op, row: &Ident) -> TokenStream {
        let m = self.marker_name;
        let (message, label, note) = if op == Op::Add {
            (
                format!("`{m}` has no promotion of `{{Self}}` with `{{B}}`"),
                format!("no promotion of `{{Self}}` with `{{B}}` in `{m}`"),
                "the rule set does not accept one of these dtypes or operand kinds; see `promo table` and `promo query`",
            )
        } else {
            (
                format!("`{m}` has no result for `{op:?}` of `{{Self}}` with `{{B}}`"),
                format!("no result for `{op:?}` of `{{Self}}` with `{{B}}` in `{m}`"),
                "the rule set does not accept one of these dtypes or this operation; see `promo table --op`",
            )
        };
        let doc = format!(
            " `{m}`'s answers of `{op}`, a row per left operand: what `Promote` and `PromoteOp` read."
        );
        quote! {
            #[doc = #doc]
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait #row<B> {
                /// The answers for each right operand: tensors, rank-0 tensors,
                /// Python scalars, weakly typed tensors.
                type Row;
            }
        }
    }

    /// The impl of `target` for this marker, answering from the rows of `row`.
    fn forward(&self, target: Target, row: &Ident) -> TokenStream {
        let marker = self.marker;
        let p = quote!(::promo_core::__private::rows);
        let entry = quote!(<<A as #row<B>>::Row as #p::Entry<B>>::Entry);
        let (params, trait_path, answer) = match target {
            Target::Promote => (
                quote!(),
                quote!(::promo_core::Promote<A, B, Why>),
                quote!(#p::PromoteAnswer<Why, A, B>),
            ),
            Target::Op(op) => {
                let v = format_ident!("{op:?}");
                let o = quote!(::promo_core::op_types::#v);
                (
                    quote!(),
                    quote!(::promo_core::PromoteOp<#o, A, B, Why>),
                    quote!(#p::OpAnswer<Why, #o, A, B>),
                )
            }
            Target::EveryOp => (
                quote!(O: ::promo_core::ElementwiseOp,),
                quote!(::promo_core::PromoteOp<O, A, B, Why>),
                quote!(#p::OpAnswer<Why, O, A, B>),
            ),
        };
        let bound = match target {
            Target::Promote => quote!(::promo_core::operand_types::OperandType),
            _ => quote!(::promo_core::Element),
        };
        quote! {
            #[automatically_derived]
            impl<#params A: #bound, B: #bound, Why> #trait_path for #marker
            where
                A: #row<B>,
                <A as #row<B>>::Row: #p::Entry<B>,
                #entry: #answer,
            {
                type Output = <#entry as #answer>::Output;
                const WEAK: bool = <#entry as #answer>::WEAK;
            }
        }
    }

    /// `impl<B> ROW<B> for A { type Row = …; }` for every left operand of
    /// `operands` under `op`, each entry the result's type (`Weak<T>` weakly typed),
    /// a refusal's tag, or the marker where there is no answer. Parts without an
    /// answer are `Nothing`; the rows of `PromoteOp` tables have tensors only.
    fn rows(
        &self,
        op: Op,
        row: &Ident,
        operands: &[(Operand, TokenStream)],
        reasons: &mut std::collections::BTreeMap<String, TokenStream>,
    ) -> Vec<TokenStream> {
        let marker = self.marker;
        let p = quote!(::promo_core::__private::rows);
        let every_kind = op == Op::Add;
        let mut items = Vec::new();
        for (a, ta) in operands {
            // One part: the entries for right operands `of` every dtype (or kind).
            let mut part = |of: &mut dyn Iterator<Item = Operand>| -> TokenStream {
                let mut any = false;
                let entries: Vec<TokenStream> = of
                    .map(|b| {
                        let right = rust_operand(b);
                        match (right, self.answer(op, *a, b)) {
                            (Some(_), Some(Ok((d, weak)))) => {
                                any = true;
                                let t = short_type(d);
                                if weak {
                                    quote!(t::W<#t>)
                                } else {
                                    t
                                }
                            }
                            (Some(_), Some(Err(key))) => {
                                any = true;
                                self.refusal(&key, false, reasons)
                            }
                            _ => quote!(#marker),
                        }
                    })
                    .collect();
                if any {
                    quote!((#(#entries,)*))
                } else {
                    quote!(#p::Nothing<#marker>)
                }
            };
            let tensors = part(&mut DType::ALL.iter().map(|&d| Operand::Dimensioned(d)));
            let (scalars, pythons, weak) = if every_kind {
                (
                    part(&mut DType::ALL.iter().map(|&d| Operand::Scalar(d))),
                    part(&mut PyScalar::ALL.iter().map(|&k| Operand::Python(k))),
                    part(&mut DType::ALL.iter().map(|&d| Operand::Weak(d))),
                )
            } else {
                let nothing = quote!(#p::Nothing<#marker>);
                (nothing.clone(), nothing.clone(), nothing)
            };
            items.push(quote! {
                impl<B> #row<B> for #ta { type Row = (#tensors, #scalars, #pythons, #weak); }
            });
        }
        items
    }

    /// The tag of the refusal for reason `key` (its diagnostic trait and tag made
    /// once, into `reasons`): an entry that answers only where the trait holds,
    /// never, so the compiler reports the trait's message. A pair's tag answers
    /// `Promote` and `PromoteOp` and its message names both operands; a
    /// one-operand tag (`one`) answers `PromoteOne` and names the operation and its
    /// operand.
    fn refusal(
        &self,
        key: &str,
        one: bool,
        reasons: &mut std::collections::BTreeMap<String, TokenStream>,
    ) -> TokenStream {
        let (refuses, refused) = if one {
            ("RefusesOne", "RefusedOne")
        } else {
            ("Refuses", "Refused")
        };
        let tr = format_ident!("{}{refuses}{}", self.marker_name, camel(key));
        let tag = format_ident!("{}{refused}{}", self.marker_name, camel(key));
        reasons.entry(tr.to_string()).or_insert_with(|| {
            let text = self.reason_text(key);
            let (what, refused_what) = if one {
                ("`{O}` of `{A}`", "the operation on this dtype")
            } else {
                ("`{A}` with `{B}`", "the pair")
            };
            // The message is a format string: the rule file's braces are text.
            let message = format!(
                "{} refuses {what}: {}",
                braces_as_text(self.who),
                braces_as_text(text)
            );
            let label = format!("refused by `{}`", self.rules_name);
            let tdoc = format!(
                " Diagnostic only: `{}` refuses {refused_what} because {text}.",
                self.marker_name
            );
            let p = quote!(::promo_core::__private::rows);
            let refused = quote!(::promo_core::__private::Refused);
            let (params, answers) = if one {
                (
                    quote!(O, A),
                    quote! {
                        impl<O, A, Why: #tr<O, A>> #p::OneAnswer<Why, O, A> for #tag {
                            type Output = #refused;
                        }
                    },
                )
            } else {
                (
                    quote!(A, B),
                    quote! {
                        impl<A, B, Why: #tr<A, B>> #p::PromoteAnswer<Why, A, B> for #tag {
                            type Output = #refused;
                        }

                        impl<O, A, B, Why: #tr<A, B>> #p::OpAnswer<Why, O, A, B> for #tag {
                            type Output = #refused;
                        }
                    },
                )
            };
            quote! {
                #[doc = #tdoc]
                #[diagnostic::on_unimplemented(message = #message, label = #label)]
                pub trait #tr<#params>: ::promo_core::__private::Sealed {}

                #[doc = #tdoc]
                #[doc(hidden)]
                pub enum #tag {}

                #answers
            }
        });
        quote!(#tag)
    }
}

/// `impl<T0, …> At<Col<i>> for (T0, …) { type Entry = Ti; }` for every column of a
/// row part: tuples of every dtype and of the Python kinds.
pub fn row_access() -> TokenStream {
    let mut items = Vec::new();
    for width in [DType::COUNT, PyScalar::ALL.len()] {
        let params: Vec<Ident> = (0..width).map(|i| format_ident!("T{i}")).collect();
        for (i, p) in params.iter().enumerate() {
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            items.push(quote! {
                impl<#(#params),*> At<Col<#i>> for (#(#params,)*) {
                    type Entry = #p;
                }
            });
        }
    }
    quote!(#(#items)*)
}

/// The type an operand names at the type level, if it has one.
fn rust_operand(operand: Operand) -> Option<TokenStream> {
    let kinds = quote!(::promo_core::operand_types);
    match operand {
        Operand::Dimensioned(d) => rust_type(d),
        Operand::Scalar(d) => rust_type(d).map(|t| quote!(#kinds::Scalar<#t>)),
        Operand::Weak(d) => rust_type(d).map(|t| quote!(#kinds::Weak<#t>)),
        Operand::Python(k) => {
            let ty = format_ident!("Py{}", camel(k.name()));
            Some(quote!(#kinds::#ty))
        }
    }
}

/// The element type of `d` as a row entry names it: the primitive itself, or
/// through the generated module's alias `t` of promo-core's element types
/// (`t::f16`, `t::f8e4m3fn`), in a few tokens.
fn short_type(d: DType) -> TokenStream {
    macro_rules! types {
        ($($dtype:ident: $home:ident [$($ty:tt)*],)*) => {
            match d {
                $(DType::$dtype => types!(@$home $($ty)*),)*
                _ => quote!(()),
            }
        };
        (@std $($ty:tt)*) => { quote!($($ty)*) };
        (@$other:ident $($ty:tt)*) => { quote!(t::$($ty)*) };
    }
    promo_table::for_each_element_type!(types)
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
    fn a_marker_names_its_settings_as_the_options_format_them() {
        // The example rule file with a choice and a dtype option, fixed by a mode.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let src = std::fs::read_to_string(format!("{root}/tests/data/example_rules.toml")).unwrap();
        let options = "[options.mode]\ntype = \"choice\"\nchoices = [\"eager\", \"static\"]\n\
                       default = \"eager\"\ndoc = \"a mode\"\n\n\
                       [options.out]\ntype = \"dtype\"\ndefault = \"f32\"\ndoc = \"a dtype\"\n\n[modes]";
        let src = src.replacen("[modes]", options, 1).replacen(
            "TinyStrict = { strict = true }",
            "TinyStrict = { strict = true, mode = \"static\", out = \"i16\" }",
            1,
        );
        let rules = promo_rules::load("example.toml", &src).expect("the edited rule file loads");
        let code = expand(&rules, "example.toml", "/example.toml").to_string();
        assert_eq!(rules.modes.len(), 2);
        for mode in &rules.modes {
            let settings = rules.with_table(|t| {
                t.options
                    .iter()
                    .zip(&mode.values)
                    .map(|(o, &v)| format!("{}={}", o.name, o.format_value(v)))
                    .collect::<Vec<_>>()
            });
            assert_eq!(settings.len(), 3);
            let doc = format!(" Marker type: {} ({}).", rules.title, settings.join(", "));
            assert!(
                code.contains(&format!("{doc:?}")),
                "{} lacks {doc:?}",
                mode.marker
            );
        }
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
            "Why: TwinRefusesFirst<A, B>,",
            "Why: TwinRefusesSecond<A, B>,",
        ] {
            assert!(code.contains(wanted), "no `{wanted}` in:\n{code}");
        }
        // Each left operand's row names its own refusal: (i8, u8) the first
        // reason, (u8, i8) the second.
        let row = |lhs: &str| {
            let start = code.find(&format!("impl<B> Twin_Add<B> for {lhs} {{")).unwrap();
            let end = code[start..].find("\n    }\n").unwrap();
            code[start..start + end].to_string()
        };
        let (i8_row, u8_row) = (row("i8"), row("u8"));
        assert!(
            i8_row.contains("TwinRefusedFirst") && !i8_row.contains("TwinRefusedSecond"),
            "{i8_row}"
        );
        assert!(
            u8_row.contains("TwinRefusedSecond") && !u8_row.contains("TwinRefusedFirst"),
            "{u8_row}"
        );
    }

    /// Two reasons worded alike.
    const TWIN: &str = include_str!("../../tests/data/twin_reasons.toml");
}
