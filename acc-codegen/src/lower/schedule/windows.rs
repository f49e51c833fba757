//! `cache!` windows a loop stages in shared memory: the body's references read from them, and
//! the test that a point's windows lie inside their arrays.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident};

/// `body` with each reference `a[i + c]` to a staged window read from its place in shared
/// memory (`wins`): element `wx + c - lo` of the window (`wx` the point's place in the trip,
/// `__acc_wx`), or `wx + j - (i + lo)` for `a[j]` in a loop over a range inside the window,
/// after the slice's own
/// bounds check on the index (so that an index past the array panics as it does on the host).
/// The references were proved inside the windows by `cache::check_references`.
pub(super) fn cached_reads(body: &syn::Block, staged: &[crate::front::cache::Moving], wins: &[Ident], checked: bool) -> syn::Block {
    struct R<'s> {
        staged: &'s [crate::front::cache::Moving],
        wins: &'s [Ident],
        checked: bool,
        /// The loops around the reference that run inside windows (`cache::inner_range`).
        inner: Vec<(Ident, Vec<usize>)>,
    }
    impl R<'_> {
        /// The element of window `k` that reference `a[index]` reads, from the point's place:
        /// `c - lo` for `a[i + c]`, `j - (i + lo)` for `a[j]` in a loop inside the window.
        fn slot(&self, k: usize, index: &Expr) -> Option<TokenStream> {
            let w = &self.staged[k];
            if let Some(c) = crate::front::cache::offset_of(index, &w.var).filter(|c| (w.lo..=w.hi).contains(c)) {
                let slot = (c - w.lo) as usize;
                return Some(quote!(#slot));
            }
            let (j, _) = self.inner.iter().find(|(j, ks)| ks.contains(&k) && crate::front::cache::is_var(index, j))?;
            let (var, lo) = (&w.var, proc_macro2::Literal::i64_suffixed(w.lo));
            Some(quote!((#j as usize).wrapping_sub((#var as usize).wrapping_add((#lo) as usize))))
        }
    }
    impl VisitMut for R<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let Expr::ForLoop(f) = e {
                let range = crate::front::cache::inner_range(f, self.staged);
                let pushed = range.is_some();
                self.inner.extend(range);
                syn::visit_mut::visit_expr_for_loop_mut(self, f);
                if pushed {
                    self.inner.pop();
                }
                return;
            }
            if let Expr::Index(ix) = e {
                if let Expr::Path(p) = &*ix.expr {
                    if let Some(j) = self.staged.iter().position(|w| p.path.is_ident(&w.array)) {
                        if let Some(slot) = self.slot(j, &ix.index) {
                            let (win, idx) = (&self.wins[j], &ix.index);
                            let span = ix.index.span();
                            if !self.checked {
                                // The trip's whole windows lie inside their arrays
                                // (`window_inside`), so this reference does.
                                *e = syn::parse_quote_spanned! {span=> {
                                    // SAFETY: as below.
                                    unsafe { *#win.add(__acc_wx + #slot) }
                                }};
                                return;
                            }
                            // The reference's check, as the host makes it: acc-build writes
                            // `a[i]` as `a[ix(i, LINE, COL)]` with the user's line and column
                            // of this `a` (`scan::InlineBounds`), which a panic reports however
                            // far right the printer puts this copy of the body.
                            let arr = &ix.expr;
                            *e = syn::parse_quote_spanned! {span=> {
                                let _ = &#arr[#idx];
                                // SAFETY: the window holds `m * blockDim.x + span` elements
                                // and this point's `wx + c - lo` is below that (`wx < m *
                                // blockDim.x`, `c` was proved in `lo..=hi`); a barrier
                                // followed the fetch.
                                unsafe { *#win.add(__acc_wx + #slot) }
                            }};
                            return;
                        }
                    }
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    let mut b = body.clone();
    R { staged, wins, checked, inner: Vec::new() }.visit_block_mut(&mut b);
    b
}

/// Whether every staged window of the trip whose loop variable holds its value lies inside its
/// array: `var + lo` neither wraps below 0 nor passes `var + hi`, and `var + hi` is below the
/// array's length. Then every reference `cached_reads` rewrote (`var + c`, `lo <= c <= hi`) is
/// inside its array, and the trip's body reads the windows without checking each reference.
/// `at`: the variable's value to test (a `usize` expression), else the variable's own.
pub(super) fn window_inside(staged: &[crate::front::cache::Moving], at: Option<&TokenStream>) -> TokenStream {
    let tests = staged.iter().map(|w| {
        let (a, v) = (&w.array, &w.var);
        let lo = proc_macro2::Literal::i64_suffixed(w.lo);
        let hi = proc_macro2::Literal::i64_suffixed(w.hi);
        let value = at.cloned().unwrap_or_else(|| quote!(#v as usize));
        quote! {{
            let __acc_v: usize = #value;
            let (__acc_lo, __acc_hi) = (__acc_v.wrapping_add((#lo) as usize), __acc_v.wrapping_add((#hi) as usize));
            __acc_lo <= __acc_hi && __acc_hi < #a.len() && (#lo >= 0 || __acc_lo < __acc_v) && (#hi <= 0 || __acc_hi > __acc_v)
        }}
    });
    quote!(true #(&& #tests)*)
}

