//! The body of a loop that holds parallel loops, as the group of threads that shares each of
//! its trips runs it (see the module docs of `schedule`): each statement by its kind, in
//! [`Scheduler::lower_body`].

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use super::{jumps, merge_levels, pat_ident, writes_into, Ctx, Levels, Scheduler, DEV};
use crate::info;
use crate::front::directives::LoopDirectives;
use crate::front::loops;
use crate::front::model::RegionKind;
use crate::info::schedule::{Group, InOrder, Leader, Sched, Then};

/// Who runs a body's statements: every thread of the group its lets and plain statements
/// (where `guard`, a thread of every enclosing uniform loop's real trip), the leader (`leader`:
/// the first thread of the levels of `rx` (vector lanes) and `ry` (workers)) its memory writes.
struct Runs {
    rx: bool,
    ry: bool,
    guard: Option<TokenStream>,
    leader: TokenStream,
    group: Group,
    depth: usize,
    /// Where this body's group locals end in shared memory.
    end: Ident,
}

impl Runs {
    fn lead(&self) -> Leader {
        Leader { x: self.rx, y: self.ry }
    }
}

impl Scheduler<'_> {
    /// The statements of a body that runs redundantly in a group of threads (see the module
    /// docs).
    /// `unreduced` collects, for the reductions of `ctx.mine` that loops of the body leave
    /// unfinished, the levels their partial values differ over.
    pub(super) fn lower_body(&mut self, stmts: &[Stmt], ctx: &Ctx, unreduced: &mut Vec<(Ident, Levels)>) -> Option<TokenStream> {
        let runs = self.runs(ctx);
        let mut out = TokenStream::new();
        // Where this body's group locals start in shared memory: after the enclosing bodies'.
        let end = &runs.end;
        let start = ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
        out.extend(quote!(let mut #end: usize = #start;));
        let ctx = &Ctx { shared_end: Some(end.clone()), ..ctx.clone() };
        for (i, stmt) in stmts.iter().enumerate() {
            // (A `continue` in a statement that holds parallel loops is refused below.)
            let skipping = if self.holds_parallel_stmt(stmt) { None } else { self.skip_rest(stmt) };
            if let Some((flag, lowered)) = skipping {
                // `continue` in this statement: it sets a flag instead (leaving the statement
                // through a labelled block), and the rest of the body runs where the flag is
                // clear. The body runs in the whole block on one trip (checked by the loop),
                // so the flag is the same in every thread and the barriers still meet.
                out.extend(quote!(let mut #flag = false;));
                // info: the flag.
                self.note(info::line_of(stmt.span()), runs.depth, Sched::ContinueFlag(runs.group));
                self.report.line_override = Some(info::line_of(stmt.span()));
                let first = self.lower_body(&[lowered], ctx, unreduced);
                self.report.line_override = None;
                out.extend(first?);
                let rest = self.lower_body(&stmts[i + 1..], ctx, unreduced)?;
                out.extend(quote!(if !#flag { #rest }));
                return Some(out);
            }
            out.extend(self.body_stmt(&runs, stmts, i, ctx, unreduced)?);
        }
        Some(out)
    }

    /// Who runs the statements of a body under `ctx`.
    fn runs(&mut self, ctx: &Ctx) -> Runs {
        let dev = DEV();
        let rx = !ctx.used.vector;
        let ry = self.uses_worker && !ctx.used.worker;
        let mut conds = Vec::new();
        if let Some(a) = &ctx.active {
            conds.push(a.clone());
        }
        let guard = if conds.is_empty() { None } else { Some(quote!(#(#conds)&&*)) };
        if rx {
            conds.push(quote!(#dev::thread_idx_x() == 0));
        }
        if ry {
            conds.push(quote!(#dev::thread_idx_y() == 0));
        }
        let leader = if conds.is_empty() { quote!(true) } else { quote!(#(#conds)&&*) };
        // info: who runs the body's statements.
        let group = match (ctx.used.worker, ctx.used.vector) {
            (_, true) => Group::Thread,
            (true, false) => Group::Worker,
            (false, false) => Group::Gang,
        };
        let end = format_ident!("__acc_shared_end{}", self.fresh());
        Runs { rx, ry, guard, leader, group, depth: self.report.depth, end }
    }

    /// Statement `i` of the body `stmts`.
    fn body_stmt(&mut self, runs: &Runs, stmts: &[Stmt], i: usize, ctx: &Ctx, unreduced: &mut Vec<(Ident, Levels)>) -> Option<TokenStream> {
        let dev = DEV();
        let (stmt, more, depth, group) = (&stmts[i], i + 1 < stmts.len(), runs.depth, runs.group);
        Some(match stmt {
            Stmt::Item(_) => quote!(#stmt),
            Stmt::Local(l) => self.body_local(runs, l, &stmts[i + 1..])?,
            Stmt::Expr(Expr::ForLoop(fl), _) if self.is_parallel(fl) => {
                let defer: Vec<Ident> = ctx.mine.iter().filter(|(op, v)| self.deferrable(stmts, *op, v)).map(|r| r.1.clone()).collect();
                let l = self.lower_loop(fl, ctx, false, &defer)?;
                for (v, lv) in &l.unreduced {
                    merge_levels(unreduced, v, *lv);
                }
                let mut out = l.code;
                if more && self.effect(stmt).memory {
                    // info: the barrier between phases.
                    self.note(info::loop_line(fl), depth, Sched::BarrierAfterLoop { line: info::loop_line(fl), group });
                    out.extend(quote!(#dev::sync_threads_checked();));
                }
                out
            }
            Stmt::Expr(Expr::ForLoop(fl), _) if self.holds_parallel(&fl.body) && (ctx.used.worker || ctx.used.vector) => {
                // Its trip count may differ between the workers or lanes, and the loops
                // inside meet at barriers.
                self.errors.error(fl.span(), "on the GPU, a sequential loop around parallel loops inside a worker or vector loop is not supported yet");
                return None;
            }
            Stmt::Expr(Expr::ForLoop(fl), _) if self.holds_parallel(&fl.body) => self.body_sequential_around(runs, fl, ctx)?,
            Stmt::Expr(Expr::If(i), _) if self.holds_parallel_expr(&Expr::If(i.clone())) && !ctx.used.worker && !ctx.used.vector => {
                // info: a branch of the gang.
                self.note(info::line_of(i.span()), depth, Sched::GangIf);
                self.report.depth += 1;
                let mut out = self.branch(i, ctx)?;
                self.report.depth -= 1;
                if more && self.effect(stmt).memory {
                    self.note(info::line_of(i.span()), depth, Sched::BarrierAfterIf);
                    out.extend(quote!(#dev::sync_threads_checked();));
                }
                out
            }
            Stmt::Expr(e, _) if self.holds_parallel_expr(e) => {
                let msg = if matches!(e, Expr::If(_)) {
                    "on the GPU, parallel loops under `if` inside a worker or vector loop are not supported yet (its workers or lanes may take different branches, and the loops inside meet at barriers): move the `if` into the inner loop's body"
                } else {
                    "on the GPU, worker and vector loops must stand directly in the body of the loop around them (or of a sequential `for` or an `if` there) in this version"
                };
                self.errors.error(e.span(), msg);
                return None;
            }
            _ => self.body_plain(runs, stmt, more)?,
        })
    }

    /// A `let` of the body (`rest`: the statements after it): the group's, in shared memory,
    /// where parallel loops of the body write it; else every thread's.
    fn body_local(&mut self, runs: &Runs, l: &syn::Local, rest: &[Stmt]) -> Option<TokenStream> {
        let dev = DEV();
        let (rx, ry, end) = (runs.rx, runs.ry, &runs.end);
        let init = l.init.as_ref().map(|i| Expr::clone(&i.expr));
        if let Some(e) = &init {
            if self.holds_parallel_expr(e) || self.effect(&Stmt::Expr(e.clone(), None)).memory {
                self.errors.error(l.span(), "on the GPU, a `let` run once per gang or worker must not write memory or hold acc loops: write it as its own statement");
                return None;
            }
        }
        // A local that parallel loops of this body write is the group's
        // (OpenACC 3.3 §2.9): one copy in shared memory, not one per thread.
        let written = pat_ident(&l.pat).filter(|n| (rx || ry) && rest.iter().any(|s| self.holds_parallel_stmt(s) && writes_into(s, n)));
        match (written, &init) {
            (Some(n), Some(e)) => {
                let ty = match &l.pat {
                    syn::Pat::Type(t) => {
                        let ty = &t.ty;
                        quote!(: #ty)
                    }
                    _ => TokenStream::new(),
                };
                let value = format_ident!("__acc_local{}", self.fresh());
                let first: Stmt = syn::parse_quote!(let #value #ty = #e;);
                let mut out = self.one_thread(&first);
                out.extend(quote!(let #n = #dev::group_local(#value, #rx, #ry, &mut #end);));
                // info: a local of the group in shared memory.
                self.note(info::line_of(l.span()), runs.depth, Sched::GroupLocal { name: n.clone(), group: runs.group, leader: runs.lead() });
                self.group_locals.push(n);
                Some(out)
            }
            (Some(n), None) => {
                self.errors.error(n.span(), format!("on the GPU, `{n}` is shared by the parallel loops inside this loop and needs an initialiser (`let {n} = [0.0; N];`)"));
                None
            }
            (None, _) => {
                // info: a local every thread keeps.
                if let Some(n) = pat_ident(&l.pat) {
                    self.note(info::line_of(l.span()), runs.depth, Sched::Local { name: n, group: runs.group });
                }
                Some(self.one_thread(&Stmt::Local(l.clone())))
            }
        }
    }

    /// A sequential loop around parallel ones: every thread takes its trips. Reductions are
    /// finished inside a sequential loop's trips (no deferral through it: the statement names
    /// the variable).
    fn body_sequential_around(&mut self, runs: &Runs, fl: &ExprForLoop, ctx: &Ctx) -> Option<TokenStream> {
        let dev = DEV();
        let inner = Ctx { mine: Vec::new(), ..ctx.clone() };
        // info: a sequential loop around parallel loops.
        self.note(info::loop_line(fl), runs.depth, Sched::SequentialAround(runs.group));
        self.report.depth += 1;
        let body = self.lower_body(&fl.body.stmts, &inner, &mut Vec::new())?;
        self.report.depth -= 1;
        let (label, pat, expr) = (&fl.label, &fl.pat, &fl.expr);
        // (A barrier ends each trip, as in a parallel loop's trips.)
        Some(quote!(#label for #pat in #expr { #body #dev::sync_threads(); }))
    }

    /// A statement holding no parallel loop: the leader's where it writes memory (then a
    /// broadcast of what it assigned, or a barrier where more statements follow), else every
    /// thread's.
    fn body_plain(&mut self, runs: &Runs, stmt: &Stmt, more: bool) -> Option<TokenStream> {
        let dev = DEV();
        let (rx, ry, leader) = (runs.rx, runs.ry, &runs.leader);
        let lowered = self.one_thread(stmt);
        let eff = self.effect(stmt);
        if !eff.memory {
            return Some(match &runs.guard {
                Some(g) => quote!(if #g { #lowered }),
                None => lowered,
            });
        }
        // Only the leader runs it: a jump out of it would leave the group's other threads
        // behind (a `continue` of this body is a flag, see `skip_rest`, and comes back to all
        // of them).
        if let Some(span) = jumps(std::slice::from_ref(stmt)).leaves_stmt {
            self.errors.error(span, "on the GPU, this statement writes memory, so one thread of the gang or worker runs it and the others wait: it cannot `break` or `return` out of the loop around it; set a flag in it and test the flag after it");
            return None;
        }
        let mut out = quote!(if #leader { #lowered });
        for v in &eff.assigned {
            out.extend(quote!(#v = #dev::broadcast(#v, #rx, #ry, #dev::dynamic_shared());));
        }
        if more && eff.assigned.is_empty() {
            // Checked: a leader gone (a kernel panic) ends the group here.
            out.extend(quote!(#dev::sync_threads_checked();));
        }
        // info: a statement of the leader, and how the group meets again.
        let names: Vec<Ident> = eff.assigned.iter().filter(|v| !v.to_string().starts_with("__acc_")).cloned().collect();
        let flag = eff.assigned.len() > names.len();
        let then = if !eff.assigned.is_empty() {
            Then::Broadcast(names, flag)
        } else if more {
            Then::Barrier
        } else {
            Then::Nothing
        };
        let line = self.report.line_override.unwrap_or_else(|| info::line_of(stmt.span()));
        let leader = (rx || ry).then_some(runs.lead());
        self.note(line, runs.depth, Sched::Leader { group: runs.group, leader, then });
        Some(out)
    }

    /// For a statement with a `continue` of the loop whose body it is: a fresh flag, and the
    /// statement with each such `continue` turned into setting the flag and leaving the
    /// statement (`'label: { .. break 'label; .. }`).
    fn skip_rest(&mut self, stmt: &Stmt) -> Option<(Ident, Stmt)> {
        let span = jumps(std::slice::from_ref(stmt)).next_trip?;
        if matches!(stmt, Stmt::Local(_)) {
            self.errors.error(span, "on the GPU, a `continue` inside a `let` of a loop that holds parallel loops is not supported: test the condition in an `if` before the `let`");
            return None;
        }
        let n = self.fresh();
        let flag = format_ident!("__acc_skip{}", n);
        let label = syn::Lifetime::new(&format!("'__acc_stmt{n}"), Span::call_site());
        struct R<'a>(&'a Ident, &'a syn::Lifetime, usize);
        impl VisitMut for R<'_> {
            fn visit_expr_mut(&mut self, e: &mut Expr) {
                match e {
                    Expr::Continue(c) if self.2 == 0 && c.label.is_none() => {
                        let (flag, label) = (self.0, self.1);
                        *e = syn::parse_quote!({ #flag = true; break #label; });
                    }
                    Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
                        self.2 += 1;
                        syn::visit_mut::visit_expr_mut(self, e);
                        self.2 -= 1;
                    }
                    Expr::Closure(_) => {}
                    _ => syn::visit_mut::visit_expr_mut(self, e),
                }
            }
            fn visit_item_mut(&mut self, _: &mut syn::Item) {}
        }
        let mut stmt = stmt.clone();
        R(&flag, &label, 0).visit_stmt_mut(&mut stmt);
        let lowered: Stmt = syn::parse_quote!(#label: { #stmt });
        Some((flag, lowered))
    }

    /// An `if` (or `if let`) around parallel loops in the body of a gang loop (or a
    /// sequential loop there). Every thread of the block holds the gang's trip and the same
    /// locals (statements that write memory broadcast what they assign), so the condition
    /// has one value in the block: all its threads take the same branch and meet at the
    /// barriers inside it.
    fn branch(&mut self, i: &syn::ExprIf, ctx: &Ctx) -> Option<TokenStream> {
        if self.effect(&Stmt::Expr((*i.cond).clone(), None)).memory {
            self.errors.error(i.cond.span(), "on the GPU, the condition of an `if` around parallel loops is computed by every thread of the gang: it must not write memory; compute it in a `let` before the `if`");
            return None;
        }
        if let Some(span) = jumps(&[Stmt::Expr(Expr::If(i.clone()), None)]).loop_exit {
            self.errors.error(span, "on the GPU, `break` or `continue` inside an `if` that holds parallel loops is not supported yet: guard the rest of the body with the `if` instead");
            return None;
        }
        // The condition as one thread computes it (device slices, `atomic!` reads).
        let head = syn::ExprIf { then_branch: syn::parse_quote!({}), else_branch: None, ..i.clone() };
        let lowered = (self.body_of)(&syn::Block { brace_token: Default::default(), stmts: vec![Stmt::Expr(Expr::If(head), None)] });
        let cond = match lowered.stmts.as_slice() {
            [Stmt::Expr(Expr::If(h), _)] => h.cond.clone(),
            _ => i.cond.clone(),
        };
        // Reductions are finished inside each branch (no deferral across it: the `if` names
        // the variable).
        let inner = Ctx { mine: Vec::new(), ..ctx.clone() };
        let then = self.lower_body(&i.then_branch.stmts, &inner, &mut Vec::new())?;
        let otherwise = match i.else_branch.as_ref().map(|(_, e)| &**e) {
            None => TokenStream::new(),
            Some(Expr::Block(b)) if b.label.is_none() => {
                let b = self.lower_body(&b.block.stmts, &inner, &mut Vec::new())?;
                quote!(else { #b })
            }
            // `else if ..`: a statement of its own.
            Some(other) => {
                let b = self.lower_body(&[Stmt::Expr(other.clone(), None)], &inner, &mut Vec::new())?;
                quote!(else { #b })
            }
        };
        let attrs = &i.attrs;
        Some(quote!(#(#attrs)* if #cond { #then } #otherwise))
    }

    /// info: the `for` loops of `body` (which holds no parallel loop: one thread runs it) and
    /// why each runs in order.
    pub(super) fn note_sequential_loops(&mut self, body: &syn::Block) {
        struct V<'l>(RegionKind, &'l LoopDirectives, Vec<(usize, Sched)>);
        impl<'ast> Visit<'ast> for V<'_> {
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                let kind = self.0;
                let var = quote::ToTokens::to_token_stream(&*f.pat).to_string();
                let d = self.1.get(f);
                let why = match d {
                    Some(d) if d.seq.is_some() => Some(InOrder::Seq),
                    Some(d) => {
                        let dep = self.1.dependence(f).cloned();
                        Some(match dep {
                            Some((span, msg)) => InOrder::Dependent(msg.to_string(), info::line_of(span)),
                            None if d.has_level() => InOrder::LevelsTaken,
                            None => InOrder::NoLevel,
                        })
                    }
                    None if kind == RegionKind::Kernels && loops::LoopHeader::parse(f).is_ok() => Some(InOrder::NoDirective),
                    None => None,
                };
                if let Some(why) = why {
                    self.2.push((info::loop_line(f), Sched::InOrder { var, why }));
                }
                syn::visit::visit_expr_for_loop(self, f);
            }
            fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
            fn visit_item(&mut self, _: &'ast syn::Item) {}
        }
        let found = {
            let mut v = V(self.kind, self.loops, Vec::new());
            v.visit_block(body);
            v.2
        };
        for (line, what) in found {
            self.note(line, self.report.depth, what);
        }
    }

}
