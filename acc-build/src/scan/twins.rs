//! Twins: the routines of a module whose indices the launch can bound, and the unchecked
//! kernels' calls of them rewritten to their twins without checks, with the bounds file
//! (`acc_bounds/<kernel>.rs`) each such kernel's launch asks.
//!
//! In each unchecked kernel (`_inb`), the calls of a routine of the region's own module that
//! `prove_routine` bounds (and that nothing in the region fn rebinds) become calls of its twin
//! `__acc_inb_<name>`, and the kernel's `acc_bounds` file gets the routine's bounds (`Some(true)`
//! for other names, whose calls keep their checks). The kernel as it was follows as
//! `<kernel>_inbc`, which the launch runs where the nest's own bounds hold and a routine's do not.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::{Ident, TokenStream};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::walk::is_routine;
use super::Scan;

/// The unchecked kernels (`<kernel>_inb`) of kernel tokens `k` of region fn `f`: each call of a
/// routine of the region's module that `routines` holds (by a plain name that nothing in `f`
/// binds or declares, so that it names the module's routine) becomes a call of its twin
/// without checks, and `bounds` gets the kernel's `acc_bounds` file: a fn of the routine's
/// name and its arguments' intervals (`__acc_rb` in the launch's check), the routine's
/// bounds for a twin called, `Some(true)` for any other name (a call of something else keeps
/// that thing's own checks). Where it calls a twin, the kernel as it was follows, named
/// `<kernel>_inbc`: the launch runs it where the nest's own indices are bounded but a
/// routine's are not. The other kernels are returned as they are.
pub(super) fn routine_bounds(k: TokenStream, f: &syn::ItemFn, routines: &HashMap<String, acc_codegen::lower::bounds::ProvedRoutine>, bounds: &mut Vec<(String, String)>) -> TokenStream {
    let Ok(file) = syn::parse2::<syn::File>(k.clone()) else { return k };
    let mut local = LocalNames::default();
    local.visit_item_fn(f);
    let mut items = Vec::new();
    for mut item in file.items {
        let syn::Item::Fn(kf) = &mut item else {
            items.push(item);
            continue;
        };
        let name = kf.sig.ident.to_string();
        if !name.ends_with("_inb") {
            items.push(item);
            continue;
        }
        let original = kf.clone();
        let mut twins = TwinCalls { routines, local: &local.0, called: BTreeSet::new() };
        twins.visit_block_mut(&mut kf.block);
        items.push(item);
        // The unchecked kernel with the routines' checks, for launches whose routine bounds
        // fail (`pick(a, idx[i])`): the nest's own indices still unchecked.
        if !twins.called.is_empty() {
            let mut checked = original;
            checked.sig.ident = Ident::new(&format!("{name}c"), checked.sig.ident.span());
            items.push(syn::Item::Fn(checked));
        }
        let arms = twins.called.iter().map(|r| {
            let check = &routines[r].check;
            quote!(#r => #check,)
        });
        let text = quote! {{
            #[allow(unused_variables, unused_parens, clippy::all)]
            fn __acc_routine_bounds(name: &str, args: &[::core::option::Option<(usize, usize)>]) -> ::core::option::Option<bool> {
                match name {
                    #(#arms)*
                    _ => ::core::option::Option::Some(true),
                }
            }
            __acc_routine_bounds
        }};
        bounds.push((name, format!("// Written by acc-build: the bounds of the routines this kernel calls.\n{text}\n")));
    }
    items.into_iter().map(|i| i.into_token_stream()).collect()
}

/// Every name a fn binds or declares: parameters, patterns, closure parameters, items.
#[derive(Default)]
pub(super) struct LocalNames(std::collections::HashSet<String>);

impl<'ast> Visit<'ast> for LocalNames {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.insert(p.ident.unraw().to_string());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.0.insert(f.sig.ident.unraw().to_string());
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_item(&mut self, i: &'ast syn::Item) {
        if let syn::Item::Fn(f) = i {
            self.visit_item_fn(f);
            return;
        }
        if let Some(id) = match i {
            syn::Item::Const(c) => Some(&c.ident),
            syn::Item::Static(c) => Some(&c.ident),
            syn::Item::Mod(c) => Some(&c.ident),
            syn::Item::Struct(c) => Some(&c.ident),
            syn::Item::Enum(c) => Some(&c.ident),
            _ => None,
        } {
            self.0.insert(id.unraw().to_string());
        }
        if let syn::Item::Use(u) = i {
            let mut names = UseNames(&mut self.0);
            names.visit_item_use(u);
        }
    }
}

/// The names a `use` item brings (a glob brings any: `*`).
pub(super) struct UseNames<'a>(&'a mut std::collections::HashSet<String>);

impl<'ast> Visit<'ast> for UseNames<'_> {
    fn visit_use_name(&mut self, n: &'ast syn::UseName) {
        self.0.insert(n.ident.unraw().to_string());
    }
    fn visit_use_rename(&mut self, n: &'ast syn::UseRename) {
        self.0.insert(n.rename.unraw().to_string());
    }
    fn visit_use_glob(&mut self, _: &'ast syn::UseGlob) {
        self.0.insert("*".into());
    }
}

/// Rewrites the calls of routines with twins ([`routine_bounds`]).
pub(super) struct TwinCalls<'a> {
    routines: &'a HashMap<String, acc_codegen::lower::bounds::ProvedRoutine>,
    local: &'a std::collections::HashSet<String>,
    called: BTreeSet<String>,
}

impl VisitMut for TwinCalls<'_> {
    fn visit_expr_call_mut(&mut self, c: &mut syn::ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, c);
        let syn::Expr::Path(p) = &mut *c.func else { return };
        let Some(id) = p.path.get_ident().filter(|_| p.qself.is_none()) else { return };
        let name = id.unraw().to_string();
        if self.routines.contains_key(&name) && !self.local.contains(&name) && !self.local.contains("*") {
            let twin = Ident::new(&format!("__acc_inb_{name}"), id.span());
            p.path = twin.into();
            self.called.insert(name);
        }
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

impl Scan<'_> {
    /// The routines of module `m` (its own `#[acc::routine]` fns, by name) whose indices the
    /// launch can bound from their arguments (acc-codegen's `prove_routine`).
    pub(super) fn module_routines(&self, m: usize) -> HashMap<String, acc_codegen::lower::bounds::ProvedRoutine> {
        let module = &self.modules[m];
        if module.dep {
            return HashMap::new();
        }
        module
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Fn(f) if is_routine(&f.attrs) => acc_codegen::lower::bounds::prove_routine(f).map(|p| (f.sig.ident.unraw().to_string(), p)),
                _ => None,
            })
            .collect()
    }
}
