//! The checks: what the front end read, checked against the rules of OpenACC and of what acc
//! supports, every error on the offending token. Both callers run them (see
//! [`crate::Generator`]).

pub mod body;
pub mod loops;

use body::HostPlan;

use syn::spanned::Spanned;
use syn::ItemFn;

use crate::front::method;
use crate::front::model::RegionDirective;
use crate::front::region::{Param, Region};
use crate::report::Errors;
use crate::syntax::pat_idents;

/// What a region or routine fn cannot be.
pub fn signature(f: &ItemFn, what: &str, errors: &mut Errors) {
    let sig = &f.sig;
    if let Some(a) = &sig.asyncness {
        errors.error(a.span, format!("an acc {what} cannot be `async`"));
    }
    if let Some(c) = &sig.constness {
        errors.error(c.span, format!("an acc {what} cannot be `const`"));
    }
    if let Some(v) = &sig.variadic {
        errors.error(v.span(), format!("an acc {what} cannot be variadic"));
    }
}

/// A routine's `bind(g)`: the GPU calls `g` with the routine's arguments (acc-build writes the
/// device version as `g(a, b, ..)`), so the routine takes plain named parameters, is not
/// generic, and `g` has its signature: the item returned (for the host fn's body) makes both
/// builds check that, spanned on `g`.
pub fn routine_bind(f: &ItemFn, g: &syn::Ident, errors: &mut Errors) -> proc_macro2::TokenStream {
    let sig = &f.sig;
    if !sig.generics.params.is_empty() {
        errors.error(sig.generics.span(), format!("`bind({g})` on a generic routine is not supported: bind each instance's routine, or call `{g}` from the routine's body on the GPU's path"));
    }
    let mut inputs = Vec::new();
    for arg in &sig.inputs {
        match arg {
            syn::FnArg::Typed(pt) if matches!(&*pt.pat, syn::Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none()) => {
                if matches!(&*pt.ty, syn::Type::ImplTrait(_)) {
                    errors.error(pt.ty.span(), format!("`bind({g})` on a routine with an `impl Trait` parameter is not supported: name the type"));
                }
                inputs.push(pt.ty.clone());
            }
            syn::FnArg::Typed(pt) => errors.error(pt.pat.span(), format!("a routine with `bind({g})` takes named parameters (`x: T`): the GPU's version passes them to `{g}` as they are")),
            syn::FnArg::Receiver(r) => errors.error(r.span(), format!("`bind({g})` applies to a free fn routine, not a method")),
        }
    }
    let output = match &sig.output {
        syn::ReturnType::Default => quote::quote!(),
        syn::ReturnType::Type(arrow, ty) => quote::quote!(#arrow #ty),
    };
    quote::quote_spanned! {g.span()=>
        const _: () = {
            let _: fn(#(#inputs),*) #output = #g;
        };
    }
}

/// The region's `private`/`firstprivate` clauses name parameters; its `reduction` clauses
/// name locals declared at the top of the body `f`.
pub fn region_clauses(dir: &RegionDirective, params: &[Param], f: &ItemFn, errors: &mut Errors) {
    for id in dir.clauses.private.iter().chain(&dir.clauses.firstprivate) {
        if !params.iter().any(|p| &p.ident == id) {
            errors.error(id.span(), format!("`{}` is not a parameter; region-level `private`/`firstprivate` name parameters (use the loop's `private` for locals)", method::display(id)));
        }
    }
    let mut top_lets = Vec::new();
    for stmt in &f.block.stmts {
        if let syn::Stmt::Local(l) = stmt {
            pat_idents(&l.pat, &mut top_lets);
        }
    }
    for v in dir.clauses.reductions().map(|r| r.var) {
        if params.iter().any(|p| &p.ident == v && p.kind == crate::front::region::ParamKind::SliceMut) {
            errors.error(v.span(), format!("the parameter `{v}` is reduced by the loops that update it: name it in their `reduction` clause (`#[acc::r#loop(.., reduction(op: {v}))]`); a region's clause names a local declared at its top"));
        } else if !top_lets.iter().any(|n| v == n) {
            errors.error(v.span(), format!("region reduction variable `{v}` must be a local declared at the top of the region (`let mut {v} = ..;`) and returned by it"));
        }
    }
}

/// Checks every form of `region`: its clauses and its body. Only the first form's errors go
/// to `errors` (see [`Form::faulty`](crate::front::region::Form::faulty)). Returns how the
/// host runs each form, `None` for a faulty one.
pub fn region(region: &Region, errors: &mut Errors) -> Vec<Option<HostPlan>> {
    let dir = &region.dir;
    region
        .forms
        .iter()
        .enumerate()
        .map(|(i, form)| {
            let mut quiet = Errors::default();
            let errs = if i == 0 { &mut *errors } else { &mut quiet };
            region_clauses(dir, &form.params, &form.f, errs);
            let plan = body::check(&body::Context::region(region.kind, dir, form), &form.f.block, errs);
            (quiet.is_empty() && !form.faulty).then_some(plan)
        })
        .collect()
}
