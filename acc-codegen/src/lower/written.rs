//! Arrays a compute region only writes: every mention of the array in the body is an element
//! assignment `a[i] = v` inside parallel loops (`gang`, `worker`, `vector`) and no sequential
//! one, or its length `a.len()`. The runtime may give such an array, when it is small and
//! copied back, a device copy in host memory mapped for the device
//! (`DataScope::enter_written`): the kernel's stores land where the host reads them, and no
//! copy follows the kernel. The test is on tokens, so that it errs only one way: a mention it
//! does not recognise (a read, a compound assignment, a call, a macro, a closure, a shadowing
//! `let`) makes the array not written-only.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{Expr, Ident};

use crate::syntax::{attr_tokens, loop_attr};

/// Whether `block` (a region's body) mentions `name` only as the array of element
/// assignments made once a trip of parallel loops, or for its length.
pub fn written_only(block: &syn::Block, name: &Ident) -> bool {
    let mut v = Mentions { name, seen: 0, parallel: 0, sequential: 0, bad: false };
    v.visit_block(block);
    let all = count(block.to_token_stream(), name);
    !v.bad && v.seen > 0 && v.seen == all
}

/// How many times `name` appears in `tokens`, macro arguments included.
fn count(tokens: TokenStream, name: &Ident) -> usize {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) if i == *name => 1,
            TokenTree::Group(g) => count(g.stream(), name),
            _ => 0,
        })
        .sum()
}

/// The recognised mentions of `name`: element assignments (counted where they stand in
/// parallel loops only) and `name.len()`.
struct Mentions<'n> {
    name: &'n Ident,
    seen: usize,
    /// The parallel and the sequential loops around the visit.
    parallel: usize,
    sequential: usize,
    /// An assignment that runs outside a parallel loop, or more than once a trip.
    bad: bool,
}

impl Mentions<'_> {
    fn is_name(&self, e: &Expr) -> bool {
        matches!(e, Expr::Path(p) if p.qself.is_none() && p.path.is_ident(self.name))
    }
}

/// Whether a loop's `#[acc::r#loop(..)]` spreads its trips over gangs, workers or lanes.
fn parallel_loop(f: &syn::ExprForLoop) -> bool {
    let Some(a) = loop_attr(f) else { return false };
    let words: Vec<String> = attr_tokens(a).into_iter().filter_map(|t| if let TokenTree::Ident(i) = t { Some(i.to_string()) } else { None }).collect();
    words.iter().any(|w| matches!(w.as_str(), "gang" | "worker" | "vector")) && !words.iter().any(|w| w == "seq")
}

impl<'ast> Visit<'ast> for Mentions<'_> {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        if let Expr::Index(ix) = &*a.left {
            if self.is_name(&ix.expr) {
                self.seen += 1;
                self.bad |= self.parallel == 0 || self.sequential > 0;
                self.visit_expr(&ix.index);
                self.visit_expr(&a.right);
                return;
            }
        }
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if m.method == "len" && m.args.is_empty() && self.is_name(&m.receiver) {
            self.seen += 1;
            return;
        }
        syn::visit::visit_expr_method_call(self, m);
    }
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        // The range runs once; the body once a trip.
        self.visit_expr(&f.expr);
        let parallel = parallel_loop(f);
        if parallel {
            self.parallel += 1;
        } else {
            self.sequential += 1;
        }
        self.visit_block(&f.body);
        if parallel {
            self.parallel -= 1;
        } else {
            self.sequential -= 1;
        }
    }
    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        self.sequential += 1;
        syn::visit::visit_expr_while(self, w);
        self.sequential -= 1;
    }
    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        self.sequential += 1;
        syn::visit::visit_expr_loop(self, l);
        self.sequential -= 1;
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        // A closure may run any number of times.
        self.sequential += 1;
        syn::visit::visit_expr_closure(self, c);
        self.sequential -= 1;
    }
    // Items inside the body are not the region's code.
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: &str) -> bool {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        written_only(&block, &Ident::new("out", proc_macro2::Span::call_site()))
    }

    #[test]
    fn element_stores_in_parallel_loops_are_written_only() {
        // The papers' worker vector region.
        assert!(check(
            "{ #[acc::r#loop(gang)] for k in 0..nk { let mut t = 0; \
               #[acc::r#loop(worker, reduction(+: t))] for j in 0..nj { t += a[k * nj + j]; } \
               out[k] = t; } }"
        ));
        assert!(check("{ #[acc::r#loop(gang, vector)] for i in 0..out.len() { out[i] = 2.0 * a[i]; } }"));
        assert!(check("{ #[acc::r#loop(gang)] for k in 0..n { if k % 2 == 0 { out[k] = 1; } else { out[k] = 2; } } }"));
    }

    #[test]
    fn a_read_or_an_unknown_mention_is_not() {
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out[k] += 1; } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out[k] = out[k] * 2; } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out[k] = a[k]; let x = out[0]; } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out[k] = a[k]; f(&out); } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { acc::atomic!(out[k] += 1); } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out[k] = 1; } let out = 3; }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { out.iter_mut().for_each(|x| *x = 0); } }"));
        assert!(!check("{ let n = 3; }"), "not mentioned: nothing to place");
    }

    #[test]
    fn a_store_outside_parallel_loops_or_repeated_in_a_trip_is_not() {
        assert!(!check("{ out[0] = 1; }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { for s in 0..10 { out[k] = s; } } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { #[acc::r#loop(seq)] for s in 0..10 { out[k] = s; } } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { while c { out[k] = 1; } } }"));
        assert!(!check("{ #[acc::r#loop(gang)] for k in 0..n { let f = || out[k] = 1; } }"));
    }
}
