//! Path rewriting: the paths of carried code as the mirrored module tree needs them
//! (`crate::` to the `super::`s up to the crate's root module, `self::`/`super::` past the
//! fn-body modules, the package's library and dependencies by their modules, `std::` to
//! `core::`), `Self` replaced by a region's impl type, the acc attributes of loops stripped.

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use acc_codegen::syntax::is_acc_path;
use quote::quote;
use syn::visit_mut::VisitMut;

use super::resolve::core_module;
use super::Scan;

pub(super) struct StripAcc;

impl VisitMut for StripAcc {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
}

/// `Self` (a type, not `self`) replaced by the `impl`'s type: the kernels of an associated fn
/// are free fns of the device crate.
pub(super) fn replace_self_type(ts: TokenStream, ty: &TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = ts.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    for (k, t) in trees.iter().enumerate() {
        match t {
            TokenTree::Ident(id) if id == "Self" => {
                let path_follows = matches!(trees.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                let ty: TokenStream = ty.clone().into_iter().map(|mut t| {
                    t.set_span(id.span());
                    t
                }).collect();
                // A path type names its items as it is (`Grid::N`); others need `<[T; 3]>::N`.
                let plain = syn::parse2::<syn::Path>(ty.clone()).is_ok();
                if path_follows && !plain {
                    out.extend(quote!(<#ty>));
                } else {
                    out.extend(ty);
                }
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), replace_self_type(g.stream(), ty));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            _ => out.push(t.clone()),
        }
    }
    out.into_iter().collect()
}

impl Scan<'_> {
    /// Rewrites the paths of module `m`'s tokens for their place in the device crate (see the
    /// module docs): `crate::`, `self::` and `super::` at the start of a path, the package's
    /// lib crate, `std::` into `core::`.
    pub(super) fn rewrite_paths(&self, m: usize, ts: TokenStream) -> TokenStream {
        let module = &self.modules[m];
        let lib = self.lib.as_ref().filter(|(root, _)| module.root != *root && !module.dep).map(|(root, name)| (self.modules[*root].dev_path.clone(), name.clone()));
        let deps: Vec<(String, String)> = self.deps.iter().map(|(name, root)| (self.modules[*root].dev_path.clone(), name.clone())).collect();
        let trees: Vec<TokenTree> = ts.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
        let is_sep = |k: usize| {
            matches!(trees.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
                && matches!(trees.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        };
        let supers = |n: usize, span: Span, out: &mut Vec<TokenTree>| {
            for _ in 0..n {
                out.push(TokenTree::Ident(Ident::new("super", span)));
                let mut a = Punct::new(':', Spacing::Joint);
                a.set_span(span);
                let mut b = Punct::new(':', Spacing::Alone);
                b.set_span(span);
                out.push(TokenTree::Punct(a));
                out.push(TokenTree::Punct(b));
            }
        };
        let mut k = 0;
        while k < trees.len() {
            let t = &trees[k];
            // A path's first segment: not after `::` or `$`.
            let continues = k >= 1 && matches!(&trees[k - 1], TokenTree::Punct(p) if p.as_char() == ':' || p.as_char() == '$');
            if let (TokenTree::Ident(id), false, true) = (t, continues, is_sep(k + 1)) {
                let span = id.span();
                let name = id.to_string();
                match name.as_str() {
                    "crate" => {
                        if module.depth == 0 {
                            out.push(TokenTree::Ident(Ident::new("self", span)));
                        } else {
                            // `super::` * depth, the last one's `::` is the original's.
                            supers(module.depth - 1, span, &mut out);
                            out.push(TokenTree::Ident(Ident::new("super", span)));
                        }
                        k += 1;
                        continue;
                    }
                    "self" if module.wrappers > 0 => {
                        supers(module.wrappers - 1, span, &mut out);
                        out.push(TokenTree::Ident(Ident::new("super", span)));
                        k += 1;
                        continue;
                    }
                    "super" if module.wrappers > 0 => {
                        supers(module.wrappers, span, &mut out);
                        out.push(t.clone());
                        k += 1;
                        continue;
                    }
                    "std" => {
                        let second = match trees.get(k + 3) {
                            Some(TokenTree::Ident(s)) => s.to_string(),
                            _ => String::new(),
                        };
                        let third = match trees.get(k + 6) {
                            Some(TokenTree::Ident(s)) if is_sep(k + 4) => Some(s.to_string()),
                            _ => None,
                        };
                        if core_module(&second, third.as_deref()) {
                            out.push(TokenTree::Ident(Ident::new("core", span)));
                            k += 1;
                            continue;
                        }
                    }
                    _ => {
                        if let Some((path, _)) = lib.iter().chain(&deps).find(|(_, n)| n == &name) {
                            {
                                let p: TokenStream = path.parse().expect("a module path");
                                out.extend(p.into_iter().map(|mut t| {
                                    t.set_span(span);
                                    t
                                }));
                                k += 1;
                                continue;
                            }
                        }
                    }
                }
            }
            match t {
                TokenTree::Group(g) => {
                    let mut ng = proc_macro2::Group::new(g.delimiter(), self.rewrite_paths(m, g.stream()));
                    ng.set_span(g.span());
                    out.push(TokenTree::Group(ng));
                }
                _ => out.push(t.clone()),
            }
            k += 1;
        }
        out.into_iter().collect()
    }
}
