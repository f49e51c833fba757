//! The checks of a region body in scope: a walk that knows which names each point of the body
//! sees, checks every acc loop (`check::loops`), `cache!` and `atomic!` there, decides once how
//! the host runs each loop (from its `directives::Decision`), and finds what the iterations of a
//! host-parallel loop share. What it decides is the [`HostPlan`] that `lower::host` writes
//! out; the walk reports every error, in the order of the body.

use proc_macro2::Span;
use syn::visit::Visit;
use syn::{Expr, ExprForLoop, Ident, ItemFn};

use crate::check;
use crate::front::directives::{self, LoopDirectives};
use crate::front::loops::{self, LoopHeader};
use crate::front::model::*;
use crate::front::region::Form;
use crate::front::atomic::{AtomicForm, Place};
use crate::report::Errors;
use crate::syntax::{is_acc_path, loop_attr, macro_name_span, pat_idents};

/// How the host runs a region body: an entry per `for` loop and per `atomic!` of the body, in
/// the order of the walk (which is the order the lowering meets them).
#[derive(Default)]
pub struct HostPlan {
    pub loops: Vec<HostLoop>,
    /// For each `atomic!`: whether its place is shared by the iterations of a host-parallel
    /// loop (else it is the plain operation).
    pub atomics: Vec<bool>,
}

/// How the host runs one `for` loop.
pub enum HostLoop {
    /// As written (a loop without a directive).
    Plain,
    /// An acc loop run in order: its directive goes, its range stays as written.
    Sequential,
    /// An acc loop nest split over rayon's threads.
    Parallel(ParallelLoop),
}

/// A host-parallel acc loop nest and what its iterations share.
pub struct ParallelLoop {
    /// The loops of the nest (`collapse`, `tile`).
    pub headers: Vec<LoopHeader>,
    /// The variables reduced over the iterations (the loop's own clauses, those of loops
    /// nested in it, the region's), in that order.
    pub reductions: Vec<(RedOp, Span, Ident)>,
    /// Each iteration's copies.
    pub privates: Vec<Ident>,
    /// Arrays declared outside the loop whose elements it writes (`SharedMut`).
    pub shadow_arrays: Vec<Ident>,
    /// Scalars declared outside the loop that it updates with `atomic!` (`AtomicRef`).
    pub atomic_scalars: Vec<Ident>,
}

/// What the walk knows of a region before its body: its kind, its parameters' names, its
/// `reduction` and `private`/`firstprivate` clauses, and, in a routine, the routine's level.
pub struct Context<'a> {
    pub kind: RegionKind,
    pub params: Vec<String>,
    /// The parameters that are arrays (slices, `DeviceSlice`s): not reduction variables.
    pub array_params: Vec<String>,
    pub region_reductions: Vec<(RedOp, Span, Ident)>,
    pub region_privates: Vec<Ident>,
    pub routine: Option<RoutineLevel>,
    pub loops: &'a LoopDirectives,
}

impl<'a> Context<'a> {
    /// The context of a form of a region with directive `dir`.
    pub fn region(kind: RegionKind, dir: &RegionDirective, form: &'a Form) -> Self {
        Context {
            kind,
            params: form.params.iter().map(|p| p.ident.to_string()).collect(),
            array_params: form.params.iter().filter(|p| p.kind != crate::front::region::ParamKind::Value).map(|p| p.ident.to_string()).collect(),
            region_reductions: dir.clauses.reductions().map(|r| (r.op, r.op_span, r.var.clone())).collect(),
            region_privates: dir.clauses.private.iter().chain(&dir.clauses.firstprivate).cloned().collect(),
            routine: None,
            loops: &form.loops,
        }
    }

    /// The context of routine `f` at `level`, whose body's directives are `loops`.
    pub fn routine(f: &ItemFn, level: RoutineLevel, loops: &'a LoopDirectives) -> Self {
        let mut params = Vec::new();
        for arg in &f.sig.inputs {
            if let syn::FnArg::Typed(t) = arg {
                pat_idents(&t.pat, &mut params);
            }
        }
        Context { kind: RegionKind::Parallel, params, array_params: Vec::new(), region_reductions: Vec::new(), region_privates: Vec::new(), routine: Some(level), loops }
    }
}

/// Checks `body` in `cx`; returns how the host runs it (meaningful when no error was found).
pub fn check(cx: &Context, body: &syn::Block, errors: &mut Errors) -> HostPlan {
    let mut w = Walk { cx, scopes: vec![cx.params.clone()], frames: Vec::new(), levels: Vec::new(), gang_dims: Vec::new(), loop_depth: 0, errors, plan: HostPlan::default() };
    w.visit_block(body);
    w.plan
}

/// A host-parallel loop being walked: what its iterations share and how.
#[derive(Default)]
struct ParFrame {
    scope_base: usize,
    reductions: Vec<(RedOp, Span, Ident)>,
    privates: Vec<Ident>,
    shadow_arrays: Vec<Ident>,
    atomic_scalars: Vec<Ident>,
    assigned_outer: Vec<Ident>,
}

struct Walk<'c, 'e> {
    cx: &'c Context<'c>,
    scopes: Vec<Vec<String>>,
    frames: Vec<ParFrame>,
    /// The innermost level of every enclosing non-`seq` acc loop.
    levels: Vec<(u8, Span)>,
    /// The `gang(dim: d)` of every enclosing acc loop that names one.
    gang_dims: Vec<u32>,
    /// Whether the walk is inside any acc loop (for `cache!`).
    loop_depth: usize,
    errors: &'e mut Errors,
    plan: HostPlan,
}

impl Walk<'_, '_> {
    fn declared(&self, name: &Ident) -> bool {
        self.scopes.iter().any(|s| s.iter().any(|n| name == n))
    }

    /// Whether `name` is an array parameter of the region that no `let` shadows.
    fn array_param(&self, name: &Ident) -> bool {
        self.cx.array_params.iter().any(|p| name == p) && !self.scopes[1..].iter().any(|s| s.iter().any(|n| name == n))
    }

    /// Whether `name` is bound outside the current host-parallel loop.
    fn outside_frame(&self, name: &Ident) -> bool {
        let Some(frame) = self.frames.last() else { return false };
        for (depth, scope) in self.scopes.iter().enumerate().rev() {
            if scope.iter().any(|n| name == n) {
                return depth < frame.scope_base;
            }
        }
        // Not bound in the region at all (a static or const): never shadow it.
        false
    }

    fn bind(&mut self, names: Vec<String>) {
        self.scopes.last_mut().expect("scope").extend(names);
    }

    fn bind_pat(&mut self, p: &syn::Pat) {
        let mut names = Vec::new();
        pat_idents(p, &mut names);
        self.bind(names);
    }

    /// Reports the names in `ids` that are not in scope (the loop's own variables `skip` are
    /// reported elsewhere); returns whether all were.
    fn check_declared(&mut self, ids: &[Ident], skip: &[String], what: &str) -> bool {
        let mut all = true;
        for id in ids {
            if what == "reduction variable" && self.array_param(id) {
                all = false;
                self.errors.error(
                    id.span(),
                    format!("the array parameter `{id}` cannot be reduced: a loop reduces a `&mut [T]` parameter, updating its elements in place, and `{id}` is read-only or an `acc::DeviceSlice`"),
                );
            } else if !self.declared(id) && !skip.iter().any(|s| id == s) {
                all = false;
                self.errors.error(
                    id.span(),
                    format!("{what} `{id}` is not declared before this loop: declare it with `let mut {id} = ..;` in the region"),
                );
            }
        }
        all
    }

    /// An `acc::cache!` or `acc::atomic!` (other macros are left alone).
    fn acc_macro(&mut self, m: &syn::Macro, first_in_loop_body: bool) {
        if is_acc_path(&m.path, "cache") {
            if let Err(e) = crate::front::cache::parse(m.tokens.clone()) {
                self.errors.push(e);
            } else if self.loop_depth == 0 {
                self.errors.error(macro_name_span(m), "`acc::cache!` belongs at the top of an `acc::loop` body");
            } else if !first_in_loop_body {
                self.errors.error(macro_name_span(m), "`acc::cache!` must be the first statement of the loop body: it stages the window before the iteration uses it");
            }
        } else if is_acc_path(&m.path, "atomic") {
            let form: AtomicForm = match syn::parse2(m.tokens.clone()) {
                Ok(f) => f,
                Err(e) => {
                    self.errors.push(e);
                    return;
                }
            };
            let base = form.place().base().clone();
            let shared = self.outside_frame(&base);
            if shared {
                let frame = self.frames.last_mut().unwrap();
                let list = match form.place() {
                    Place::Scalar(_) => &mut frame.atomic_scalars,
                    Place::Element { .. } => &mut frame.shadow_arrays,
                };
                if !list.contains(&base) {
                    list.push(base);
                }
            }
            self.plan.atomics.push(shared);
        } else if let Some(name) = host_directive(&m.path) {
            self.errors.error(
                macro_name_span(m),
                format!(
                    "`acc::{name}!` is a host directive: it cannot run inside a region, whose data are its parameters; \
                     write it in the host code around the region's call"
                ),
            );
        }
    }

    fn note_assignment(&mut self, place: &Expr) {
        if self.frames.is_empty() {
            return;
        }
        // `a[i] = ..` and `a[i].x = ..` write an element of array `a`; `x = ..` and `x.f = ..`
        // assign the variable `x`.
        match loops::place_root(place) {
            Some((base, true)) if self.outside_frame(base) => {
                let frame = self.frames.last_mut().unwrap();
                if !frame.shadow_arrays.contains(base) && !frame.privates.contains(base) {
                    frame.shadow_arrays.push(base.clone());
                }
            }
            Some((id, false)) if self.outside_frame(id) => self.frames.last_mut().unwrap().assigned_outer.push(id.clone()),
            _ => {}
        }
    }

    /// An acc loop with directive `d` (its attribute's span `attr_span`): checked, and its
    /// place in the plan (`slot`) decided.
    fn acc_loop(&mut self, f: &ExprForLoop, d: &LoopDirective, attr_span: Span, slot: usize) {
        let kind = self.cx.kind;
        check::loops::directive(d, kind, self.errors);
        // `gang(dim: d)` inside a loop over a higher gang dimension nests gang loops in any
        // region (OpenACC 3.3's multi-dimensional gangs).
        let inner_dim = d.gang.as_ref().and_then(|g| g.dim);
        let dims_nest = inner_dim.is_some_and(|n| self.gang_dims.last().is_some_and(|&m| n < m));
        check::loops::nesting(d, self.levels.last().map(|l| l.0), kind, dims_nest, self.cx.routine, self.errors);
        // The loop variables of the nest: a clause naming one gets its own error below.
        let mut loop_vars = Vec::new();
        let mut cur = Some(f);
        while let Some(l) = cur {
            pat_idents(&l.pat, &mut loop_vars);
            cur = loops::only_inner_loop(&l.body);
        }
        let reductions_declared = self.check_declared(
            &d.reduction_vars(),
            &loop_vars,
            "reduction variable",
        );
        self.check_declared(&d.private, &loop_vars, "private variable");
        let clause_span = d.collapse.map(|c| c.0).or(d.tile.as_ref().map(|t| t.0)).unwrap_or(attr_span);
        let Some(headers) = check::loops::nest(f, d.depth(), clause_span, d.collapse_force, self.errors) else {
            self.visit_block(&f.body);
            return;
        };
        for v in d.reductions().map(|r| r.var) {
            if headers.iter().any(|h| &h.var == v) {
                self.errors.error(v.span(), format!("the loop variable `{v}` cannot be a reduction variable"));
            }
        }
        if d.seq.is_none() || !d.seq_on_host() {
            check::loops::control_flow(&f.body, self.errors);
        }

        // Decide how the host runs it (`device_type(host) seq` in order).
        let parallel = self.frames.is_empty()
            && !d.seq_on_host()
            && kind != RegionKind::Serial
            && self.cx.routine.is_none()
            && self.cx.loops.dependence(f).is_none();

        if !parallel && !self.frames.is_empty() {
            // A reduction on a loop nested in the host-parallel loop, of a variable declared
            // outside that loop, is a reduction of the parallel loop too.
            for r in d.reductions() {
                let v = r.var;
                if self.outside_frame(v) {
                    let frame = self.frames.last_mut().unwrap();
                    match frame.reductions.iter().find(|x| &x.2 == v) {
                        Some(x) if x.0 != r.op => self.errors.error(
                            r.op_span,
                            format!("`{v}` is reduced with `{}` here and with `{}` on an enclosing loop", r.op.symbol(), x.0.symbol()),
                        ),
                        Some(_) => {}
                        None => frame.reductions.push((r.op, r.op_span, v.clone())),
                    }
                }
            }
            // Likewise a `private` variable declared outside the parallel loop: each iteration
            // of the parallel loop gets its copy, which the nested loop's iterations (run in
            // order) share.
            for p in &d.private {
                if self.outside_frame(p) {
                    let frame = self.frames.last_mut().unwrap();
                    if !frame.privates.contains(p) {
                        frame.privates.push(p.clone());
                    }
                }
            }
        }
        let level = check::loops::levels(d).map(|(_, inner, span)| (inner, span));
        if let Some(l) = level {
            self.levels.push(l);
        }
        // Each grid dimension spreads one loop of a nest.
        let dim = d.gang.as_ref().and_then(|g| g.dim.map(|n| (n, g.span)));
        if let Some((n, span)) = dim {
            if self.gang_dims.contains(&n) {
                self.errors.error(span, format!("a loop around this one spreads over gang dimension {n} already (`gang(dim: {n})`): each grid dimension takes one loop of a nest"));
            }
            self.gang_dims.push(n);
        }
        self.loop_depth += 1;
        if parallel {
            let reductions_known = reductions_declared && !d.malformed_reduction;
            self.parallel(f, d, headers, reductions_known, slot);
        } else {
            self.plan.loops[slot] = HostLoop::Sequential;
            self.scopes.push(Vec::new());
            self.bind_pat(&f.pat);
            self.visit_loop_body(&f.body);
            self.scopes.pop();
        }
        self.loop_depth -= 1;
        if level.is_some() {
            self.levels.pop();
        }
        if dim.is_some() {
            self.gang_dims.pop();
        }
    }

    /// Visits a loop body, allowing `cache!` as its first statement.
    fn visit_loop_body(&mut self, body: &syn::Block) {
        self.scopes.push(Vec::new());
        for (i, stmt) in body.stmts.iter().enumerate() {
            self.visit_stmt_at(stmt, i == 0);
        }
        self.scopes.pop();
    }

    /// A loop the host runs in parallel: its body walked in a frame of its own, which gathers
    /// what the iterations share. `reductions_known`: false when the loop's reduction clause
    /// has an error of its own, so that outer variables it meant to reduce are not reported as
    /// unreduced again.
    fn parallel(&mut self, f: &ExprForLoop, d: &LoopDirective, headers: Vec<LoopHeader>, reductions_known: bool, slot: usize) {
        let mut frame = ParFrame { scope_base: self.scopes.len(), ..ParFrame::default() };
        frame.reductions.extend(d.reductions().map(|r| (r.op, r.op_span, r.var.clone())));
        frame.privates.extend(d.private.iter().cloned());
        frame.privates.extend(self.cx.region_privates.iter().cloned());
        self.frames.push(frame);
        self.scopes.push(headers.iter().map(|h| h.var.to_string()).collect());

        // The innermost body of the nest.
        let mut body_loop = f;
        for _ in 1..headers.len() {
            body_loop = loops::only_inner_loop(&body_loop.body).expect("checked nest");
        }
        // A `cache!` window that moves with the loop: its references checked (every build).
        let vars: Vec<Ident> = headers.iter().map(|h| h.var.clone()).collect();
        crate::front::cache::check_references(&body_loop.body, &vars, self.errors);
        crate::front::cache::check_tiles(&body_loop.body, self.errors);
        self.visit_loop_body(&body_loop.body);

        self.scopes.pop();
        let mut frame = self.frames.pop().unwrap();
        // Outer scalars assigned in the loop must be reductions, privates or atomics.
        for id in std::mem::take(&mut frame.assigned_outer) {
            if frame.atomic_scalars.contains(&id) {
                // The iterations share it through its atomics (the host's `AtomicRef`, the
                // GPU's cell): a plain assignment beside them is a race on both builds.
                self.errors.error(
                    id.span(),
                    format!("`{id}` is updated with `acc::atomic!` in this parallel loop, whose iterations share it: assign it atomically (`acc::atomic!(write {id} = e)`), or assign the value an `atomic!` captures to a variable of the iteration (`let v = acc::atomic!(capture {{ {id} += e; {id} }});`)"),
                );
                continue;
            }
            let known = frame.reductions.iter().any(|r| r.2 == id)
                || frame.privates.contains(&id)
                || frame.atomic_scalars.contains(&id);
            if known {
                continue;
            }
            if let Some(r) = self.cx.region_reductions.iter().find(|r| r.2 == id) {
                frame.reductions.push(r.clone());
                continue;
            }
            if !reductions_known {
                continue;
            }
            self.errors.error(
                id.span(),
                format!("`{id}` is assigned in a parallel loop but declared outside it: name it in `reduction(op: {id})` or `private({id})`, use `acc::atomic!`, or declare it inside the loop"),
            );
        }
        // Local arrays whose elements the loop writes that the region reduces (an array
        // reduction of the region's clause): reductions of the loop, as assigned scalars are.
        for a in &frame.shadow_arrays {
            if !frame.privates.contains(a) && !frame.reductions.iter().any(|r| &r.2 == a) {
                if let Some(r) = self.cx.region_reductions.iter().find(|r| &r.2 == a) {
                    frame.reductions.push(r.clone());
                }
            }
        }
        frame.shadow_arrays.retain(|a| !frame.privates.contains(a) && !frame.reductions.iter().any(|r| &r.2 == a));
        let ParFrame { reductions, privates, shadow_arrays, atomic_scalars, .. } = frame;
        self.plan.loops[slot] = HostLoop::Parallel(ParallelLoop { headers, reductions, privates, shadow_arrays, atomic_scalars });
    }

    fn visit_stmt_at(&mut self, stmt: &syn::Stmt, first_in_loop_body: bool) {
        match stmt {
            syn::Stmt::Local(local) => {
                if let Some(init) = &local.init {
                    self.visit_expr(&init.expr);
                    if let Some((_, diverge)) = &init.diverge {
                        self.visit_expr(diverge);
                    }
                }
                self.bind_pat(&local.pat);
            }
            syn::Stmt::Macro(m) => self.acc_macro(&m.mac, first_in_loop_body),
            syn::Stmt::Expr(Expr::Macro(m), _) => self.acc_macro(&m.mac, first_in_loop_body),
            syn::Stmt::Expr(e, _) => self.visit_expr(e),
            syn::Stmt::Item(_) => {}
        }
    }

    fn for_loop(&mut self, f: &ExprForLoop) {
        let slot = self.plan.loops.len();
        self.plan.loops.push(HostLoop::Plain);
        if let Some(attr) = loop_attr(f) {
            if let Some(second) = f.attrs.iter().filter(|a| is_acc_path(a.path(), "loop")).nth(1) {
                self.errors.error(
                    second.path().segments.last().unwrap().ident.span(),
                    "a loop takes one `#[acc::r#loop(..)]`: write all of its clauses in the first",
                );
            }
            for e in self.cx.loops.errors_of(f) {
                self.errors.push(e.clone());
            }
            let d = self.cx.loops.get(f).expect("a directive").clone();
            self.acc_loop(f, &d, attr.path().segments.last().unwrap().ident.span(), slot);
        } else if self.cx.kind == RegionKind::Kernels && self.frames.is_empty() && self.levels.is_empty() && self.loop_depth == 0 {
            // A bare loop nest of a kernels region is an `auto` loop.
            if LoopHeader::parse(f).is_ok() {
                let attr: syn::Attribute = syn::parse_quote!(#[acc::r#loop(auto)]);
                let d = directives::read(&attr, self.errors);
                self.acc_loop(f, &d, attr.path().segments.last().unwrap().ident.span(), slot);
            } else {
                self.visit_expr(&f.expr);
                self.visit_loop_body(&f.body);
            }
        } else {
            self.visit_expr(&f.expr);
            self.scopes.push(Vec::new());
            self.bind_pat(&f.pat);
            if self.loop_depth > 0 {
                // A sequential loop inside an acc loop may start with `cache!` (the paper's
                // GEMM stages its 2-D tiles in the k-tile loop): its references checked.
                crate::front::cache::check_tiles(&f.body, self.errors);
                self.visit_loop_body(&f.body);
            } else {
                self.visit_block(&f.body);
            }
            self.scopes.pop();
        }
    }
}

impl<'ast> Visit<'ast> for Walk<'_, '_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.scopes.push(Vec::new());
        for stmt in &b.stmts {
            self.visit_stmt_at(stmt, false);
        }
        self.scopes.pop();
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.scopes.push(Vec::new());
        for p in &c.inputs {
            self.bind_pat(p);
        }
        self.visit_expr(&c.body);
        self.scopes.pop();
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        let mut names = Vec::new();
        pat_idents(&arm.pat, &mut names);
        self.scopes.push(names);
        if let Some((_, g)) = &arm.guard {
            self.visit_expr(g);
        }
        self.visit_expr(&arm.body);
        self.scopes.pop();
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        match e {
            Expr::ForLoop(f) => self.for_loop(f),
            Expr::Macro(m) => self.acc_macro(&m.mac, false),
            Expr::Assign(a) => {
                self.visit_expr(&a.right);
                self.visit_expr(&a.left);
                self.note_assignment(&a.left);
            }
            Expr::Binary(b) if loops::is_compound_assign(&b.op) => {
                self.visit_expr(&b.right);
                self.visit_expr(&b.left);
                self.note_assignment(&b.left);
            }
            // `&mut a[i]` may write the element (`*r = ..`, `core::mem::swap(&mut a[i], ..)`).
            Expr::Reference(r) if r.mutability.is_some() => {
                self.visit_expr(&r.expr);
                self.note_assignment(&r.expr);
            }
            Expr::Let(l) => {
                self.visit_expr(&l.expr);
                self.bind_pat(&l.pat);
            }
            _ => syn::visit::visit_expr(self, e),
        }
    }
}

/// The name of a host data directive written as `acc::name!` (`data!`, `declare!`,
/// `enter_data!`, `exit_data!`, `update!`, `host_data!`); a macro of the user's of one of these
/// names without the `acc::` path is theirs.
fn host_directive(path: &syn::Path) -> Option<&'static str> {
    let [acc, name] = [path.segments.first()?, path.segments.last()?];
    if path.segments.len() != 2 || acc.ident != "acc" {
        return None;
    }
    ["data", "declare", "enter_data", "exit_data", "update", "host_data"].into_iter().find(|n| name.ident == n)
}
