//! Index methods: the bounds of the methods a region's indices call on its value parameters
//! (`lhs[g.at(m, k, j, i)]`, `g: Grid`), for the launches' checks.
//!
//! A nest's launch check bounds such an index by including
//! `$OUT_DIR/acc_bounds/methods/<region>__<param>__<method>.rs` (acc-codegen's
//! `lower::bounds`, `Prover::method_call`): an expression of the receiver `__acc_r` and the
//! arguments' intervals `__acc_a`. Here each region fn's method calls on its parameters get
//! that file: the method's body bounded by `prove_index_method` where the parameter's type
//! resolves, in the region's module, to a struct or enum of the package whose inherent `impl`
//! has the method; `None` (the index keeps its check) otherwise.

use std::collections::HashMap;

use syn::ext::IdentExt;
use syn::visit::Visit;

use super::{Res, Scan};

/// A method's bounds file: its name (`<region>__g__at.rs`) and text (an expression of type
/// `Option<(usize, usize)>`).
pub(super) type MethodBounds = (String, String);

impl Scan<'_> {
    /// The bounds files of the methods that region fn `f` of module `m`, whose kernels' base
    /// name is `region`, calls on its value parameters (a superset of those its nests' indices
    /// call, which the launch checks include).
    pub(super) fn index_methods(&self, m: usize, f: &syn::ItemFn, region: &str, out: &mut Vec<MethodBounds>) {
        let mut params: HashMap<String, (String, syn::Path)> = HashMap::new();
        for arg in &f.sig.inputs {
            let syn::FnArg::Typed(pt) = arg else { continue };
            let syn::Pat::Ident(id) = &*pt.pat else { continue };
            let Some(path) = acc_codegen::front::region::plain_type_path(&pt.ty) else { continue };
            let param = id.ident.unraw().to_string();
            params.insert(param.clone(), (format!("{region}__{param}"), path.clone()));
        }
        if params.is_empty() {
            return;
        }
        let mut calls = Calls { params: &params, found: Vec::new() };
        calls.visit_block(&f.block);
        for (stem, path, method) in calls.found {
            let text = match self.resolve(m, &path) {
                Res::Item(m2, k2) => self.method_bounds(m2, k2, &method),
                _ => none(),
            };
            let text = format!("// Written by acc-build: the bounds of an index method.\n{text}\n");
            out.push((acc_codegen::lower::bounds::method_file(&stem, &method), text));
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

fn none() -> String {
    "::core::option::Option::None".to_string()
}

/// The method calls whose receiver is one of `params` (by name): (file stem, type path, method).
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
