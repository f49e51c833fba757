//! info: a [`NestPlan`] rendered for the schedule report (`ACC_INFO`): why the nest runs in
//! order, the launch's shape, the kernel's inputs, the bounds and kernels the launch picks
//! from, and the `cache!` windows, beside the schedule's notes on the loops.

use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Ident};

use super::{Let, NestPlan, NestSource};
use crate::front::directives::LoopDirectives;
use crate::front::model::*;
use crate::info::{self, Notes};
use crate::syntax::is_acc_path;

/// The report of the plan's kernel into `notes` (the plan's loop notes taken).
pub(super) fn render(src: &NestSource, plan: &mut NestPlan, notes: &mut Notes) {
    let f = src.f;
    order_notes(src, plan, notes);
    let mut loop_notes = std::mem::take(&mut plan.loop_notes);
    if plan.kernels.point.is_some() {
        loop_notes.at(info::loop_line(f), 0, "launch: where the indices' bounds hold and the trips fit one grid, a kernel of one point a thread (no grid-stride loops: fewer registers, more blocks a multiprocessor) on a grid that covers them");
    }
    let bounded = plan.kernels.unchecked.as_ref().map(|u| (&u.proof, "a kernel without their checks runs")).or(plan.kernels.lean_unchecked.as_ref().map(|u| (&u.proof, "its lean kernel runs without their checks")));
    if let Some((p, runs)) = bounded {
        let calls = if p.calls.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = p.calls.iter().map(|c| format!("`{c}`")).collect();
            format!(", and the indices of the routines it calls ({}) where acc-build bounds them from the arguments (a routine of the region's module whose indices are sums and products of its `usize` parameters and the slices' lengths)", names.join(", "))
        };
        loop_notes.at(info::loop_line(f), 0, format!(
            "bounds: the nest's {} element indices bounded at each launch from the loops' ranges and the arrays' lengths{calls}: where all are inside their arrays, {runs}",
            p.total));
    }
    // info: the kernel's inputs besides the region's parameters, its block shape, its
    // reductions' partials and the `cache!` windows.
    let (abi, shape) = (&plan.abi, &plan.shape);
    let captured: Vec<Ident> = abi.captured.iter().map(|l| l.name.clone()).filter(|n| !n.to_string().starts_with("__acc_") && !abi.reds.iter().any(|r| &r.1 == n)).collect();
    let privates: Vec<Ident> = abi.privates.iter().map(|p| p.ident.clone()).collect();
    kernel_notes(notes, &mut loop_notes, f, &KernelFacts {
        sizes: &plan.sizes,
        serial: shape.serial,
        grid: shape.dims.is_some(),
        uses_worker: shape.uses_worker,
        group_locals: shape.group_locals,
        staged: &plan.staged,
        staged_tiles: &plan.staged_tiles,
        reds: &abi.reds,
        array_reds: &array_locals(src.lets, &abi.reds),
        sections: &local_sections(f, src.loops),
        writebacks: &abi.writebacks,
        cells: &abi.cells,
        captured: &captured,
        privates: &privates,
        per_trip: shape.per_trip,
        waves: shape.waves,
        chunks: !shape.top_chunks.is_empty(),
    });
}

/// The sections of local arrays that the loop `f` and the loops inside it name in `reduction`
/// (`q[2..5]`), by array, as their directives in `loops` have them.
fn local_sections(f: &ExprForLoop, loops: &LoopDirectives) -> Vec<(Ident, String)> {
    struct V<'l>(&'l LoopDirectives, Vec<(Ident, String)>);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            for s in self.0.get(f).into_iter().flat_map(|d| &d.reduction).flat_map(|r| &r.sections) {
                if !self.1.iter().any(|(v, t)| *v == s.var && *t == s.text) {
                    self.1.push((s.var.clone(), s.text.clone()));
                }
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(loops, Vec::new());
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.1
}

/// info: why the nest runs in order, or that the dependence test proved it independent.
fn order_notes(src: &NestSource, plan: &NestPlan, notes: &mut Notes) {
    if src.once {
        return;
    }
    let (f, d) = (src.f, &plan.d);
    let vars: Vec<String> = plan.headers.iter().map(|h| format!("`{}`", h.var)).collect();
    let vars = vars.join(", ");
    match (&plan.dependence, d.seq, src.kind) {
        (Some((span, msg)), _, _) => notes.add(f.for_token.span, 0, format!(
            "loop over {vars} runs in order in one thread: not proved independent: {msg} (line {}); write `independent` if you know better", info::line_of(*span))),
        (None, Some(_), _) => notes.add(f.for_token.span, 0, format!("loop over {vars} runs in order in one thread: it says `seq`")),
        (None, None, RegionKind::Serial) => notes.add(f.for_token.span, 0, format!("loop over {vars} runs in order in one thread: a `serial` region")),
        (None, None, RegionKind::Kernels) if d.independent.is_none() => notes.add(f.for_token.span, 0, format!("loop over {vars}: the dependence test proved it independent")),
        _ => {}
    }
}

/// info: what the report says of a kernel besides its loops (see [`kernel_notes`]).
struct KernelFacts<'a> {
    /// The launch's sizes: the region's clauses, or its loops' in `kernels`.
    sizes: &'a super::LaunchSizes,
    serial: bool,
    /// On a multi-dimensional grid (`grid.rs`).
    grid: bool,
    uses_worker: bool,
    group_locals: bool,
    /// The arrays whose `cache!` windows are staged in shared memory.
    staged: &'a [Ident],
    /// The lines of the `cache!`s whose 2-D windows are staged (`lower/tiles.rs`).
    staged_tiles: &'a [usize],
    reds: &'a [(RedOp, Ident)],
    /// The reduction variables declared as arrays (`let mut q = [0.0; 10]`, `let mut q: [f64;
    /// 10]`): their reports say how the elements combine.
    array_reds: &'a [Ident],
    /// The sections its loops name in `reduction` (`q[2..5]`), by array.
    sections: &'a [(Ident, String)],
    writebacks: &'a [Ident],
    cells: &'a [Ident],
    captured: &'a [Ident],
    privates: &'a [Ident],
    per_trip: (bool, bool),
    /// Waves of blocks the launch may give a nest on a one-dimensional grid.
    waves: usize,
    /// The top loop takes chunks: the launch gives it a thread per chunk.
    chunks: bool,
}

/// info: the reduction variables of `reds` that a `let` of `lets` declares as an array: its
/// type `[T; N]` or its initialiser an array expression (`[0.0; 10]`, `[a, b]`).
fn array_locals(lets: &[Let], reds: &[(RedOp, Ident)]) -> Vec<Ident> {
    reds.iter()
        .filter(|(_, v)| {
            lets.iter().rev().find(|l| &l.name == v).is_some_and(|l| {
                matches!(l.ty, Some(syn::Type::Array(_))) || matches!(l.init, Some(Expr::Repeat(_) | Expr::Array(_)))
            })
        })
        .map(|(_, v)| v.clone())
        .collect()
}

/// info: a kernel's launch shape, inputs, reductions' partials and `cache!` windows, as the
/// launch code and acc-runtime's `Geometry` make them.
/// The facts go to `notes`; `cache!` windows join the schedule's notes on the loops
/// (`loop_notes`), at their lines, and all of those follow.
fn kernel_notes(notes: &mut Notes, loop_notes: &mut Notes, f: &ExprForLoop, k: &KernelFacts) {
    launch_notes(notes, f, k);
    input_notes(notes, f, k);
    cache_notes(loop_notes, f, k);
    notes.0.append(&mut loop_notes.0);
}

/// info: the launch's block, grid, shared memory and trips per block.
fn launch_notes(notes: &mut Notes, f: &ExprForLoop, k: &KernelFacts) {
    let at = f.for_token.span;
    let c = k.sizes;
    let text = |e: &Expr| quote!(#e).to_string();
    if k.serial {
        notes.add(at, 0, "launch: one block of one thread");
    } else if k.grid {
        notes.add(at, 0, "launch: grid and blocks of as many dimensions as the loops take; threads a loop does not size: 32 in x (256 when x is the only block dimension), the rest of 256 in y and z; blocks per dimension as the trips need, at most one full wave of the GPU in all (8 waves where the blocks take bands of rows); fewer threads per block if the kernel's registers do not allow them");
    } else {
        let x = match &c.vector_length {
            Some(e) => format!("vector_length({})", text(e)),
            None if k.uses_worker => "32 (default)".into(),
            None => "256 (default)".into(),
        };
        let block = if k.uses_worker {
            let y = match &c.num_workers {
                Some(e) => format!("num_workers({})", text(e)),
                None => "8 (default)".into(),
            };
            format!("blocks of {x} x {y} threads (threadIdx.x x threadIdx.y)")
        } else {
            format!("blocks of {x} threads (threadIdx.x)")
        };
        let grid = match &c.num_gangs {
            Some(e) => format!("num_gangs({}) blocks", text(e)),
            None if k.waves > 1 => {
                let blocks = if k.chunks { "a thread per chunk of 4 trips (2 where an array has 8-byte elements)" } else { "as many blocks as the trips need" };
                format!("{blocks}, at most {} full waves of the GPU ({} at most: a loop of the whole grid, no reduction across its trips, nothing written per block)", k.waves, 4224 * k.waves)
            }
            None => "as many blocks as the trips need, at most one full wave of the GPU (4224 at most)".into(),
        };
        notes.add(at, 0, format!("launch: {block}; grid: {grid}; fewer threads per block if the kernel's registers do not allow them"));
        let shared = if k.group_locals {
            "48 KiB per block (the gang's locals, then 16 bytes per thread for reductions and broadcasts)"
        } else {
            "16 bytes per thread (reductions, broadcasts)"
        };
        let windows = if k.staged.is_empty() { String::new() } else { "; then the `cache!` windows (blockDim.x + their span elements each for windows that move with the loop, their width for those of a loop inside; sized at launch)".to_string() };
        notes.add(at, 0, format!("dynamic shared memory: {shared}{windows}"));
        match k.per_trip {
            (true, true) => notes.add(at, 0, "the outermost loop's trips are shared by a block's workers and vector lanes: one trip per block"),
            (true, false) if !k.uses_worker => notes.add(at, 0, "the outermost loop's trips are shared by a block's threads: one trip per block at a time"),
            (true, false) => notes.add(at, 0, "the outermost loop's trips are shared by a block's vector lanes: one trip per row of lanes (threadIdx.y) at a time"),
            (false, true) => notes.add(at, 0, "the outermost loop's trips are shared by a block's workers"),
            (false, false) => {}
        }
    }
}

/// info: the kernel's inputs besides the region's parameters: captured locals, reductions'
/// partials, writebacks, atomic cells, private copies.
fn input_notes(notes: &mut Notes, f: &ExprForLoop, k: &KernelFacts) {
    let at = f.for_token.span;
    if !k.captured.is_empty() {
        let names: Vec<String> = k.captured.iter().map(|n| format!("`{n}`")).collect();
        notes.add(at, 0, format!("captures {} by value (host locals)", names.join(", ")));
    }
    for (op, v) in k.reds {
        notes.add(at, 0, format!(
            "{}: thread 0 of each block stores the block's value (a partial); the host folds the partials after the launch and combines them with `{v}`'s value before the loop",
            info::red(*op, v)
        ));
    }
    for v in k.array_reds {
        let named: Vec<String> = k.sections.iter().filter(|(w, _)| w == v).map(|(_, t)| format!("`{t}`")).collect();
        let section = if named.is_empty() { String::new() } else { format!(" reduced over the section {} (each index the loop uses checked against it; the other elements keep their values)", named.join(", ")) };
        notes.add(at, 0, format!(
            "`{v}` is an array{section}: each thread's copy in registers (local memory where they do not hold it), its elements combined over the block one after another, each through the scalar block reduction's shared slots; a partial per element and block"
        ));
    }
    for (v, op) in crate::front::sections::in_place(&f.body) {
        let form = op.text(&format!("{v}[i]"), "x");
        notes.add(at, 0, format!("`{v}` (a `&mut [T]` parameter in `reduction`): its elements combined in place in device memory by atomic updates (`{form}`)"));
    }
    for v in k.writebacks {
        notes.add(at, 0, format!("`{v}`, assigned in the nest, comes back to the host (its last value)"));
    }
    for v in k.cells {
        notes.add(at, 0, format!("`{v}` is updated with `atomic!` in a device cell, read back after the launch"));
    }
    for v in k.privates {
        notes.add(at, 0, format!("`{v}` (region-level private): each group of threads sharing a trip of the outermost loop gets its own device copy, filled from the original"));
    }
}

/// info: the nest's `cache!` windows (dropped by `DeviceBody::lower_macro`), staged or not,
/// each under the last loop note before it, one level deeper.
fn cache_notes(loop_notes: &mut Notes, f: &ExprForLoop, k: &KernelFacts) {
    struct V<'n>(&'n mut Notes, &'n [Ident], &'n [usize]);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if is_acc_path(&m.path, "cache") {
                let ws = crate::front::cache::parse_all(m.tokens.clone()).unwrap_or_default();
                let show = |w: &crate::front::cache::Item| w.show();
                let tiles_staged = self.2.contains(&crate::info::line_of(m.path.span()));
                let (staged, not): (Vec<_>, Vec<_>) = ws.iter().partition(|w| match w {
                    crate::front::cache::Item::Range(w) => self.1.contains(&w.array),
                    crate::front::cache::Item::Tiled(_) => tiles_staged,
                });
                let mut text = Vec::new();
                if !staged.is_empty() {
                    text.push(format!("{}: staged in shared memory (see the loop)", staged.iter().map(|w| show(w)).collect::<Vec<_>>().join(", ")));
                }
                if !not.is_empty() {
                    text.push(format!(
                        "{}: not staged (acc stages a read-only `&[T]` window `a[i - r..=i + r]` that moves with a step-1 loop spread over threadIdx.x alone whose body holds no parallel loop, a window `a[k..k + w]` at the top of a sequential loop in such a loop's body, a 2-D window `a[i * n + (k..k + 16)]` in a sequential loop at the top of a 2-D `tile(x, y)` nest's body, and one at the top of that body, whose ranges may move with the nest, `a[(i - 1..i + 2) * n + (j - 1..j + 2)]`: see the loop's note for why not here); the loads go to global memory, a `&[T]`'s through the read-only cache",
                        not.iter().map(|w| show(w)).collect::<Vec<_>>().join(", ")
                    ));
                }
                self.0.add(m.path.span(), 1, format!("cache!: {}", text.join("; ")));
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut caches = Notes::default();
    syn::visit::Visit::visit_expr_for_loop(&mut V(&mut caches, k.staged, k.staged_tiles), f);
    for mut c in caches.0 {
        // Under the last loop note before it, one level deeper.
        let at = loop_notes.0.iter().rposition(|n| n.line <= c.line);
        c.depth = at.map_or(0, |i| loop_notes.0[i].depth + 1);
        loop_notes.0.insert(at.map_or(0, |i| i + 1), c);
    }
}
