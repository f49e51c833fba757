//! `collapse(force: n)` (OpenACC 3.3): the `n` loops need not be tightly nested. The code
//! between them runs once per collapsed iteration: it is sunk into the innermost loop's body,
//! the code before each inner loop ahead of that body and the code after it behind (as
//! flang lowers `force`), so that the nest is tight and collapses as `collapse(n)` does. Run
//! in `Form::read`, before the directives are read, so that both builds lower the same body.
//!
//! A `break` or `continue` of the loop the code was in would mean another loop once sunk: such
//! code is a compile error on the jump. A body that holds more than one loop, or none, is left
//! as it is (the check of the nest then says it is not a nest).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, ItemFn, Stmt};

use crate::front::directives;
use crate::report::Errors;
use crate::syntax::loop_attr;

/// Sinks the code between the loops of every `collapse(force: n)` nest of `f`.
pub fn sink(f: &mut ItemFn, errors: &mut Errors) {
    Nests { errors }.visit_block_mut(&mut f.block);
}

struct Nests<'e> {
    errors: &'e mut Errors,
}

impl VisitMut for Nests<'_> {
    fn visit_expr_for_loop_mut(&mut self, f: &mut ExprForLoop) {
        if let Some(a) = loop_attr(f) {
            // (The directive's own errors are reported where the directives are read.)
            let d = directives::read(a, &mut Errors::default());
            if let (Some(_), Some((_, n))) = (d.collapse_force, d.collapse) {
                sink_nest(f, n, self.errors);
            }
        }
        syn::visit_mut::visit_expr_for_loop_mut(self, f);
    }
}

/// Makes the `depth` loops from `f` tightly nested, the code between them in the innermost
/// body; leaves a level whose body is not one loop and other code as it is.
fn sink_nest(f: &mut ExprForLoop, depth: usize, errors: &mut Errors) {
    if depth < 2 {
        return;
    }
    let loops: Vec<usize> = f.body.stmts.iter().enumerate().filter(|(_, s)| matches!(s, Stmt::Expr(Expr::ForLoop(_), _))).map(|(i, _)| i).collect();
    let [at] = loops[..] else { return };
    let mut stmts = std::mem::take(&mut f.body.stmts);
    let after: Vec<Stmt> = stmts.split_off(at + 1);
    let Some(Stmt::Expr(Expr::ForLoop(mut inner), semi)) = stmts.pop() else { unreachable!("the loop found above") };
    let before = stmts;
    for s in before.iter().chain(&after) {
        if let Some(jump) = loop_jump(s) {
            errors.error(
                jump,
                "this jump is in the code between the loops of `collapse(force: ..)`, which runs once per collapsed iteration: \
                 it would leave another loop; write it as an `if` around that code",
            );
        }
    }
    sink_nest(&mut inner, depth - 1, errors);
    if !(before.is_empty() && after.is_empty()) {
        let innermost = innermost(&mut inner, depth - 1);
        let mut body = std::mem::take(&mut innermost.body.stmts);
        if !after.is_empty() {
            if let Some(Stmt::Expr(e, semi @ None)) = body.last_mut() {
                *semi = Some(syn::Token![;](e.span()));
            }
        }
        innermost.body.stmts = before.into_iter().chain(body).chain(after).collect();
    }
    f.body.stmts = vec![Stmt::Expr(Expr::ForLoop(inner), semi)];
}

/// The loop `levels - 1` loops inside `f` (each body a single loop by now).
fn innermost(f: &mut ExprForLoop, levels: usize) -> &mut ExprForLoop {
    if levels <= 1 || !matches!(f.body.stmts.as_slice(), [Stmt::Expr(Expr::ForLoop(_), _)]) {
        return f;
    }
    match f.body.stmts.as_mut_slice() {
        [Stmt::Expr(Expr::ForLoop(inner), _)] => innermost(inner, levels - 1),
        _ => unreachable!("matched above"),
    }
}

/// The span of a `break` or `continue` in `s` that leaves or continues the loop `s` is in (not
/// one of a loop, closure or item inside `s`, nor one naming a label).
fn loop_jump(s: &Stmt) -> Option<Span> {
    struct V(Option<Span>);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
            if b.label.is_none() {
                self.0.get_or_insert(b.break_token.span);
            }
        }
        fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
            if c.label.is_none() {
                self.0.get_or_insert(c.continue_token.span);
            }
        }
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            self.visit_expr(&f.expr);
        }
        fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
            self.visit_expr(&w.cond);
        }
        fn visit_expr_loop(&mut self, _: &'ast syn::ExprLoop) {}
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(None);
    v.visit_stmt(s);
    v.0
}
