//! Index rewriting: the element indexing of device code through `acc_device::ix` (the bounds
//! check acc-device makes inline, with the user's line and column), and `Index` impls of
//! carried types for `acc_device::Ix`.

use proc_macro2::{TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::visit_mut::VisitMut;

use super::Scan;

/// Writes the element indexing of device code (routines, kernels, the methods of carried
/// impls and the default methods of carried traits), `x[i]`, as `x[::acc_device::ix(i, LINE, COL)]`,
/// so that its bounds check is acc-device's inline one (index, length and the user's location
/// go into the panic record) rather than a call of `core::panicking::panic_bounds_check`,
/// which costs a kernel the registers and stack of the whole panic path (see
/// `acc_device::Ix`). `LINE` and `COL` are the user's line and column of `x` (where rustc's
/// check puts a panic on the host), since the inserted text moves what follows on the line and
/// the printer (`print.rs`) puts later copies of a repeated body (a lean kernel, unrolled
/// rounds, coarsened rows) on later lines; 0 for generated code.
/// Ranges (`x[a..b]`) stay as they are, and so do const contexts (nested items, array
/// lengths, const blocks and generic arguments), `const fn`s, where `Index` impls cannot
/// run, and the arguments of macros other than `assert!`-like ones and `matches!` (tokens,
/// not expressions, to syn).
pub(super) struct InlineBounds<'f> {
    /// The name proc-macro2 gave the user's file (see [`Source`](super::Source)): a token with a span of
    /// another file is generated, its column meaningless.
    pub(super) file: &'f str,
}

impl InlineBounds<'_> {
    /// Rewrites a routine, unless it is a `const fn` or names `Index` in its signature (a
    /// generic `C: Index<usize>` is not indexable by `Ix`).
    pub(super) fn routine(&mut self, sig: &syn::Signature, block: &mut syn::Block) {
        let names_index = sig.to_token_stream().into_iter().any(|t| Self::names_index(&t));
        if sig.constness.is_none() && !names_index {
            self.visit_block_mut(block);
        }
    }

    fn names_index(t: &TokenTree) -> bool {
        match t {
            TokenTree::Ident(i) => matches!(i.to_string().as_str(), "Index" | "IndexMut" | "SliceIndex"),
            TokenTree::Group(g) => g.stream().into_iter().any(|t| Self::names_index(&t)),
            _ => false,
        }
    }

    /// Rewrites the fns of a kernel's tokens (acc-codegen's output), which parse as items.
    pub(super) fn kernel(&mut self, ts: TokenStream) -> TokenStream {
        match syn::parse2::<syn::File>(ts.clone()) {
            Ok(mut file) => {
                for item in &mut file.items {
                    if let syn::Item::Fn(f) = item {
                        self.routine(&f.sig, &mut f.block);
                    }
                }
                file.items.into_iter().map(|i| i.into_token_stream()).collect()
            }
            Err(_) => ts,
        }
    }
}

impl VisitMut for InlineBounds<'_> {
    fn visit_expr_index_mut(&mut self, e: &mut syn::ExprIndex) {
        syn::visit_mut::visit_expr_index_mut(self, e);
        if !matches!(&*e.index, syn::Expr::Range(_)) {
            let first = e.expr.to_token_stream().into_iter().next().map(|t| t.span());
            let (line, column) = first.filter(|s| s.file() == self.file).map_or((0, 0), |s| (s.start().line as u32, s.start().column as u32 + 1));
            let i = &e.index;
            *e.index = syn::parse_quote!(::acc_device::ix(#i, #line, #column));
        }
    }
    /// The expressions of `assert!`-like macros and the scrutinee of `matches!` (other
    /// macros' tokens are not known to be expressions).
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        use syn::parse::Parser;
        let Some(name) = mac.path.segments.last().map(|s| s.ident.to_string()) else { return };
        let tokens = mac.tokens.clone();
        if name == "matches" {
            let parser = |input: syn::parse::ParseStream| -> syn::Result<(syn::Expr, TokenStream)> { Ok((input.parse()?, input.parse()?)) };
            if let Ok((mut e, rest)) = parser.parse2(tokens) {
                self.visit_expr_mut(&mut e);
                mac.tokens = quote!(#e #rest);
            }
        } else if matches!(name.as_str(), "assert" | "assert_eq" | "assert_ne" | "debug_assert" | "debug_assert_eq" | "debug_assert_ne") {
            let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
            if let Ok(mut args) = parser.parse2(tokens) {
                for e in args.iter_mut() {
                    self.visit_expr_mut(e);
                }
                mac.tokens = args.into_token_stream();
            }
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    fn visit_type_mut(&mut self, _: &mut syn::Type) {}
    fn visit_generic_argument_mut(&mut self, _: &mut syn::GenericArgument) {}
    fn visit_expr_const_mut(&mut self, _: &mut syn::ExprConst) {}
    fn visit_expr_repeat_mut(&mut self, e: &mut syn::ExprRepeat) {
        self.visit_expr_mut(&mut e.expr);
    }
}

/// For an `impl Index<usize> for W` (or `IndexMut`), the same impl for `acc_device::Ix`, which
/// device code indexes with (see [`InlineBounds`]): `w[i]` of a carried type reads as before.
pub(super) fn index_by_ix(imp: &syn::ItemImpl) -> Option<TokenStream> {
    let (_, path, _) = imp.trait_.as_ref()?;
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    let [syn::GenericArgument::Type(syn::Type::Path(arg))] = args.args.iter().collect::<Vec<_>>()[..] else { return None };
    if !arg.path.is_ident("usize") {
        return None;
    }
    let (generics, ty, wh) = (&imp.generics.params, &imp.self_ty, &imp.generics.where_clause);
    match last.ident.to_string().as_str() {
        "Index" => Some(quote! {
            impl<#generics> ::core::ops::Index<::acc_device::Ix> for #ty #wh {
                type Output = <Self as ::core::ops::Index<usize>>::Output;
                #[inline(always)]
                #[track_caller]
                fn index(&self, i: ::acc_device::Ix) -> &Self::Output {
                    <Self as ::core::ops::Index<usize>>::index(self, i.index)
                }
            }
        }),
        "IndexMut" => Some(quote! {
            impl<#generics> ::core::ops::IndexMut<::acc_device::Ix> for #ty #wh {
                #[inline(always)]
                #[track_caller]
                fn index_mut(&mut self, i: ::acc_device::Ix) -> &mut Self::Output {
                    <Self as ::core::ops::IndexMut<usize>>::index_mut(self, i.index)
                }
            }
        }),
        _ => None,
    }
}

impl Scan<'_> {
    /// The index rewriter of module `m`'s code.
    pub(super) fn inline_bounds(&self, m: usize) -> InlineBounds<'_> {
        InlineBounds { file: &self.sources[self.modules[m].src].id }
    }
}
