//! A module's items as the device crate holds them: the kernels of its regions (free fns and
//! the fns of inherent `impl` blocks), and the items carried for them, in source order with
//! their lines.

use acc_codegen::model::RegionKind;
use acc_codegen::syntax::is_acc_path;
use proc_macro2::{Ident, TokenStream};
use quote::{quote, ToTokens};
use syn::ext::IdentExt;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use syn::spanned::Spanned;

use super::carry::{is_macro_rules, Checker, PRIMITIVES};
use super::index::index_by_ix;
use super::paths::{replace_self_type, StripAcc};
use super::resolve::{use_leaves, Binding, CORE_DERIVES, CORE_TRAITS};
use super::twins::routine_bounds;
use super::walk::{is_routine, region_kind};
use super::{Out, Res, Scan};

/// The device version of a routine with `bind(g)`: `g` called with its parameters (the macro
/// checked that they are named and that `g` has the routine's signature).
fn bound_body(sig: &syn::Signature, g: &Ident) -> syn::Block {
    let args = sig.inputs.iter().filter_map(|a| match a {
        syn::FnArg::Typed(pt) => match &*pt.pat {
            syn::Pat::Ident(p) => Some(p.ident.clone()),
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    });
    syn::parse_quote!({ #g(#(#args),*) })
}

impl Scan<'_> {
    /// The tokens of module `m`'s items (not its header), in source order with their lines.
    pub(super) fn module_items(&self, m: usize, out: &mut Out) -> Vec<(usize, TokenStream)> {
        let module = &self.modules[m];
        let mut items: Vec<(usize, TokenStream)> = Vec::new();
        for (k, item) in module.items.iter().enumerate() {
            let line = item.span().start().line;
            match item {
                syn::Item::Fn(f) => {
                    if let Some(region) = region_kind(&f.attrs) {
                        // A dependency's regions are in its own PTX.
                        if !module.dep {
                            self.region_kernels(m, region, f, &|_| None, &mut items, out);
                        }
                    } else if is_routine(&f.attrs) {
                        // Its twin without index checks, which the unchecked kernels of this
                        // module's regions call where the launch bounds its indices.
                        // (A routine with `bind(g)` has none: its device version calls `g`.)
                        let bind = f.attrs.iter().find(|a| is_acc_path(a.path(), "routine")).and_then(acc_codegen::routine_bind);
                        let twin = (!module.dep && bind.is_none()).then(|| acc_codegen::lower::bounds::prove_routine(f)).flatten();
                        let mut f = f.clone();
                        f.attrs.retain(|a| !is_acc_path(a.path(), "routine"));
                        f.attrs = device_attrs(&f.attrs);
                        if let Some(g) = &bind {
                            *f.block = bound_body(&f.sig, g);
                        }
                        StripAcc.visit_item_fn_mut(&mut f);
                        self.inline_bounds(m).routine(&f.sig, &mut f.block);
                        let mut c = Checker::new(self, m).with_locals(&f);
                        c.visit_signature(&f.sig);
                        c.visit_block(&f.block);
                        // A dependency's routine the device cannot build stays out (a kernel
                        // that calls it gets rustc's error); the package's own is an error.
                        if module.dep && !c.problems.is_empty() {
                            continue;
                        }
                        self.report(m, c.problems, out);
                        items.push((line, self.rewrite_paths(m, quote!(#f))));
                        if let Some(twin) = twin {
                            if let Ok(mut t) = syn::parse2::<syn::ItemFn>(twin.twin) {
                                t.attrs = device_attrs(&t.attrs);
                                StripAcc.visit_item_fn_mut(&mut t);
                                items.push((line, self.rewrite_paths(m, quote!(#t))));
                            }
                        }
                    } else if f.sig.constness.is_some() && self.carry(m, k).is_ok() {
                        let mut f = f.clone();
                        f.attrs = device_attrs(&f.attrs);
                        items.push((line, self.rewrite_paths(m, quote!(#f))));
                    }
                    if let Some(&child) = module.children.get(&k) {
                        let inner = self.module_items(child, out);
                        if !inner.is_empty() {
                            let name = Ident::new(&format!("__acc_in_{}", f.sig.ident.unraw()), f.sig.ident.span());
                            let inner = inner.into_iter().map(|(_, t)| t);
                            items.push((line, quote!(pub mod #name { use super::*; use ::acc_device::prelude::*; #(#inner)* })));
                        }
                    }
                }
                syn::Item::Const(_) | syn::Item::Static(_) | syn::Item::Type(_) | syn::Item::Enum(_) | syn::Item::Struct(_) | syn::Item::Trait(_) => {
                    if self.carry(m, k).is_err() {
                        continue;
                    }
                    let mut item = item.clone();
                    CleanFields.visit_item_mut(&mut item);
                    match &mut item {
                        syn::Item::Const(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Static(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Type(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Enum(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Struct(i) => i.attrs = device_attrs(&i.attrs),
                        syn::Item::Trait(i) => {
                            i.attrs = device_attrs(&i.attrs);
                            for it in &mut i.items {
                                if let syn::TraitItem::Fn(f) = it {
                                    f.attrs = device_attrs(&f.attrs);
                                    if let Some(body) = &mut f.default {
                                        self.inline_bounds(m).routine(&f.sig, body);
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                    items.push((line, self.rewrite_paths(m, item.into_token_stream())));
                }
                syn::Item::Impl(imp) => {
                    if let Some(t) = self.device_impl(m, imp) {
                        items.push((line, self.rewrite_paths(m, t)));
                    }
                    if !module.dep {
                        self.impl_regions(m, imp, &mut items, out);
                    }
                }
                syn::Item::Use(u) => {
                    for leaf in use_leaves(u) {
                        let res = self.resolve_segments(m, leaf.leading, &leaf.segs, 0);
                        let keep = match res {
                            Res::Item(m2, k2) => self.carry(m2, k2).is_ok(),
                            Res::Module(_) | Res::Core => true,
                            Res::NotCore | Res::Unknown | Res::Extern => false,
                        };
                        if !keep {
                            continue;
                        }
                        let vis = &u.vis;
                        let lead = leaf.leading.then(|| quote!(::));
                        let ids = &leaf.idents;
                        let tail = match (&leaf.binding, &leaf.rename) {
                            (Binding::Glob, _) => quote!(::*),
                            (_, Some(r)) => quote!(as #r),
                            _ => quote!(),
                        };
                        let use_token = &u.use_token;
                        items.push((line, self.rewrite_paths(m, quote!(#vis #use_token #lead #(#ids)::* #tail;))));
                    }
                }
                // `macro_rules!` definitions at their places, so that the kernels that invoke
                // them (an index macro in a loop body) see them in the same textual scope;
                // `#[macro_export]` dropped (the device crate's root would take every crate
                // root's), unused ones allowed.
                syn::Item::Macro(mac) if is_macro_rules(mac) => {
                    let mut mac = mac.clone();
                    mac.attrs = device_attrs(&mac.attrs);
                    items.push((line, self.rewrite_paths(m, quote!(#[allow(unused_macros)] #mac))));
                }
                syn::Item::Mod(md) => {
                    let Some(&child) = module.children.get(&k) else { continue };
                    let (mod_token, name) = (&md.mod_token, &md.ident);
                    // `#[macro_use]`: the module's macros stay in scope after it, as in the package.
                    let mut attrs = device_attrs(&md.attrs);
                    attrs.extend(md.attrs.iter().filter(|a| a.path().is_ident("macro_use")).cloned());
                    let attrs = attrs.iter().filter(|a| !a.path().is_ident("doc"));
                    let path = md.attrs.iter().filter(|a| a.path().is_ident("path"));
                    if md.content.is_some() {
                        let inner = self.module_items(child, out).into_iter().map(|(_, t)| t);
                        items.push((line, quote!(#(#attrs)* pub #mod_token #name { use ::acc_device::prelude::*; #(#inner)* })));
                    } else if self.modules[child].parent == Some(m) {
                        items.push((line, self.rewrite_paths(m, quote!(#(#attrs)* #(#path)* pub #mod_token #name;))));
                    } else {
                        // A file another crate root declared first: that crate's module.
                        let target: syn::Path = syn::parse_str(&self.modules[child].dev_path).expect("a module path");
                        items.push((line, quote!(#(#attrs)* pub use #target as #name;)));
                    }
                }
                _ => {}
            }
        }
        items.sort_by_key(|(line, _)| *line);
        items
    }

    /// The kernels of region fn `f` of module `m` (a free fn, or an `impl`'s fn with `Self`
    /// replaced, whose fields have the types `field_type` gives), of the region kind and
    /// directive attribute `region_kind` found, checked for what the device cannot take.
    pub(super) fn region_kernels(
        &self,
        m: usize,
        (kind, attr): (RegionKind, &syn::Attribute),
        f: &syn::ItemFn,
        field_type: &dyn Fn(&syn::Member) -> Option<syn::Type>,
        items: &mut Vec<(usize, TokenStream)>,
        out: &mut Out,
    ) {
        // (`f`'s paths are checked as written; its parameters as the device takes them.)
        let s = &self.sources[self.modules[m].src];
        let line = attr.pound_token.span.start().line as u32;
        let src = acc_codegen::Source { file: s.rel.clone(), line };
        let r = acc_codegen::device_region(kind, attr, f, &src, field_type);
        if !r.errors.is_empty() {
            let problems = r.errors.into_iter().collect();
            self.report_plain(m, problems, out);
            return;
        }
        if r.refused.is_some() {
            out.refused += 1;
            return;
        }
        if r.forms.iter().any(|(_, ks)| !ks.is_empty()) {
            // The paths of the fn as written: its instances and fields say nothing new.
            let mut c = Checker::new(self, m).with_locals(f);
            c.visit_block(&f.block);
            for input in &r.inputs {
                c.visit_fn_arg(input);
            }
            self.report(m, c.problems, out);
        }
        // info: the regions' schedule reports, for `ACC_INFO` and the `info` clause.
        out.reports.extend(r.reports);
        let routines = self.module_routines(m);
        for (base, ks) in r.forms {
            self.index_methods(m, f, &base, &mut out.methods);
            out.kernels += ks.len();
            out.regions.push(base);
            for k in ks {
                let k = routine_bounds(k, f, &routines, &mut out.bounds);
                items.push((line as usize, self.rewrite_paths(m, self.inline_bounds(m).kernel(k))));
            }
        }
    }

    /// The regions among an `impl` block's fns: associated fns and methods. `Self` in them is
    /// the impl's type; a method's fields have the types the struct declares.
    pub(super) fn impl_regions(&self, m: usize, imp: &syn::ItemImpl, items: &mut Vec<(usize, TokenStream)>, out: &mut Out) {
        for it in &imp.items {
            let syn::ImplItem::Fn(f) = it else { continue };
            let Some((kind, attr)) = region_kind(&f.attrs) else { continue };
            if !imp.generics.params.is_empty() || imp.trait_.is_some() {
                let what = if imp.trait_.is_some() { "an `impl` of a trait" } else { "a generic `impl` block" };
                self.report_plain(m, vec![(f.sig.ident.span(), format!("a region in {what} cannot be built for the GPU: make it an associated fn of an inherent, non-generic `impl`, or a free fn"))], out);
                continue;
            }
            let self_ty = &imp.self_ty;
            let tokens = replace_self_type(quote!(#f), &quote!(#self_ty));
            let Ok(item) = syn::parse2::<syn::ItemFn>(tokens) else { continue };
            let fields = self.struct_fields(m, self_ty);
            let field_type = |member: &syn::Member| -> Option<syn::Type> {
                let key = match member {
                    syn::Member::Named(id) => id.unraw().to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                fields.iter().find(|(n, _)| *n == key).map(|(_, t)| t.clone())
            };
            self.region_kernels(m, (kind, attr), &item, &field_type, items, out);
        }
    }

    /// The fields of the struct that `ty` names in module `m`: (name or index, type).
    pub(super) fn struct_fields(&self, m: usize, ty: &syn::Type) -> Vec<(String, syn::Type)> {
        let syn::Type::Path(tp) = ty else { return Vec::new() };
        let Res::Item(m2, k2) = self.resolve(m, &tp.path) else { return Vec::new() };
        let syn::Item::Struct(st) = &self.modules[m2].items[k2] else { return Vec::new() };
        st.fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.ident.as_ref().map_or_else(|| i.to_string(), |id| id.unraw().to_string()), f.ty.clone()))
            .collect()
    }

    /// An `impl` of a carried type: inherent methods the device can build, or a whole impl of
    /// one of `core`'s operator or comparison traits.
    pub(super) fn device_impl(&self, m: usize, imp: &syn::ItemImpl) -> Option<TokenStream> {
        // An impl of a trait of the package: carried when the trait is (`impl Real for f64`).
        let user_trait = imp.trait_.as_ref().and_then(|(_, path, _)| match self.resolve(m, path) {
            Res::Item(m2, k2) if matches!(self.modules[m2].items[k2], syn::Item::Trait(_)) => Some(self.carry(m2, k2).is_ok()),
            _ => None,
        });
        let primitive = matches!(&*imp.self_ty, syn::Type::Path(tp) if tp.qself.is_none() && tp.path.get_ident().is_some_and(|i| PRIMITIVES.contains(&i.to_string().as_str())));
        if !(self.carried_self_type(m, imp) || primitive && user_trait.is_some()) || user_trait == Some(false) {
            return None;
        }
        let mut imp = imp.clone();
        imp.attrs = device_attrs(&imp.attrs);
        let fits = |it: &syn::ImplItem| -> bool {
            let mut c = Checker::new(self, m);
            match it {
                // Regions are launched from the host: their kernels are built apart.
                syn::ImplItem::Fn(f) if region_kind(&f.attrs).is_some() => return false,
                syn::ImplItem::Fn(f) => {
                    let as_fn = syn::ItemFn { attrs: vec![], vis: f.vis.clone(), sig: f.sig.clone(), block: Box::new(f.block.clone()) };
                    c = c.with_locals(&as_fn);
                    c.visit_signature(&f.sig);
                    c.visit_block(&f.block);
                }
                syn::ImplItem::Const(k) => c.visit_impl_item_const(k),
                syn::ImplItem::Type(t) => c.visit_impl_item_type(t),
                _ => return false,
            }
            c.problems.is_empty()
        };
        match &imp.trait_ {
            Some((_, path, _)) => {
                let last = path.segments.last()?.ident.to_string();
                let core_trait = CORE_TRAITS.contains(&last.as_str()) && matches!(self.resolve(m, path), Res::Core | Res::Unknown);
                if !core_trait && user_trait.is_none() {
                    return None;
                }
                if !imp.items.iter().all(fits) {
                    return None;
                }
            }
            None => imp.items.retain(fits),
        }
        for it in &mut imp.items {
            if let syn::ImplItem::Fn(f) = it {
                f.attrs = device_attrs(&f.attrs);
                StripAcc.visit_impl_item_fn_mut(f);
                self.inline_bounds(m).routine(&f.sig, &mut f.block);
            }
        }
        let ix_impl = index_by_ix(&imp);
        Some(quote!(#imp #ix_impl))
    }
}

/// Attributes of a carried item that the device crate can take.
pub(super) fn device_attrs(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    let mut out = Vec::new();
    for a in attrs {
        let p = a.path();
        if p.is_ident("derive") {
            if let Ok(list) = a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) {
                let kept: Vec<&syn::Path> =
                    list.iter().filter(|p| p.segments.last().is_some_and(|l| CORE_DERIVES.contains(&l.ident.to_string().as_str()))).collect();
                if !kept.is_empty() {
                    let mut a = a.clone();
                    a.meta = syn::parse_quote!(derive(#(#kept),*));
                    out.push(a);
                }
            }
        } else if p.is_ident("cfg") {
            let test = matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "test");
            if !test {
                out.push(a.clone());
            }
        } else if ["doc", "repr", "allow", "inline", "cold", "track_caller", "must_use", "non_exhaustive"].iter().any(|n| p.is_ident(n)) {
            out.push(a.clone());
        }
    }
    out
}

/// Fields and variants keep their docs only.
pub(super) struct CleanFields;

impl VisitMut for CleanFields {
    fn visit_field_mut(&mut self, f: &mut syn::Field) {
        f.attrs.retain(|a| a.path().is_ident("doc"));
        syn::visit_mut::visit_field_mut(self, f);
    }
    fn visit_variant_mut(&mut self, v: &mut syn::Variant) {
        v.attrs.retain(|a| a.path().is_ident("doc"));
        syn::visit_mut::visit_variant_mut(self, v);
    }
}
