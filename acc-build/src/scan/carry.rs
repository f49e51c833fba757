//! What is carried: whether an item may go to the device crate (every path in it resolves to
//! something carried, to `core`, or to nothing the package defines), and the errors on the
//! paths of regions and routines that name what stays on the host.

use std::collections::BTreeSet;

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit::Visit;

use quote::quote;

use super::resolve::{STD_ONLY, STD_ONLY_MACROS};
use super::walk::{is_routine, region_kind};
use super::{render, Out, Res, Scan};

impl<'a> Scan<'a> {
    /// Whether item `k` of module `m` goes to the device crate, or why not.
    pub(super) fn carry(&self, m: usize, k: usize) -> Result<(), String> {
        if let Some(r) = self.carried.borrow().get(&(m, k)) {
            return r.clone();
        }
        // Assumed carried while it is being decided (recursive items).
        self.carried.borrow_mut().insert((m, k), Ok(()));
        let r = self.decide(m, k);
        self.carried.borrow_mut().insert((m, k), r.clone());
        r
    }

    pub(super) fn decide(&self, m: usize, k: usize) -> Result<(), String> {
        let item = &self.modules[m].items[k];
        let uses = |what: &str, node: &dyn Fn(&mut Checker)| -> Result<(), String> {
            let mut c = Checker::new(self, m);
            node(&mut c);
            match c.problems.into_iter().next() {
                None => Ok(()),
                Some((_, why)) => Err(format!("{what} that uses {why}")),
            }
        };
        match item {
            syn::Item::Const(c) if host_only(&c.expr) => Err("a const built from the host's environment or files".into()),
            syn::Item::Const(c) => uses("a const", &|ch| ch.visit_item_const(c)),
            syn::Item::Static(s) if !matches!(s.mutability, syn::StaticMutability::None) => {
                Err("a `static mut` (mutable host state the device does not share)".into())
            }
            syn::Item::Static(s) if host_only(&s.expr) => Err("a static built from the host's environment or files".into()),
            syn::Item::Static(s) if interior_mutable(&s.ty) => {
                Err("a static with interior mutability (the device would have a copy of its own)".into())
            }
            syn::Item::Static(s) => uses("a static", &|ch| ch.visit_item_static(s)),
            syn::Item::Type(t) => uses("a type alias", &|ch| ch.visit_item_type(t)),
            syn::Item::Enum(e) => uses("an enum", &|ch| ch.visit_item_enum(e)),
            syn::Item::Struct(s) if derives_device_copy(&s.attrs) => Ok(()),
            syn::Item::Struct(_) => Err("a struct without `#[derive(acc::DeviceCopy)]`".into()),
            syn::Item::Fn(f) if region_kind(&f.attrs).is_some() => Err("a region fn (regions are launched from the host)".into()),
            syn::Item::Fn(f) if is_routine(&f.attrs) => Ok(()),
            syn::Item::Fn(f) if f.sig.constness.is_some() => {
                uses("a `const fn` without `#[acc::routine]`", &|ch| ch.visit_item_fn(f))
            }
            syn::Item::Fn(_) => Err("a fn without `#[acc::routine]`".into()),
            syn::Item::Trait(t) if t.unsafety.is_some() || t.auto_token.is_some() => Err("an unsafe or auto trait (not carried to the device)".into()),
            syn::Item::Trait(t) => uses("a trait", &|ch| ch.visit_item_trait(t)),
            syn::Item::Union(_) => Err("a union (not device data)".into()),
            syn::Item::Macro(mac) if is_macro_rules(mac) => Ok(()),
            syn::Item::Macro(_) => Err("a macro invocation (acc-build carries `macro_rules!` definitions, not the items macros make)".into()),
            _ => Err("an item acc-build does not carry to the device".into()),
        }
    }

    /// The type an `impl`'s self type names, if the device crate carries it.
    pub(super) fn carried_self_type(&self, m: usize, imp: &syn::ItemImpl) -> bool {
        let syn::Type::Path(tp) = &*imp.self_ty else { return false };
        match self.resolve(m, &tp.path) {
            Res::Item(m2, k2) => {
                matches!(self.modules[m2].items[k2], syn::Item::Struct(_) | syn::Item::Enum(_)) && self.carry(m2, k2).is_ok()
            }
            _ => false,
        }
    }
}

pub(super) fn derives_device_copy(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("derive") && quote!(#a).to_string().contains("DeviceCopy"))
}

pub(super) fn interior_mutable(ty: &syn::Type) -> bool {
    let t = quote!(#ty).to_string();
    ["Atomic", "Cell", "Mutex", "RwLock", "OnceLock", "LazyLock", "Once"].iter().any(|w| t.contains(w))
}

/// Whether an expression uses macros that read the host build's environment or files.
pub(super) fn host_only(e: &syn::Expr) -> bool {
    let text = quote!(#e).to_string();
    ["env !", "option_env !", "include_str !", "include_bytes !", "include !"].iter().any(|m| text.contains(m))
}

/// The names a fn binds (parameters, `let`s, closure and match patterns), its generic
/// parameters and the items of its body: paths of one of these names are not module items.
#[derive(Default)]
pub(super) struct Locals(BTreeSet<String>);

impl<'ast> Visit<'ast> for Locals {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.0.insert(p.ident.unraw().to_string());
        syn::visit::visit_pat_ident(self, p);
    }
    fn visit_generic_param(&mut self, g: &'ast syn::GenericParam) {
        match g {
            syn::GenericParam::Type(t) => {
                self.0.insert(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                self.0.insert(c.ident.to_string());
            }
            syn::GenericParam::Lifetime(_) => {}
        }
        syn::visit::visit_generic_param(self, g);
    }
    fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
        if let syn::Stmt::Item(i) = s {
            if let Some(n) = Scan::item_name(i) {
                self.0.insert(n);
            }
            return;
        }
        syn::visit::visit_stmt(self, s);
    }
}

/// Finds the paths in a region, routine or item that name what the device crate does not carry.
pub(super) struct Checker<'s, 'a> {
    scan: &'s Scan<'a>,
    m: usize,
    locals: BTreeSet<String>,
    /// (where, what: "`helper`, a fn without `#[acc::routine]`").
    pub(super) problems: Vec<(Span, String)>,
}

impl<'s, 'a> Checker<'s, 'a> {
    pub(super) fn new(scan: &'s Scan<'a>, m: usize) -> Self {
        Checker { scan, m, locals: BTreeSet::new(), problems: Vec::new() }
    }

    pub(super) fn with_locals(mut self, node: &syn::ItemFn) -> Self {
        let mut l = Locals::default();
        l.visit_item_fn(node);
        self.locals = l.0;
        self
    }

    fn check_path(&mut self, p: &syn::Path) {
        let first = p.segments[0].ident.unraw().to_string();
        if p.leading_colon.is_none() && (self.locals.contains(&first) || first == "Self") {
            return;
        }
        // `i64::MAX`, `f32::consts..`: a primitive type's items (types and values have their
        // own namespaces: a fn named `i64` does not hide the type).
        if p.leading_colon.is_none() && p.segments.len() > 1 && PRIMITIVES.contains(&first.as_str()) {
            return;
        }
        let text = p.segments.iter().map(|s| s.ident.unraw().to_string()).collect::<Vec<_>>().join("::");
        match self.scan.resolve(self.m, p) {
            Res::Item(m2, k2) => {
                if let Err(why) = self.scan.carry(m2, k2) {
                    self.problems.push((p.span(), format!("`{text}`, {why}")));
                }
            }
            Res::NotCore => self.problems.push((p.span(), format!("`{text}`, which is not in `core` (the device has no `std` or `alloc`)"))),
            Res::Extern => {
                let krate = if p.leading_colon.is_some() || p.segments.len() > 1 { Some(first.clone()) } else { self.scan.imported_crate(self.m, &first) };
                self.scan.externs.borrow_mut().extend(krate);
                self.problems.push((p.span(), format!("`{text}`, from a crate the device crate does not have (it has `core`, the package's own items, and the routines and types of its dependencies that use acc)")));
            }
            Res::Unknown if p.segments.len() == 1 && p.leading_colon.is_none() && STD_ONLY.contains(&first.as_str()) => {
                self.problems.push((p.span(), format!("`{text}`, which needs `std` (the device has no heap)")));
            }
            _ => {}
        }
    }
}

/// Rust's primitive types: in type position their names mean the type, whatever fn of the
/// same name is in scope.
pub(super) const PRIMITIVES: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64", "bool", "char", "str",
];

impl<'ast> Visit<'ast> for Checker<'_, '_> {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_type_path(&mut self, t: &'ast syn::TypePath) {
        if let Some(q) = &t.qself {
            self.visit_type(&q.ty);
            return;
        }
        let primitive = t.qself.is_none() && t.path.leading_colon.is_none() && t.path.segments.len() == 1 && PRIMITIVES.contains(&t.path.segments[0].ident.to_string().as_str());
        if !primitive {
            syn::visit::visit_type_path(self, t);
        }
    }
    fn visit_expr_path(&mut self, e: &'ast syn::ExprPath) {
        match &e.qself {
            // `<T as Trait>::item`: the type and the trait, not the item.
            Some(q) => {
                self.visit_type(&q.ty);
                if q.position > 0 {
                    let mut tr = e.path.clone();
                    tr.segments = e.path.segments.iter().take(q.position).cloned().collect();
                    self.visit_path(&tr);
                }
            }
            None => self.visit_path(&e.path),
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.check_path(p);
        for seg in &p.segments {
            self.visit_path_arguments(&seg.arguments);
        }
    }
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if mac.path.segments.len() == 1 && STD_ONLY_MACROS.contains(&name.as_str()) {
            self.problems.push((mac.path.span(), format!("`{name}!`, which needs `std`")));
            return;
        }
        // The arguments of expression-like macros (`assert!(x < crate::N)`, `acc::atomic!`).
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = syn::parse::Parser::parse2(parser, mac.tokens.clone()) {
            for a in &args {
                self.visit_expr(a);
            }
        }
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Scan<'_> {
    pub(super) fn report(&self, m: usize, problems: Vec<(Span, String)>, out: &mut Out) {
        let s = &self.sources[self.modules[m].src];
        for (span, what) in problems {
            let e = render(&s.rel, &s.text, span, &format!("the GPU kernel cannot use {what}"));
            if !out.errors.contains(&e) {
                out.errors.push(e);
            }
        }
    }

    /// Reports problems that are already whole messages.
    pub(super) fn report_plain(&self, m: usize, problems: Vec<(Span, String)>, out: &mut Out) {
        let s = &self.sources[self.modules[m].src];
        for (span, msg) in problems {
            let e = render(&s.rel, &s.text, span, &msg);
            if !out.errors.contains(&e) {
                out.errors.push(e);
            }
        }
    }
}

/// Whether an item macro is a `macro_rules!` definition.
pub(super) fn is_macro_rules(mac: &syn::ItemMacro) -> bool {
    mac.ident.is_some() && mac.mac.path.is_ident("macro_rules")
}
