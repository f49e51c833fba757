//! A nest's body as the device runs it: inner acc loop attributes stripped (those loops run in
//! order in each thread), `cache!` hints dropped, `atomic!` on slice elements and outer scalars
//! turned into device atomics, slices passed to routines as they take them, proved indices
//! unchecked; and the body's items a nest's kernel takes with it.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use crate::front::atomic::{AtomicForm, Place};
use crate::front::loops;
use crate::lower::atomic;
use crate::lower::bounds;
use crate::syntax::is_acc_path;

/// Strips inner acc loop attributes (those loops run in order in each thread), drops
/// `cache!` hints, and turns `atomic!` on slice elements into device atomics.
struct DeviceBody<'a> {
    slices: &'a [Ident],
    /// Outer scalars updated atomically: their names are the cells' atomic handles.
    cells: &'a [Ident],
    /// Read-only slice parameters: passed to routines as `&[T]` (`&*a`); the other slices
    /// as `&[T]` or `&mut [T]`, as the routine takes them.
    read_only: &'a [Ident],
    /// The indices written without a bounds check (`lower::bounds`): the unchecked kernel's.
    proven: &'a std::collections::HashSet<bounds::Site>,
}

impl DeviceBody<'_> {
    fn lower_macro(&mut self, m: &syn::Macro) -> Option<Expr> {
        if is_acc_path(&m.path, "cache") {
            return Some(syn::parse_quote!(()));
        }
        if !is_acc_path(&m.path, "atomic") {
            return None;
        }
        let form: AtomicForm = syn::parse2(m.tokens.clone()).ok()?;
        let tokens = match form.place() {
            Place::Element { base, .. } if self.slices.contains(base) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(id) if self.cells.contains(id) => atomic::expand_shared(&form, m.path.span()),
            Place::Scalar(_) | Place::Element { .. } => {
                // Locals declared inside the loop body are per thread: the plain form is right.
                atomic::expand_plain(&form)
            }
        };
        syn::parse2(tokens).ok()
    }
}

impl DeviceBody<'_> {
    fn slice_args(&self, args: &mut syn::punctuated::Punctuated<Expr, syn::Token![,]>) {
        for a in args.iter_mut() {
            if let Expr::Path(p) = a {
                if p.path.get_ident().is_some_and(|id| self.read_only.contains(id)) {
                    *a = syn::parse_quote!(&*#p);
                } else if p.path.get_ident().is_some_and(|id| self.slices.contains(id)) {
                    // A `&mut [T]` parameter: the routine's parameter type picks `&[T]` or
                    // `&mut [T]`.
                    *a = syn::parse_quote!(::core::convert::Into::into(#p));
                }
            }
        }
    }
}

impl VisitMut for DeviceBody<'_> {
    fn visit_expr_call_mut(&mut self, c: &mut syn::ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_method_call_mut(&mut self, c: &mut syn::ExprMethodCall) {
        syn::visit_mut::visit_expr_method_call_mut(self, c);
        self.slice_args(&mut c.args);
    }
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Stmt::Macro(m) = s {
            if let Some(e) = self.lower_macro(&m.mac) {
                *s = Stmt::Expr(e, Some(Default::default()));
                return;
            }
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(m) = e {
            if let Some(new) = self.lower_macro(&m.mac) {
                *e = new;
                return;
            }
        }
        if let Expr::ForLoop(f) = e {
            self.visit_expr_for_loop_mut(f);
            if let Some(counted) = counted_inclusive(f) {
                *e = counted;
            }
            return;
        }
        let proven = matches!(e, Expr::Index(ix) if !self.proven.is_empty() && self.proven.contains(&bounds::site(ix)));
        syn::visit_mut::visit_expr_mut(self, e);
        if proven {
            if let Expr::Index(ix) = e {
                bounds::write_unchecked(ix);
            }
        }
        // On the device a written array is a `SliceMut` (an `IndexMut` of its own).
        loops::index_first(e, |a| self.slices.contains(a));
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// `ts` with every token's span the call site's (tokens the lowering made).
pub fn generated(ts: TokenStream) -> TokenStream {
    ts.into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Group(g) => {
                let mut n = proc_macro2::Group::new(g.delimiter(), generated(g.stream()));
                n.set_span(Span::call_site());
                proc_macro2::TokenTree::Group(n)
            }
            mut t => {
                t.set_span(Span::call_site());
                t
            }
        })
        .collect()
}

/// `for p in lo..=hi { .. }` as the device runs it: a loop over the trip count,
/// `0..trip_inclusive(lo, hi)`, that makes the variable from the trip (`index(lo, k, 1)`), the
/// same trips in the same order with `break` and `continue` meaning what they did. LLVM
/// counts the trips of an exclusive `usize` range, not those of `RangeInclusive`'s iterator: a
/// radius-30 sum over `i - 30..=i + 30` ran 5.7x slower than over `i - 30..i + 31` on an H200.
fn counted_inclusive(f: &ExprForLoop) -> Option<Expr> {
    let Expr::Range(r) = loops::strip_parens(&f.expr) else { return None };
    let (syn::RangeLimits::Closed(_), Some(lo), Some(hi)) = (&r.limits, &r.start, &r.end) else { return None };
    let dev = crate::paths::device();
    let (attrs, label, pat, body) = (&f.attrs, &f.label, &f.pat, &f.body);
    Some(syn::parse_quote_spanned! {f.for_token.span=> {
        let __acc_ilo = #lo;
        let __acc_itrip: usize = #dev::trip_inclusive(__acc_ilo, #hi);
        #(#attrs)* #label for __acc_ik in 0..__acc_itrip {
            let #pat = #dev::index(__acc_ilo, __acc_ik, 1);
            #body
        }
    }})
}

/// A nest body as the device runs it (`DeviceBody`), the indices of `proven` unchecked.
pub fn device_body<'a>(slices: &'a [Ident], read_only: &'a [Ident], cells: &'a [Ident], proven: &'a std::collections::HashSet<bounds::Site>) -> impl FnMut(&syn::Block) -> syn::Block + 'a {
    move |b: &syn::Block| {
        let mut b = b.clone();
        DeviceBody { slices, read_only, cells, proven }.visit_block_mut(&mut b);
        b
    }
}

/// The body's items that the nest uses (by name), and those these use in turn.
pub fn used_items(items: &[syn::Item], uses: &[&Expr]) -> Vec<syn::Item> {
    let mut keep: Vec<bool> = items.iter().map(|i| item_names(i).iter().any(|n| uses.iter().any(|e| loops::mentions(e, n)))).collect();
    loop {
        let mut grew = false;
        for i in 0..items.len() {
            if keep[i] {
                continue;
            }
            let names = item_names(&items[i]);
            let used = items.iter().zip(&keep).any(|(other, &k)| k && names.iter().any(|n| tokens_mention(quote!(#other), n)));
            if used {
                keep[i] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    items.iter().zip(keep).filter(|(_, k)| *k).map(|(i, _)| i.clone()).collect()
}

fn tokens_mention(ts: TokenStream, name: &Ident) -> bool {
    flat_tokens(ts).iter().any(|t| matches!(t, proc_macro2::TokenTree::Ident(id) if id == name))
}

/// The names an item declares (a `use`: the names it brings in).
fn item_names(item: &syn::Item) -> Vec<Ident> {
    fn use_names(t: &syn::UseTree, out: &mut Vec<Ident>) {
        match t {
            syn::UseTree::Path(p) => use_names(&p.tree, out),
            syn::UseTree::Name(n) => out.push(n.ident.clone()),
            syn::UseTree::Rename(r) => out.push(r.rename.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = Vec::new();
    match item {
        syn::Item::Const(i) => out.push(i.ident.clone()),
        syn::Item::Static(i) => out.push(i.ident.clone()),
        syn::Item::Fn(i) => out.push(i.sig.ident.clone()),
        syn::Item::Struct(i) => out.push(i.ident.clone()),
        syn::Item::Enum(i) => out.push(i.ident.clone()),
        syn::Item::Type(i) => out.push(i.ident.clone()),
        syn::Item::Union(i) => out.push(i.ident.clone()),
        syn::Item::Mod(i) => out.push(i.ident.clone()),
        syn::Item::Use(u) => use_names(&u.tree, &mut out),
        _ => {}
    }
    out
}

/// A token stream with its groups opened (delimiters dropped).
pub fn flat_tokens(ts: TokenStream) -> Vec<proc_macro2::TokenTree> {
    let mut out = Vec::new();
    for t in ts {
        match t {
            proc_macro2::TokenTree::Group(g) => out.extend(flat_tokens(g.stream())),
            t => out.push(t),
        }
    }
    out
}
