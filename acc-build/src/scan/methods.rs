//! Index methods: the bounds of the methods a region's indices call on its value parameters
//! (`lhs[g.at(m, k, j, i)]`, `g: Grid`), for the launches' checks.
//!
//! A nest's launch check bounds such an index by including
//! `$OUT_DIR/acc_bounds/methods/<Type>__<method>.rs` (acc-codegen's `lower::bounds`,
//! `Prover::method_call`): an expression of the receiver `__acc_r` and the arguments'
//! intervals `__acc_a`. Here each region fn's method calls on its parameters get that file:
//! the method's body bounded by `prove_index_method` where the parameter's type resolves to a
//! struct or enum of the package and its inherent `impl` has the method, `None` (the index
//! keeps its check) otherwise, and `None` where two regions' types of one name resolve to
//! different items (the file is keyed by the type's name).

use std::collections::HashMap;

use syn::ext::IdentExt;
use syn::visit::Visit;

use super::{Res, Scan};

/// A method's bounds file: its name (`Grid__at`), the item the type resolved to, and the
/// text (an expression of type `Option<(usize, usize)>`).
pub(super) type MethodBounds = (String, Option<(usize, usize)>, String);

impl Scan<'_> {
    /// The bounds files of the methods that region fn `f` of module `m` calls on its value
    /// parameters (a superset of those its nests' indices call, which the launch checks
    /// include).
    pub(super) fn index_methods(&self, m: usize, f: &syn::ItemFn, out: &mut Vec<MethodBounds>) {
        let mut params: HashMap<String, (String, syn::Path)> = HashMap::new();
        for arg in &f.sig.inputs {
            let syn::FnArg::Typed(pt) = arg else { continue };
            let syn::Pat::Ident(id) = &*pt.pat else { continue };
            let Some(name) = acc_codegen::front::region::plain_type_name(&pt.ty) else { continue };
            let ty = match &*pt.ty {
                syn::Type::Reference(r) => &*r.elem,
                t => t,
            };
            let syn::Type::Path(tp) = ty else { continue };
            params.insert(id.ident.unraw().to_string(), (name, tp.path.clone()));
        }
        if params.is_empty() {
            return;
        }
        let mut calls = Calls { params: &params, found: Vec::new() };
        calls.visit_block(&f.block);
        for (ty_name, path, method) in calls.found {
            let key = format!("{ty_name}__{method}");
            let (item, text) = match self.resolve(m, &path) {
                Res::Item(m2, k2) => (Some((m2, k2)), self.method_bounds(m2, k2, &method)),
                _ => (None, none()),
            };
            out.push((key, item, text));
        }
    }

    /// The bounds of inherent method `method` of the type defined at item `k` of module `m`.
    fn method_bounds(&self, m: usize, k: usize, method: &str) -> String {
        if !matches!(self.modules[m].items[k], syn::Item::Struct(_) | syn::Item::Enum(_)) {
            return none();
        }
        for (mm, module) in self.modules.iter().enumerate() {
            for item in &module.items {
                let syn::Item::Impl(imp) = item else { continue };
                if imp.trait_.is_some() || !imp.generics.params.is_empty() {
                    continue;
                }
                let syn::Type::Path(tp) = &*imp.self_ty else { continue };
                if tp.qself.is_some() || self.resolve(mm, &tp.path) != Res::Item(m, k) {
                    continue;
                }
                for it in &imp.items {
                    if let syn::ImplItem::Fn(f) = it {
                        if f.sig.ident.unraw() == method {
                            return acc_codegen::lower::bounds::prove_index_method(f).to_string();
                        }
                    }
                }
            }
        }
        none()
    }
}

/// The files written, one per name: where regions' types of one name resolve to different
/// items (or to none), the file bounds nothing.
pub(super) fn merged(all: Vec<MethodBounds>) -> Vec<(String, String)> {
    let mut by_key: Vec<MethodBounds> = Vec::new();
    for (key, item, text) in all {
        match by_key.iter_mut().find(|(k, _, _)| *k == key) {
            Some(e) if e.1 != item || item.is_none() => e.2 = none(),
            Some(_) => {}
            None => by_key.push((key, item, text)),
        }
    }
    by_key.into_iter().map(|(k, _, t)| (k, format!("// Written by acc-build: the bounds of an index method.\n{t}\n"))).collect()
}

fn none() -> String {
    "::core::option::Option::None".to_string()
}

/// The method calls whose receiver is one of `params` (by name): (type name, type path, method).
struct Calls<'a> {
    params: &'a HashMap<String, (String, syn::Path)>,
    found: Vec<(String, syn::Path, String)>,
}

impl<'ast> Visit<'ast> for Calls<'_> {
    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        if let syn::Expr::Path(p) = acc_codegen::front::loops::strip_parens(&c.receiver) {
            if let Some((name, path)) = p.path.get_ident().and_then(|id| self.params.get(&id.unraw().to_string())) {
                let method = c.method.unraw().to_string();
                if !self.found.iter().any(|(n, _, m)| *n == *name && *m == method) {
                    self.found.push((name.clone(), path.clone(), method));
                }
            }
        }
        syn::visit::visit_expr_method_call(self, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_two_items_share_bounds_nothing() {
        let files = merged(vec![
            ("Grid__at".into(), Some((1, 2)), "Some(x)".into()),
            ("Grid__at".into(), Some((1, 2)), "Some(x)".into()),
            ("Box__at".into(), Some((1, 3)), "Some(y)".into()),
            ("Box__at".into(), Some((4, 0)), "Some(z)".into()),
            ("Ext__at".into(), None, none()),
        ]);
        let text = |k: &str| files.iter().find(|(n, _)| n == k).map(|(_, t)| t.lines().nth(1).unwrap().to_string());
        assert_eq!(files.len(), 3);
        assert_eq!(text("Grid__at").as_deref(), Some("Some(x)"));
        assert_eq!(text("Box__at"), Some(none()));
        assert_eq!(text("Ext__at"), Some(none()));
    }
}
