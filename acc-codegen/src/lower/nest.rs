//! The kernel of one loop nest, decided before it is written: [`plan`] returns a [`NestPlan`]
//! (the kernel's ABI: captured locals, reductions' partial slots, values, private copies and
//! atomic cells; the nest's schedule and its kernels: checked, unchecked, lean, one point a
//! thread; the launch's facts, [`Shape`]), which `nest/emit.rs` turns into the device fns and
//! the host launch and `nest/report.rs` into the schedule report, neither deciding anything.

mod emit;
mod report;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Ident};

use crate::front::atomic::{AtomicForm, Place};
use crate::front::directives::LoopDirectives;
use crate::front::loops::{self, LoopHeader};
use crate::front::model::*;
use crate::front::region::{Param, ParamKind};
use crate::info::Notes;
use crate::lower::bounds::{self, Proved};
use crate::lower::device_body::{self, used_items};
use crate::lower::{grid, schedule};
use crate::paths;
use crate::report::Errors;
use crate::syntax::is_acc_path;

/// A local of the region body in scope at a nest, with what tells a kernel its type.
pub struct Let {
    pub name: Ident,
    pub init: Option<Expr>,
    pub ty: Option<syn::Type>,
}

/// What a nest's kernel is made from: the nest and what the region's walk knows at it.
pub struct NestSource<'a> {
    pub kind: RegionKind,
    /// The body's loop directives and parallel decisions (the form's).
    pub loops: &'a LoopDirectives,
    pub dir: &'a RegionDirective,
    pub f: &'a ExprForLoop,
    pub params: &'a [Param],
    /// The locals in scope at the nest, innermost last.
    pub lets: &'a [Let],
    /// The region-level reductions.
    pub region_reds: &'a [(RedOp, Ident)],
    /// The body's items, declared in every kernel that uses them.
    pub items: &'a [syn::Item],
    /// The values a one-thread kernel computes for the host.
    pub outputs: &'a [Let],
    /// The kernel's PTX entry name.
    pub name: &'a str,
    /// `f` is acc's loop of one trip around a statement (in no table: it runs in one thread).
    pub once: bool,
}

/// The kernel of the nest `src.f` and its launch, or `None` (its errors in `errors`); its
/// report goes to `notes`.
pub fn kernel(src: &NestSource, errors: &mut Errors, notes: &mut Notes) -> Option<(TokenStream, TokenStream)> {
    let mut plan = plan(src, errors)?;
    report::render(src, &mut plan, notes);
    let device_fn = emit::device_fns(src, &plan);
    let launch = emit::launch(src, &plan);
    Some((device_fn, launch))
}

/// The region's parameters by how the nest's kernels use them.
pub struct Arrays {
    /// Every array parameter.
    pub slices: Vec<Ident>,
    /// The read-only ones (`&[T]`, `DeviceSlice`): passed to routines as `&[T]`.
    pub read_only: Vec<Ident>,
    /// The written ones (`&mut [T]`, `DeviceSliceMut`).
    pub mut_slices: Vec<Ident>,
    /// Plain `&[T]` parameters: their windows can be staged (the host sizes the launch from
    /// their element type).
    pub stageable: Vec<Ident>,
}

impl Arrays {
    fn of(params: &[Param]) -> Self {
        let names = |keep: &dyn Fn(ParamKind) -> bool| params.iter().filter(|p| keep(p.kind)).map(|p| p.ident.clone()).collect::<Vec<_>>();
        Arrays {
            slices: names(&|k| k != ParamKind::Value),
            read_only: names(&|k| matches!(k, ParamKind::Slice | ParamKind::DeviceSlice)),
            mut_slices: names(&|k| matches!(k, ParamKind::SliceMut | ParamKind::DeviceSliceMut)),
            stageable: names(&|k| k == ParamKind::Slice),
        }
    }
}

/// The kernel's inputs and outputs besides the region's parameters, in the ABI's order:
/// `Captures` (the captured locals, packed), the partials buffer (the reductions' slots, then
/// the writebacks', then the values'), the atomic cells, the private copies.
pub struct Abi<'a> {
    /// The locals the nest uses (bounds included), and those their initialisers use (for the
    /// type witnesses): each one's last binding before the nest.
    pub captured: Vec<&'a Let>,
    /// The closures bound before the nest that it calls (or that captured locals'
    /// initialisers name): built again in the kernel from its own values, after the captured
    /// locals (a closure's bytes on the host hold references to the host's locals and arrays).
    pub replayed: Vec<&'a Let>,
    /// The nest's reductions: clauses on any loop of it naming a local declared before it,
    /// and region-level reductions it uses. A partial slot per scalar each holds.
    pub reds: Vec<(RedOp, Ident)>,
    /// In a nest run by one thread, the locals declared before it and assigned in it (not
    /// reductions): their last value comes back to the host, a partial slot each.
    pub writebacks: Vec<Ident>,
    /// The locals declared outside the nest that it updates with scalar atomics: a device
    /// cell each.
    pub cells: Vec<Ident>,
    /// Region-level `private`/`firstprivate` arrays the kernel may write: each gang works on
    /// its own copy, filled from the original by the gang's threads before the nest.
    pub privates: Vec<&'a Param>,
    /// The kernel parameter of each private copy.
    pub priv_ptrs: Vec<Ident>,
}

/// The launch's facts (acc-runtime's `Geometry`): what `emit::launch_shape` writes.
pub struct Shape {
    /// One thread runs the nest in order.
    pub serial: bool,
    /// The nest uses `threadIdx.y` (a `worker` loop): blocks are 2-D.
    pub uses_worker: bool,
    /// Whether the outermost loop's trips are shared by a block's vector lanes, workers.
    pub per_trip: (bool, bool),
    /// The gang's locals live in shared memory.
    pub group_locals: bool,
    /// The launch's dimensions, for a nest on a multi-dimensional grid (`grid.rs`).
    pub dims: Option<TokenStream>,
    /// The lean kernel's gang loop may give each warp trips of its own.
    pub per_warp: bool,
    /// A reduction loop of the lean kernel's nest takes chunks.
    pub reduction_chunks: bool,
    /// The waves of blocks the launch may give a nest on a one-dimensional grid.
    pub waves: usize,
    /// The top gang loop's worker loop takes the grid's `y` blocks too
    /// (`Scheduled::worker_blocks`).
    pub worker_blocks: bool,
    /// The arrays whose element sizes set the trips a thread of a top loop of chunks takes.
    pub top_chunks: Vec<Ident>,
    /// The `cache!` windows staged in shared memory: (array, span).
    pub cached: Vec<(Ident, usize)>,
    /// The `cache!` tiles staged in shared memory: (array, elements per blockDim.x, per
    /// blockDim.y, fixed).
    pub tiles: Vec<(Ident, [TokenStream; 3])>,
}

/// A kernel without the checks of the indices its launch bounds, and the proof.
pub struct Unchecked {
    pub code: TokenStream,
    pub proof: Proved,
}

/// The kernels of a nest: the code of each.
pub struct Kernels {
    /// The nest's kernel as written (every index checked).
    pub code: TokenStream,
    /// The lean kernel, where loops inside its top loop take chunks (`Scheduler::lean`): the
    /// same nest, those loops without chunks.
    pub lean: Option<TokenStream>,
    /// The kernel without the proved indices' checks (`<name>_inb`), where the nest has no
    /// lean kernel and takes no chunks.
    pub unchecked: Option<Unchecked>,
    /// Of one point a thread, for a 3-D nest that takes it (`grid::takes_points`).
    pub point: Option<TokenStream>,
    /// The lean kernel without the proved indices' checks (`<name>_lean_inb`).
    pub lean_unchecked: Option<Unchecked>,
}

/// A nest's kernel, decided.
pub struct NestPlan<'a> {
    /// The outermost loop's directive.
    pub d: LoopDirective,
    pub headers: Vec<LoopHeader>,
    /// Why the nest is not proved independent (then it runs in order).
    pub dependence: Option<(Span, String)>,
    pub abi: Abi<'a>,
    pub shape: Shape,
    /// The launch's gangs, workers and vector lanes as written (the launch and the report's).
    pub sizes: LaunchSizes,
    pub kernels: Kernels,
    /// The body's items the kernels declare.
    pub items: Vec<syn::Item>,
    /// info: the arrays whose `cache!` windows are staged, the lines of the `cache!`s whose
    /// 2-D windows are, and the schedule's notes on the nest's loops.
    pub staged: Vec<Ident>,
    pub staged_tiles: Vec<usize>,
    pub loop_notes: Notes,
}

/// What the nest's schedule decided, before the kernels without checks.
struct NestSchedule {
    code: TokenStream,
    lean: Option<TokenStream>,
    shape: Shape,
    /// The nest's loops take chunks.
    chunked: bool,
    /// The arrays of the 1-D windows of tile loops staged (`tiles::Window1`).
    staged1: Vec<Ident>,
    tile_lines: Vec<usize>,
    notes: Notes,
}

/// The nest as the kernel sees it, before its schedule.
struct Nest<'a> {
    headers: Vec<LoopHeader>,
    body: syn::Block,
    arrays: Arrays,
    abi: Abi<'a>,
    serial: bool,
    /// A grid takes the reductions of locals declared before the nest (and the region's),
    /// not a clause on a variable of the nest's own bodies.
    grid_takes_reds: bool,
}

impl Nest<'_> {
    fn grid_reds(&self) -> Option<&[(RedOp, Ident)]> {
        self.grid_takes_reds.then_some(&self.abi.reds[..])
    }

    /// The nest body as the device runs it, the indices of `sites` unchecked.
    fn body_of<'b>(&'b self, sites: &'b std::collections::HashSet<bounds::Site>) -> impl FnMut(&syn::Block) -> syn::Block + 'b {
        device_body::device_body(&self.arrays.slices, &self.arrays.read_only, &self.abi.cells, sites)
    }

    /// The grid schedule of the nest (`grid.rs`), its indices of `sites` unchecked.
    fn grid(&self, src: &NestSource, sites: &std::collections::HashSet<bounds::Site>, point: bool) -> Option<grid::Grid> {
        let mut body_of = self.body_of(sites);
        let stageable: Vec<Ident> = src.params.iter().filter(|p| p.kind == ParamKind::Slice && !self.arrays.mut_slices.contains(&p.ident)).map(|p| p.ident.clone()).collect();
        let n = grid::GridNest { f: src.f, kind: src.kind, directives: src.loops, reds: self.grid_reds(), stageable: &stageable, clauses: &src.dir.clauses };
        grid::schedule(&n, point, &mut body_of)
    }
}

/// Decides the kernel of the nest `src.f`: `None` where it has none (the reasons in `errors`).
pub fn plan<'a>(src: &NestSource<'a>, errors: &mut Errors) -> Option<NestPlan<'a>> {
    let f = src.f;
    let d = match src.loops.get(f) {
        Some(d) => d.clone(),
        None => LoopDirective { auto: Some(f.span()), ..LoopDirective::default() },
    };
    let (headers, body) = loops::directive_nest(f, &d)?;
    // Sequential when the loop says so or cannot be proved independent. The nest kernel
    // combines every reduction clause of the nest, so they all count.
    let reds_all = nest_reductions(f, src.loops);
    let dependence = if src.once { None } else { src.loops.nest_dependence(f).cloned() };
    let serial = src.kind == RegionKind::Serial || d.seq.is_some() || dependence.is_some();
    // The outer scalars the nest updates with `atomic!`: device cells where its threads share
    // them; in a one-thread nest nothing runs beside the update, so each is a plain local of
    // the kernel written back (as the host runs it: `s = acc::atomic!(capture { s += 1; s })`
    // assigns the local itself).
    let atomic_scalars = outer_scalar_atomics(f, src.lets);
    let cells = if serial { Vec::new() } else { atomic_scalars.clone() };
    let reds = reductions(src, &reds_all);
    let captured = captured(src, &reds, errors)?;
    let (replayed, captured): (Vec<&Let>, Vec<&Let>) = captured.into_iter().partition(|l| matches!(&l.init, Some(Expr::Closure(_))));
    replayable(src.lets, &replayed, errors)?;
    let privates: Vec<&Param> = src
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::SliceMut && src.dir.clauses.private.iter().chain(&src.dir.clauses.firstprivate).any(|id| id == &p.ident))
        .filter(|p| loops::mentions(&Expr::ForLoop(f.clone()), &p.ident))
        .collect();
    let priv_ptrs = privates.iter().map(|p| format_ident!("{}_private", p.ident)).collect();
    let writebacks = if serial {
        captured.iter().filter(|l| !reds.iter().any(|r| r.1 == l.name) && (atomic_scalars.contains(&l.name) || schedule::block_assigns(&f.body, &l.name))).map(|l| l.name.clone()).collect()
    } else {
        Vec::new()
    };
    let grid_takes_reds = reds_all.iter().all(|(_, _, v)| reds.iter().any(|r| &r.1 == v));
    let abi = Abi { captured, replayed, reds, writebacks, cells, privates, priv_ptrs };
    let nest = Nest { headers, body, arrays: Arrays::of(src.params), abi, serial, grid_takes_reds };
    let s = schedule_nest(src, &nest, errors)?;
    let (unchecked, lean_unchecked, point) = unchecked_kernels(src, &nest, &s);
    let kernels = Kernels { code: s.code, lean: s.lean, unchecked, point, lean_unchecked };
    let nest_expr = Expr::ForLoop(f.clone());
    let mut uses: Vec<&Expr> = vec![&nest_expr];
    uses.extend(nest.abi.captured.iter().chain(&nest.abi.replayed).filter_map(|l| l.init.as_ref()));
    let items = used_items(src.items, &uses);
    let staged = s.shape.cached.iter().map(|c| c.0.clone()).chain(s.staged1).collect();
    let sizes = LaunchSizes::of(src, &s.shape);
    Some(NestPlan { d, headers: nest.headers, dependence, abi: nest.abi, shape: s.shape, sizes, kernels, items, staged, staged_tiles: s.tile_lines, loop_notes: s.notes })
}

/// Every reduction clause inside a nest: (op, variable).
fn nest_reductions(f: &ExprForLoop, loops: &LoopDirectives) -> Vec<(RedOp, Span, Ident)> {
    struct V<'l>(Vec<(RedOp, Span, Ident)>, &'l LoopDirectives);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
            if let Some(d) = self.1.get(f) {
                self.0.extend(d.reductions().map(|r| (r.op, r.op_span, r.var.clone())));
            }
            syn::visit::visit_expr_for_loop(self, f);
        }
    }
    let mut v = V(Vec::new(), loops);
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.0
}

/// The reductions the nest's kernel finishes: clauses on any loop of it naming a local
/// declared before it, and region-level reductions it uses.
fn reductions(src: &NestSource, reds_all: &[(RedOp, Span, Ident)]) -> Vec<(RedOp, Ident)> {
    let mut reds: Vec<(RedOp, Ident)> = Vec::new();
    for (op, _, v) in reds_all {
        if src.lets.iter().any(|l| &l.name == v) && !reds.iter().any(|r| &r.1 == v) {
            reds.push((*op, v.clone()));
        }
    }
    for (op, v) in src.region_reds {
        if !reds.iter().any(|r| &r.1 == v) && loops::block_mentions(&src.f.body, v) {
            reds.push((*op, v.clone()));
        }
    }
    reds
}

/// The locals the nest captures: those it mentions (bounds included), and transitively those
/// their initialisers mention (for the type witnesses); `None` where one has no type.
fn captured<'a>(src: &NestSource<'a>, reds: &[(RedOp, Ident)], errors: &mut Errors) -> Option<Vec<&'a Let>> {
    let lets = src.lets;
    let nest_expr = Expr::ForLoop(src.f.clone());
    // (A reduction's variable is captured even when only a clause names it: its private copy
    // starts from the operator's identity for its type.)
    let mut needed: Vec<bool> = lets.iter().map(|l| loops::mentions(&nest_expr, &l.name) || reds.iter().any(|r| r.1 == l.name)).collect();
    for i in (0..lets.len()).rev() {
        if !needed[i] {
            continue;
        }
        if let Some(init) = &lets[i].init {
            for j in 0..i {
                if loops::mentions(init, &lets[j].name) {
                    needed[j] = true;
                }
            }
        }
    }
    // A name bound twice: only its last binding before the nest is visible there.
    let mut captured: Vec<&Let> = Vec::new();
    for (i, l) in lets.iter().enumerate() {
        if needed[i] && !lets[i + 1..].iter().any(|later| later.name == l.name) {
            captured.push(l);
        }
    }
    for l in &captured {
        if l.init.is_none() && l.ty.is_none() {
            errors.error(l.name.span(), format!("`{}` is used by a loop nest on the GPU: give it an initialiser or a type (`let {}: T = ..;`)", l.name, l.name));
            return None;
        }
    }
    Some(captured)
}

/// Whether each closure the kernel builds again means there what it meant at its `let`: no
/// name it mentions bound again after it, and, for a `move` closure, no local copied at its
/// `let` (the kernel sees the values at its launch).
fn replayable(lets: &[Let], replayed: &[&Let], errors: &mut Errors) -> Option<()> {
    for r in replayed {
        let Some(init @ Expr::Closure(c)) = &r.init else { continue };
        let at = lets.iter().position(|l| std::ptr::eq(l, *r)).expect("a replayed closure is one of the lets");
        let mut own = Vec::new();
        for input in &c.inputs {
            crate::syntax::pat_idents(input, &mut own);
        }
        let outer = |l: &&Let| !own.contains(&l.name.to_string()) && loops::mentions(init, &l.name);
        if let Some(later) = lets[at + 1..].iter().find(outer) {
            errors.error(later.name.span(), format!(
                "on the GPU, a loop nest builds closure `{}` again from the values at its launch, where `{}` names this later binding: rename one of them",
                r.name, later.name));
            return None;
        }
        if let (Some(mv), Some(l)) = (c.capture, lets[..at].iter().find(outer)) {
            errors.error(mv.span, format!(
                "on the GPU, a loop nest builds closure `{}` again from the values at its launch, not from those `move` copied at its `let` (`{}`): write it without `move`",
                r.name, l.name));
            return None;
        }
    }
    Some(())
}

/// The nest's schedule: on a multi-dimensional grid (`grid.rs`), in one thread, or
/// `schedule.rs`'s (with its lean kernel where loops inside take chunks).
fn schedule_nest(src: &NestSource, nest: &Nest, errors: &mut Errors) -> Option<NestSchedule> {
    let none = std::collections::HashSet::new();
    let abi = &nest.abi;
    let mut shape = Shape {
        serial: nest.serial,
        uses_worker: false,
        per_trip: (false, false),
        group_locals: false,
        dims: None,
        per_warp: false,
        reduction_chunks: false,
        waves: 1,
        worker_blocks: false,
        top_chunks: Vec::new(),
        cached: Vec::new(),
        tiles: Vec::new(),
    };
    let (mut lean, mut chunked, mut staged1, mut tile_lines) = (None, false, Vec::new(), Vec::new());
    let grid = if nest.serial || !abi.privates.is_empty() { None } else { nest.grid(src, &none, false) };
    let (code, notes) = if let Some(g) = grid {
        // info: the grid schedule's notes on the nest's loops.
        shape.tiles = g.tiles;
        tile_lines = g.tile_lines;
        shape.dims = Some(g.dims);
        (g.code, g.notes)
    } else if nest.serial {
        (serial_code(src, nest, &mut nest.body_of(&none)), Notes::default())
    } else {
        let mut body_of = nest.body_of(&none);
        let w = schedule::Scheduler::new(src.kind, src.loops, &nest.arrays.mut_slices, &mut body_of, errors).stage(&nest.arrays.stageable).nest(src.f, &abi.reds)?;
        if w.inner_chunks {
            // (Its errors and notes are the first lowering's, already taken.)
            let mut again = Errors::default();
            lean = schedule::Scheduler::new(src.kind, src.loops, &nest.arrays.mut_slices, &mut body_of, &mut again).stage(&nest.arrays.stageable).lean().nest(src.f, &abi.reds).map(|w| w.code);
            shape.per_warp = w.per_warp;
            shape.reduction_chunks = w.reduction_chunks;
        }
        shape.cached = w.cached;
        // The 1-D windows of tile loops: fixed sizes, as 2-D tiles' are.
        for (a, n) in &w.tiles1 {
            shape.tiles.push((a.clone(), [quote!(0usize), quote!(0usize), quote!(#n)]));
        }
        staged1 = w.tiles1.into_iter().map(|(a, _)| a).collect();
        chunked = w.chunked;
        shape.waves = w.waves;
        shape.worker_blocks = w.worker_blocks;
        shape.top_chunks = w.top_chunks;
        (shape.uses_worker, shape.per_trip, shape.group_locals) = (w.uses_worker, w.per_trip, w.group_locals);
        // info: the schedule's notes on the nest's loops and statements.
        (w.code, w.notes)
    };
    // More than one wave of blocks only for a nest that writes nothing per block (partials of
    // reductions or values, private copies): those are sized for one wave.
    if !(abi.reds.is_empty() && abi.writebacks.is_empty() && src.outputs.is_empty() && abi.privates.is_empty()) {
        shape.waves = 1;
        shape.worker_blocks = false;
        shape.top_chunks.clear();
    }
    Some(NestSchedule { code, lean, shape, chunked, staged1, tile_lines, notes })
}

/// One thread runs the nest in order; the values a one-thread kernel computes for the host
/// are stored after the partials.
fn serial_code(src: &NestSource, nest: &Nest, body_of: &mut dyn FnMut(&syn::Block) -> syn::Block) -> TokenStream {
    let dev = paths::device();
    let loops::NestSpace { setup, total, bind } = loops::normalise_nest(&nest.headers, 1, &quote!(#dev::index));
    let stmts = body_of(&nest.body).stmts;
    let red_vars: Vec<&Ident> = nest.abi.reds.iter().map(|r| &r.1).collect();
    let red_slots = schedule::red_slots(&dev, &red_vars);
    let red_total = schedule::red_slots_total(&dev, &red_vars);
    let nwb = nest.abi.writebacks.len();
    let base = quote!(#red_total + #nwb);
    let out_names = src.outputs.iter().map(|o| &o.name);
    let k = format_ident!("__acc_k");
    quote! {
        #setup
        let __acc_total: usize = #total;
        let mut __acc_vs: usize = #base;
        let mut #k = 0usize;
        while #k < __acc_total {
            #bind
            #[allow(clippy::never_loop)]
            for _ in ::core::iter::once(()) {
                #(#stmts)*
                #( #dev::store_value(__acc_partials, &mut __acc_vs, #out_names); )*
            }
            #k += 1;
        }
        #(
            if #dev::block_thread_index() == 0 {
                #dev::store_partial_var(__acc_partials, #red_slots, #red_vars);
            }
        )*
    }
}

/// The launch's `num_gangs`, `num_workers` and `vector_length`: the region's clauses, else,
/// in a `kernels` region on the one-dimensional schedule, the sizes the nest's loops give their
/// levels (`gang(n)`, `worker(n)`, `vector(n)`: the outermost loop of each level that sizes
/// it), as OpenACC's loop sizes set the launch in a `kernels` construct. (A multi-dimensional
/// schedule sizes its grid and blocks from the loops itself, `grid.rs`.)
pub struct LaunchSizes {
    pub num_gangs: Option<Expr>,
    pub num_workers: Option<Expr>,
    pub vector_length: Option<Expr>,
}

impl LaunchSizes {
    fn of(src: &NestSource, shape: &Shape) -> LaunchSizes {
        let c = &src.dir.clauses;
        let mut sizes = LaunchSizes { num_gangs: c.num_gangs.clone(), num_workers: c.num_workers.clone(), vector_length: c.vector_length.clone() };
        if src.kind != RegionKind::Kernels || shape.dims.is_some() {
            return sizes;
        }
        struct Loops<'a>(&'a LoopDirectives, Vec<LoopDirective>);
        impl<'ast> syn::visit::Visit<'ast> for Loops<'_> {
            fn visit_expr_for_loop(&mut self, f: &'ast ExprForLoop) {
                if let Some(d) = self.0.get(f) {
                    self.1.push(d.clone());
                }
                syn::visit::visit_expr_for_loop(self, f);
            }
            fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
            fn visit_item(&mut self, _: &'ast syn::Item) {}
        }
        let mut loops = Loops(src.loops, Vec::new());
        syn::visit::Visit::visit_expr_for_loop(&mut loops, src.f);
        let size = |level: fn(&LoopDirective) -> &Option<LevelClause>| loops.1.iter().find_map(|d| level(d).as_ref().and_then(|l| l.size.clone()));
        sizes.num_gangs = sizes.num_gangs.or_else(|| size(|d| &d.gang));
        sizes.num_workers = sizes.num_workers.or_else(|| size(|d| &d.worker));
        sizes.vector_length = sizes.vector_length.or_else(|| size(|d| &d.vector));
        sizes
    }
}

/// The region's value parameters whose fields and index methods the launch can read
/// (`bounds::prove`), by name, with the stem of acc-build's files of their methods' bounds
/// (`<region>__<param>`): those of a type named by a plain path (`g: Grid`, `g: &cfd::Grid`),
/// not declared `mut` and not shadowed by a local in scope.
fn receivers(src: &NestSource) -> std::collections::HashMap<String, String> {
    // (The nest's kernel is `<region>_<n>`.)
    let Some((region, _)) = src.name.rsplit_once('_') else { return Default::default() };
    src.params
        .iter()
        .filter(|p| p.kind == ParamKind::Value && !p.mutable && !src.lets.iter().any(|l| l.name == p.ident))
        .filter(|p| crate::front::region::plain_type_path(&p.ty).is_some())
        .map(|p| (p.ident.to_string(), format!("{region}__{}", syn::ext::IdentExt::unraw(&p.ident))))
        .collect()
}

/// The nest's kernels without the checks of the indices the launch can bound (`bounds`),
/// where the nest has such indices and nothing else keeps their checks (1-D staging, private
/// arrays; a nest of 2-D staged tiles has none: the grid schedule stages its windows before
/// the body's indices are written unchecked, and the unchecked kernel's tiles are the same):
/// the nest's, its lean kernel's, and the one of one point a thread.
fn unchecked_kernels(src: &NestSource, nest: &Nest, s: &NestSchedule) -> (Option<Unchecked>, Option<Unchecked>, Option<TokenStream>) {
    let abi = &nest.abi;
    let proof = if nest.serial || !abi.privates.is_empty() || !s.shape.cached.is_empty() || !s.staged1.is_empty() {
        None
    } else {
        bounds::prove(src.f, &nest.arrays.slices, &receivers(src)).filter(|p| p.panic_free)
    };
    // The nest again without those checks, where it has no lean kernel and takes no chunks
    // (whose references are matched as written): launched when the bounds hold. Or, for a
    // nest with a lean kernel that calls no routine, the lean kernel again without them,
    // launched in its place when the bounds hold (and it runs as many of the launch's blocks
    // at once, acc-runtime's `launch`). Its rows run in rounds of 2 single trips, and its worker
    // loops of one vector loop in pairs of trips (`Scheduler::unrolled`): with no check's exit
    // between them, their loads are issued before their stores (`loads.rs`), where the checked
    // lean kernel keeps one load a trip in flight.
    let (proved, lean_proved) = match &s.lean {
        Some(_) => (None, proof.filter(|p| p.calls.is_empty())),
        None => (proof.filter(|_| !s.chunked), None),
    };
    let unchecked = proved.and_then(|p| {
        let code = if s.shape.dims.is_some() {
            nest.grid(src, &p.sites, false).map(|g| g.code)
        } else {
            rescheduled(src, nest, &p.sites, false).map(|w| w.code)
        };
        code.map(|code| Unchecked { code, proof: p })
    });
    let lean_unchecked = lean_proved.and_then(|p| {
        let w = rescheduled(src, nest, &p.sites, true)?;
        (!w.chunked).then_some(Unchecked { code: w.code, proof: p })
    });
    // And of one point a thread, for a 3-D nest that takes it (`grid::takes_points`): launched
    // where the bounds hold and the grid covers the trips.
    let point = unchecked.as_ref().filter(|_| s.shape.dims.is_some()).and_then(|u| nest.grid(src, &u.proof.sites, true).map(|g| g.code));
    (unchecked, lean_unchecked, point)
}

/// `schedule.rs`'s schedule of the nest again, the indices of `sites` unchecked (`lean`: its
/// lean kernel, in rounds of 2 trips); `None` where it refuses it.
fn rescheduled(src: &NestSource, nest: &Nest, sites: &std::collections::HashSet<bounds::Site>, lean: bool) -> Option<schedule::Scheduled> {
    let mut body_of = nest.body_of(sites);
    let mut again = Errors::default();
    let sch = schedule::Scheduler::new(src.kind, src.loops, &nest.arrays.mut_slices, &mut body_of, &mut again).stage(&nest.arrays.stageable);
    let sch = if lean { sch.lean().unrolled(2) } else { sch };
    let w = sch.nest(src.f, &nest.abi.reds);
    w.filter(|_| again.is_empty())
}

/// The locals declared outside the nest that it updates with scalar atomics: each gets a
/// device cell (acc-runtime's `Cells`).
fn outer_scalar_atomics(f: &ExprForLoop, lets: &[Let]) -> Vec<Ident> {
    struct V<'a>(&'a [Let], Vec<Ident>);
    impl<'ast> syn::visit::Visit<'ast> for V<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if is_acc_path(&m.path, "atomic") {
                if let Ok(form) = syn::parse2::<AtomicForm>(m.tokens.clone()) {
                    if let Place::Scalar(id) = form.place() {
                        if self.0.iter().any(|l| &l.name == id) && !self.1.contains(id) {
                            self.1.push(id.clone());
                        }
                    }
                }
            }
        }
    }
    let mut v = V(lets, Vec::new());
    syn::visit::Visit::visit_expr_for_loop(&mut v, f);
    v.1
}
