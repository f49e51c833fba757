//! Index methods: an index `u[g.at(m, k, j, i)]` through a method of a value parameter,
//! bounded by the interval arithmetic of the method's body, which acc-build writes for the
//! launch's check (see the parent module).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ext::IdentExt;
use syn::visit::Visit;
use syn::{Expr, Ident, Pat};

use super::{strip, Bind, Panics, Prover};
use crate::paths;
use std::collections::HashSet;

impl Prover<'_> {
    /// The interval of a field of a value parameter (`g.n`: its value at the launch), or of
    /// `self` in an index method's body.
    pub(super) fn field(&mut self, fe: &syn::ExprField, visible: usize) -> Option<Ident> {
        let syn::Member::Named(field) = &fe.member else {
            return None;
        };
        let Expr::Path(p) = strip(&fe.base) else {
            return None;
        };
        let id = p.path.get_ident()?;
        let rt = paths::runtime();
        let base = if self.method_body && id == "self" {
            quote!(__acc_r)
        } else if self.receiver(id, visible) {
            quote!(#id)
        } else {
            return None;
        };
        Some(self.point(quote!({
            #[allow(unused_imports)]
            use #rt::{OtherLeaf as _, UsizeLeaf as _};
            (&#rt::IndexLeaf(&#base.#field)).leaf()?
        })))
    }

    /// Whether `id` is a value parameter of the region that the nest does not rebind: its
    /// fields and index methods have values at the launch.
    pub(super) fn receiver(&self, id: &Ident, visible: usize) -> bool {
        !self.method_body
            && self.receivers.contains_key(&id.to_string())
            && self.lookup(&id.to_string(), visible).is_none()
    }

    /// The interval of `r.m(args)`, a method of a value parameter `r` (`g.at(m, k, j, i)`):
    /// acc-build's bounds of the method's body for the arguments' intervals
    /// (`$OUT_DIR/acc_bounds/methods/<region>__<r>__<m>.rs`, see [`prove_index_method`]), which are
    /// `None` where it could not prove them.
    pub(super) fn method_call(&mut self, m: &syn::ExprMethodCall, visible: usize) -> Option<Ident> {
        let Expr::Path(p) = strip(&m.receiver) else {
            return None;
        };
        let r = p.path.get_ident()?;
        if !self.receiver(r, visible) {
            return None;
        }
        let stem = self.receivers[&r.to_string()].clone();
        let args = m
            .args
            .iter()
            .map(|a| self.interval(a, visible))
            .collect::<Option<Vec<Ident>>>()?;
        let n = args.len();
        let file = format!(
            "/acc_bounds/methods/{}",
            method_file(&stem, &m.method.unraw().to_string())
        );
        let v = format_ident!("__acc_b{}", self.temps);
        self.temps += 1;
        self.stmts.push(quote! {
            let #v: (usize, usize) = {
                let __acc_r = &#r;
                let __acc_a: [(usize, usize); #n] = [#(#args),*];
                include!(concat!(env!("OUT_DIR"), #file))
            }?;
        });
        Some(v)
    }
}

/// The name of acc-build's file of the bounds of method `method` of the value parameter whose
/// stem is `stem` (`<region>__<param>`: the region's kernels' base name, acc-codegen's
/// `kernel_name`, and the parameter's name).
pub fn method_file(stem: &str, method: &str) -> String {
    format!("{stem}__{method}.rs")
}

/// The bounds of an index method (`fn at(&self, m: usize, k: usize, j: usize, i: usize) ->
/// usize { ((m * self.n + k) * self.ld + j) * self.ld + i }`) for its arguments' intervals:
/// host code, an expression of type `Option<(usize, usize)>` with `__acc_r` (a reference to
/// the receiver) and `__acc_a: [(usize, usize); N]` (the arguments' intervals) in scope, which
/// a nest's launch check includes where an index calls the method on a value parameter
/// (`Prover::method_call`). The body must be one expression of its `usize` parameters, the
/// receiver's fields and literals, which the prover bounds as it bounds a nest's index (with
/// checked arithmetic, so a bound that would wrap proves nothing); anything else (another
/// name, a call, a statement, `&mut self`, generics) is `None`: the index keeps its check.
pub fn prove_index_method(f: &syn::ImplItemFn) -> TokenStream {
    let none = quote!(::core::option::Option::None);
    let sig = &f.sig;
    let returns_usize = matches!(&sig.output, syn::ReturnType::Type(_, t) if matches!(&**t, syn::Type::Path(p) if p.path.is_ident("usize")));
    if sig.asyncness.is_some()
        || sig.variadic.is_some()
        || !sig.generics.params.is_empty()
        || !returns_usize
    {
        return none;
    }
    let mut inputs = sig.inputs.iter();
    match inputs.next() {
        Some(syn::FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_none() => {}
        _ => return none,
    }
    let mut p = Prover::new(&[], HashSet::new(), false);
    p.method_body = true;
    for (k, arg) in inputs.enumerate() {
        let syn::FnArg::Typed(pt) = arg else {
            return none;
        };
        let Pat::Ident(id) = &*pt.pat else {
            return none;
        };
        if id.by_ref.is_some() || id.subpat.is_some() || id.mutability.is_some() {
            return none;
        }
        let usize_param = matches!(&*pt.ty, syn::Type::Path(t) if t.path.is_ident("usize"));
        let bind = if usize_param {
            Bind::Given(quote!(__acc_a.get(#k).copied()?))
        } else {
            Bind::Opaque
        };
        p.bind(id.ident.to_string(), bind);
    }
    let [syn::Stmt::Expr(body, None)] = f.block.stmts.as_slice() else {
        return none;
    };
    let mut panics = Panics(false);
    panics.visit_expr(body);
    if panics.0 {
        return none;
    }
    let Some(b) = p.interval(body, p.env.len()) else {
        return none;
    };
    let stmts = &p.stmts;
    quote! {
        (|| -> ::core::option::Option<(usize, usize)> {
            #(#stmts)*
            ::core::option::Option::Some(#b)
        })()
    }
}
