//! The body of a loop that holds parallel loops, as the group of threads that shares each of
//! its trips runs it (see the module docs of `schedule`): each statement by its kind, in
//! [`Scheduler::lower_body`].

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use super::{jumps, merge_levels, pat_ident, writes_into, Ctx, Levels, Scheduler, DEV};
use crate::info;
use crate::info::schedule::{Group, Leader, Sched, Then};

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
                self.line_override = Some(info::line_of(stmt.span()));
                let first = self.lower_body(&[lowered], ctx, unreduced);
                self.line_override = None;
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
        Runs { rx, ry, guard, leader, group, depth: self.depth, end }
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
                self.depth += 1;
                let mut out = self.branch(i, ctx)?;
                self.depth -= 1;
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
        self.depth += 1;
        let body = self.lower_body(&fl.body.stmts, &inner, &mut Vec::new())?;
        self.depth -= 1;
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
        let line = self.line_override.unwrap_or_else(|| info::line_of(stmt.span()));
        let leader = (rx || ry).then_some(runs.lead());
        self.note(line, runs.depth, Sched::Leader { group: runs.group, leader, then });
        Some(out)
    }
}
