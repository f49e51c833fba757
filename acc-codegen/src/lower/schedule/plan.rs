//! The decisions of one loop of a nest (`Scheduler::lower_loop`): its levels and hardware
//! indices, its reductions and where each combines, the `cache!` windows it stages, how its
//! trips run (a [`Form`]) and the report of all of it. The emitters (`emit.rs`) turn a
//! [`LoopPlan`] into tokens and decide nothing.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Expr, ExprForLoop, Ident, Stmt};

use super::{block_assigns, block_level, block_updates, chunk, cached_reads, levels_of, only_updates, uses_barriers, Ctx, Levels, Scheduler, CHUNK_WAVES, DEV, STREAM_WAVES, UNROLL, UNROLL_TOKENS};
use crate::front::cache::Moving;
use crate::front::loops::LoopHeader;
use crate::front::model::*;
use crate::info::schedule::{Combine, FormReport, LevelSet, LoopReport, RedReport, Sched, SchedNote, WindowReport};
use crate::info;
use crate::lower::tiles::StagedLoop1;

/// What one loop of the nest became.
pub(super) struct LoopPlan {
    /// The loop's number (the names of its locals).
    pub n: usize,
    /// The nest's outermost loop.
    pub top: bool,
    pub headers: Vec<LoopHeader>,
    /// The levels it spreads over; `lv_w`: over the workers, in a nest that has them.
    pub lv: Levels,
    pub lv_w: bool,
    /// It holds parallel loops.
    pub inner_par: bool,
    /// Every thread of a block takes the same trips (the loops inside meet at barriers).
    pub uniform: bool,
    /// Its reductions: its clauses, and the enclosing loops' that it updates.
    pub reds: Vec<(RedOp, Ident)>,
    /// A top gang loop whose trips may each go to one warp (see `Scheduler::nest`).
    pub per_warp_candidate: bool,
    /// The read-only `&[T]` parameters a window may stage.
    pub read_only: Vec<Ident>,
    /// `cache!` windows moving with the loop, staged in shared memory, and their names there.
    pub staged: Vec<Moving>,
    pub wins: Vec<Ident>,
    /// 1-D windows of the tile loops inside (`tiles::Window1`).
    pub tiles1: Vec<StagedLoop1>,
    /// Decided once the body is lowered ([`Scheduler::plan_trips`]).
    pub trips: Trips,
    /// The loop's entry in the report.
    pub note_at: usize,
}

/// How a loop's trips run, decided once its body is lowered.
#[derive(Default)]
pub(super) struct Trips {
    /// Unrolled (a loop that only reads memory and updates a reduction).
    pub unroll: bool,
    /// The reductions the body updates, each trip of a round on a copy of its own where
    /// `split_ok`.
    pub split: Vec<(RedOp, Ident)>,
    pub split_ok: bool,
    /// A barrier ends each trip.
    pub end_barrier: bool,
    /// A worker per warp where the loop has a trip for every warp of the block.
    pub warp_workers: bool,
    /// A loop over `threadIdx.x` that could take chunks.
    pub row_loop: bool,
    /// The arrays it moves a chunk of 16 bytes at a time.
    pub chunked: Option<Vec<chunk::ChunkArray>>,
    /// A lean kernel's rounds of single trips (`Scheduler::unrolled`).
    pub rounds: bool,
    /// The trips of the worker loop around it run together (`Scheduler::paired_trips`).
    pub jammed: bool,
    /// A uniform worker loop's rounds of trips (`rounds.rs`).
    pub worker_rounds: Option<super::rounds::RoundsBody>,
    pub form: Form,
}

/// The form a loop's trips take (the branches of `Scheduler::lower_loop`'s emitter).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Form {
    /// Trips of the block staging `cache!` windows.
    Windows,
    /// Trips of the whole block for the 1-D windows of the tile loops inside.
    Tiles1,
    /// Every thread takes the same trips (a loop holding parallel loops).
    Uniform,
    /// A reduction's trips in rounds.
    Unrolled,
    /// A gang per warp where the loop has the trips.
    GangPerWarp,
    /// One trip at a time, chunked where it can be.
    #[default]
    Streaming,
}

/// A loop's body once lowered, which the rest of its plan and its emitters read: the context
/// the loop runs under and the one its body runs under, the body (as written, after staging),
/// its code, the body as one thread runs it (a loop holding no parallel loop) and without its
/// window checks.
pub(super) struct LoopBody<'a> {
    pub ctx: &'a Ctx,
    pub inner: &'a Ctx,
    pub body: &'a syn::Block,
    pub body_code: &'a TokenStream,
    pub lowered: Option<&'a syn::Block>,
    pub unchecked_body: Option<&'a syn::Block>,
}

/// Where one reduction of a loop combines.
pub(super) struct RedPlan {
    pub op: RedOp,
    pub var: Ident,
    /// Its slot among the loop's reductions (the name of its value before the loop).
    pub slot: usize,
    /// The levels the threads' copies differ over at the loop's end.
    pub over: Levels,
    pub finish: Finish,
}

pub(super) enum Finish {
    /// Left to the loop around it; `lanes_identity`: a worker's lanes but the first take the
    /// identity (they hold equal copies).
    Deferred { lanes_identity: bool },
    /// Combined at the loop's end (over the warps first where a worker is a warp).
    Here,
}

impl Scheduler<'_> {
    /// The levels of loop `f` (directive `d`) under `ctx`, its reductions, and its entry in
    /// the report.
    pub(super) fn plan_loop(&mut self, f: &ExprForLoop, d: &LoopDirective, headers: Vec<LoopHeader>, body: &syn::Block, ctx: &Ctx, top: bool) -> LoopPlan {
        let inner_par = self.holds_parallel(body);
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
        // This loop's reductions: its clauses, and the enclosing loops' that it updates (an
        // array's elements too: each lane's copy holds the elements its trips update).
        let mut reds: Vec<(RedOp, Ident)> = if top { ctx.reds.clone() } else { Vec::new() };
        if !top {
            for r in &d.reduction {
                for v in &r.vars {
                    reds.push((r.op, v.clone()));
                }
            }
            for (op, v) in &ctx.reds {
                if !reds.iter().any(|r| &r.1 == v) && block_updates(body, v) {
                    reds.push((*op, v.clone()));
                }
            }
        }
        let n = self.fresh();
        let uniform = inner_par && (lv_w || lv.vector);
        // info: the loop's levels, its index, and how its trips meet.
        let note_at = self.report.notes.len();
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
            worker_blocks: ctx.worker_blocks && lv_w && !lv.gang,
            ..LoopReport::default()
        };
        // (How its trips run is added once the body is lowered.)
        self.note(info::loop_line(f), self.report.depth, Sched::Loop(report));
        // A top gang loop (no other level) holding worker loops (a block of several warps
        // whose inner loops may use few of its threads: the papers' gang position): its trips
        // may each go to one warp (decided below, once its body is lowered). Not for a gang
        // of vector lanes alone: Heat2D's step (gang rows, vector columns, 128 threads) took
        // 14 more registers for the virtual indices and ran at 0.62 of nvcc from 0.95 on an
        // H100, in the block-per-gang mode its 4094 rows chose.
        let per_warp_candidate = top && inner_par && lv.gang && !lv_w && !lv.vector && ctx.active.is_none() && self.uses_worker;
        let read_only: Vec<Ident> = self.mode.stageable.iter().filter(|a| !self.mut_slices.contains(a)).cloned().collect();
        LoopPlan { n, top, headers, lv, lv_w, inner_par, uniform, reds, per_warp_candidate, read_only, staged: Vec::new(), wins: Vec::new(), tiles1: Vec::new(), trips: Trips::default(), note_at }
    }

    /// The `cache!` windows loop `p` stages, and its body reading them: returns the body (its
    /// reads of the windows checked) and, where windows move with the loop, the body whose
    /// reads are not (for trips whose windows lie inside their arrays, `window_inside`).
    pub(super) fn plan_windows(&mut self, p: &mut LoopPlan, body: syn::Block, ctx: &Ctx) -> (syn::Block, Option<syn::Block>) {
        // `cache!` windows staged in shared memory (the paper's RBI with the cache shared by
        // the block): a window that moves with the variable of a step-1 loop spread over
        // `threadIdx.x` alone, whose body holds no parallel loop, of a read-only `&[T]`.
        let (lv, headers) = (p.lv, &p.headers);
        let block_trips = !p.inner_par && headers.len() == 1 && headers[0].step.is_none() && lv.vector && !p.lv_w && !self.uses_worker && ctx.active.is_none();
        if block_trips {
            p.staged = crate::front::cache::moving_windows(&body, &[headers[0].var.clone()]).into_iter().filter(|w| p.read_only.contains(&w.array)).collect();
        }
        p.wins = (0..p.staged.len()).map(|j| format_ident!("__acc_win{}_{}", p.n, j)).collect();
        let unchecked_body = (!p.staged.is_empty()).then(|| cached_reads(&body, &p.staged, &p.wins, false));
        let body = if p.staged.is_empty() { body } else { cached_reads(&body, &p.staged, &p.wins, true) };
        // 1-D windows at the top of sequential tile loops in the body, that do not move with
        // the loop (the N-body's `x[jj..jj + 256]`; `tiles::Window1`), under the same
        // conditions: the loop then runs in trips of the whole block.
        let (tiles1, why_not1) = if p.staged.is_empty() && block_trips {
            crate::lower::tiles::plan_1d(&body, &p.headers[0].var, &p.read_only)
        } else {
            (Vec::new(), Vec::new())
        };
        self.loop_report(p.note_at).not_staged = why_not1;
        p.tiles1 = tiles1;
        let body = if p.tiles1.is_empty() { body } else { crate::lower::tiles::lower_1d(&body, &p.tiles1, &format_ident!("__acc_in1d"), &DEV()) };
        (body, unchecked_body)
    }

    /// How loop `p`'s trips run, once its body `b` is lowered. `None` where the loop was asked to run the trips of
    /// the worker loop around it together (`Scheduler::paired_trips`) and cannot: the worker
    /// loop then runs its trips one at a time.
    pub(super) fn plan_trips(&mut self, p: &mut LoopPlan, b: &LoopBody) -> Option<()> {
        let (body, body_code, lowered, reds, ctx) = (b.body, b.body_code, b.lowered, &b.inner.reds[..], b.ctx);
        let (lv, inner_par, uniform, top) = (p.lv, p.inner_par, p.uniform, p.top);
        let any_staged = !p.staged.is_empty() || !p.tiles1.is_empty();
        let mut t = Trips {
            // Unrolled: loops that only read memory and update a reduction (a store between
            // the trips keeps their loads from moving up, and the copies only cost registers:
            // Heat2D's step ran at a third of its bandwidth unrolled).
            unroll: !inner_par
                && reds.iter().any(|(_, v)| block_assigns(body, v))
                && !self.effect(&Stmt::Expr(Expr::Block(syn::ExprBlock { attrs: Vec::new(), label: None, block: body.clone() }), None)).memory,
            // The reductions the body updates, each trip of a round on a copy of its own (from
            // the identity), combined after the round: the trips are independent, so their
            // loads come first and no trip's combine waits for another's load. Only where the
            // body names each variable in its updates alone (`v op= e`, `v = f(v, e)`), where
            // the copies' values are what a reduction's private copies may hold.
            split: reds.iter().filter(|(_, v)| block_assigns(body, v)).cloned().collect(),
            ..Trips::default()
        };
        t.split_ok = t.split.iter().all(|(_, v)| only_updates(body, v));
        let short = body_code.clone().into_iter().count() <= UNROLL_TOKENS;
        // info: the unrolled form.
        if t.unroll && !uniform && !any_staged && short {
            self.loop_report(p.note_at).unrolled = Some((UNROLL, t.split_ok));
        }
        // The trips of a loop that holds parallel loops reuse the block's shared memory (the
        // body's group locals, broadcasts) and private copies, and every thread of the block
        // takes the same trips: a barrier ends each trip, so that no thread writes the next
        // trip's before every thread has read this one's.
        // A body with no barrier uses no shared memory (every use of it meets a barrier in its
        // trip) and leaves nothing there for the next trip: its trips run without one (the
        // gang, worker and worker-vector positions of the papers' shapes: a barrier per trip
        // kept each thread to one trip's loads in flight).
        t.end_barrier = inner_par && uses_barriers(body_code);
        // info: whether a barrier ends each trip.
        if inner_par {
            self.loop_report(p.note_at).barrier = Some(t.end_barrier);
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
        t.warp_workers = uniform && p.lv_w && !lv.vector && !lv.gang && ctx.virt && ctx.active.is_none() && !t.end_barrier && !any_staged && !block_level(body_code);
        // info: a worker per warp.
        if t.warp_workers {
            self.loop_report(p.note_at).worker_per_warp = true;
        }
        // A loop over `threadIdx.x` (step 1, one variable, no barrier ending a trip) whose
        // body reaches arrays only as `a[e + i]`: chunks of 4 trips a thread (`chunk.rs`).
        let chunk_arrays: Vec<Ident> = self.mode.stageable.iter().chain(self.mut_slices).cloned().collect();
        let headers = &p.headers;
        t.row_loop = lv.vector && headers.len() == 1 && headers[0].step.is_none() && !t.end_barrier && !any_staged && !uniform;
        t.chunked = match lowered {
            Some(b) if t.row_loop && (top || !self.mode.lean) => chunk::arrays(b, &headers[0].var, &chunk_arrays, self.mut_slices),
            _ => None,
        };
        self.launch.chunked |= t.chunked.is_some();
        // A loop of the whole grid with no reduction across its trips: a streaming loop (a
        // top-level `gang, vector` loop with no parallel loop inside; chunked, staging `cache!`
        // windows, or neither), or a top-level gang loop over vector loops (no worker loop:
        // a gang per warp chooses by the grid's warps): up to STREAM_WAVES waves of blocks.
        let streaming = lv.vector && !inner_par && !uniform;
        let gang_rows = inner_par && !self.uses_worker;
        if top && lv.gang && (streaming || gang_rows) && p.reds.is_empty() && p.tiles1.is_empty() {
            self.launch.waves = STREAM_WAVES;
            // A streaming loop of chunks: a thread per chunk, up to CHUNK_WAVES waves.
            if let (true, Some(arrays)) = (streaming, &t.chunked) {
                self.launch.waves = CHUNK_WAVES;
                self.launch.top_chunks = arrays.iter().map(|a| a.name.clone()).collect();
            }
        }
        // The loop one trip at a time: this thread's trips, a grid stride apart; in a lean
        // kernel's rounds (`Scheduler::unrolled`) where the loop would take chunks in the
        // nest's kernel (its body matched as written, before the launch's proved indices lost
        // their checks).
        t.rounds = matches!(lowered, Some(b) if t.row_loop && self.mode.lean && !top && self.mode.unroll > 1 && chunk::arrays(&crate::lower::bounds::checked_form(b), &headers[0].var, &chunk_arrays, self.mut_slices).is_some());
        // The trips of the enclosing worker loop run together (`Scheduler::paired_trips`)
        // where this loop holds no parallel loop, reduction, window, unrolled round or barrier.
        if ctx.jam.is_some() {
            let can = lowered.is_some() && !inner_par && p.reds.is_empty() && !any_staged && !uniform && !t.unroll && !t.end_barrier;
            if !can {
                return None;
            }
            t.jammed = true;
        }
        t.form = form_of(p, &t, short, body_code);
        p.trips = t;
        self.form_facts(p, b);
        Some(())
    }

    /// What the launch and the report learn from the form loop `p`'s trips take (the worker
    /// rounds of a uniform loop, matched as they are written, record theirs in `emit.rs`).
    fn form_facts(&mut self, p: &mut LoopPlan, b: &LoopBody) {
        let (t, top) = (&p.trips, p.top);
        let form = match t.form {
            Form::Windows => {
                let var = &p.headers[0].var;
                let mut shown = Vec::new();
                for w in &p.staged {
                    let span = (w.hi - w.lo) as usize;
                    self.launch.cached.push((w.array.clone(), span));
                    shown.push(WindowReport { array: w.array.clone(), var: var.clone(), lo: w.lo, hi: w.hi, span });
                }
                FormReport::Windows(shown)
            }
            Form::Tiles1 => {
                let sizes: Vec<(Ident, usize)> = p.tiles1.iter().flat_map(|l| &l.wins).map(|w| (w.tiled.array.clone(), w.width)).collect();
                self.launch.tiles1.extend(sizes.iter().cloned());
                FormReport::Tiles1(sizes)
            }
            // A worker loop that may run a worker per warp: rounds of its trips first, in the
            // nest's kernel (a lean kernel keeps the fewest registers: with the rounds the
            // papers' gang worker and the bench's Table 2 gang lean kernels took 64 registers
            // and no longer fitted two blocks of 1024 threads a multiprocessor, 0.26 -> 0.41 ms
            // and 0.94 -> 0.89 of nvcc on an H100).
            Form::Uniform if t.warp_workers && !self.mode.lean => {
                let var = (p.headers.len() == 1).then(|| &p.headers[0].var);
                let Some((rounds, report)) = self.plan_rounds(&b.body.stmts, &p.reds, var) else { return };
                p.trips.worker_rounds = Some(rounds);
                FormReport::Rounds(report)
            }
            Form::Uniform => return,
            Form::Unrolled => match &t.chunked {
                // The nest's kernel takes chunks; its lean kernel the unrolled rounds.
                Some(chunked) if !top => {
                    self.launch.inner_chunks = true;
                    self.launch.reduction_chunks = true;
                    FormReport::ReductionChunks(chunk::array_names(chunked))
                }
                _ => return,
            },
            Form::GangPerWarp => {
                self.launch.per_warp = Some(true);
                FormReport::GangPerWarp
            }
            Form::Streaming => match &t.chunked {
                Some(chunked) => {
                    if !top {
                        self.launch.inner_chunks = true;
                    }
                    FormReport::Chunks { arrays: chunk::array_names(chunked), lean: !top }
                }
                None => return,
            },
        };
        // info: the form.
        self.loop_report(p.note_at).form = form;
    }

    /// Where each reduction of loop `p` combines (`child`: the levels over which the loops of
    /// its body left each unfinished; `deferred`: those the loop around it finishes), and
    /// their entries in the report, after the loop's own.
    pub(super) fn plan_reductions(&mut self, p: &LoopPlan, f: &ExprForLoop, d: &LoopDirective, child: &[(Ident, Levels)], deferred: &[Ident]) -> Vec<RedPlan> {
        let mut plans = Vec::new();
        let mut red_at = p.note_at;
        for (slot, (op, v)) in p.reds.iter().enumerate() {
            let over = p.lv.union(levels_of(child, v));
            // info: where the reduction is combined.
            let inherited = !(p.top || d.reduction.iter().any(|r| r.vars.contains(v)));
            let (combine, finish) = if deferred.contains(v) {
                let combine = if p.top { Combine::AtNestEnd(over.worker && self.uses_worker, over.vector) } else { Combine::Outer };
                // A worker's lanes hold equal copies, and a worker is a warp or a row of the
                // block: the first lane keeps the value, the others the identity, and the
                // copies are combined over both levels.
                (combine, Finish::Deferred { lanes_identity: p.trips.warp_workers && !over.vector })
            } else {
                (Combine::Here(over.worker && self.uses_worker, over.vector), Finish::Here)
            };
            red_at += 1;
            let what = Sched::Reduction(RedReport { op: *op, var: v.clone(), inherited, combine });
            self.report.notes.insert(red_at, SchedNote { line: info::loop_line(f), depth: self.report.depth + 1, what });
            plans.push(RedPlan { op: *op, var: v.clone(), slot, over, finish });
        }
        plans
    }
}

/// The form loop `p`'s trips take (`t`: how they run; `short`: its body's code is short
/// enough to unroll).
fn form_of(p: &LoopPlan, t: &Trips, short: bool, body_code: &TokenStream) -> Form {
    if !p.staged.is_empty() {
        Form::Windows
    } else if !p.tiles1.is_empty() {
        Form::Tiles1
    } else if p.uniform {
        Form::Uniform
    } else if t.unroll && short {
        Form::Unrolled
    } else if p.per_warp_candidate && !t.end_barrier && !block_level(body_code) {
        Form::GangPerWarp
    } else {
        Form::Streaming
    }
}
