//! The `syn` helpers every stage shares: acc paths, the names a pattern or block binds, a loop's
//! `#[acc::r#loop]` attribute, and the user's item with the acc helpers stripped.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{ExprForLoop, ItemFn, Pat};

/// Whether `path` names an acc item (`acc::name` or plain `name`).
pub fn is_acc_path(path: &syn::Path, name: &str) -> bool {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.unraw().to_string()).collect();
    match segs.as_slice() {
        [one] => one == name,
        [acc, one] => acc == "acc" && one == name,
        _ => false,
    }
}

/// The span of a macro's name (`cache` in `acc::cache!`).
pub fn macro_name_span(m: &syn::Macro) -> Span {
    m.path.segments.last().map_or_else(|| m.path.span(), |s| s.ident.span())
}

/// Names bound by a pattern.
pub fn pat_idents(p: &Pat, out: &mut Vec<String>) {
    struct V<'a>(&'a mut Vec<String>);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_pat_ident(&mut self, i: &'ast syn::PatIdent) {
            self.0.push(i.ident.to_string());
            syn::visit::visit_pat_ident(self, i);
        }
    }
    V(out).visit_pat(p);
}

/// Every name bound anywhere inside a block (lets, loop patterns, closure parameters).
pub fn inner_decls(b: &syn::Block) -> Vec<String> {
    struct V(Vec<String>);
    impl<'ast> Visit<'ast> for V {
        fn visit_pat(&mut self, p: &'ast Pat) {
            pat_idents(p, &mut self.0);
        }
    }
    let mut v = V(Vec::new());
    v.visit_block(b);
    v.0
}

/// Finds the acc loop attribute of a `for` loop, removing it.
pub fn take_loop_attr(attrs: &mut Vec<syn::Attribute>) -> Option<syn::Attribute> {
    let pos = attrs.iter().position(|a| is_acc_path(a.path(), "loop"))?;
    Some(attrs.remove(pos))
}

/// The tokens inside an attribute: `gang, vector` of `#[acc::r#loop(gang, vector)]`.
pub fn attr_tokens(a: &syn::Attribute) -> TokenStream {
    match &a.meta {
        syn::Meta::Path(_) => TokenStream::new(),
        syn::Meta::List(l) => l.tokens.clone(),
        syn::Meta::NameValue(nv) => nv.value.to_token_stream(),
    }
}

/// The `#[acc::r#loop]` attribute of a `for` loop.
pub fn loop_attr(f: &ExprForLoop) -> Option<&syn::Attribute> {
    f.attrs.iter().find(|a| is_acc_path(a.path(), "loop"))
}

/// The user's item without `#[acc::r#loop]` attributes and `acc::cache!` hints (which have no
/// host meaning, and which the region has already checked), everything else left, so that it
/// can be emitted beside errors without cascading.
pub fn strip_helpers(item: &mut ItemFn) {
    StripHelpers.visit_item_fn_mut(item);
}

/// [`strip_helpers`] of a block: host code as the host backend would type it.
pub fn strip_helpers_block(b: &mut syn::Block) {
    StripHelpers.visit_block_mut(b);
}

struct StripHelpers;

impl VisitMut for StripHelpers {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        f.attrs.retain(|a| !is_acc_path(a.path(), "loop"));
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }

    fn visit_stmt_mut(&mut self, stmt: &mut syn::Stmt) {
        let is_cache = match stmt {
            syn::Stmt::Macro(m) => is_acc_path(&m.mac.path, "cache"),
            syn::Stmt::Expr(syn::Expr::Macro(m), _) => is_acc_path(&m.mac.path, "cache"),
            _ => false,
        };
        if is_cache {
            *stmt = syn::Stmt::Expr(syn::parse_quote!(()), Some(Default::default()));
        } else {
            syn::visit_mut::visit_stmt_mut(self, stmt);
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
