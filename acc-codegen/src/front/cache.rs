//! `acc::cache!(a[lo..hi], b[lo..=hi])`: stage array windows in the gang's shared memory. On the
//! host backend the hint has no effect; its form is checked the same on every backend.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Token};

/// One cached window: `a[lo..hi]`.
pub struct Window {
    pub array: Ident,
    pub lo: Expr,
    pub hi: Expr,
    pub inclusive: bool,
}

pub fn parse(tokens: TokenStream) -> syn::Result<Vec<Window>> {
    let items = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(tokens.clone())?;
    if items.is_empty() {
        return Err(syn::Error::new(
            tokens.span(),
            "`acc::cache!` needs at least one array window, as in `acc::cache!(a[i - 1..i + 2])`",
        ));
    }
    items
        .into_iter()
        .map(|e| {
            let Expr::Index(ix) = &e else {
                return Err(syn::Error::new(e.span(), "expected an array window `a[lo..hi]`"));
            };
            let Expr::Path(p) = &*ix.expr else {
                return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
            };
            let Some(array) = p.path.get_ident().cloned() else {
                return Err(syn::Error::new(ix.expr.span(), "the cached array must be a named variable"));
            };
            let Expr::Range(r) = &*ix.index else {
                return Err(syn::Error::new(
                    ix.index.span(),
                    "a cache window is a range `lo..hi` or `lo..=hi` (the OpenACC `a[lo:len]` is `a[lo..lo + len]`)",
                ));
            };
            let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                return Err(syn::Error::new(r.span(), "a cache window needs both bounds"));
            };
            Ok(Window {
                array,
                lo: (**lo).clone(),
                hi: (**hi).clone(),
                inclusive: matches!(r.limits, syn::RangeLimits::Closed(_)),
            })
        })
        .collect()
}
