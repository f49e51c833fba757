//! Array sections in `reduction` (`reduction(+: q[lo..hi])`, OpenACC 2.7's `q[lo:len]`).
//!
//! A section's construct reduces the whole array, as `reduction(+: q)` does: each copy of `q`
//! starts as the operator's identity and the copies are combined into `q` at the end, so an
//! element the construct never touches ends as it was (the original combined with the
//! identity). What the section adds is the promise that the construct touches only its
//! elements, which [`desugar`] makes a check: every `q[e]` in the construct's body indexes
//! through `e` checked against the section (a panic naming the section otherwise, on the host
//! and in a kernel alike), and any other use of `q` there is refused at compile time. (A read
//! outside the section would see the identity, not the original element: OpenACC leaves those
//! elements shared, which a private copy cannot be.)
//!
//! It runs on a region's free fn before its loops are read ([`crate::front::region::Form::read`]),
//! so both builds lower the same checked body, and the rest of the compiler sees a reduction
//! of `q`.

use quote::quote_spanned;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, ItemFn};

use crate::front::directives;
use crate::front::model::{RegionDirective, Section};
use crate::report::Errors;
use crate::syntax::loop_attr;

/// Rewrites the constructs of `f` that reduce sections: the region's own clauses (its whole
/// body) and each loop's (its body). Refuses other uses of a sectioned array in `errors`.
pub fn desugar(f: &mut ItemFn, dir: &RegionDirective, errors: &mut Errors) {
    let region: Vec<&Section> = dir.clauses.reduction.iter().flat_map(|r| &r.sections).collect();
    Loops { region, errors }.visit_block_mut(&mut f.block);
}

/// Finds the loops whose directives reduce sections; `region` holds the region's own, which
/// apply to the bodies of its outermost `acc::loop`s (the code around them runs in every gang,
/// and declares and returns the array).
struct Loops<'s, 'e> {
    region: Vec<&'s Section>,
    errors: &'e mut Errors,
}

impl VisitMut for Loops<'_, '_> {
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        if let Some(a) = loop_attr(f) {
            // (Errors in the directive are reported when the loops are read.)
            let d = directives::read(a, &mut Errors::default());
            let region = std::mem::take(&mut self.region);
            for s in d.reduction.iter().flat_map(|r| &r.sections).chain(region.iter().copied()) {
                Checks { section: s, errors: &mut *self.errors }.visit_block_mut(&mut f.body);
            }
            syn::visit_mut::visit_expr_for_loop_mut(self, f);
            self.region = region;
            return;
        }
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
}

/// Checks every index of one section's array in a body.
struct Checks<'a, 'e> {
    section: &'a Section,
    errors: &'e mut Errors,
}

impl Checks<'_, '_> {
    fn is_var(&self, e: &Expr) -> bool {
        matches!(e, Expr::Path(p) if p.qself.is_none() && p.path.is_ident(&self.section.var))
    }

    /// `{ let i: usize = e; if !(in the section) { panic!(..) } i }`, spanned at `e`.
    fn checked(&self, e: &Expr) -> Expr {
        let s = self.section;
        let at = e.span();
        let lo = s.lo.as_ref().map(|lo| quote_spanned!(at=> (#lo) <= __acc_i));
        let hi = s.hi.as_ref().map(|hi| match s.inclusive {
            true => quote_spanned!(at=> __acc_i <= (#hi)),
            false => quote_spanned!(at=> __acc_i < (#hi)),
        });
        let conds: Vec<_> = lo.into_iter().chain(hi).collect();
        if conds.is_empty() {
            return e.clone();
        }
        let msg = format!("acc: an index of `{}` outside the section `{}` its loop reduces (a construct that reduces a section may touch only its elements)", s.var, s.text);
        syn::parse_quote_spanned! {at=>
            {
                let __acc_i: usize = #e;
                if !(#(#conds)&&*) {
                    ::core::panic!(#msg);
                }
                __acc_i
            }
        }
    }
}

impl VisitMut for Checks<'_, '_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Index(ix) = e {
            if self.is_var(&ix.expr) {
                if let Expr::Range(r) = &*ix.index {
                    self.errors.error(
                        r.span(),
                        format!("`{v}` is reduced over the section `{}`: index one element at a time here (`{v}[i]`, `i` in the section)", self.section.text, v = self.section.var),
                    );
                    return;
                }
                self.visit_expr_mut(&mut ix.index);
                *ix.index = self.checked(&ix.index);
                return;
            }
        }
        if self.is_var(e) {
            self.errors.error(
                e.span(),
                format!("`{v}` is reduced over the section `{}`: here use only its elements (`{v}[i]`, `i` in the section)", self.section.text, v = self.section.var),
            );
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        // A macro's tokens are not expressions yet; one that names the array is refused.
        if names(m.tokens.clone(), &self.section.var) {
            self.errors.error(
                m.path.span(),
                format!("`{v}` is reduced over the section `{}`: a macro here cannot use it (write its elements, `{v}[i]`, outside the macro)", self.section.text, v = self.section.var),
            );
        }
    }
}

/// Whether `tokens` hold the identifier `var`, at any depth of their groups.
fn names(tokens: proc_macro2::TokenStream, var: &syn::Ident) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == *var,
        proc_macro2::TokenTree::Group(g) => names(g.stream(), var),
        _ => false,
    })
}
