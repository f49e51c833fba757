//! The GPU schedule of a parallel loop nest (OpenUH's mapping, DESIGN §4.2): `gang` loops
//! over the blocks (`blockIdx.x`), `worker` loops over `threadIdx.y`, `vector` loops over
//! `threadIdx.x`, each level a grid-stride loop from the lower bound.
//!
//! A loop that holds no parallel loop spreads over every level its enclosing loops left free,
//! so a lone `gang` loop uses every thread of the grid. A loop that holds parallel loops
//! spreads over its own levels only; the threads of the levels below run its body redundantly
//! (DESIGN §4.4):
//! - `let`s and assignments to locals run in every thread (each keeps an equal copy);
//! - statements that write memory (slice elements, atomics, routines given a `&mut` slice)
//!   run in the group's leader only, then a barrier (and a broadcast of the locals such a
//!   statement assigned) brings the group back together;
//! - the loop runs *uniformly*: every thread of a block takes the same number of trips, the
//!   threads past the end on the last trip run it as spare threads (their statements guarded,
//!   their inner loops empty), so the barriers and the collective reductions inside meet.
//!
//! A `reduction` clause on such a loop gives each thread a private copy (the operator's
//! identity), combines the copies over the loop's levels at its end
//! (`acc_device::group_reduce`, every thread gets the result) and then with the value the
//! variable had before the loop. A loop inside it that updates the variable without a clause
//! of its own gets the same clause (OpenUH's placement: a clause on the outermost loop is
//! enough). When no code between the loops reads the variable, the inner loops leave their
//! threads' partial values alone and the outer loop combines once over all the levels
//! (`Scheduler::deferrable`): the gang-worker-vector position costs one block reduction.
//!
//! An `if` around parallel loops in a gang loop's body is uniform in the block (every thread
//! holds the gang's trip and the same locals), so it stays real control flow. Forms whose
//! barriers could be reached a different number of times by the threads of a block
//! (`continue` in a worker or vector loop that holds parallel loops, a parallel loop under
//! `if` in a worker or vector loop, a sequential loop around parallel loops inside a worker or
//! vector loop, a jump out of a statement only the leader runs) are refused: a compile error
//! of the GPU build on the offending token, rather than a hang on the GPU.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use crate::front::directives::LoopDirectives;
use super::chunk;
use crate::info;
use crate::info::schedule::{Combine, FormReport, Group, InOrder, Leader, LevelSet, LoopReport, RedReport, RoundsReport, Sched, SchedNote, Then, WindowReport};
use crate::front::loops;
use crate::front::model::*;
use crate::syntax::{self, is_acc_path};
use crate::report::Errors;

/// The levels a loop spreads over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
}

impl Levels {
    fn union(self, o: Levels) -> Levels {
        Levels { gang: self.gang || o.gang, worker: self.worker || o.worker, vector: self.vector || o.vector }
    }
}

/// What the code at one point of the nest runs under.
#[derive(Clone, Default)]
struct Ctx {
    /// Levels spread by the enclosing loops.
    used: Levels,
    /// Whether this thread holds a real trip of every enclosing uniform loop.
    active: Option<TokenStream>,
    /// Reductions of the enclosing loops (a loop inside that updates one gets its clause).
    reds: Vec<(RedOp, Ident)>,
    /// The reductions of the loop whose body this is: the ones a loop inside may leave
    /// unfinished for it (see [`Scheduler::deferrable`]).
    mine: Vec<(RedOp, Ident)>,
    /// The variable holding where the group locals of the enclosing bodies end in shared
    /// memory (`acc_device::group_local`).
    shared_end: Option<Ident>,
    /// Loops inside a top-level gang loop that may run a gang per warp: their threads are
    /// numbered by `__acc_vtx`/`__acc_vty` among `__acc_vbdx`/`__acc_vbdy` (the block's own
    /// indices, or a warp's 32 lanes as one worker; see [`Scheduler::nest`]).
    virt: bool,
    /// The trips of the enclosing worker loop that this vector loop runs together (see
    /// [`Scheduler::paired_trips`]).
    jam: Option<Jam>,
}

/// Trips of a worker loop run together by the vector loop inside (`Scheduler::paired_trips`):
/// the worker loop's variables, and for each trip the local holding their values.
#[derive(Clone)]
struct Jam {
    vars: Vec<Ident>,
    trips: Vec<Ident>,
}

/// A lowered loop.
struct Lowered {
    code: TokenStream,
    levels: Levels,
    inner_par: bool,
    /// For each reduction the loop left unfinished (the caller's `deferred`): the levels over
    /// which the threads' partial values still differ.
    unreduced: Vec<(Ident, Levels)>,
}

/// One trip's body as a thread runs it: a loop of one trip, so that the user's `continue` (on
/// to the loop's next trip) ends it.
pub(super) fn run_once(stmts: &[Stmt]) -> TokenStream {
    quote! {
        #[allow(clippy::never_loop)]
        for _ in ::core::iter::once(()) { #(#stmts)* }
    }
}

/// Adds `l` to the levels `v` has in `acc`.
fn merge_levels(acc: &mut Vec<(Ident, Levels)>, v: &Ident, l: Levels) {
    match acc.iter_mut().find(|(x, _)| x == v) {
        Some((_, have)) => *have = have.union(l),
        None => acc.push((v.clone(), l)),
    }
}

fn levels_of(acc: &[(Ident, Levels)], v: &Ident) -> Levels {
    acc.iter().find(|(x, _)| x == v).map_or(Levels::default(), |(_, l)| *l)
}

/// The kernel code of one nest's outermost loop, and what the launch must know.
pub struct Scheduled {
    pub code: TokenStream,
    /// Whether the nest uses `threadIdx.y` (a `worker` loop): blocks are 2-D.
    pub uses_worker: bool,
    /// Threads of a block that share one trip of the outermost loop (they run its body
    /// redundantly): `(vector lanes, workers)`.
    pub per_trip: (bool, bool),
    /// Whether locals of gang or worker loop bodies live in shared memory.
    pub group_locals: bool,
    /// The `cache!` windows staged in shared memory: the array and the window's span (its
    /// elements beyond `blockDim.x`), for the launch's size.
    pub cached: Vec<(Ident, usize)>,
    /// The 1-D windows of tile loops staged in shared memory (`tiles::Window1`): the array
    /// and the window's elements.
    pub tiles1: Vec<(Ident, usize)>,
    /// info: what each loop and statement of the nest became (schedule report).
    pub notes: info::Notes,
    /// The top gang loop may give each warp trips of its own.
    pub per_warp: bool,
    /// A loop inside the top loop takes chunks of 16 bytes: the nest has a lean kernel too
    /// (see [`Scheduler::lean`]).
    pub inner_chunks: bool,
    /// One of those loops is a reduction's: the lean kernel runs launches of more blocks
    /// than the GPU has multiprocessors.
    pub reduction_chunks: bool,
    /// A loop of the nest takes chunks (`chunk.rs`), whose accesses are checked a chunk at a
    /// time and which indices the launch bounds would not take (`bounds.rs`).
    pub chunked: bool,
    /// The waves of blocks the launch may give the nest (1, or `STREAM_WAVES` for a loop of the
    /// whole grid with no reduction across its trips: a streaming loop, a gang loop over vector
    /// loops; `CHUNK_WAVES` for a streaming loop that takes chunks).
    pub waves: usize,
    /// The arrays of a top streaming loop that takes chunks (`chunk.rs`), whose element sizes
    /// set the trips each thread takes at once (4, or 2 where one is wider than 4 bytes): the
    /// launch gives such a loop a thread per chunk (`Geometry::chunks`). Empty otherwise.
    pub top_chunks: Vec<Ident>,
}

/// Lowers the nest `f` (a region's top-level loop, not serial) with the reductions `reds`
/// (their private copies are set up by the caller); `body_of` strips a body that runs in one
/// thread (inner acc loops run in order) and lowers `atomic!`/`cache!`.
pub struct Scheduler<'a> {
    pub kind: RegionKind,
    /// The region body's loop directives, parsed once.
    pub loops: &'a LoopDirectives,
    /// `&mut [T]` parameters: writing them (or passing them on) is a memory effect.
    pub mut_slices: &'a [Ident],
    pub body_of: &'a mut dyn FnMut(&syn::Block) -> syn::Block,
    pub errors: &'a mut Errors,
    uses_worker: bool,
    next: usize,
    /// Locals of gang or worker loop bodies kept in shared memory: writing them is a memory
    /// effect, as writing an array is.
    group_locals: Vec<Ident>,
    /// The `&[T]` parameters a `cache!` window may stage (see [`Scheduler::stage`]).
    stageable: &'a [Ident],
    /// The windows staged (see [`Scheduled::cached`]).
    cached: Vec<(Ident, usize)>,
    /// The 1-D windows of tile loops staged (see [`Scheduled::tiles1`]).
    tiles1: Vec<(Ident, usize)>,
    /// info: the report's entries, and how deep in the nest the current loop is.
    notes: Vec<SchedNote>,
    depth: usize,
    /// info: the user's line of a statement acc rewrote (a `continue` made a flag), whose
    /// own tokens have none.
    line_override: Option<usize>,
    /// The top loop is a gang loop whose trips meet no barrier: its trips may each go to one
    /// warp (`Some(true)`), or its inner loops name the virtual thread indices but keep the
    /// block's (`Some(false)`).
    per_warp: Option<bool>,
    /// Lowering the nest's lean kernel: only the top loop may take chunks (see [`Scheduler::lean`]).
    lean: bool,
    /// Trips a round of the lean kernel's loops of single trips (see [`Scheduler::unrolled`]).
    unroll: usize,
    /// A loop inside the top loop took chunks.
    inner_chunks: bool,
    chunked: bool,
    /// A reduction loop inside the top loop took chunks.
    reduction_chunks: bool,
    /// The waves of blocks the top loop may launch (see [`Scheduled::waves`]).
    waves: usize,
    /// See [`Scheduled::top_chunks`].
    top_chunks: Vec<Ident>,
}

/// Bodies of at most this many tokens (a few statements) are unrolled.
const UNROLL_TOKENS: usize = 400;

/// Trips per round of an unrolled reduction loop of 4-byte values: the loads in flight per
/// thread (then rounds of 4, then one trip at a time). Where few blocks run (the papers'
/// shapes: 2 gangs), a block's bandwidth is what its threads keep in flight.
const UNROLL: usize = 8;

const DEV: fn() -> TokenStream = || quote!(::acc_device);

impl<'a> Scheduler<'a> {
    pub fn new(kind: RegionKind, loops: &'a LoopDirectives, mut_slices: &'a [Ident], body_of: &'a mut dyn FnMut(&syn::Block) -> syn::Block, errors: &'a mut Errors) -> Self {
        Scheduler { kind, loops, mut_slices, body_of, errors, uses_worker: false, next: 0, group_locals: Vec::new(), stageable: &[], cached: Vec::new(), tiles1: Vec::new(), notes: Vec::new(), depth: 0, line_override: None, per_warp: None, lean: false, unroll: 1, inner_chunks: false, reduction_chunks: false, chunked: false, waves: 1, top_chunks: Vec::new() }
    }

    /// The same scheduler staging `cache!` windows of the read-only `&[T]` parameters
    /// `arrays` in shared memory.
    pub fn stage(mut self, arrays: &'a [Ident]) -> Self {
        self.stageable = arrays;
        self
    }

    /// The same scheduler lowering the nest's lean kernel: the loops inside the top loop take
    /// no chunks of 16 bytes. Their chunk code costs registers whether or not its rows are long
    /// enough to take chunks: the papers' gang worker kernel took 50 registers for chunks its
    /// 64-trip rows never take, and its blocks of 1024 threads fitted once per multiprocessor
    /// instead of twice. The host picks the kernel at each launch (`acc_runtime::gpu::launch`).
    pub fn lean(mut self) -> Self {
        self.lean = true;
        self
    }

    /// The same lean scheduler running the loops inside the top loop that would take chunks
    /// (bodies that reach arrays only as `a[e + i]`) in rounds of `trips` single trips, then
    /// one at a time. For the lean kernel without index checks (`lower::device`): with no
    /// check's exit between them, a round's trips are one block of code, whose reads of
    /// read-only arrays are written first (`loads.rs`; one trip's load in flight a thread
    /// otherwise). On
    /// an H100 rounds of 2 took the bench's Table 2 gang, worker and gang worker nests from
    /// 2557-2577 to 2668-2776 GB/s (one call; nvcc's kernels 2735-2796), 0.96-1.00 of nvcc in
    /// the whole check; rounds of 4 took the worker nest's kernel past the 32 registers a
    /// thread that two blocks of 1024 threads a multiprocessor allow (`benches/README.md`). `ACC_EXP_LUNROLL=R` sets the size, for A/B runs on the GPU.
    pub fn unrolled(mut self, trips: usize) -> Self {
        self.unroll = experiment_size("ACC_EXP_LUNROLL", 1..=8, trips);
        self
    }

    /// The kernel code of the nest rooted at `f`, which reduces `reds` into block partials
    /// `0..reds.len()` of `partials`.
    pub fn nest(mut self, f: &ExprForLoop, reds: &[(RedOp, Ident)]) -> Option<Scheduled> {
        self.uses_worker = uses_worker(f, self.loops);
        let ctx = Ctx { reds: reds.to_vec(), ..Ctx::default() };
        // The kernel finishes every reduction of the nest (block partials, folded on the host).
        let all: Vec<Ident> = reds.iter().map(|r| r.1.clone()).collect();
        let Lowered { code, levels, inner_par, unreduced } = self.lower_loop(f, &ctx, true, &all)?;
        let dev = DEV();
        let mut finish = TokenStream::new();
        // The thread indices the loops inside a top gang loop use: the block's, unless the
        // gang loop gives each warp trips of its own (`__acc_warps`, set by the loop).
        let virt = match self.per_warp {
            Some(_) => quote! {
                let mut __acc_vtx: u32 = #dev::thread_idx_x();
                let mut __acc_vbdx: u32 = #dev::block_dim_x();
                let mut __acc_vty: u32 = #dev::thread_idx_y();
                let mut __acc_vbdy: u32 = #dev::block_dim_y();
                let mut __acc_warps: bool = false;
            },
            None => TokenStream::new(),
        };
        let vars: Vec<&Ident> = reds.iter().map(|r| &r.1).collect();
        for ((op, v), slot) in reds.iter().zip(red_slots(&dev, &vars)) {
            let over = levels_of(&unreduced, v);
            let combined = if self.per_warp == Some(true) { self.first_threads_combined(*op, v, over) } else { self.combined(*op, v, over) };
            finish.extend(quote! {
                let __acc_v = #combined;
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial_var(__acc_partials, #slot, __acc_v);
                }
            });
        }
        let per_trip = if inner_par { (!levels.vector, self.uses_worker && !levels.worker) } else { (false, false) };
        let per_warp = self.per_warp == Some(true);
        Some(Scheduled { code: quote!(#virt #code #finish), uses_worker: self.uses_worker, per_trip, group_locals: !self.group_locals.is_empty(), cached: self.cached, tiles1: self.tiles1, notes: info::schedule::render(&self.notes), per_warp, inner_chunks: self.inner_chunks, reduction_chunks: self.reduction_chunks, chunked: self.chunked, waves: self.waves, top_chunks: self.top_chunks })
    }

    /// `v` combined with `op` over the whole block where groups of threads ran the same trips
    /// (a warp, or the block's rows or the block itself; numbered by the virtual indices):
    /// each group holds its copy in its first thread, and every thread its partial over the
    /// levels of `over` left unreduced, so the block combines the copies of the threads that
    /// count. Every thread gets the result.
    fn first_threads_combined(&self, op: RedOp, v: &Ident, over: Levels) -> TokenStream {
        let dev = DEV();
        let ops = op_path(op);
        let (x, y) = (over.vector, over.worker && self.uses_worker);
        quote! {{
            let __acc_mine = if (#x || __acc_vtx == 0) && (#y || __acc_vty == 0) { #v } else { #ops.identity(&#v) };
            #dev::block_reduce_var(__acc_mine, #ops.identity(&#v), |a, b| #ops.combine(a, b), #dev::dynamic_shared())
        }}
    }

    /// `v`'s thread values combined with `op` over the block levels of `over`; every thread
    /// gets the result (`acc_device::group_reduce`).
    fn combined(&self, op: RedOp, v: &Ident, over: Levels) -> TokenStream {
        let dev = DEV();
        let ops = op_path(op);
        let (x, y) = (over.vector, over.worker && self.uses_worker);
        quote!(#dev::group_reduce_var(#v, #ops.identity(&#v), |a, b| #ops.combine(a, b), #x, #y, #dev::dynamic_shared()))
    }

    fn fresh(&mut self) -> usize {
        self.next += 1;
        self.next
    }

    fn directive(&self, f: &ExprForLoop) -> Option<LoopDirective> {
        self.loops.get(f).cloned()
    }

    /// Whether `f` is a loop the schedule spreads over threads (a level clause, not `seq`,
    /// and in a `kernels` region or under `auto`, proved independent).
    fn is_parallel(&self, f: &ExprForLoop) -> bool {
        is_parallel(f, self.loops)
    }

    /// Whether `b` holds a parallel loop (not inside a closure or item).
    fn holds_parallel(&self, b: &syn::Block) -> bool {
        holds_parallel(b, self.loops)
    }

    /// Lowers loop `f` under `ctx`; returns its code, its levels, and whether it holds
    /// parallel loops.
    /// `deferred`: reductions of the enclosing loop that this loop leaves unfinished (each
    /// thread keeps its partial value; the enclosing loop combines over more levels at once).
    fn lower_loop(&mut self, f: &ExprForLoop, ctx: &Ctx, top: bool, deferred: &[Ident]) -> Option<Lowered> {
        let dev = DEV();
        let d = self.directive(f).unwrap_or_else(|| LoopDirective { auto: Some(f.span()), ..LoopDirective::default() });
        let (headers, body) = loops::directive_nest(f, &d)?;
        let inner_par = self.holds_parallel(&body);
        // A level an enclosing loop spreads already is not spread again (`kernels` nests with
        // `gang` or `vector` on two loops): the loop runs in order there.
        let mut lv = Levels {
            gang: (d.gang.is_some() && !ctx.used.gang) || top,
            worker: d.worker.is_some() && !ctx.used.worker,
            vector: d.vector.is_some() && !ctx.used.vector,
        };
        if !inner_par {
            // The innermost parallel loop takes every level left free.
            lv.worker |= self.uses_worker && !ctx.used.worker;
            lv.vector |= !ctx.used.vector;
        }
        let lv_w = lv.worker && self.uses_worker;
        // This loop's reductions: its clauses, and the enclosing loops' that it updates.
        let mut reds: Vec<(RedOp, Ident)> = if top { ctx.reds.clone() } else { Vec::new() };
        if !top {
            for r in &d.reduction {
                for v in &r.vars {
                    reds.push((r.op, v.clone()));
                }
            }
            for (op, v) in &ctx.reds {
                if !reds.iter().any(|r| &r.1 == v) && block_assigns(&body, v) {
                    reds.push((*op, v.clone()));
                }
            }
        }
        let n = self.fresh();
        let loops::NestSpace { setup, total, bind } = loops::normalise_nest(&headers, n, &quote!(#dev::idx));
        // This thread's place among the loop's threads in a block, and their number.
        let (tpart, tcount) = match (lv_w, lv.vector, ctx.virt) {
            (true, true, false) => (
                quote!((#dev::thread_idx_y() as usize * #dev::block_dim_x() as usize + #dev::thread_idx_x() as usize)),
                quote!((#dev::block_dim_x() as usize * #dev::block_dim_y() as usize)),
            ),
            (true, false, false) => (quote!((#dev::thread_idx_y() as usize)), quote!((#dev::block_dim_y() as usize))),
            (false, true, false) => (quote!((#dev::thread_idx_x() as usize)), quote!((#dev::block_dim_x() as usize))),
            (true, true, true) => (quote!(((__acc_vty * __acc_vbdx + __acc_vtx) as usize)), quote!(((__acc_vbdx * __acc_vbdy) as usize))),
            (true, false, true) => (quote!((__acc_vty as usize)), quote!((__acc_vbdy as usize))),
            (false, true, true) => (quote!((__acc_vtx as usize)), quote!((__acc_vbdx as usize))),
            (_, _, _) => (quote!(0usize), quote!(1usize)),
        };
        let (bpart, stride) = if lv.gang {
            (quote!((#dev::block_idx_x() as usize * #tcount)), quote!((#dev::grid_dim_x() as usize * #tcount)))
        } else {
            (quote!(0usize), tcount.clone())
        };
        let total_id = format_ident!("__acc_total{}", n);
        let total_expr = match &ctx.active {
            Some(a) => quote!(if #a { #total } else { 0usize }),
            None => quote!(#total),
        };
        let thread_varying = lv_w || lv.vector;
        let uniform = inner_par && thread_varying;
        // info: the loop's levels, its index, and how its trips meet.
        let note_at = self.notes.len();
        {
            let report = LoopReport {
                vars: headers.iter().map(|h| h.var.clone()).collect(),
                written: LevelSet { gang: d.gang.is_some(), worker: d.worker.is_some(), vector: d.vector.is_some() },
                got: LevelSet { gang: lv.gang, worker: lv_w, vector: lv.vector },
                top_gang: top && d.gang.is_none(),
                took_free: !inner_par && ((lv.vector && d.vector.is_none()) || (lv_w && d.worker.is_none())),
                not_again: (d.gang.is_some() && !lv.gang) || (d.worker.is_some() && !lv_w) || (d.vector.is_some() && !lv.vector),
                collapse: d.collapse.map(|(_, n)| n),
                tile: d.tile.as_ref().map(|(_, sizes)| sizes.iter().map(|e| quote!(#e).to_string()).collect()),
                uniform,
                ..LoopReport::default()
            };
            // (Whether a barrier ends each trip is added below, once the body is lowered.)
            self.note(info::loop_line(f), self.depth, Sched::Loop(report));
        }
        self.depth += 1;
        let active_id = format_ident!("__acc_active{}", n);
        let mut inner = ctx.clone();
        inner.used = ctx.used.union(lv);
        inner.jam = None;
        // A top gang loop (no other level) holding worker loops (a block of several warps
        // whose inner loops may use few of its threads: the papers' gang position): its trips
        // may each go to one warp (decided below, once its body is lowered). Not for a gang
        // of vector lanes alone: Heat2D's step (gang rows, vector columns, 128 threads) took
        // 14 more registers for the virtual indices and ran at 0.62 of nvcc from 0.95 on an
        // H100, in the block-per-gang mode its 4094 rows chose.
        let per_warp_candidate = top && inner_par && lv.gang && !lv_w && !lv.vector && ctx.active.is_none() && self.uses_worker;
        if per_warp_candidate {
            inner.virt = true;
            self.per_warp = Some(false);
        }
        if uniform {
            inner.active = Some(match &ctx.active {
                Some(a) => quote!((#a && #active_id)),
                None => quote!(#active_id),
            });
        }
        for r in &reds {
            if !inner.reds.iter().any(|x| x.1 == r.1) {
                inner.reds.push(r.clone());
            }
        }
        inner.mine = reds.clone();
        let mut child_unreduced: Vec<(Ident, Levels)> = Vec::new();
        // `cache!` windows staged in shared memory (the paper's RBI with the cache shared by
        // the block): a window that moves with the variable of a step-1 loop spread over
        // `threadIdx.x` alone, whose body holds no parallel loop, of a read-only `&[T]`.
        let block_trips = !inner_par && headers.len() == 1 && headers[0].step.is_none() && lv.vector && !lv_w && !self.uses_worker && ctx.active.is_none();
        let read_only: Vec<Ident> = self.stageable.iter().filter(|a| !self.mut_slices.contains(a)).cloned().collect();
        let staged: Vec<crate::front::cache::Moving> = if block_trips {
            crate::front::cache::moving_windows(&body, &[headers[0].var.clone()]).into_iter().filter(|w| read_only.contains(&w.array)).collect()
        } else {
            Vec::new()
        };
        let wins: Vec<Ident> = (0..staged.len()).map(|j| format_ident!("__acc_win{}_{}", n, j)).collect();
        // And the body whose reads of the windows are not checked, for trips whose windows lie
        // inside their arrays (`window_inside`).
        let unchecked_body = (!staged.is_empty()).then(|| cached_reads(&body, &staged, &wins, false));
        let body = if staged.is_empty() { body } else { cached_reads(&body, &staged, &wins, true) };
        // 1-D windows at the top of sequential tile loops in the body, that do not move with
        // the loop (the N-body's `x[jj..jj + 256]`; `tiles::Window1`), under the same
        // conditions: the loop then runs in trips of the whole block.
        let (tiles1, why_not1) = if staged.is_empty() && block_trips {
            super::tiles::plan_1d(&body, &headers[0].var, &read_only)
        } else {
            (Vec::new(), Vec::new())
        };
        self.loop_report(note_at).not_staged = why_not1;
        let body = if tiles1.is_empty() { body } else { super::tiles::lower_1d(&body, &tiles1, &format_ident!("__acc_in1d"), &dev) };
        let any_staged = !staged.is_empty() || !tiles1.is_empty();
        // The body as one thread runs it (a loop holding no parallel loop), for chunking.
        let mut lowered_body: Option<syn::Block> = None;
        let body_code = if inner_par {
            // A `continue` skips the rest of the body: every thread of the block must skip the
            // same statements (they meet at barriers), which holds when the whole block runs
            // the body's trip together (a gang loop). A `break` of a parallel loop is refused
            // by the region's checks.
            if let Some(span) = escaping_jump(&body) {
                if inner.used.worker || inner.used.vector {
                    self.errors.error(span, "on the GPU, `continue` in a worker or vector loop that holds parallel loops is not supported yet (its threads would skip different barriers): guard the rest of the body with `if` instead");
                    return None;
                }
            }
            self.lower_body(&body.stmts, &inner, &mut child_unreduced)?
        } else {
            // info: the loops inside, which each thread runs in order.
            self.note_sequential_loops(&body);
            let b = (self.body_of)(&body);
            let code = run_once(&b.stmts);
            lowered_body = Some(b);
            code
        };
        // Unrolled below: loops that only read memory and update a reduction (a store between
        // the trips keeps their loads from moving up, and the copies only cost registers:
        // Heat2D's step ran at a third of its bandwidth unrolled).
        let unroll = !inner_par
            && inner.reds.iter().any(|(_, v)| block_assigns(&body, v))
            && !self.effect(&Stmt::Expr(Expr::Block(syn::ExprBlock { attrs: Vec::new(), label: None, block: body.clone() }), None)).memory;
        // The reductions the body updates, each trip of a round on a copy of its own (from the
        // identity), combined after the round: the trips are independent, so their loads come
        // first and no trip's combine waits for another's load. Only where the body names each
        // variable in its updates alone (`v op= e`, `v = f(v, e)`), where the copies' values are
        // what a reduction's private copies may hold.
        let split: Vec<(RedOp, Ident)> = inner.reds.iter().filter(|(_, v)| block_assigns(&body, v)).cloned().collect();
        let split_ok = split.iter().all(|(_, v)| only_updates(&body, v));
        // info: the unrolled form below.
        if unroll && !uniform && !any_staged && body_code.clone().into_iter().count() <= UNROLL_TOKENS {
            self.loop_report(note_at).unrolled = Some((UNROLL, split_ok));
        }
        let k = format_ident!("__acc_k");
        let base = format_ident!("__acc_base{}", n);
        // The trips of a loop that holds parallel loops reuse the block's shared memory (the
        // body's group locals, broadcasts) and private copies, and every thread of the block
        // takes the same trips: a barrier ends each trip, so that no thread writes the next
        // trip's before every thread has read this one's.
        // A body with no barrier uses no shared memory (every use of it meets a barrier in its
        // trip) and leaves nothing there for the next trip: its trips run without one (the
        // gang, worker and worker-vector positions of the papers' shapes: a barrier per trip
        // kept each thread to one trip's loads in flight).
        let end_trip = if inner_par && uses_barriers(&body_code) { quote!(#dev::sync_threads();) } else { TokenStream::new() };
        // info: whether a barrier ends each trip.
        if inner_par {
            self.loop_report(note_at).barrier = Some(!end_trip.is_empty());
        }
        // A worker loop (no other level) inside a top gang loop, whose trips meet no barrier
        // and whose body uses nothing of the block as a whole: where it has a trip for every
        // warp of the block, each warp runs trips of its own as one worker, the vector loops
        // inside on its 32 lanes (a worker per warp; else the block's workers run it). The
        // papers' worker, gang-worker, worker-vector and gang-worker-vector positions (8
        // workers of 128 lanes) hold vector loops of 32, 64 and 1024 trips: the worker position
        // kept 96 of each worker's 128 lanes idle, the gang-worker position 64 (and see
        // `worker_rounds`: 32 -> 6.4 ms more for the worker position). On an H100 the
        // worker position went from 123 to 32 ms (int) and 135 to 31 ms (double), gang worker
        // from 0.45 to 0.26 ms (int), worker vector 0.17 to 0.12-0.13 ms, gang worker vector
        // 0.15 to 0.10 ms; the bench's Table 2 worker and gang-worker nests from 0.84-0.91 to
        // 0.91-0.94 of nvcc, its gang nest (64 rows of 4096 a gang) from 0.96 to 0.94.
        let warp_workers = uniform && lv_w && !lv.vector && !lv.gang && ctx.virt && ctx.active.is_none() && end_trip.is_empty() && !any_staged && !block_level(&body_code);
        let warps_id = format_ident!("__acc_ww{}", n);
        let saved_id = format_ident!("__acc_saved{}", n);
        let (virt_on, virt_off) = if warp_workers {
            // info: a worker per warp.
            self.loop_report(note_at).worker_per_warp = true;
            (
                quote! {
                    let #saved_id: (u32, u32, u32, u32) = (__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy);
                    // (Under a gang per warp, `__acc_warps`, a warp is a worker already: tested
                    // first, the papers' gang position 1-2% faster on an H200.)
                    let #warps_id: bool = !__acc_warps && {
                        let __acc_nt: u32 = __acc_vbdx * __acc_vbdy;
                        __acc_nt % 32 == 0 && __acc_nt / 32 > __acc_vbdy && #total_id >= (__acc_nt / 32) as usize
                    };
                    if #warps_id {
                        // CUDA numbers a block's threads `x` fastest: a warp is 32 of them in a row.
                        let __acc_tid: u32 = __acc_vty * __acc_vbdx + __acc_vtx;
                        __acc_vbdy = __acc_vbdx * __acc_vbdy / 32;
                        __acc_vtx = __acc_tid % 32;
                        __acc_vbdx = 32;
                        __acc_vty = __acc_tid / 32;
                    }
                },
                quote!((__acc_vtx, __acc_vbdx, __acc_vty, __acc_vbdy) = #saved_id;),
            )
        } else {
            (TokenStream::new(), TokenStream::new())
        };
        // A loop over `threadIdx.x` (step 1, one variable, no barrier ending a trip) whose
        // body reaches arrays only as `a[e + i]`: chunks of 4 trips a thread (`chunk.rs`).
        let chunk_arrays: Vec<Ident> = self.stageable.iter().chain(self.mut_slices).cloned().collect();
        let row_loop = lv.vector && headers.len() == 1 && headers[0].step.is_none() && end_trip.is_empty() && !any_staged && !uniform;
        let chunked = match &lowered_body {
            Some(b) if row_loop && (top || !self.lean) => {
                chunk::arrays(b, &headers[0].var, &chunk_arrays, self.mut_slices)
            }
            _ => None,
        };
        self.chunked |= chunked.is_some();
        // A loop of the whole grid with no reduction across its trips: a streaming loop (a
        // top-level `gang, vector` loop with no parallel loop inside; chunked, staging `cache!`
        // windows, or neither), or a top-level gang loop over vector loops (no worker loop:
        // a gang per warp chooses by the grid's warps): up to STREAM_WAVES waves of blocks.
        let streaming = lv.vector && !inner_par && !uniform;
        let gang_rows = inner_par && !self.uses_worker;
        if top && lv.gang && (streaming || gang_rows) && reds.is_empty() && tiles1.is_empty() {
            self.waves = STREAM_WAVES;
            // A streaming loop of chunks: a thread per chunk, up to CHUNK_WAVES waves.
            if let (true, Some(arrays)) = (streaming, &chunked) {
                self.waves = CHUNK_WAVES;
                self.top_chunks = arrays.iter().map(|a| a.name.clone()).collect();
            }
        }
        // The loop one trip at a time: this thread's trips, a grid stride apart; in a lean
        // kernel's rounds (`Scheduler::unrolled`) where the loop would take chunks in the
        // nest's kernel (its body matched as written, before the launch's proved indices lost
        // their checks).
        let rounds = matches!(&lowered_body, Some(b) if row_loop && self.lean && !top && self.unroll > 1 && chunk::arrays(&super::bounds::checked_form(b), &headers[0].var, &chunk_arrays, self.mut_slices).is_some());
        // The trips of the enclosing worker loop run together (`Scheduler::paired_trips`):
        // each trip of this loop runs the body once for each of them, all their reads of
        // read-only arrays first (`loads.rs`), then the bodies in order.
        let jammed = match (&ctx.jam, &lowered_body) {
            (Some(jam), Some(b)) if !inner_par && reds.is_empty() && !any_staged && !uniform && !unroll && end_trip.is_empty() => {
                let vars = &jam.vars;
                let binds: Vec<TokenStream> = jam.trips.iter().map(|trip| quote!(let (#(#vars,)*) = #trip;)).collect();
                let trips = super::loads::trips_loads_first(b, &read_only, n, &binds, run_once);
                Some(quote! {
                    let mut #k = #bpart + #tpart;
                    while #k < #total_id {
                        #bind
                        #trips
                        #k += #stride;
                    }
                })
            }
            // (Refused: the worker loop runs its trips one at a time.)
            (Some(_), _) => return None,
            _ => None,
        };
        let plain = if let Some(code) = jammed {
            code
        } else if rounds {
            let u = self.unroll;
            let last = u - 1;
            // The round's reads of read-only arrays first (`loads.rs`), then its trips' bodies:
            // written one after the other, each trip's load stayed by its store in the SASS
            // (`benches/results/jam-h200/` as of f98ec92).
            let b = lowered_body.as_ref().expect("a loop of rounds has its body lowered");
            let binds: Vec<TokenStream> = (0..u).map(|c| quote!(let #k: usize = #k + #c * __acc_st; #bind)).collect();
            let trips = super::loads::trips_loads_first(b, &read_only, n, &binds, run_once);
            quote! {
                let __acc_st: usize = #stride;
                let mut #k = #bpart + #tpart;
                let __acc_ulim: usize = #total_id.saturating_sub(#last * __acc_st);
                while #k < __acc_ulim {
                    #trips
                    #k += #u * __acc_st;
                }
                while #k < #total_id {
                    #bind
                    #body_code
                    #k += __acc_st;
                }
            }
        } else {
            quote! {
                let mut #k = #bpart + #tpart;
                while #k < #total_id {
                    #bind
                    #body_code
                    #end_trip
                    #k += #stride;
                }
            }
        };
        let looped = if !staged.is_empty() {
            // Each trip of the block: the windows fetched by all its threads (those past the
            // loop's end too), a barrier, the trip (its references to the windows read shared
            // memory), a barrier before the next trip's fetch. A trip gives each thread
            // `__acc_m` points, a block apart (`acc_device::window_points`: 4 where the
            // windows fit), so that a thread has `__acc_m + 1` loads in flight a trip and the
            // barriers serve `__acc_m` points. `__acc_wbytes`: the element bytes of all the
            // nest's staged windows, as the host counts them (`device.rs`), so that every
            // staged loop of the nest takes the points the launch sized its windows for.
            let var = &headers[0].var;
            let start = ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
            let mut places = quote! {
                let __acc_tx: usize = #dev::thread_idx_x() as usize;
                let __acc_bdx: usize = #dev::block_dim_x() as usize;
                let __acc_m: usize = #dev::window_points(__acc_bdx, __acc_wbytes);
                let __acc_mbx: usize = __acc_m * __acc_bdx;
                let __acc_mst: usize = #stride * __acc_m;
                let mut __acc_woff: usize = #start;
            };
            let mut fetches = TokenStream::new();
            let (mut first_pf, mut stores, mut next_pf) = (TokenStream::new(), TokenStream::new(), TokenStream::new());
            let (mut loads_now, mut stores_now) = (TokenStream::new(), TokenStream::new());
            let trip_ahead = std::env::var_os("ACC_EXP_WINDOW_NOW").is_none();
            let mut ahead = quote!(true);
            let mut shown = Vec::new();
            for (j, (w, win)) in staged.iter().zip(&wins).enumerate() {
                let (a, span) = (&w.array, (w.hi - w.lo) as usize);
                let lo = proc_macro2::Literal::i64_suffixed(w.lo);
                let pf = format_ident!("__acc_pf{}_{}", n, j);
                places.extend(quote!(let #win = #dev::cache_window(&*#a, __acc_mbx + #span, &mut __acc_woff);));
                fetches.extend(quote!(#dev::cache_fetch(&*#a, #win, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
                ahead.extend(quote!(&& __acc_mbx + #span <= #dev::CACHE_AHEAD * __acc_bdx));
                first_pf.extend(quote! {
                    let mut #pf = if __acc_ahead && #base < #total_id {
                        #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span)
                    } else {
                        #dev::cache_nothing()
                    };
                });
                stores.extend(quote!(#dev::cache_store(#a.len(), #win, #pf, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
                next_pf.extend(quote!(#pf = #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add(__acc_mst).wrapping_add((#lo) as usize), __acc_mbx + #span);));
                loads_now.extend(quote!(let #pf = #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
                stores_now.extend(quote!(#dev::cache_store(#a.len(), #win, #pf, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
                self.cached.push((a.clone(), span));
                shown.push(WindowReport { array: a.clone(), var: var.clone(), lo: w.lo, hi: w.hi, span });
            }
            // info: the windows.
            self.loop_report(note_at).form = FormReport::Windows(shown);
            // The trip's body without a check of each window reference, where the whole
            // windows lie inside their arrays.
            let inside = window_inside(&staged, None);
            // A whole trip (all its points before the loop's end) whose windows lie inside
            // their arrays at its first and last points (so at every point: the windows move
            // with the variable) runs its points with neither test.
            let trip_inside = {
                let (first, last) = (quote!(__acc_bi), quote!(__acc_bi.wrapping_add(__acc_mbx - 1)));
                let (first, last) = (window_inside(&staged, Some(&first)), window_inside(&staged, Some(&last)));
                quote!(#base + __acc_mbx <= #total_id && #first && #last)
            };
            let fast_code = run_once(&(self.body_of)(unchecked_body.as_ref().expect("made where windows are staged")).stmts);
            if !trip_ahead {
                first_pf = TokenStream::new();
                next_pf = TokenStream::new();
                stores = quote!(#loads_now #stores_now);
            }
            // A window of at most `CACHE_AHEAD` elements a thread is fetched a trip ahead: each
            // thread loads the next trip's elements into registers before this trip's points,
            // and stores them after its end barrier (the loads in flight while the trip
            // computes; `ACC_EXP_WINDOW_NOW=1`, an A/B switch, loads and stores them at the
            // trip's start instead). `__acc_bi`: the loop variable's value at the trip's first
            // iteration (step 1); `__acc_wx`: the point's place in the windows (`threadIdx.x`
            // and a block for each point of the thread before it).
            quote! {
                #places
                let __acc_ahead: bool = #ahead;
                let mut #base = #bpart * __acc_m;
                let mut __acc_bi: usize = {
                    let #k: usize = #base;
                    #bind
                    #var as usize
                };
                #first_pf
                while #base < #total_id {
                    if __acc_ahead {
                        #stores
                    } else {
                        #fetches
                    }
                    #dev::sync_threads();
                    let __acc_next: usize = #base + __acc_mst;
                    if __acc_ahead && __acc_next < #total_id {
                        #next_pf
                    }
                    let mut __acc_q: usize = 0;
                    if #trip_inside {
                        while __acc_q < __acc_m {
                            let __acc_wx: usize = __acc_tx + __acc_q * __acc_bdx;
                            let #k: usize = #base + #tpart + __acc_q * __acc_bdx;
                            #bind
                            #fast_code
                            __acc_q += 1;
                        }
                    } else {
                        while __acc_q < __acc_m {
                            let __acc_wx: usize = __acc_tx + __acc_q * __acc_bdx;
                            let __acc_kq: usize = #base + #tpart + __acc_q * __acc_bdx;
                            let #active_id = __acc_kq < #total_id;
                            let #k = if #active_id { __acc_kq } else { #base };
                            #bind
                            if #active_id {
                                if #inside {
                                    #fast_code
                                } else {
                                    #body_code
                                }
                            }
                            __acc_q += 1;
                        }
                    }
                    #dev::sync_threads();
                    #base = __acc_next;
                    __acc_bi = __acc_bi.wrapping_add(__acc_mst);
                }
            }
        } else if !tiles1.is_empty() {
            // Trips of the whole block: every thread takes the same trips (those past the
            // loop's end run only the tile loops' fetches and barriers, `tiles::lower_1d`).
            let start = ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
            let (places, sizes) = super::tiles::places_1d(&tiles1, &start, &dev);
            let shown = tiles1.iter().flat_map(|l| &l.wins).map(|w| (w.tiled.array.clone(), w.width)).collect();
            self.loop_report(note_at).form = FormReport::Tiles1(shown);
            self.tiles1.extend(sizes);
            quote! {
                #places
                let mut #base = #bpart;
                while #base < #total_id {
                    let #active_id = #base + #tpart < #total_id;
                    let #k = if #active_id { #base + #tpart } else { #base };
                    let __acc_in1d: bool = #active_id;
                    #bind
                    #body_code
                    #base += #stride;
                }
            }
        } else if uniform {
            // A worker loop that may run a worker per warp: rounds of its trips first, in the
            // nest's kernel (a lean kernel keeps the fewest registers: with the rounds the
            // papers' gang worker and the bench's Table 2 gang lean kernels took 64 registers
            // and no longer fitted two blocks of 1024 threads a multiprocessor, 0.26 -> 0.41 ms
            // and 0.94 -> 0.89 of nvcc on an H100).
            let rounds = if warp_workers && !self.lean {
                let var = (headers.len() == 1).then(|| &headers[0].var);
                let l = RoundLoop { k: &k, var, bind: &bind, total: &total_id, tpart: &tpart, stride: &stride, base: &base };
                self.worker_rounds(&body.stmts, &reds, &l)
            } else {
                None
            };
            let rounds = match rounds {
                Some((code, note)) => {
                    // info: the rounds.
                    self.loop_report(note_at).form = FormReport::Rounds(note);
                    code
                }
                None => TokenStream::new(),
            };
            // In the lean kernel without index checks, trips in pairs first.
            let pairs = if self.lean && self.unroll > 1 && end_trip.is_empty() {
                let vars: Vec<Ident> = headers.iter().map(|h| h.var.clone()).collect();
                let l = RoundLoop { k: &k, var: None, bind: &bind, total: &total_id, tpart: &tpart, stride: &stride, base: &base };
                let outer = Ctx { active: ctx.active.clone(), ..inner.clone() };
                self.paired_trips(&body, &outer, &vars, n, &l)
            } else {
                None
            };
            // The trips after the pairs (at most one a thread, under a gang per warp) run
            // their vector loop one trip at a time: its rounds of 2 took the papers' gang
            // kernel from 32 to 40 registers, one block of 1024 threads a multiprocessor.
            let body_code = match &pairs {
                Some(_) => {
                    let (notes, unroll) = (self.notes.len(), self.unroll);
                    self.unroll = 1;
                    let rest = self.lower_body(&body.stmts, &inner, &mut Vec::new());
                    self.notes.truncate(notes);
                    self.unroll = unroll;
                    rest?
                }
                None => body_code,
            };
            let pairs = pairs.unwrap_or_default();
            quote! {
                let mut #base = #bpart;
                #rounds
                #pairs
                while #base < #total_id {
                    let #active_id = #base + #tpart < #total_id;
                    let #k = if #active_id { #base + #tpart } else { #base };
                    #bind
                    #body_code
                    #end_trip
                    #base += #stride;
                }
            }
        } else if unroll && body_code.clone().into_iter().count() <= UNROLL_TOKENS {
            // A reduction's trips: several per round, so that each thread has that many
            // independent loads in flight (one per trip without it, each waiting for the
            // previous combine, caps a reduction's bandwidth). Rounds of UNROLL trips, then
            // rounds of 4 (a short loop: the worker-vector position's 8 trips a lane), then
            // one trip at a time.
            let round = |n: usize| -> TokenStream {
                let vars: Vec<&Ident> = split.iter().map(|r| &r.1).collect();
                let trips = (0..n).map(|u| {
                    let trip = quote!(let #k = __acc_ku + #u * __acc_stride; #bind #body_code);
                    if !split_ok {
                        return quote!({ #trip });
                    }
                    let part = format_ident!("__acc_part{}", u);
                    let ids = split.iter().map(|(op, v)| {
                        let ops = op_path(*op);
                        quote!(let mut #v = #ops.identity(&#v);)
                    });
                    quote!(let #part = { #(#ids)* #trip (#(#vars,)*) };)
                });
                // The copies combined pairwise (a tree: no long chain), then into the variables.
                let mut fold = TokenStream::new();
                for (i, (op, v)) in split.iter().enumerate().filter(|_| split_ok) {
                    let ops = op_path(*op);
                    let idx = syn::Index::from(i);
                    let mut level: Vec<TokenStream> = (0..n)
                        .map(|u| {
                            let part = format_ident!("__acc_part{}", u);
                            quote!(#part.#idx)
                        })
                        .collect();
                    while level.len() > 1 {
                        level = level.chunks(2).map(|c| if let [a, b] = c { quote!(#ops.combine(#a, #b)) } else { c[0].clone() }).collect();
                    }
                    let all = &level[0];
                    fold.extend(quote!(#v = #ops.combine(#v, #all);));
                }
                let last = n - 1;
                quote! {
                    let __acc_lim = #total_id.saturating_sub(#last * __acc_stride);
                    while __acc_ku < __acc_lim {
                        #(#trips)*
                        #fold
                        __acc_ku += #n * __acc_stride;
                    }
                }
            };
            // Rounds of UNROLL trips where the reductions' values are 4 bytes or less: on an
            // H100 with 2 gangs (the papers' vector position) 8 trips a round took i32 and f32
            // sums from 4.4 and 6.8 ms to 3.6 and 3.8 ms, but f64 from 4.4 to 7.2 ms (rounds of
            // 4 are kept for it). The test is on the types, so it folds away.
            let main = round(UNROLL);
            let vars = split.iter().map(|r| &r.1);
            let short = round(4);
            let unrolled = quote! {
                let __acc_stride: usize = #stride;
                let mut __acc_ku = #bpart + #tpart;
                if true #(&& ::core::mem::size_of_val(&#vars) <= 4)* {
                    #main
                }
                #short
                let mut #k = __acc_ku;
                while #k < #total_id {
                    #bind
                    #body_code
                    #k += __acc_stride;
                }
            };
            // A reduction over an inner loop whose body reaches arrays only as `a[e + i]`
            // takes chunks of 16 bytes too, in rounds of 4, then 2, then 1 chunks (the loads
            // of a round in flight together, the chunks inside the arrays counted once: `chunk.rs`), its other
            // trips one at a time. The papers' vector position (2 blocks of 1024 threads
            // summing rows of 1M `i32`s) went from 5.4 to 1.3 ms on an H200, the worker-vector
            // and gang-worker-vector positions 1.1-1.4x faster. Where the launch has more
            // blocks than multiprocessors the nest's lean kernel runs instead (these rounds
            // in place of the chunks): the bench's Table 2 worker-vector and gang-worker-vector
            // nests on a full H200 ran at 0.90 of nvcc chunked against 0.95-1.04 unchunked.
            // Top-level loops keep the unrolled rounds (they have no lean kernel to fall back
            // on, and chunked gained little there: the bench's streaming reductions moved by
            // -0.03 to +0.07 of nvcc).
            match (&chunked, &lowered_body) {
                (Some(chunked), Some(b)) if !top => {
                    self.inner_chunks = true;
                    self.reduction_chunks = true;
                    // info: the chunks, and the lean kernel.
                    self.loop_report(note_at).form = FormReport::ReductionChunks(chunk::array_names(chunked));
                    let parts = chunk::Loop { n, k: &k, bind: &bind, body_code: &body_code, total: &total_id, stride: &stride, start: quote!(#bpart + #tpart) };
                    // Arrays whose chunks never align together, or rows of fewer than a chunk a
                    // thread: one trip at a time (the unrolled rounds here kept the kernel's
                    // registers above a block of 1024 threads' 64).
                    parts.code_16_bytes(chunked, b, &reduction_chunk_rounds(), plain)
                }
                _ => unrolled,
            }
        } else if per_warp_candidate && end_trip.is_empty() && !block_level(&body_code) {
            // A gang's trips share nothing (no barrier, no shared memory, no leader): where
            // the loop has at least as many trips as the grid has warps, each warp runs trips
            // of its own, the loops inside spread over its 32 lanes as one worker (a gang loop
            // whose inner loops use few of a block's threads kept the others idle: the papers'
            // gang position ran 2 x 32 of 1024 threads a trip). Else the block runs each trip.
            self.per_warp = Some(true);
            // info: gang per warp.
            self.loop_report(note_at).form = FormReport::GangPerWarp;
            quote! {
                let __acc_threads: usize = #dev::block_dim_x() as usize * #dev::block_dim_y() as usize;
                let __acc_nw: usize = __acc_threads / 32;
                if __acc_threads % 32 == 0 && #total_id >= #dev::grid_dim_x() as usize * __acc_nw {
                    let __acc_tid: u32 = #dev::thread_idx_y() * #dev::block_dim_x() + #dev::thread_idx_x();
                    __acc_warps = true;
                    __acc_vtx = __acc_tid % 32;
                    __acc_vbdx = 32;
                    __acc_vty = 0;
                    __acc_vbdy = 1;
                }
                let (__acc_gpart, __acc_gstride): (usize, usize) = if __acc_warps {
                    (#dev::block_idx_x() as usize * __acc_nw + (#dev::thread_idx_y() as usize * #dev::block_dim_x() as usize + #dev::thread_idx_x() as usize) / 32, #dev::grid_dim_x() as usize * __acc_nw)
                } else {
                    (#dev::block_idx_x() as usize, #dev::grid_dim_x() as usize)
                };
                let mut #k = __acc_gpart;
                while #k < #total_id {
                    #bind
                    #body_code
                    #k += __acc_gstride;
                }
            }
        } else {
            // A streaming loop over `threadIdx.x`: chunks of 4 trips a thread, each array of
            // the body moved 4 elements an access (`chunk.rs`).
            match (chunked, &lowered_body) {
                (Some(chunked), Some(b)) => {
                    // info: the chunks, and the lean kernel.
                    self.loop_report(note_at).form = FormReport::Chunks { arrays: chunk::array_names(&chunked), lean: !top };
                    if !top {
                        self.inner_chunks = true;
                    }
                    let parts = chunk::Loop { n, k: &k, bind: &bind, body_code: &body_code, total: &total_id, stride: &stride, start: quote!(#bpart + #tpart) };
                    parts.code_16_bytes(&chunked, b, &[1], plain)
                }
                _ => plain,
            }
        };
        let mut pre = TokenStream::new();
        let mut post = TokenStream::new();
        let mut unreduced = Vec::new();
        self.depth -= 1;
        // info: the reductions' notes follow the loop's own.
        let mut red_at = note_at;
        for (i, (op, v)) in reds.iter().enumerate() {
            let over = lv.union(levels_of(&child_unreduced, v));
            // info: where the reduction is combined.
            let inherited = !(top || d.reduction.iter().any(|r| r.vars.contains(v)));
            if deferred.contains(v) {
                let combine = if top {
                    let over = levels_of(&unreduced, v).union(over);
                    Combine::AtNestEnd(over.worker && self.uses_worker, over.vector)
                } else {
                    Combine::Outer
                };
                red_at += 1;
                let what = Sched::Reduction(RedReport { op: *op, var: v.clone(), inherited, combine });
                self.notes.insert(red_at, SchedNote { line: info::loop_line(f), depth: self.depth + 1, what });
                if warp_workers && !over.vector {
                    // A worker's lanes hold equal copies, and a worker is a warp or a row of
                    // the block: the first lane keeps the value, the others the identity, and
                    // the copies are combined over both levels.
                    let ops = op_path(*op);
                    post.extend(quote!(if __acc_vtx != 0 { #v = #ops.identity(&#v); }));
                    unreduced.push((v.clone(), Levels { vector: true, ..over }));
                } else {
                    unreduced.push((v.clone(), over));
                }
                continue;
            }
            red_at += 1;
            let what = Sched::Reduction(RedReport { op: *op, var: v.clone(), inherited, combine: Combine::Here(over.worker && self.uses_worker, over.vector) });
            self.notes.insert(red_at, SchedNote { line: info::loop_line(f), depth: self.depth + 1, what });
            let ops = op_path(*op);
            let orig = format_ident!("__acc_orig{}_{}", n, i);
            let mut combined = self.combined(*op, v, over);
            if warp_workers {
                // A warp's lanes hold equal copies unless the vector loops inside left them
                // partial values: the first lane's copy of each warp, or every lane's partial.
                let by_warps = self.first_threads_combined(*op, v, over);
                combined = quote!(if #warps_id #by_warps else { #combined });
            }
            pre.extend(quote!(let #orig = #v; #v = #ops.identity(&#v);));
            post.extend(quote!(#v = #ops.combine(#orig, #combined);));
        }
        let code = quote! {{
            #setup
            let #total_id: usize = #total_expr;
            #pre
            #virt_on
            { #looped }
            #post
            #virt_off
        }};
        Some(Lowered { code, levels: lv, inner_par, unreduced })
    }

    /// A worker loop's trips in rounds of [`Scheduler::unrolled`]'s size (pairs), for the lean
    /// kernel without index checks, while every thread has a trip in each step of the round
    /// (the loop is uniform: `base` is the same in all its threads). Where the body is one vector
    /// loop whose header does not name the worker loop's variables `vars`, with no reduction
    /// and no parallel loop inside, that loop runs the round's trips together: each of its
    /// trips runs the body once for each, every read of a read-only array first
    /// (`loads.rs`). Under a gang per warp a worker loop runs its trips one at a time in a warp
    /// (the papers' gang position: 2 trips of 32 lanes each gang), one load in flight a
    /// thread; its pairs took the kernel from 0.67 to 0.93 of its bound on an H200 (hand-made
    /// in `benches/results/jam-h200/` as of f98ec92). Returns the code, which advances `base`.
    fn paired_trips(&mut self, body: &syn::Block, ctx: &Ctx, vars: &[Ident], n: usize, l: &RoundLoop) -> Option<TokenStream> {
        let [Stmt::Expr(Expr::ForLoop(fl), _)] = body.stmts.as_slice() else { return None };
        if !self.is_parallel(fl) || self.holds_parallel(&fl.body) {
            return None;
        }
        let d = self.directive(fl)?;
        if !d.reduction.is_empty() || ctx.reds.iter().any(|(_, v)| block_assigns(&fl.body, v)) || vars.iter().any(|v| block_assigns(&fl.body, v)) {
            return None;
        }
        // (Nor does it name its own variable as one of theirs: each body binds theirs.)
        let (headers, _) = loops::directive_nest(fl, &d)?;
        if headers.iter().any(|h| vars.contains(&h.var) || vars.iter().any(|v| h.mentions(v))) {
            return None;
        }
        let u = self.unroll;
        let trips: Vec<Ident> = (0..u).map(|c| format_ident!("__acc_pair{}_{}", n, c)).collect();
        // (The body declares no group locals, and a jammed loop stages no windows: the loop
        // keeps the shared memory's end the worker loop's body starts from.)
        let jam = Ctx { jam: Some(Jam { vars: vars.to_vec(), trips: trips.clone() }), ..ctx.clone() };
        // (The loop was lowered once already: its notes are not written twice.)
        let (notes, depth) = (self.notes.len(), self.depth);
        let lowered = self.lower_loop(fl, &jam, false, &[]);
        self.notes.truncate(notes);
        self.depth = depth;
        let lowered = lowered.filter(|x| x.unreduced.is_empty())?;
        let code = lowered.code;
        let RoundLoop { k, bind, total, tpart, stride, base, .. } = l;
        let values = trips.iter().enumerate().map(|(c, t)| quote!(let #t = { let #k: usize = #base + #c * #stride + #tpart; #bind (#(#vars,)*) };));
        Some(quote! {
            while #base + #u * #stride <= #total {
                #(#values)*
                #code
                #base += #u * #stride;
            }
        })
    }

    /// Rounds of several trips of a worker loop that may run a worker per warp (`warp_workers`
    /// in `lower_loop`), each round's loads issued before any of its trips computes or stores:
    /// where the body is updates of the loop's reductions (reading arrays at indices of names the
    /// body does not change) followed by one vector loop (one variable, step 1, no reduction)
    /// whose body reaches arrays only as `a[e + i]` (`chunk::arrays`). A thread runs rounds
    /// where each of its trips' vector loops has at most one trip a lane and every element it
    /// reads or writes lies in its array; each index is kept as one start and one step (as
    /// `chunk.rs` keeps one start per array: the papers' worker kernel spilled with an index a
    /// trip).
    ///
    /// Counted rounds, where the loop spreads one variable, every index is affine in it
    /// ([`degree`]) and the vector loop's bounds do not name it: each thread computes its
    /// indices at its first trip and the next trip of the loop, and checks once that each runs
    /// inside its array from its first trip to the loop's last (`elem_run_fits`: no division);
    /// then rounds of 8, 4 and 2 trips ([`worker_round_sizes`]) run with one compare each, and
    /// a thread whose check fails runs none. Otherwise each round of 4, then 2 checks its own
    /// trips' indices and their spacing, until one fails. The loop after the rounds runs the
    /// rest, one trip at a time as written. Returns the code, which advances `base`, and the
    /// report's words.
    fn worker_rounds(&mut self, stmts: &[Stmt], reds: &[(RedOp, Ident)], l: &RoundLoop) -> Option<(TokenStream, RoundsReport)> {
        let dev = DEV();
        let (last, updates) = stmts.split_last()?;
        let Stmt::Expr(Expr::ForLoop(fl), _) = last else { return None };
        if !self.is_parallel(fl) || self.holds_parallel(&fl.body) {
            return None;
        }
        let red_names: Vec<&Ident> = reds.iter().map(|r| &r.1).collect();
        // The updates: `v op= e` / `v = e` of a reduction variable, `e` without control flow or
        // memory writes; their array reads (parameters, at indices of names the body does not
        // change) are hoisted.
        let arrays: Vec<Ident> = self.stageable.iter().chain(self.mut_slices).cloned().collect();
        let mut reads: Vec<Vec<(Ident, Expr)>> = Vec::new();
        for s in updates {
            let Stmt::Expr(e, Some(_)) = s else { return None };
            let (left, right) = match e {
                Expr::Assign(a) => (&*a.left, &*a.right),
                Expr::Binary(b) if crate::front::loops::is_compound_assign(&b.op) => (&*b.left, &*b.right),
                _ => return None,
            };
            let Expr::Path(p) = left else { return None };
            if !red_names.iter().any(|v| p.path.is_ident(*v)) || self.effect(s).memory {
                return None;
            }
            let mut found = Vec::new();
            if !hoistable(right, &arrays, &red_names, &mut found) {
                return None;
            }
            reads.push(found);
        }
        // The vector loop: one variable, step 1, no reduction, its body chunkable.
        let d = self.directive(fl)?;
        if !d.reduction.is_empty() || red_names.iter().any(|v| block_assigns(&fl.body, v)) {
            return None;
        }
        let (headers, body) = loops::directive_nest(fl, &d)?;
        if headers.len() != 1 || headers[0].step.is_some() {
            return None;
        }
        let (lo, hi) = (&headers[0].lo, &headers[0].hi);
        if red_names.iter().any(|v| chunk::mentions(quote!(#lo #hi), v)) {
            return None;
        }
        let b = (self.body_of)(&body);
        let vec_arrays = chunk::arrays(&b, &headers[0].var, &arrays, self.mut_slices)?;
        self.chunked = true;
        let vn = self.fresh();
        let loops::NestSpace { setup: vsetup, total: vtotal, bind: vbind } = loops::normalise_nest(&headers, vn, &quote!(#dev::idx));
        let RoundLoop { k, var, bind, total, tpart, stride, base } = l;
        let (lane, lanes) = (quote!((__acc_vtx as usize)), quote!((__acc_vbdx as usize)));
        // The distinct index expressions: the vector body's (in its trip, with `i` bound), then
        // the updates' (with the worker loop's variables bound). `vix`/`six`: each access's.
        let text = |e: &Expr| quote::ToTokens::to_token_stream(e).to_string();
        let mut vexprs: Vec<&Expr> = Vec::new();
        let vix: Vec<usize> = vec_arrays.iter().map(|a| distinct(&mut vexprs, &a.index, &text)).collect();
        let mut sexprs: Vec<&Expr> = Vec::new();
        let six: Vec<usize> = reads.iter().flatten().map(|(_, e)| distinct(&mut sexprs, e, &text)).collect();
        let nv = vexprs.len();
        let firsts: Vec<Ident> = (0..nv + sexprs.len()).map(|m| format_ident!("__acc_e{}_{}", vn, m)).collect();
        let steps: Vec<Ident> = (0..nv + sexprs.len()).map(|m| format_ident!("__acc_d{}_{}", vn, m)).collect();
        let at = |m: usize, u: usize| {
            let (e, d) = (&firsts[m], &steps[m]);
            quote!(#e.wrapping_add(#d.wrapping_mul(#u)))
        };
        // Counted rounds: every index affine in the loop's variable (`degree`) and the vector
        // loop's bounds not naming it, so one check per thread, before the rounds, covers all
        // its trips (each index runs evenly from its first trip to the loop's last), and a
        // round is one compare. Else each round checks its own trips (`checked` below).
        let counted = var.filter(|v| {
            !chunk::mentions(quote!(#lo #hi), v) && vexprs.iter().chain(&sexprs).all(|e| degree(e, v).is_some())
        });
        // This trip's indices at worker trip `at`: the updates', the vector trip count, whether
        // this lane has a vector trip, the vector trip's.
        let es: Vec<Ident> = (0..firsts.len()).map(|m| format_ident!("__acc_x{}", m)).collect();
        let (ves, ses) = es.split_at(nv);
        let (vx, sx) = (&vexprs, &sexprs);
        let indices = |at: TokenStream| {
            quote! {
                let #k: usize = #at;
                #bind
                #(let #ses: usize = #sx;)*
                #vsetup
                let __acc_vt: usize = #vtotal;
                let __acc_g: bool = #lane < __acc_vt;
                let #k: usize = #lane;
                #vbind
                #(let #ves: usize = #vx;)*
            }
        };
        // Trip `u` of a round: the loads (the updates' elements, then the vector trip's), and
        // the trip (the updates on the loaded elements, then the vector trip where `g`).
        let mut trip = |u: usize, g: &Ident| -> (TokenStream, TokenStream) {
            let mut loads = TokenStream::new();
            let ys: Vec<Ident> = (0..six.len()).map(|m| format_ident!("__acc_y{}_{}_{}", vn, u, m)).collect();
            for (((a, _), &m), y) in reads.iter().flatten().zip(&six).zip(&ys) {
                let i = at(nv + m, u);
                // SAFETY (device code): inside the array (checked before the round).
                loads.extend(quote!(let #y = unsafe { #a.elem_load(#i) };));
            }
            let held: Vec<Ident> = (0..vec_arrays.len()).map(|j| format_ident!("__acc_h{}_{}_{}", vn, u, j)).collect();
            for ((a, &m), h) in vec_arrays.iter().zip(&vix).zip(&held) {
                if a.read {
                    let (name, i) = (&a.name, at(m, u));
                    // SAFETY (device code): inside the array where the lane has a trip (checked before the round).
                    loads.extend(quote!(let #h = if #g { ::core::mem::MaybeUninit::new(unsafe { #name.elem_load(#i) }) } else { ::core::mem::MaybeUninit::uninit() };));
                }
            }
            let mut next = ys.iter();
            let ups: Vec<TokenStream> = updates
                .iter()
                .zip(&reads)
                .map(|(s, rs)| {
                    let by: Vec<Ident> = next.by_ref().take(rs.len()).cloned().collect();
                    let mut s = s.clone();
                    replace_reads(&mut s, &arrays, &by);
                    self.one_thread(&s)
                })
                .collect();
            let mut slots = TokenStream::new();
            let mut stores = TokenStream::new();
            for (j, ((a, &m), h)) in vec_arrays.iter().zip(&vix).zip(&held).enumerate() {
                let s = chunk::slot(vn, j, 0);
                if a.read {
                    // SAFETY: loaded where the lane has a trip, which is where this runs.
                    slots.extend(quote!(let mut #s = unsafe { #h.assume_init() };));
                } else {
                    slots.extend(quote!(let mut #s;));
                }
                if a.written {
                    let (name, i) = (&a.name, at(m, u));
                    // SAFETY (device code): inside the array (checked before the round); the trips are independent.
                    stores.extend(quote!(unsafe { #name.elem_store(#i, #s) };));
                }
            }
            let vbody = chunk::trip_body(&b, &vec_arrays, vn, 0);
            let vstmts = &vbody.stmts;
            let code = quote! {{
                let #k: usize = #base + #tpart + #u * #stride;
                #bind
                #(#ups)*
                if #g {
                    #vsetup
                    let #k: usize = #lane;
                    #vbind
                    #slots
                    #(#vstmts)*
                    #stores
                }
            }};
            (loads, code)
        };
        let mut code = TokenStream::new();
        let note;
        if let Some(v) = counted {
            let g = format_ident!("__acc_g{}", vn);
            let sizes = worker_round_sizes();
            // Rounds of more than 4 trips only where every array's elements are 4 bytes or
            // less (the test is on the types, so it folds away): on an H100 the papers' worker
            // position (2 gangs) went from 6.4 to 3.2 ms for `int` with rounds of 8, but from
            // 6.8 to 10.6 ms for `double`, which rounds of 4 took to 5.7 ms.
            let names: Vec<&Ident> = vec_arrays.iter().map(|a| &a.name).chain(reads.iter().flatten().map(|(a, _)| a)).collect();
            for &r in &sizes {
                let (loads, trips): (Vec<TokenStream>, Vec<TokenStream>) = (0..r).map(|u| trip(u, &g)).unzip();
                let small = if r > 4 { quote!(true #(&& #names.chunk_elem_size() <= 4)*) } else { quote!(true) };
                code.extend(quote! {
                    while #small && #base + #r * #stride <= __acc_wend {
                        #(#loads)*
                        #(#trips)*
                        #(#firsts = #firsts.wrapping_add(#steps.wrapping_mul(#r));)*
                        #base += #r * #stride;
                    }
                });
            }
            let vfits = vec_arrays.iter().zip(&vix).map(|(a, &m)| {
                let (name, f, d) = (&a.name, &firsts[m], &steps[m]);
                quote!(&& #name.elem_run_fits(#f, #d, __acc_span))
            });
            let sfits = reads.iter().flatten().zip(&six).map(|((a, _), &m)| {
                let (f, d) = (&firsts[nv + m], &steps[nv + m]);
                quote!(&& #a.elem_run_fits(#f, #d, __acc_span))
            });
            let (first_trip, next_trip) = (indices(quote!(__acc_t0)), indices(quote!(__acc_t0 + 1)));
            // Two trips this thread has (`base + 2 * stride <= total`) give each index's start and
            // step: `__acc_t0 + 1` is a trip of the loop, so the indices are computed only where
            // the loop computes them.
            code = quote! {
                if #base + 2 * #stride <= #total {
                    let __acc_t0: usize = #base + #tpart;
                    let (__acc_vt0, #g, #(#firsts,)*) = { #first_trip (__acc_vt, __acc_g, #(#es,)*) };
                    let (#(#steps,)*) = { #next_trip (#(#es.wrapping_sub(#firsts),)*) };
                    // Every trip from this thread's first to the loop's last.
                    let __acc_span: usize = #total - 1 - __acc_t0;
                    let __acc_wend: usize = if __acc_vt0 <= #lanes && (!#g || (true #(#vfits)*)) #(#sfits)* { #total } else { #base };
                    #(let #steps: usize = #steps.wrapping_mul(#stride);)*
                    #(let mut #firsts: usize = #firsts;)*
                    #code
                }
            };
            note = RoundsReport::Counted { sizes, arrays: chunk::array_names(&vec_arrays), var: v.clone() };
        } else {
            for r in [4usize, 2] {
                let gs: Vec<Ident> = (0..r).map(|u| format_ident!("__acc_g{}_{}", vn, u)).collect();
                let oks: Vec<Ident> = (0..r).map(|u| format_ident!("__acc_ok{}_{}", vn, u)).collect();
                let mut checks = TokenStream::new();
                let mut loads = TokenStream::new();
                let mut trips = TokenStream::new();
                for u in 0..r {
                    let (g, ok) = (&gs[u], &oks[u]);
                    // This trip's indices, where each lies, and whether it is the round's first
                    // plus `u` steps (the first two trips set the start and the step).
                    let vfits = vec_arrays.iter().zip(&vix).map(|(a, &m)| {
                        let (name, e) = (&a.name, &ves[m]);
                        quote!(&& #name.elem_fits(#e))
                    });
                    let sfits = reads.iter().flatten().zip(&six).map(|((a, _), &m)| {
                        let e = &ses[m];
                        quote!(&& #a.elem_fits(#e))
                    });
                    let spaced: Vec<TokenStream> = (0..es.len())
                        .map(|m| {
                            let (e, want) = (&es[m], at(m, u));
                            quote!(&& #e == #want)
                        })
                        .collect();
                    let trip_indices = indices(quote!(#base + #tpart + #u * #stride));
                    let trip_ok = quote!(__acc_vt <= #lanes && (!__acc_g || (true #(#vfits)*)) #(#sfits)*);
                    match u {
                        0 => checks.extend(quote! {
                            let (#ok, #g, #(#firsts,)*) = { #trip_indices (#trip_ok, __acc_g, #(#es,)*) };
                        }),
                        1 => checks.extend(quote! {
                            let (#ok, #g, #(#steps,)*) = { #trip_indices (#trip_ok, __acc_g, #(#es.wrapping_sub(#firsts),)*) };
                        }),
                        _ => checks.extend(quote! {
                            let (#ok, #g) = { #trip_indices (#trip_ok #(#spaced)*, __acc_g) };
                        }),
                    }
                    let (l, t) = trip(u, g);
                    loads.extend(l);
                    trips.extend(t);
                }
                // A round that fails its check leaves the rest to the loop after the rounds (the
                // trips one at a time, as written): a copy of that loop here, chunked vector loop
                // and all, spilled the papers' gang worker kernel (0.26 -> 0.45 ms on an H100).
                code.extend(quote! {
                    while #base + #r * #stride <= #total {
                        #checks
                        if !(true #(&& #oks)*) {
                            break;
                        }
                        #loads
                        #trips
                        #base += #r * #stride;
                    }
                });
            }
            note = RoundsReport::Checked { arrays: chunk::array_names(&vec_arrays) };
        }
        // (The loop's trips meet no barrier: the threads need not leave the rounds together.)
        Some((quote!({ use ::acc_device::chunk::{Chunks as _, ChunksMut as _}; #code }), note))
    }

    /// Whether the reduction `(op, v)` of the loop whose body is `stmts` can be left
    /// unfinished by the parallel loops of that body: every statement that names `v` is a
    /// parallel loop that reduces `v` with `op` (its own clause, or none and it updates `v`).
    /// Then no code of the body reads `v` between them, and one combination at the end of the
    /// enclosing loop, over all the levels at once, gives the same value (OpenUH's placement of
    /// the reduction at the outermost position; Table 2's gang-worker-vector row).
    fn deferrable(&self, stmts: &[Stmt], op: RedOp, v: &Ident) -> bool {
        stmts.iter().all(|s| {
            if !loops::stmt_mentions(s, v) {
                return true;
            }
            let Stmt::Expr(Expr::ForLoop(fl), _) = s else { return false };
            if !self.is_parallel(fl) {
                return false;
            }
            let d = self.directive(fl).unwrap_or_default();
            match d.reduction.iter().find(|r| r.vars.contains(v)) {
                Some(r) => r.op == op,
                None => block_assigns(&fl.body, v),
            }
        })
    }

    /// The statements of a body that runs redundantly in a group of threads (see the module
    /// docs).
    /// `unreduced` collects, for the reductions of `ctx.mine` that loops of the body leave
    /// unfinished, the levels their partial values differ over.
    fn lower_body(&mut self, stmts: &[Stmt], ctx: &Ctx, unreduced: &mut Vec<(Ident, Levels)>) -> Option<TokenStream> {
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
        let lead = Leader { x: rx, y: ry };
        let depth = self.depth;
        let mut out = TokenStream::new();
        // Where this body's group locals start in shared memory: after the enclosing bodies'.
        let end = format_ident!("__acc_shared_end{}", self.fresh());
        let start = ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
        out.extend(quote!(let mut #end: usize = #start;));
        let ctx = &Ctx { shared_end: Some(end.clone()), ..ctx.clone() };
        for (i, stmt) in stmts.iter().enumerate() {
            let more = i + 1 < stmts.len();
            // (A `continue` in a statement that holds parallel loops is refused below.)
            let skipping = if self.holds_parallel_stmt(stmt) { None } else { self.skip_rest(stmt) };
            if let Some(rewritten) = skipping {
                // `continue` in this statement: it sets a flag instead (leaving the statement
                // through a labelled block), and the rest of the body runs where the flag is
                // clear. The body runs in the whole block on one trip (checked by the loop),
                // so the flag is the same in every thread and the barriers still meet.
                let (flag, lowered) = rewritten;
                out.extend(quote!(let mut #flag = false;));
                // info: the flag.
                self.note(info::line_of(stmt.span()), depth, Sched::ContinueFlag(group));
                self.line_override = Some(info::line_of(stmt.span()));
                let first = self.lower_body(&[lowered], ctx, unreduced);
                self.line_override = None;
                out.extend(first?);
                let rest = self.lower_body(&stmts[i + 1..], ctx, unreduced)?;
                out.extend(quote!(if !#flag { #rest }));
                return Some(out);
            }
            match stmt {
                Stmt::Item(_) => out.extend(quote!(#stmt)),
                Stmt::Local(l) => {
                    let init = l.init.as_ref().map(|i| Expr::clone(&i.expr));
                    if let Some(e) = &init {
                        if self.holds_parallel_expr(e) || self.effect(&Stmt::Expr(e.clone(), None)).memory {
                            self.errors.error(l.span(), "on the GPU, a `let` run once per gang or worker must not write memory or hold acc loops: write it as its own statement");
                            return None;
                        }
                    }
                    // A local that parallel loops of this body write is the group's
                    // (OpenACC 3.3 §2.9): one copy in shared memory, not one per thread.
                    let written = pat_ident(&l.pat).filter(|n| (rx || ry) && stmts[i + 1..].iter().any(|s| self.holds_parallel_stmt(s) && writes_into(s, n)));
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
                            out.extend(self.one_thread(&first));
                            out.extend(quote!(let #n = #dev::group_local(#value, #rx, #ry, &mut #end);));
                            // info: a local of the group in shared memory.
                            self.note(info::line_of(l.span()), depth, Sched::GroupLocal { name: n.clone(), group, leader: lead });
                            self.group_locals.push(n);
                        }
                        (Some(n), None) => {
                            self.errors.error(n.span(), format!("on the GPU, `{n}` is shared by the parallel loops inside this loop and needs an initialiser (`let {n} = [0.0; N];`)"));
                            return None;
                        }
                        (None, _) => {
                            // info: a local every thread keeps.
                            if let Some(n) = pat_ident(&l.pat) {
                                self.note(info::line_of(l.span()), depth, Sched::Local { name: n, group });
                            }
                            out.extend(self.one_thread(stmt))
                        }
                    }
                }
                Stmt::Expr(Expr::ForLoop(fl), _) if self.is_parallel(fl) => {
                    let defer: Vec<Ident> = ctx.mine.iter().filter(|(op, v)| self.deferrable(stmts, *op, v)).map(|r| r.1.clone()).collect();
                    let l = self.lower_loop(fl, ctx, false, &defer)?;
                    for (v, lv) in &l.unreduced {
                        merge_levels(unreduced, v, *lv);
                    }
                    out.extend(l.code);
                    if more && self.effect(stmt).memory {
                        // info: the barrier between phases.
                        self.note(info::loop_line(fl), depth, Sched::BarrierAfterLoop { line: info::loop_line(fl), group });
                        out.extend(quote!(#dev::sync_threads_checked();));
                    }
                }
                Stmt::Expr(Expr::ForLoop(fl), _) if self.holds_parallel(&fl.body) && (ctx.used.worker || ctx.used.vector) => {
                    // Its trip count may differ between the workers or lanes, and the loops
                    // inside meet at barriers.
                    self.errors.error(fl.span(), "on the GPU, a sequential loop around parallel loops inside a worker or vector loop is not supported yet");
                    return None;
                }
                Stmt::Expr(Expr::ForLoop(fl), _) if self.holds_parallel(&fl.body) => {
                    // A sequential loop around parallel ones: every thread takes its trips.
                    // Reductions are finished inside a sequential loop's trips (no deferral
                    // through it: the statement names the variable).
                    let inner = Ctx { mine: Vec::new(), ..ctx.clone() };
                    // info: a sequential loop around parallel loops.
                    self.note(info::loop_line(fl), depth, Sched::SequentialAround(group));
                    self.depth += 1;
                    let body = self.lower_body(&fl.body.stmts, &inner, &mut Vec::new())?;
                    self.depth -= 1;
                    let (label, pat, expr) = (&fl.label, &fl.pat, &fl.expr);
                    // (A barrier ends each trip, as in a parallel loop's trips above.)
                    out.extend(quote!(#label for #pat in #expr { #body #dev::sync_threads(); }));
                }
                Stmt::Expr(Expr::If(i), _) if self.holds_parallel_expr(&Expr::If(i.clone())) && !ctx.used.worker && !ctx.used.vector => {
                    // info: a branch of the gang.
                    self.note(info::line_of(i.span()), depth, Sched::GangIf);
                    self.depth += 1;
                    out.extend(self.branch(i, ctx)?);
                    self.depth -= 1;
                    if more && self.effect(stmt).memory {
                        self.note(info::line_of(i.span()), depth, Sched::BarrierAfterIf);
                        out.extend(quote!(#dev::sync_threads_checked();));
                    }
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
                _ => {
                    let lowered = self.one_thread(stmt);
                    let eff = self.effect(stmt);
                    if eff.memory {
                        // Only the leader runs it: a jump out of it would leave the group's
                        // other threads behind (a `continue` of this body is a flag, see
                        // `skip_rest`, and comes back to all of them).
                        if let Some(span) = jumps(std::slice::from_ref(stmt)).leaves_stmt {
                            self.errors.error(span, "on the GPU, this statement writes memory, so one thread of the gang or worker runs it and the others wait: it cannot `break` or `return` out of the loop around it; set a flag in it and test the flag after it");
                            return None;
                        }
                        out.extend(quote!(if #leader { #lowered }));
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
                        let leader = (rx || ry).then_some(lead);
                        self.note(line, depth, Sched::Leader { group, leader, then });
                    } else if let Some(g) = &guard {
                        out.extend(quote!(if #g { #lowered }));
                    } else {
                        out.extend(lowered);
                    }
                }
            }
        }
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
    fn note_sequential_loops(&mut self, body: &syn::Block) {
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
            self.note(line, self.depth, what);
        }
    }

    /// info: an entry of the report.
    fn note(&mut self, line: usize, depth: usize, what: Sched) {
        self.notes.push(SchedNote { line, depth, what });
    }

    /// info: the report of the loop whose entry is at `at`.
    fn loop_report(&mut self, at: usize) -> &mut LoopReport {
        match &mut self.notes[at].what {
            Sched::Loop(r) => r,
            _ => unreachable!("a loop's entry"),
        }
    }

    /// `stmt` lowered for one thread (inner acc loops in order, `atomic!`, `cache!`).
    fn one_thread(&mut self, stmt: &Stmt) -> TokenStream {
        let b = (self.body_of)(&syn::Block { brace_token: Default::default(), stmts: vec![stmt.clone()] });
        let stmts = b.stmts;
        quote!(#(#stmts)*)
    }

    /// Whether `s` is or holds a parallel loop.
    fn holds_parallel_stmt(&self, s: &Stmt) -> bool {
        let b = syn::Block { brace_token: Default::default(), stmts: vec![s.clone()] };
        self.holds_parallel(&b)
    }

    fn holds_parallel_expr(&self, e: &Expr) -> bool {
        let b = syn::Block { brace_token: Default::default(), stmts: vec![Stmt::Expr(e.clone(), None)] };
        self.holds_parallel(&b)
    }

    /// What `stmt` writes: memory (slice elements, atomics, routines given a `&mut` slice),
    /// and the variables declared outside it that it assigns.
    fn effect(&self, stmt: &Stmt) -> Effect {
        let declared = syntax::inner_decls(&syn::Block { brace_token: Default::default(), stmts: vec![stmt.clone()] });
        let mut v = EffectFinder { mut_slices: self.mut_slices, group_locals: &self.group_locals, declared: &declared, out: Effect::default() };
        v.visit_stmt(stmt);
        v.out
    }
}

#[derive(Default)]
struct Effect {
    memory: bool,
    assigned: Vec<Ident>,
}

struct EffectFinder<'a> {
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
fn pat_ident(p: &syn::Pat) -> Option<Ident> {
    match p {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.clone()),
        syn::Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// Whether `s` writes into the local `n`: an element or field (`n[i] = ..`, `n.x += ..`), or
/// through `&mut n..`.
fn writes_into(s: &Stmt, n: &Ident) -> bool {
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
fn place_root(e: &Expr) -> (Option<Ident>, bool) {
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
fn is_acc_label(l: &syn::Lifetime) -> bool {
    l.ident.to_string().starts_with("__acc_")
}

/// A `continue` or `break` in `b` that leaves the body (not one of a loop inside it).
fn escaping_jump(b: &syn::Block) -> Option<Span> {
    jumps(&b.stmts).loop_exit
}

/// Whether `b` assigns the plain variable `name` (`name = ..`, `name op= ..`).
pub fn block_assigns(b: &syn::Block, name: &Ident) -> bool {
    struct V<'a>(&'a Ident, bool);
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            if matches!(&*a.left, Expr::Path(p) if p.path.is_ident(self.0)) {
                self.1 = true;
            }
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if loops::is_compound_assign(&b.op) && matches!(&*b.left, Expr::Path(p) if p.path.is_ident(self.0)) {
                self.1 = true;
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(name, false);
    v.visit_block(b);
    v.1
}

/// `body` with each reference `a[i + c]` to a staged window read from its place in shared
/// memory (`wins`): element `wx + c - lo` of the window (`wx` the point's place in the trip,
/// `__acc_wx`), after the slice's own
/// bounds check on the index (so that an index past the array panics as it does on the host).
/// The references were proved inside the windows by `cache::check_references`.
fn cached_reads(body: &syn::Block, staged: &[crate::front::cache::Moving], wins: &[Ident], checked: bool) -> syn::Block {
    struct R<'s> {
        staged: &'s [crate::front::cache::Moving],
        wins: &'s [Ident],
        checked: bool,
    }
    impl VisitMut for R<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let Expr::Index(ix) = e {
                if let Expr::Path(p) = &*ix.expr {
                    if let Some(j) = self.staged.iter().position(|w| p.path.is_ident(&w.array)) {
                        let w = &self.staged[j];
                        if let Some(c) = crate::front::cache::offset_of(&ix.index, &w.var).filter(|c| (w.lo..=w.hi).contains(c)) {
                            let (win, idx) = (&self.wins[j], &ix.index);
                            let slot = (c - w.lo) as usize;
                            let span = ix.index.span();
                            if !self.checked {
                                // The trip's whole windows lie inside their arrays
                                // (`window_inside`), so this reference does.
                                *e = syn::parse_quote_spanned! {span=> {
                                    // SAFETY: as below.
                                    unsafe { *#win.add(__acc_wx + #slot) }
                                }};
                                return;
                            }
                            // The reference's check, as the host makes it: acc-build writes
                            // `a[i]` as `a[ix(i, LINE, COL)]` with the user's line and column
                            // of this `a` (`scan::InlineBounds`), which a panic reports however
                            // far right the printer puts this copy of the body.
                            let arr = &ix.expr;
                            *e = syn::parse_quote_spanned! {span=> {
                                let _ = &#arr[#idx];
                                // SAFETY: the window holds `m * blockDim.x + span` elements
                                // and this point's `wx + c - lo` is below that (`wx < m *
                                // blockDim.x`, `c` was proved in `lo..=hi`); a barrier
                                // followed the fetch.
                                unsafe { *#win.add(__acc_wx + #slot) }
                            }};
                            return;
                        }
                    }
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
    }
    let mut b = body.clone();
    R { staged, wins, checked }.visit_block_mut(&mut b);
    b
}

/// Whether every staged window of the trip whose loop variable holds its value lies inside its
/// array: `var + lo` neither wraps below 0 nor passes `var + hi`, and `var + hi` is below the
/// array's length. Then every reference `cached_reads` rewrote (`var + c`, `lo <= c <= hi`) is
/// inside its array, and the trip's body reads the windows without checking each reference.
/// `at`: the variable's value to test (a `usize` expression), else the variable's own.
fn window_inside(staged: &[crate::front::cache::Moving], at: Option<&TokenStream>) -> TokenStream {
    let tests = staged.iter().map(|w| {
        let (a, v) = (&w.array, &w.var);
        let lo = proc_macro2::Literal::i64_suffixed(w.lo);
        let hi = proc_macro2::Literal::i64_suffixed(w.hi);
        let value = at.cloned().unwrap_or_else(|| quote!(#v as usize));
        quote! {{
            let __acc_v: usize = #value;
            let (__acc_lo, __acc_hi) = (__acc_v.wrapping_add((#lo) as usize), __acc_v.wrapping_add((#hi) as usize));
            __acc_lo <= __acc_hi && __acc_hi < #a.len() && (#lo >= 0 || __acc_lo < __acc_v) && (#hi <= 0 || __acc_hi > __acc_v)
        }}
    });
    quote!(true #(&& #tests)*)
}

/// A worker loop's pieces its rounds (`Scheduler::worker_rounds`) are written from.
struct RoundLoop<'a> {
    k: &'a Ident,
    /// The loop's variable, where it spreads one loop (not a `collapse` nest).
    var: Option<&'a Ident>,
    bind: &'a TokenStream,
    total: &'a Ident,
    tpart: &'a TokenStream,
    stride: &'a TokenStream,
    base: &'a Ident,
}

/// Trips per round of a worker loop's counted rounds (`Scheduler::worker_rounds`), largest
/// first, then rounds of 4 and 2. `ACC_EXP_WROUND=R` sets the first size, for A/B runs on the
/// GPU (`scripts/gpu-ab.sh`).
fn worker_round_sizes() -> Vec<usize> {
    let first = experiment_size("ACC_EXP_WROUND", 2..=32, 8);
    let mut sizes = vec![first];
    sizes.extend([4, 2].into_iter().filter(|&r| r < first));
    sizes
}

/// Chunks per round of a chunked reduction loop inside a nest (`chunk::Loop::code_16_bytes`):
/// 12, 4, 2, then 1. On an H100 the papers' vector position (2 blocks of 1024 threads, rows of
/// 1M) ran at 0.60-0.63 of its bound with rounds of 4 first, 0.66-0.71 with 8, 0.80-0.87 with
/// 12 (`int` 1.06 -> 0.77 ms, `double` 2.14 -> 1.51 ms) and 0.79-0.92 with 16, which took the
/// bench's Table 2 vector nest to 0.88 of nvcc once; rounds of 8 between 12 and 4 gained
/// nothing (`benches/results/worker-counted-h100/` as of 53506e7). `ACC_EXP_VROUND=R` sets the first size (5
/// to 16), for A/B runs.
fn reduction_chunk_rounds() -> Vec<usize> {
    let first = experiment_size("ACC_EXP_VROUND", 5..=16, 12);
    [first, 4, 2, 1].to_vec()
}

/// The waves of blocks a streaming loop of the whole grid may launch (`Geometry::waves`),
/// each thread's trips a grid stride apart. One wave held too few loads in flight: on an H100
/// (one call, each variant twice) 8 waves took a 3-point stencil on 2^26 `f32`s from 0.385 to
/// 0.26 ms (nvcc's kernel of one point a thread: 0.24), its 9-point form from 0.350 to 0.30
/// (0.26), the same with a `cache!` window from 0.38 to 0.33, and `copy_f32` from 0.91-0.93 to
/// 0.95-0.97 of nvcc. Bands of consecutive trips a block (as 2-D nests take, `grid.rs`) gained
/// nothing more there; 4 waves gained less. A gang loop over a vector loop, the bench's
/// `rowsum_f64` (8192 rows, 8 a block on one wave), went from 0.93-0.95 to 0.97-0.98 of nvcc's
/// kernel of a block a row (4 waves: 0.96); Heat2D's step and the papers' shapes stayed.
const STREAM_WAVES: usize = 8;

/// The waves of blocks a streaming loop that takes chunks may launch: as many as give each
/// thread one chunk (4 trips; 2 of 8-byte elements), up to this many waves, past which each
/// thread takes more chunks a grid stride apart. On an H200, CUDA events around 50M `f32`s
/// copied by acc's `copy_f32` kernel (one 16-byte chunk a trip; median of 41, four rounds):
/// 102.0-102.6 us on 8 waves, 100.8-101.3 on 16, 99-100 for a hand-written `float4` copy of a
/// chunk a thread (46 waves), against `cudaMemcpy`'s 102.3-103.5 (`benches/README.md`, "A
/// thread per chunk").
const CHUNK_WAVES: usize = 128;

/// The size an experiment switch `name` sets where it holds a number in `allowed` (read where
/// the device code is generated; acc-build reruns when it changes), else `default`.
fn experiment_size(name: &str, allowed: std::ops::RangeInclusive<usize>, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse::<usize>().ok()).filter(|r| allowed.contains(r)).unwrap_or(default)
}

/// How index `e` depends on the loop variable `v`: `Some(0)` not at all, `Some(1)` affinely
/// (`v` through sums, differences, products by factors without it and left shifts by amounts
/// without it: then, in wrapping `usize` arithmetic, `e` at trip `t` is its value at one trip
/// plus a fixed step per trip), `None` otherwise (`v` under a cast, a call, a division or
/// remainder, an element access, ..).
fn degree(e: &Expr, v: &Ident) -> Option<u8> {
    if !chunk::mentions(quote::ToTokens::to_token_stream(e), v) {
        return Some(0);
    }
    match e {
        Expr::Path(p) if p.qself.is_none() && p.path.is_ident(v) => Some(1),
        Expr::Paren(p) => degree(&p.expr, v),
        Expr::Group(g) => degree(&g.expr, v),
        Expr::Binary(b) => {
            let (l, r) = (degree(&b.left, v)?, degree(&b.right, v)?);
            match b.op {
                syn::BinOp::Add(_) | syn::BinOp::Sub(_) => Some(l.max(r)),
                syn::BinOp::Mul(_) => (l + r <= 1).then_some(l + r),
                syn::BinOp::Shl(_) => (r == 0).then_some(l),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The number of `e` among `seen` (by its tokens), added where new.
fn distinct<'e>(seen: &mut Vec<&'e Expr>, e: &'e Expr, text: &dyn Fn(&Expr) -> String) -> usize {
    match seen.iter().position(|x| text(x) == text(e)) {
        Some(m) => m,
        None => {
            seen.push(e);
            seen.len() - 1
        }
    }
}

/// Whether `e` (the value of a reduction's update) has no control flow, jump or macro, and reads
/// arrays only as `a[idx]` of an array parameter in `arrays` with `idx` arithmetic of names
/// (not the reductions' `reds`): such reads may be issued before the trip runs. `found`: the
/// reads, in the order [`replace_reads`] meets them.
fn hoistable(e: &Expr, arrays: &[Ident], reds: &[&Ident], found: &mut Vec<(Ident, Expr)>) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => p.qself.is_none(),
        Expr::Paren(p) => hoistable(&p.expr, arrays, reds, found),
        Expr::Group(g) => hoistable(&g.expr, arrays, reds, found),
        Expr::Cast(c) => hoistable(&c.expr, arrays, reds, found),
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_) | syn::UnOp::Not(_)) && hoistable(&u.expr, arrays, reds, found),
        Expr::Binary(b) => {
            !crate::front::loops::is_compound_assign(&b.op)
                && !matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_))
                && hoistable(&b.left, arrays, reds, found)
                && hoistable(&b.right, arrays, reds, found)
        }
        Expr::MethodCall(m) => m.turbofish.is_none() && hoistable(&m.receiver, arrays, reds, found) && m.args.iter().all(|a| hoistable(a, arrays, reds, found)),
        Expr::Index(ix) => match &*ix.expr {
            Expr::Path(p) if p.qself.is_none() => {
                let Some(a) = p.path.get_ident().filter(|a| arrays.contains(a)) else { return false };
                let idx = &*ix.index;
                if !chunk::pure_offset(idx) || reds.iter().any(|v| chunk::mentions(quote::ToTokens::to_token_stream(idx), v)) {
                    return false;
                }
                found.push((a.clone(), idx.clone()));
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// `s` with each read `a[idx]` of an array in `arrays` (in the order [`hoistable`] found them)
/// replaced by the next of `by`.
fn replace_reads(s: &mut Stmt, arrays: &[Ident], by: &[Ident]) {
    struct R<'a> {
        arrays: &'a [Ident],
        by: std::slice::Iter<'a, Ident>,
    }
    impl VisitMut for R<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let Expr::Index(ix) = e {
                if let Expr::Path(p) = &*ix.expr {
                    if p.path.get_ident().is_some_and(|a| self.arrays.contains(a)) {
                        if let Some(x) = self.by.next() {
                            *e = syn::parse_quote!(#x);
                        }
                        return;
                    }
                }
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    R { arrays, by: by.iter() }.visit_stmt_mut(s);
}

/// Whether lowered code `code` meets a barrier: it calls `sync_threads` or an
/// `acc_device` function that does (the group reductions, broadcasts, group locals) or
/// touches shared memory.
/// Whether `code` uses the block as a whole: barriers, shared memory, block-wide
/// reductions or broadcasts, or the block's own thread indices (a leader's statements).
fn block_level(code: &TokenStream) -> bool {
    code.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => matches!(
            i.to_string().as_str(),
            "sync_threads" | "sync_threads_checked" | "group_reduce" | "group_reduce_var" | "vector_reduce" | "worker_reduce" | "block_reduce" | "block_reduce_var" | "block_reduce_xyz" | "block_reduce_xyz_var" | "broadcast" | "dynamic_shared" | "group_local" | "block_thread_index" | "thread_idx_x" | "thread_idx_y" | "thread_idx_z" | "block_dim_x" | "block_dim_y" | "block_dim_z" | "cache_window" | "cache_fetch" | "cache_store"
        ),
        proc_macro2::TokenTree::Group(g) => block_level(&g.stream()),
        _ => false,
    })
}

fn uses_barriers(code: &TokenStream) -> bool {
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
fn count_mentions(e: &Expr, v: &Ident) -> usize {
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

/// The first partial slot of each reduction variable of `vars`, in order: a variable takes a
/// slot per scalar it holds (one for a scalar, `N` for an array `[T; N]`), so each slot is
/// the count of the scalars before it, `path::red_elems(&v)` of each earlier variable (`path`:
/// `::acc_device` in a kernel, the runtime's on the host, where the variables are in scope).
pub(crate) fn red_slots(path: &TokenStream, vars: &[&Ident]) -> Vec<TokenStream> {
    (0..=vars.len())
        .map(|k| {
            let before = &vars[..k];
            quote!((0usize #(+ #path::red_elems(&#before))*))
        })
        .take(vars.len())
        .collect()
}

/// The partial slots of all the reduction variables of `vars` (see [`red_slots`]).
pub(crate) fn red_slots_total(path: &TokenStream, vars: &[&Ident]) -> TokenStream {
    quote!((0usize #(+ #path::red_elems(&#vars))*))
}

/// The device-side operator value of `op` (`::acc_device::ops::Add`, ...).
pub(crate) fn op_path(op: RedOp) -> TokenStream {
    let t = Ident::new(op.type_name(), Span::call_site());
    quote!(::acc_device::ops::#t)
}

/// Whether `f` is spread over threads: it names a level, is not `seq`, and (in a `kernels`
/// region or under `auto`) is proved independent.
fn is_parallel(f: &ExprForLoop, loops: &LoopDirectives) -> bool {
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
fn uses_worker(f: &ExprForLoop, loops: &LoopDirectives) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn updates_only(body: &str) -> bool {
        let b: syn::Block = syn::parse_str(body).unwrap();
        only_updates(&b, &Ident::new("s", Span::call_site()))
    }

    #[test]
    fn split_copies_only_where_the_body_just_updates_the_variable() {
        assert!(updates_only("{ s += a[i] * b[i]; }"));
        assert!(updates_only("{ s = s.max(a[i]); }"));
        assert!(updates_only("{ if a[i] > 0.0 { s = a[i] + s; } }"));
        // Read for something else, or named twice in one update: one chain, as written.
        assert!(!updates_only("{ s += a[i]; c[i] = s; }"));
        assert!(!updates_only("{ s += s * a[i]; }"));
        assert!(!updates_only("{ s = s * s + a[i]; }"));
        assert!(!updates_only("{ if s > 1.0 { s += a[i]; } }"));
    }

    #[test]
    fn an_index_is_affine_in_the_variable_through_sums_and_invariant_products() {
        let j = Ident::new("j", Span::call_site());
        let d = |e: &str| degree(&syn::parse_str::<Expr>(e).unwrap(), &j);
        for (e, want) in [
            ("(k * nj + j) * ni + i", Some(1)),
            ("n - 1 - j", Some(1)),
            ("(j << 3) + 2 * j", Some(1)),
            ("base + ((nk - j) * 4)", Some(1)),
            ("k * nj + i / 2", Some(0)),
            ("off[k] + a.len() + i", Some(0)),
            ("j * j", None),
            ("j / 2", None),
            ("j % 7", None),
            ("(j as usize) + 1", None),
            ("f(j)", None),
            ("j.min(n)", None),
            ("off[j]", None),
            ("1 << j", None),
        ] {
            assert_eq!(d(e), want, "{e}");
        }
    }

    #[test]
    fn a_trip_meets_a_barrier_where_its_code_calls_one() {
        assert!(!uses_barriers(&quote!({ let __acc_shared_end3: usize = 0; s += a[i]; })));
        assert!(uses_barriers(&quote!({ if x { ::acc_device::sync_threads(); } })));
        assert!(uses_barriers(&quote!(t = ::acc_device::group_reduce(t, 0, |a, b| a + b, true, false, ::acc_device::dynamic_shared());)));
        assert!(uses_barriers(&quote!(let n = ::acc_device::group_local(v, true, true, &mut end);)));
        assert!(uses_barriers(&quote!(v = ::acc_device::broadcast(v, true, false, p);)));
    }
}
