//! The loops of a region body: each directive parsed once, each loop's parallel decision made
//! once.
//!
//! The checks (`check::body`) and the GPU lowering (`lower::device`, `lower::schedule`,
//! `lower::grid`) ask about loops of the body many times over, on clones of their syntax.
//! [`LoopDirectives::of`] walks the body once, parses every `#[acc::r#loop(..)]` into the typed
//! [`LoopDirective`] and puts every loop to the dependence test ([`loops::dependence_of`]); the
//! others look a loop's directive and its [`Decision`] up here instead of reading its attribute
//! again or testing it themselves.

use std::collections::HashMap;

use quote::ToTokens;
use syn::visit::Visit;
use syn::ExprForLoop;

use proc_macro2::Span;

use crate::front::loops;
use crate::front::model::{LoopDirective, RegionKind};
use crate::front::parse;
use crate::report::Errors;
use crate::syntax::{attr_tokens, loop_attr};

/// The parsed `#[acc::r#loop(..)]` of every loop of a region body.
#[derive(Default)]
pub struct LoopDirectives {
    /// Each directive with the errors parsing it found (reported by `check::body`, at the
    /// loop, in the order of the body).
    by_attr: HashMap<AttrKey, (LoopDirective, Vec<syn::Error>)>,
    /// Each loop's decision, by where its `for` starts; loops that share a start (tokens a
    /// `macro_rules!` expansion repeats, or `quote!`'s) are told apart by their tokens.
    decisions: HashMap<(usize, usize), Vec<(String, Decision)>>,
}

/// The parallel decision of one loop ([`loops::dependence_of`] in the region's kind, a loop
/// without a directive taken as `auto`, as a `kernels` region's bare loops are): why its
/// iterations must run in order, `None` when they may run in parallel. (`seq`, the levels and
/// the region's rules are the callers'.) Two answers, which differ only in the reduction
/// variables the test may assign:
#[derive(Clone)]
pub struct Decision {
    /// With the loop's own `reduction` clauses: how the host runs the loop (`check::body`),
    /// and, on the GPU, a loop inside a nest (`lower::schedule`, `lower::grid`) and a bare
    /// `kernels` loop around nests (`lower::device`).
    pub own: Option<(Span, String)>,
    /// With every `reduction` clause of the nest the loop heads, its own and its inner loops':
    /// the GPU's nest kernel (`lower::device`), which combines them all. It differs from
    /// `own` where an inner loop reduces a variable declared outside the loop that the loop
    /// itself does not name: the GPU runs such a nest in parallel, the host in order.
    pub nest: Option<(Span, String)>,
}

/// A loop attribute: where it starts and its tokens. Clones of a loop keep both; two
/// attributes with one key (tokens a `macro_rules!` expansion repeats) parse alike.
#[derive(PartialEq, Eq, Hash)]
struct AttrKey {
    line: usize,
    column: usize,
    tokens: String,
}

impl AttrKey {
    fn of(attr: &syn::Attribute) -> Self {
        let start = attr.pound_token.span.start();
        AttrKey { line: start.line, column: start.column, tokens: attr.to_token_stream().to_string() }
    }
}

/// Parses the directive of a loop attribute (the checks in context are `check::loops`).
pub fn read(attr: &syn::Attribute, errors: &mut Errors) -> LoopDirective {
    if let syn::Meta::NameValue(nv) = &attr.meta {
        errors.error(nv.eq_token.span, "write `#[acc::r#loop(clauses)]`");
    }
    parse::loop_directive(attr.path().segments.last().unwrap().ident.span(), attr_tokens(attr), errors)
}

impl LoopDirectives {
    /// Parses the directive of every loop in `body` (closures and nested items included), then
    /// decides every loop in a `kind` region.
    pub fn of(body: &syn::Block, kind: RegionKind) -> Self {
        struct Walk(LoopDirectives);
        impl<'ast> Visit<'ast> for Walk {
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                if let Some(a) = loop_attr(f) {
                    self.0.by_attr.entry(AttrKey::of(a)).or_insert_with(|| {
                        let mut errors = Errors::default();
                        let d = read(a, &mut errors);
                        (d, errors.into_vec())
                    });
                }
                syn::visit::visit_expr_for_loop(self, f);
            }
        }
        let mut w = Walk(LoopDirectives::default());
        w.visit_block(body);
        let mut table = w.0;
        let all = all_loops(body);
        let mut starts: HashMap<(usize, usize), usize> = HashMap::new();
        for f in &all {
            *starts.entry(LoopDirectives::key(f)).or_default() += 1;
        }
        let mut decisions: HashMap<(usize, usize), Vec<(String, Decision)>> = HashMap::new();
        for f in all {
            let d = match table.get(f) {
                Some(d) => d.clone(),
                None => LoopDirective { auto: Some(f.for_token.span), ..LoopDirective::default() },
            };
            let own_reds = d.reduction_vars();
            let own = loops::dependence_of(f, &d, kind, &own_reds);
            let nest_reds: Vec<syn::Ident> = all_loops_of(f).into_iter().filter_map(|l| table.get(l)).flat_map(|d| d.reduction_vars()).collect();
            let nest = if nest_reds == own_reds { own.clone() } else { loops::dependence_of(f, &d, kind, &nest_reds) };
            // (Tokens only where they tell loops apart.)
            let key = LoopDirectives::key(f);
            let tokens = if starts[&key] > 1 { f.to_token_stream().to_string() } else { String::new() };
            decisions.entry(key).or_default().push((tokens, Decision { own, nest }));
        }
        table.decisions = decisions;
        table
    }

    fn key(f: &ExprForLoop) -> (usize, usize) {
        let start = f.for_token.span.start();
        (start.line, start.column)
    }

    /// The parallel decision of loop `f` (a loop of the body, or a clone of one).
    pub fn decision(&self, f: &ExprForLoop) -> &Decision {
        let entries = self.decisions.get(&LoopDirectives::key(f)).map_or(&[][..], |v| &v[..]);
        let found = match entries {
            [(_, d)] => Some(d),
            _ => {
                let tokens = f.to_token_stream().to_string();
                entries.iter().find(|e| e.0 == tokens).map(|e| &e.1)
            }
        };
        found.unwrap_or_else(|| panic!("acc: the loop at {:?} was not in the region body's table", f.for_token.span.start()))
    }

    /// Why loop `f`'s iterations must run in order, testing with its own reductions
    /// ([`Decision::own`]); `None` when they may run in parallel.
    pub fn dependence(&self, f: &ExprForLoop) -> Option<&(Span, String)> {
        self.decision(f).own.as_ref()
    }

    /// Why the nest that loop `f` heads must run in order, testing with every reduction of
    /// the nest ([`Decision::nest`]); `None` when it may run in parallel.
    pub fn nest_dependence(&self, f: &ExprForLoop) -> Option<&(Span, String)> {
        self.decision(f).nest.as_ref()
    }

    /// The directive on loop `f` (a loop of the body, or a clone of one); `None` when it has
    /// no `#[acc::r#loop]`.
    pub fn get(&self, f: &ExprForLoop) -> Option<&LoopDirective> {
        self.entry(f).map(|e| &e.0)
    }

    /// What parsing the directive on loop `f` found wrong.
    pub fn errors_of(&self, f: &ExprForLoop) -> &[syn::Error] {
        self.entry(f).map_or(&[], |e| &e.1)
    }

    fn entry(&self, f: &ExprForLoop) -> Option<&(LoopDirective, Vec<syn::Error>)> {
        let a = loop_attr(f)?;
        let d = self.by_attr.get(&AttrKey::of(a));
        assert!(d.is_some(), "acc: the loop directive at {:?} was not in the region body's table", a.pound_token.span.start());
        d
    }
}

/// Every `for` loop of `body` (closures and nested items included), outermost first.
fn all_loops(body: &syn::Block) -> Vec<&ExprForLoop> {
    let mut w = Loops(Vec::new());
    w.visit_block(body);
    w.0
}

/// Loop `f` and every `for` loop inside it, outermost first.
fn all_loops_of(f: &ExprForLoop) -> Vec<&ExprForLoop> {
    let mut w = Loops(Vec::new());
    w.visit_expr_for_loop(f);
    w.0
}

struct Loops<'ast>(Vec<&'ast ExprForLoop>);

impl<'ast> Visit<'ast> for Loops<'ast> {
    fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
        self.0.push(f);
        syn::visit::visit_expr_for_loop(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outer(body: &syn::Block) -> &ExprForLoop {
        body.stmts.iter().find_map(|s| match s {
            syn::Stmt::Expr(syn::Expr::ForLoop(f), _) => Some(f),
            _ => None,
        }).expect("a loop")
    }

    /// An inner loop's reduction of a variable declared outside the outer loop: tested with
    /// its own clauses (the host's decision) the outer loop assigns `s`, so it runs in order;
    /// tested with its nest's (the GPU nest kernel's, which combines the inner clause) it is
    /// independent. The inner loop is independent either way.
    #[test]
    fn a_nest_decision_counts_the_inner_loops_reductions() {
        let body: syn::Block = syn::parse_quote!({
            let mut s = 0.0f32;
            #[acc::r#loop(gang)]
            for i in 0..n {
                #[acc::r#loop(vector, reduction(+: s))]
                for j in 0..n {
                    s += a[i * n + j];
                }
            }
        });
        let table = LoopDirectives::of(&body, RegionKind::Kernels);
        let f = outer(&body);
        let own = table.dependence(f).expect("the outer loop assigns `s`");
        assert!(own.1.contains("`s`"), "{}", own.1);
        assert!(table.nest_dependence(f).is_none());
        let syn::Stmt::Expr(syn::Expr::ForLoop(inner), _) = &f.body.stmts[0] else { panic!("the inner loop") };
        assert!(table.dependence(inner).is_none() && table.nest_dependence(inner).is_none());
        // In a `parallel` region neither is tested.
        let table = LoopDirectives::of(&body, RegionKind::Parallel);
        assert!(table.dependence(f).is_none() && table.nest_dependence(f).is_none());
    }

    /// Loops that start at one place (here every token has `quote!`'s one span) are told apart
    /// by their tokens; a loop without a directive is decided as `auto`.
    #[test]
    fn loops_that_start_at_one_place_keep_their_own_decisions() {
        let body: syn::Block = syn::parse_quote!({
            for i in 0..n {
                a[i] = 1.0;
            }
            for i in 0..n {
                a[0] = a[i];
            }
        });
        let table = LoopDirectives::of(&body, RegionKind::Kernels);
        let [first, second] = [0, 1].map(|k| match &body.stmts[k] {
            syn::Stmt::Expr(syn::Expr::ForLoop(f), _) => f,
            _ => panic!("a loop"),
        });
        assert!(table.dependence(first).is_none());
        assert!(table.dependence(&first.clone()).is_none());
        assert!(table.dependence(second).is_some());
    }
}
