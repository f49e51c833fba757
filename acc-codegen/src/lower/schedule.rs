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
//!
//! The pass in rooms: `plan.rs` decides each loop (`LoopPlan`: its levels, reductions,
//! windows and the form its trips take) and records it for the report, `emit.rs` writes a
//! plan's tokens (deciding only the lean kernel's paired trips, which lower the loop inside
//! again), `body.rs` lowers a body its group of threads shares
//! (leaders, barriers, broadcasts, group locals, refusals), `rounds.rs` the worker rounds and
//! the lean kernel's paired trips, `effects.rs` what code does (memory writes, jumps,
//! barriers), `windows.rs` the staged `cache!` windows. The report's text is written from the
//! recorded entries by `info::schedule`.
//!
//! # The forms of a loop's trips (`plan::Form`)
//! - *Streaming*: a loop with no parallel loop inside, one trip at a time on each thread's
//!   grid-stride, or, where its body reaches arrays only as `a[e + i]`, in chunks of 16 bytes
//!   (`chunk.rs`: 4 trips a thread, 2 where an array has 8-byte elements). A top-level
//!   streaming loop, or a top gang loop over vector loops, that writes nothing per block may
//!   launch up to `STREAM_WAVES` (8) waves of blocks (`Scheduled::waves`, acc-device's
//!   `Shape::waves`); a top streaming loop that takes chunks, a thread a chunk on up to
//!   `CHUNK_WAVES` (128) waves (`Scheduled::top_chunks`, `Shape::chunk`). Other nests launch one.
//! - *Unrolled*: a read-only reduction loop in rounds of `UNROLL` (8) trips for 4-byte values,
//!   else 4, each trip on a copy of its own so that the loads come first; inside a nest, where
//!   the body reaches arrays only as `a[e + i]`, rounds of 12, 4, 2, then 1 chunks of 16 bytes
//!   (`chunk.rs`).
//! - *Uniform*: a loop that holds parallel loops (above); a trip ends with a barrier only where
//!   its body meets one.
//! - *Gang per warp*: a top gang loop whose trips use nothing block-wide gives each warp trips of
//!   its own where it has at least as many trips as the grid has warps, the loops inside on the
//!   warp's 32 lanes (the virtual indices `__acc_vtx`/`__acc_vty`); its reductions end in one
//!   block reduction of each warp's first thread.
//! - *Worker per warp*: a worker loop inside such a gang loop, whose trips use nothing
//!   block-wide, sets the virtual indices to 32-lane warps for its trips where it has a trip for
//!   every warp of the block (restored after it). In the nest's kernel, where its body is
//!   reduction updates and one vector loop that reaches arrays as `a[e + i]`, its trips run in
//!   rounds with all their loads first (`Scheduler::worker_rounds`, `rounds.rs`): where every
//!   index is affine in the loop's variable, rounds of 8 (4 for elements of more than 4 bytes),
//!   4, 2, each index checked once for all of a thread's trips (`Chunks::elem_run_fits`); else
//!   rounds of 4 then 2, one check a round and lane; a failed check leaves the rest to the loop
//!   as written.
//! - *Windows*, *Tiles1*: trips of the whole block, staging `cache!` windows (`windows.rs`) or
//!   the 1-D windows of the tile loops inside (`lower/tiles/one_d.rs`).
//!
//! A nest whose inner loops take chunks also gets a lean kernel (`Scheduler::lean`: those loops
//! without chunks, fewer registers), and, without index checks, a lean twin whose loops run in
//! rounds of 2 single trips (`Scheduler::unrolled`, loads first by `loads.rs`). acc-runtime's
//! launch runs the lean kernel where the gang loop gives every warp trips of its own, where the
//! nest's kernel holds one block a multiprocessor, the lean one two or more, and the launch has
//! the blocks for them, or, where a reduction loop takes chunks, where the launch has more
//! blocks than the GPU has multiprocessors (`Geometry::lean_kernel`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, ExprForLoop, Ident, Stmt};

use crate::front::directives::LoopDirectives;
use super::chunk;
use crate::info;
use crate::info::schedule::{LoopReport, Sched, SchedNote};
use crate::front::loops;
use crate::front::model::*;
use crate::report::Errors;

mod body;
mod effects;
mod emit;
mod plan;
mod rounds;
mod windows;

pub(crate) use effects::{any_loop, block_assigns, block_updates, holds_parallel, jumps, only_updates};
use effects::{block_level, escaping_jump, is_parallel, pat_ident, uses_barriers, uses_worker, writes_into};
use rounds::RoundLoop;
use windows::{cached_reads, window_inside};

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
    /// The body of a top gang loop that is one worker loop and nothing else: that loop's
    /// trips go over the blocks of the grid's `y` too (see `Scheduler::worker_blocks`).
    worker_blocks: bool,
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
    /// The top loop is a gang loop whose body is one worker loop alone, whose trips go over
    /// the grid's `y` blocks too (see `Scheduler::worker_blocks`).
    pub worker_blocks: bool,
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
    mode: Mode<'a>,
    launch: Launch,
    report: Report,
}

/// Which kernel of the nest the scheduler lowers (its builder's settings).
struct Mode<'a> {
    /// The `&[T]` parameters a `cache!` window may stage (see [`Scheduler::stage`]).
    stageable: &'a [Ident],
    /// Lowering the nest's lean kernel: only the top loop may take chunks (see [`Scheduler::lean`]).
    lean: bool,
    /// Trips a round of the lean kernel's loops of single trips (see [`Scheduler::unrolled`]).
    unroll: usize,
}

/// What the launch must know, gathered as the loops are planned (see [`Scheduled`]).
struct Launch {
    /// The windows staged (see [`Scheduled::cached`]).
    cached: Vec<(Ident, usize)>,
    /// The 1-D windows of tile loops staged (see [`Scheduled::tiles1`]).
    tiles1: Vec<(Ident, usize)>,
    /// The top loop is a gang loop whose trips meet no barrier: its trips may each go to one
    /// warp (`Some(true)`), or its inner loops name the virtual thread indices but keep the
    /// block's (`Some(false)`).
    per_warp: Option<bool>,
    /// A loop inside the top loop took chunks.
    inner_chunks: bool,
    chunked: bool,
    /// A reduction loop inside the top loop took chunks.
    reduction_chunks: bool,
    /// The waves of blocks the top loop may launch (see [`Scheduled::waves`]).
    waves: usize,
    /// See [`Scheduled::top_chunks`].
    top_chunks: Vec<Ident>,
    /// See [`Scheduled::worker_blocks`].
    worker_blocks: bool,
}

/// info: the report's entries, and how deep in the nest the current loop is.
#[derive(Default)]
struct Report {
    notes: Vec<SchedNote>,
    depth: usize,
    /// The user's line of a statement acc rewrote (a `continue` made a flag), whose own tokens
    /// have none.
    line_override: Option<usize>,
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
        let mode = Mode { stageable: &[], lean: false, unroll: 1 };
        let launch = Launch { cached: Vec::new(), tiles1: Vec::new(), per_warp: None, inner_chunks: false, chunked: false, reduction_chunks: false, waves: 1, top_chunks: Vec::new(), worker_blocks: false };
        Scheduler { kind, loops, mut_slices, body_of, errors, uses_worker: false, next: 0, group_locals: Vec::new(), mode, launch, report: Report::default() }
    }

    /// The same scheduler staging `cache!` windows of the read-only `&[T]` parameters
    /// `arrays` in shared memory.
    pub fn stage(mut self, arrays: &'a [Ident]) -> Self {
        self.mode.stageable = arrays;
        self
    }

    /// The same scheduler lowering the nest's lean kernel: the loops inside the top loop take
    /// no chunks of 16 bytes. Their chunk code costs registers whether or not its rows are long
    /// enough to take chunks: the papers' gang worker kernel took 50 registers for chunks its
    /// 64-trip rows never take, and its blocks of 1024 threads fitted once per multiprocessor
    /// instead of twice. The host picks the kernel at each launch (`acc_runtime::gpu::launch`).
    pub fn lean(mut self) -> Self {
        self.mode.lean = true;
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
        self.mode.unroll = experiment_size("ACC_EXP_LUNROLL", 1..=8, trips);
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
        let virt = match self.launch.per_warp {
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
            let combined = if self.launch.per_warp == Some(true) { self.first_threads_combined(*op, v, over) } else { self.combined(*op, v, over) };
            finish.extend(quote! {
                let __acc_v = #combined;
                if #dev::block_thread_index() == 0 {
                    #dev::store_partial_var(__acc_partials, #slot, __acc_v);
                }
            });
        }
        let per_trip = if inner_par { (!levels.vector, self.uses_worker && !levels.worker) } else { (false, false) };
        let per_warp = self.launch.per_warp == Some(true);
        let Launch { cached, tiles1, inner_chunks, reduction_chunks, chunked, waves, top_chunks, worker_blocks, .. } = self.launch;
        let notes = info::schedule::render(&self.report.notes);
        Some(Scheduled { code: quote!(#virt #code #finish), uses_worker: self.uses_worker, per_trip, group_locals: !self.group_locals.is_empty(), cached, tiles1, notes, per_warp, inner_chunks, reduction_chunks, chunked, waves, top_chunks, worker_blocks })
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
        let d = self.directive(f).unwrap_or_else(|| LoopDirective { auto: Some(f.span()), ..LoopDirective::default() });
        let (headers, body) = loops::directive_nest(f, &d)?;
        let mut p = self.plan_loop(f, &d, headers, &body, ctx, top);
        let s = emit::Space::new(&p, ctx);
        self.report.depth += 1;
        let mut inner = self.inner_ctx(&p, &s, ctx);
        inner.worker_blocks = self.worker_blocks(&p, &d, ctx, &body);
        let (body, unchecked_body) = self.plan_windows(&mut p, body, ctx);
        let mut child_unreduced: Vec<(Ident, Levels)> = Vec::new();
        let (body_code, lowered) = self.lower_loop_body(&p, &body, &inner, &mut child_unreduced)?;
        let b = plan::LoopBody { ctx, inner: &inner, body: &body, body_code: &body_code, lowered: lowered.as_ref(), unchecked_body: unchecked_body.as_ref() };
        self.plan_trips(&mut p, &b)?;
        let (virt_on, virt_off) = Self::warp_switch(&p, &s);
        let plain = self.one_trip_loop(&p, &s, &b);
        let looped = self.emit_form(&p, &s, &b, plain)?;
        self.report.depth -= 1;
        // info: the reductions' entries follow the loop's own.
        let reds = self.plan_reductions(&p, f, &d, &child_unreduced, deferred);
        let (pre, post, unreduced) = self.emit_reductions(&p, &s, &reds);
        let (setup, total_id, total_expr) = (&s.setup, &s.total_id, s.total_expr(ctx));
        let code = quote! {{
            #setup
            let #total_id: usize = #total_expr;
            #pre
            #virt_on
            { #looped }
            #post
            #virt_off
        }};
        Some(Lowered { code, levels: p.lv, inner_par: p.inner_par, unreduced })
    }

    /// Whether the trips of the worker loop that is the whole body of loop `p` (directive
    /// `d`) go over the blocks of the grid's `y` as well as over the block's workers: `p` is
    /// the nest's top loop, a gang loop of no other level, reduction or private copy, in a
    /// nest that reduces nothing, and its body is that one worker loop (no other level, no
    /// reduction, no tile), with nothing before or after it. A gang then shares nothing among
    /// its trips' workers (no statement of the gang's, no local, no barrier across its
    /// workers), so that the workers of one gang trip may be those of several blocks: block
    /// `(x, y)` runs gang trips `x, x + gridDim.x, ...` and, in each, worker trips
    /// `y * workers + w`, a stride of `gridDim.y * workers` apart. The launch gives such a nest
    /// more blocks in `y` where the `x` the gang loop asks for (`num_gangs`, or its trips) is
    /// less than the GPU holds at once (`Shape::worker_blocks`; not with `ACC_EXP_NOWORKERBLOCKS=1`):
    /// NPB's point-wise regions ask for `num_gangs(nz)` with 8 workers of 32 lanes, 100 blocks
    /// of 256 threads on an H200's 132 multiprocessors at class B. With `gridDim.y == 1` it is
    /// the schedule as written. (A `worker, vector` loop spreads over the whole block already:
    /// NPB's solves have a trip for each of a block's 128 or 256 threads, and blocks in `y`
    /// would only idle; BT at class B on an H200 ran in 5.15 s with them against 4.24 s.)
    fn worker_blocks(&mut self, p: &plan::LoopPlan, d: &LoopDirective, ctx: &Ctx, body: &syn::Block) -> bool {
        if !(p.top && p.lv.gang && !p.lv_w && !p.lv.vector && p.reds.is_empty() && d.private.is_empty() && ctx.reds.is_empty()) {
            return false;
        }
        let [Stmt::Expr(Expr::ForLoop(fl), _)] = body.stmts.as_slice() else { return false };
        let Some(w) = self.directive(fl) else { return false };
        let alone = w.worker.is_some() && w.gang.is_none() && w.vector.is_none() && w.seq.is_none() && w.reduction.is_empty() && !w.malformed_reduction && w.tile.is_none() && self.is_parallel(fl);
        self.launch.worker_blocks |= alone;
        alone
    }

    /// What the body of loop `p` runs under.
    fn inner_ctx(&mut self, p: &plan::LoopPlan, s: &emit::Space, ctx: &Ctx) -> Ctx {
        let mut inner = ctx.clone();
        inner.used = ctx.used.union(p.lv);
        inner.jam = None;
        // A gang per warp is decided once the body is lowered; its loops name the virtual
        // thread indices.
        if p.per_warp_candidate {
            inner.virt = true;
            self.launch.per_warp = Some(false);
        }
        if p.uniform {
            let active_id = &s.active_id;
            inner.active = Some(match &ctx.active {
                Some(a) => quote!((#a && #active_id)),
                None => quote!(#active_id),
            });
        }
        for r in &p.reds {
            if !inner.reds.iter().any(|x| x.1 == r.1) {
                inner.reds.push(r.clone());
            }
        }
        inner.mine = p.reds.clone();
        inner
    }

    /// The code of loop `p`'s body under `inner`, and the body as one thread runs it (a loop
    /// holding no parallel loop), for chunking.
    fn lower_loop_body(&mut self, p: &plan::LoopPlan, body: &syn::Block, inner: &Ctx, child_unreduced: &mut Vec<(Ident, Levels)>) -> Option<(TokenStream, Option<syn::Block>)> {
        if p.inner_par {
            // A `continue` skips the rest of the body: every thread of the block must skip the
            // same statements (they meet at barriers), which holds when the whole block runs
            // the body's trip together (a gang loop). A `break` of a parallel loop is refused
            // by the region's checks.
            if let Some(span) = escaping_jump(body) {
                if inner.used.worker || inner.used.vector {
                    self.errors.error(span, "on the GPU, `continue` in a worker or vector loop that holds parallel loops is not supported yet (its threads would skip different barriers): guard the rest of the body with `if` instead");
                    return None;
                }
            }
            return Some((self.lower_body(&body.stmts, inner, child_unreduced)?, None));
        }
        // info: the loops inside, which each thread runs in order.
        self.note_sequential_loops(body);
        let b = (self.body_of)(body);
        Some((run_once(&b.stmts), Some(b)))
    }

    /// Whether the reduction `(op, v)` of the loop whose body is `stmts` can be left
    /// unfinished by the parallel loops of that body: every statement that names `v` is a
    /// parallel loop that reduces `v` with `op` (its own clause, or none and it updates `v` or,
    /// an array, its elements).
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
                None => block_updates(&fl.body, v),
            }
        })
    }

    /// info: an entry of the report.
    fn note(&mut self, line: usize, depth: usize, what: Sched) {
        self.report.notes.push(SchedNote { line, depth, what });
    }

    /// info: the report of the loop whose entry is at `at`.
    fn loop_report(&mut self, at: usize) -> &mut LoopReport {
        match &mut self.report.notes[at].what {
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

/// The waves of blocks a streaming loop may launch, and one that takes chunks: the launch
/// shape's constants, which acc-runtime reads too (their measurements are there).
use acc_device::launch::{CHUNK_WAVES, STREAM_WAVES};

/// The size an experiment switch `name` sets where it holds a number in `allowed` (read where
/// the device code is generated; acc-build reruns when it changes), else `default`.
fn experiment_size(name: &str, allowed: std::ops::RangeInclusive<usize>, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse::<usize>().ok()).filter(|r| allowed.contains(r)).unwrap_or(default)
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

#[cfg(test)]
mod tests {
    use super::rounds::degree;
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
