//! What the code of a nest does, as the schedule asks it: which loops are parallel, what a
//! statement writes ([`Effect`]: memory, or locals the group must broadcast), how control
//! leaves it ([`jumps`]), which names a body assigns, and whether lowered code uses the block
//! as a whole.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use super::Scheduler;
use crate::front::directives::LoopDirectives;
use crate::front::loops;
use crate::syntax::{self, is_acc_path};

impl Scheduler<'_> {
    /// What `stmt` writes: memory (slice elements, atomics, routines given a `&mut` slice),
    /// and the variables declared outside it that it assigns.
    pub(super) fn effect(&self, stmt: &Stmt) -> Effect {
        let declared = syntax::inner_decls(&syn::Block { brace_token: Default::default(), stmts: vec![stmt.clone()] });
        let mut v = EffectFinder { mut_slices: self.mut_slices, group_locals: &self.group_locals, declared: &declared, out: Effect::default() };
        v.visit_stmt(stmt);
        v.out
    }
}

#[derive(Default)]
pub(super) struct Effect {
    pub memory: bool,
    pub assigned: Vec<Ident>,
}

pub(super) struct EffectFinder<'a> {
    mut_slices: &'a [Ident],
    group_locals: &'a [Ident],
    declared: &'a [String],
    out: Effect,
}

impl EffectFinder<'_> {
    fn place(&mut self, e: &Expr) {
        let (root, plain) = place_root(e);
        let Some(root) = root else {
            self.out.memory = true;
            return;
        };
        if self.mut_slices.contains(&root) || (!plain && self.group_locals.contains(&root)) {
            self.out.memory = true;
        } else if plain && !self.declared.contains(&root.to_string()) && !self.out.assigned.contains(&root) {
            // An outer local assigned as a whole. (An element or field of an outer local array
            // or struct is every thread's own copy: no memory effect, no broadcast.)
            self.out.assigned.push(root);
        }
    }
    fn passes_mut_slice<'e>(&self, mut args: impl Iterator<Item = &'e Expr>) -> bool {
        args.any(|a| self.mut_slices.iter().chain(self.group_locals).any(|s| loops::mentions(a, s)))
    }
}

impl<'ast> Visit<'ast> for EffectFinder<'_> {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.place(&a.left);
        syn::visit::visit_expr_assign(self, a);
    }
    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if loops::is_compound_assign(&b.op) {
            self.place(&b.left);
        }
        syn::visit::visit_expr_binary(self, b);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if is_acc_path(&m.path, "atomic") {
            self.out.memory = true;
        }
    }
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if self.passes_mut_slice(c.args.iter()) {
            self.out.memory = true;
        }
        syn::visit::visit_expr_call(self, c);
    }
    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        if self.passes_mut_slice(c.args.iter().chain(std::iter::once(&*c.receiver))) {
            self.out.memory = true;
        }
        syn::visit::visit_expr_method_call(self, c);
    }
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// The name a `let` pattern binds, when it binds one (`x`, `mut x`, `x: T`).
pub(super) fn pat_ident(p: &syn::Pat) -> Option<Ident> {
    match p {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.clone()),
        syn::Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// Whether `s` writes into the local `n`: an element or field (`n[i] = ..`, `n.x += ..`), or
/// through `&mut n..`.
pub(super) fn writes_into(s: &Stmt, n: &Ident) -> bool {
    struct V<'a>(&'a Ident, bool);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            self.place(&a.left);
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if loops::is_compound_assign(&b.op) {
                self.place(&b.left);
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_expr_reference(&mut self, r: &'ast syn::ExprReference) {
            if r.mutability.is_some() && place_root(&r.expr).0.as_ref() == Some(self.0) {
                self.1 = true;
            }
            syn::visit::visit_expr_reference(self, r);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    impl V<'_> {
        fn place(&mut self, e: &Expr) {
            if let (Some(root), false) = place_root(e) {
                if &root == self.0 {
                    self.1 = true;
                }
            }
        }
    }
    let mut v = V(n, false);
    v.visit_stmt(s);
    v.1
}

/// The variable at the root of place `e` (`a`, `a[i]`, `a.x`, `*a`), and whether `e` is that
/// variable itself.
pub(super) fn place_root(e: &Expr) -> (Option<Ident>, bool) {
    match e {
        Expr::Path(p) => (p.path.get_ident().cloned(), true),
        Expr::Index(i) => (place_root(&i.expr).0, false),
        Expr::Field(f) => (place_root(&f.base).0, false),
        Expr::Paren(p) => place_root(&p.expr),
        Expr::Unary(u) => (place_root(&u.expr).0, false),
        _ => (None, false),
    }
}

/// The jumps that leave a piece of code: `continue`/`break` of the loop around it, and
/// `return`/`?` of the fn (not those of loops or closures inside it).
#[derive(Default)]
pub(crate) struct Jumps {
    /// An unlabelled `continue` of the loop around it.
    pub next_trip: Option<Span>,
    /// Any `continue` or `break` that leaves it (unlabelled at its top, or labelled).
    pub loop_exit: Option<Span>,
    /// A `return` or `?`.
    pub fn_exit: Option<Span>,
    /// What leaves the statements for a place outside them other than the next trip of the
    /// loop around them: a `break` of that loop, a labelled `break`/`continue` (except to
    /// the blocks acc makes for `continue`, `'__acc_*`), a `return` or `?`.
    pub leaves_stmt: Option<Span>,
}

/// The [`Jumps`] of `stmts`.
pub(crate) fn jumps(stmts: &[Stmt]) -> Jumps {
    struct V(usize, Jumps);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
            if self.0 == 0 && c.label.is_none() {
                self.1.next_trip.get_or_insert(c.span());
            }
            if self.0 == 0 || c.label.is_some() {
                self.1.loop_exit.get_or_insert(c.span());
            }
            if c.label.as_ref().is_some_and(|l| !is_acc_label(l)) {
                self.1.leaves_stmt.get_or_insert(c.span());
            }
        }
        fn visit_expr_break(&mut self, c: &'ast syn::ExprBreak) {
            if self.0 == 0 || c.label.is_some() {
                self.1.loop_exit.get_or_insert(c.span());
            }
            if (self.0 == 0 && c.label.is_none()) || c.label.as_ref().is_some_and(|l| !is_acc_label(l)) {
                self.1.leaves_stmt.get_or_insert(c.span());
            }
            syn::visit::visit_expr_break(self, c);
        }
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            self.1.fn_exit.get_or_insert(r.span());
            self.1.leaves_stmt.get_or_insert(r.span());
        }
        fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
            self.1.fn_exit.get_or_insert(t.question_token.span);
            self.1.leaves_stmt.get_or_insert(t.question_token.span);
        }
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            self.visit_expr(&f.expr);
            self.0 += 1;
            self.visit_block(&f.body);
            self.0 -= 1;
        }
        fn visit_expr_while(&mut self, f: &'ast syn::ExprWhile) {
            self.visit_expr(&f.cond);
            self.0 += 1;
            self.visit_block(&f.body);
            self.0 -= 1;
        }
        fn visit_expr_loop(&mut self, f: &'ast syn::ExprLoop) {
            self.0 += 1;
            self.visit_block(&f.body);
            self.0 -= 1;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(0, Jumps::default());
    for s in stmts {
        v.visit_stmt(s);
    }
    v.1
}

/// A label acc made (`skip_rest`'s blocks), not the user's.
pub(super) fn is_acc_label(l: &syn::Lifetime) -> bool {
    l.ident.to_string().starts_with("__acc_")
}

/// A `continue` or `break` in `b` that leaves the body (not one of a loop inside it).
pub(super) fn escaping_jump(b: &syn::Block) -> Option<Span> {
    jumps(&b.stmts).loop_exit
}

/// Whether `b` assigns the plain variable `name` (`name = ..`, `name op= ..`).
pub fn block_assigns(b: &syn::Block, name: &Ident) -> bool {
    assigns(b, name, false)
}

/// Whether block `b` updates variable `name`: [`block_assigns`], or assigns an element of it
/// (`name[e] = ..`, `name[e] op= ..`: an array reduction's updates).
pub fn block_updates(b: &syn::Block, name: &Ident) -> bool {
    assigns(b, name, true)
}

/// Whether `b` assigns `name` (`name = ..`, `name op= ..`), or with `elements` one of its
/// elements too.
fn assigns(b: &syn::Block, name: &Ident, elements: bool) -> bool {
    struct V<'a> {
        name: &'a Ident,
        elements: bool,
        found: bool,
    }
    impl V<'_> {
        fn target(&mut self, left: &Expr) {
            let whole = matches!(left, Expr::Path(p) if p.path.is_ident(self.name));
            let element = self.elements && matches!(loops::place_root(left), Some((base, true)) if base == self.name);
            self.found |= whole || element;
        }
    }
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            self.target(&a.left);
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if loops::is_compound_assign(&b.op) {
                self.target(&b.left);
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V { name, elements, found: false };
    v.visit_block(b);
    v.found
}

/// Whether lowered code `code` meets a barrier: it calls `sync_threads` or an
/// `acc_device` function that does (the group reductions, broadcasts, group locals) or
/// touches shared memory.
/// Whether `code` uses the block as a whole: barriers, shared memory, block-wide
/// reductions or broadcasts, or the block's own thread indices (a leader's statements).
pub(super) fn block_level(code: &TokenStream) -> bool {
    code.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => matches!(
            i.to_string().as_str(),
            "sync_threads" | "sync_threads_checked" | "group_reduce" | "group_reduce_var" | "vector_reduce" | "worker_reduce" | "block_reduce" | "block_reduce_var" | "block_reduce_xyz" | "block_reduce_xyz_var" | "broadcast" | "dynamic_shared" | "group_local" | "block_thread_index" | "thread_idx_x" | "thread_idx_y" | "thread_idx_z" | "block_dim_x" | "block_dim_y" | "block_dim_z" | "cache_window" | "cache_fetch" | "cache_store"
        ),
        proc_macro2::TokenTree::Group(g) => block_level(&g.stream()),
        _ => false,
    })
}

pub(super) fn uses_barriers(code: &TokenStream) -> bool {
    const BARRIER_FNS: [&str; 14] = [
        "sync_threads",
        "sync_threads_checked",
        "sync_threads_or",
        "group_reduce",
        "group_reduce_var",
        "block_reduce",
        "block_reduce_var",
        "block_reduce_xyz_var",
        "vector_reduce",
        "worker_reduce",
        "group_local",
        "broadcast",
        "dynamic_shared",
        "grid_reduce_last_block",
    ];
    code.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Group(g) => uses_barriers(&g.stream()),
        proc_macro2::TokenTree::Ident(i) => BARRIER_FNS.iter().any(|f| i == f),
        _ => false,
    })
}

/// Whether every mention of `v` in `b` is in an update of it: the left side of `v op= e`
/// (`e` not naming `v`) or of `v = e`, or the one mention of `v` in such an `e`.
pub(crate) fn only_updates(b: &syn::Block, v: &Ident) -> bool {
    struct V<'a> {
        v: &'a Ident,
        updates: usize,
        bad: bool,
    }
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            if matches!(&*a.left, Expr::Path(p) if p.path.is_ident(self.v)) {
                // `v` once on the left, at most once on the right.
                self.updates += 1 + count_mentions(&a.right, self.v).min(2);
                self.bad |= count_mentions(&a.right, self.v) > 1;
            }
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
            if loops::is_compound_assign(&e.op) && matches!(&*e.left, Expr::Path(p) if p.path.is_ident(self.v)) {
                self.updates += 1;
                self.bad |= loops::mentions(&e.right, self.v);
            }
            syn::visit::visit_expr_binary(self, e);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut w = V { v, updates: 0, bad: false };
    w.visit_block(b);
    let all = count_mentions(&Expr::Block(syn::ExprBlock { attrs: Vec::new(), label: None, block: b.clone() }), v);
    !w.bad && w.updates == all
}

/// How many times `e` names `v` (macro bodies included, as tokens).
pub(super) fn count_mentions(e: &Expr, v: &Ident) -> usize {
    fn count(t: TokenStream, v: &Ident) -> usize {
        t.into_iter()
            .map(|t| match t {
                proc_macro2::TokenTree::Group(g) => count(g.stream(), v),
                proc_macro2::TokenTree::Ident(i) => usize::from(&i == v),
                _ => 0,
            })
            .sum()
    }
    count(quote!(#e), v)
}

/// Whether `f` is spread over threads: it names a level, is not `seq`, and (in a `kernels`
/// region or under `auto`) is proved independent.
pub(super) fn is_parallel(f: &ExprForLoop, loops: &LoopDirectives) -> bool {
    let Some(d) = loops.get(f) else { return false };
    if !d.has_level() || d.seq.is_some() {
        return false;
    }
    loops.dependence(f).is_none()
}

pub(crate) fn holds_parallel(b: &syn::Block, loops: &LoopDirectives) -> bool {
    any_loop(b, &|f| is_parallel(f, loops))
}

/// Whether a loop of the nest `f` names the `worker` level.
pub(super) fn uses_worker(f: &ExprForLoop, loops: &LoopDirectives) -> bool {
    let worker = |f: &ExprForLoop| loops.get(f).is_some_and(|d| d.worker.is_some() && d.seq.is_none());
    worker(f) || any_loop(&f.body, &worker)
}

/// Whether a `for` loop in `b` (not inside a closure or an item, which the schedule does
/// not lower) satisfies `pred`.
pub(crate) fn any_loop(b: &syn::Block, pred: &dyn Fn(&ExprForLoop) -> bool) -> bool {
    struct V<'p>(&'p dyn Fn(&ExprForLoop) -> bool, bool);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if (self.0)(f) {
                self.1 = true;
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(pred, false);
    v.visit_block(b);
    v.1
}

