//! The tokens of one loop of a nest, from its [`LoopPlan`]: the hardware indices of its trips
//! ([`Space`]), then one emitter for each [`Form`] its trips take, assembled by
//! `Scheduler::lower_loop`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use super::plan::{Finish, Form, LoopBody, LoopPlan, RedPlan};
use super::{chunk, op_path, reduction_chunk_rounds, run_once, window_inside, Ctx, Levels, RoundLoop, Scheduler, DEV, UNROLL};
use crate::front::loops;

/// The names and expressions of a loop's trips.
pub(super) struct Space {
    /// Bindings of the loop's bounds, its trip count, and the binding of its variables from
    /// the trip index `k`.
    pub setup: TokenStream,
    pub total: TokenStream,
    pub bind: TokenStream,
    /// This thread's place among the loop's threads in a block, their number, the block's
    /// first trip and the grid's stride.
    pub tpart: TokenStream,
    pub bpart: TokenStream,
    pub stride: TokenStream,
    pub total_id: Ident,
    pub active_id: Ident,
    pub k: Ident,
    pub base: Ident,
    /// Names of a worker per warp's switch (see [`Scheduler::warp_switch`]).
    pub warps_id: Ident,
    pub saved_id: Ident,
}

impl Space {
    pub fn new(p: &LoopPlan, ctx: &Ctx) -> Space {
        let dev = DEV();
        let (n, lv, lv_w) = (p.n, p.lv, p.lv_w);
        let loops::NestSpace { setup, total, bind } = loops::normalise_nest(&p.headers, n, &quote!(#dev::index));
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
        } else if ctx.worker_blocks && lv_w {
            // The worker loop alone in a top gang loop: its trips over the grid's `y` blocks
            // too (`Scheduler::worker_blocks`).
            (quote!((#dev::block_idx_y() as usize * #tcount)), quote!((#dev::grid_dim_y() as usize * #tcount)))
        } else {
            (quote!(0usize), tcount.clone())
        };
        Space {
            setup,
            total,
            bind,
            tpart,
            bpart,
            stride,
            total_id: format_ident!("__acc_total{}", n),
            active_id: format_ident!("__acc_active{}", n),
            k: format_ident!("__acc_k"),
            base: format_ident!("__acc_base{}", n),
            warps_id: format_ident!("__acc_ww{}", n),
            saved_id: format_ident!("__acc_saved{}", n),
        }
    }

    /// The loop's trip count, none where the thread has no trip of an enclosing uniform loop.
    pub fn total_expr(&self, ctx: &Ctx) -> TokenStream {
        let total = &self.total;
        match &ctx.active {
            Some(a) => quote!(if #a { #total } else { 0usize }),
            None => quote!(#total),
        }
    }

    /// The pieces of the loop a chunked form needs (`chunk.rs`).
    fn chunk_loop<'s>(&'s self, n: usize, body_code: &'s TokenStream) -> chunk::Loop<'s> {
        let (bpart, tpart) = (&self.bpart, &self.tpart);
        chunk::Loop { n, k: &self.k, bind: &self.bind, body_code, total: &self.total_id, stride: &self.stride, start: quote!(#bpart + #tpart) }
    }
}

/// The barrier that ends each trip, where one does.
pub(super) fn end_trip(p: &LoopPlan) -> TokenStream {
    let dev = DEV();
    if p.trips.end_barrier {
        quote!(#dev::sync_threads();)
    } else {
        TokenStream::new()
    }
}

impl Scheduler<'_> {
    /// A worker per warp's switch of the virtual thread indices, on at the loop's start and
    /// back at its end.
    pub(super) fn warp_switch(p: &LoopPlan, s: &Space) -> (TokenStream, TokenStream) {
        if !p.trips.warp_workers {
            return (TokenStream::new(), TokenStream::new());
        }
        let (warps_id, saved_id, total_id) = (&s.warps_id, &s.saved_id, &s.total_id);
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
    }

    /// The loop one trip at a time: this thread's trips, a grid stride apart; the trips of an
    /// enclosing worker loop run together (`Scheduler::paired_trips`); or a lean kernel's
    /// rounds.
    pub(super) fn one_trip_loop(&self, p: &LoopPlan, s: &Space, b: &LoopBody) -> TokenStream {
        let (ctx, lowered, body_code) = (b.ctx, b.lowered, b.body_code);
        let (n, t) = (p.n, &p.trips);
        let Space { k, bind, bpart, tpart, stride, total_id, .. } = s;
        let end_trip = end_trip(p);
        // The trips of the enclosing worker loop run together (`Scheduler::paired_trips`):
        // each trip of this loop runs the body once for each of them, all their reads of
        // read-only arrays first (`loads.rs`), then the bodies in order.
        if let (true, Some(jam), Some(b)) = (t.jammed, &ctx.jam, lowered) {
            let vars = &jam.vars;
            let binds: Vec<TokenStream> = jam.trips.iter().map(|trip| quote!(let (#(#vars,)*) = #trip;)).collect();
            let trips = crate::lower::loads::trips_loads_first(b, &p.read_only, n, &binds, run_once);
            return quote! {
                let mut #k = #bpart + #tpart;
                while #k < #total_id {
                    #bind
                    #trips
                    #k += #stride;
                }
            };
        }
        if !t.rounds {
            return quote! {
                let mut #k = #bpart + #tpart;
                while #k < #total_id {
                    #bind
                    #body_code
                    #end_trip
                    #k += #stride;
                }
            };
        }
        let u = self.mode.unroll;
        let last = u - 1;
        // The round's reads of read-only arrays first (`loads.rs`), then its trips' bodies:
        // written one after the other, each trip's load stayed by its store in the SASS
        // (`benches/results/jam-h200/` as of f98ec92).
        let b = lowered.expect("a loop of rounds has its body lowered");
        let binds: Vec<TokenStream> = (0..u).map(|c| quote!(let #k: usize = #k + #c * __acc_st; #bind)).collect();
        let trips = crate::lower::loads::trips_loads_first(b, &p.read_only, n, &binds, run_once);
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
    }

    /// The loop's trips in the form its plan chose.
    pub(super) fn emit_form(&mut self, p: &LoopPlan, s: &Space, c: &LoopBody, plain: TokenStream) -> Option<TokenStream> {
        Some(match p.trips.form {
            Form::Windows => self.emit_windows(p, s, c),
            Form::Tiles1 => self.emit_tiles1(p, s, c),
            Form::Uniform => self.emit_uniform(p, s, c)?,
            Form::Unrolled => self.emit_unrolled(p, s, c, plain),
            Form::GangPerWarp => self.emit_gang_per_warp(s, c),
            Form::Streaming => self.emit_streaming(p, s, c, plain),
        })
    }

    /// Each trip of the block: the windows fetched by all its threads (those past the loop's
    /// end too), a barrier, the trip (its references to the windows read shared memory), a
    /// barrier before the next trip's fetch. A trip gives each thread `__acc_m` points, a block
    /// apart (`acc_device::window_points`: 4 where the windows fit), so that a thread has
    /// `__acc_m + 1` loads in flight a trip and the barriers serve `__acc_m` points.
    /// `__acc_wbytes`: the element bytes of all the nest's staged windows, as the host counts
    /// them (`device.rs`), so that every staged loop of the nest takes the points the launch
    /// sized its windows for.
    fn emit_windows(&mut self, p: &LoopPlan, s: &Space, c: &LoopBody) -> TokenStream {
        let dev = DEV();
        let Space { k, bind, bpart, tpart, total_id, active_id, base, .. } = s;
        let body_code = c.body_code;
        let var = &p.headers[0].var;
        let w = window_pieces(p, s, c.ctx);
        let (places, ahead, fetches) = (w.places, w.ahead, w.fetches);
        let (mut first_pf, mut stores, mut next_pf) = (w.first_pf, w.stores, w.next_pf);
        // The trip's body without a check of each window reference, where the whole
        // windows lie inside their arrays.
        let inside = window_inside(&p.staged, None);
        // A whole trip (all its points before the loop's end) whose windows lie inside
        // their arrays at its first and last points (so at every point: the windows move
        // with the variable) runs its points with neither test.
        let trip_inside = {
            let (first, last) = (quote!(__acc_bi), quote!(__acc_bi.wrapping_add(__acc_mbx - 1)));
            let (first, last) = (window_inside(&p.staged, Some(&first)), window_inside(&p.staged, Some(&last)));
            quote!(#base + __acc_mbx <= #total_id && #first && #last)
        };
        let fast_code = run_once(&(self.body_of)(c.unchecked_body.expect("made where windows are staged")).stmts);
        if std::env::var_os("ACC_EXP_WINDOW_NOW").is_some() {
            let (loads_now, stores_now) = (w.loads_now, w.stores_now);
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
    }

}

/// The staged windows' places in shared memory and their fetches, prefetches and stores (see
/// [`Scheduler::emit_windows`]).
fn window_pieces(p: &LoopPlan, s: &Space, ctx: &Ctx) -> WindowPieces {
    let dev = DEV();
    let (n, stride, base, total_id) = (p.n, &s.stride, &s.base, &s.total_id);
    let start = ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
    let mut w = WindowPieces {
        places: quote! {
            let __acc_tx: usize = #dev::thread_idx_x() as usize;
            let __acc_bdx: usize = #dev::block_dim_x() as usize;
            let __acc_m: usize = #dev::window_points(__acc_bdx, __acc_wbytes);
            let __acc_mbx: usize = __acc_m * __acc_bdx;
            let __acc_mst: usize = #stride * __acc_m;
            let mut __acc_woff: usize = #start;
        },
        ahead: quote!(true),
        ..WindowPieces::default()
    };
    for (j, (m, win)) in p.staged.iter().zip(&p.wins).enumerate() {
        let (a, span) = (&m.array, (m.hi - m.lo) as usize);
        let lo = proc_macro2::Literal::i64_suffixed(m.lo);
        let pf = format_ident!("__acc_pf{}_{}", n, j);
        w.places.extend(quote!(let #win = #dev::cache_window(&*#a, __acc_mbx + #span, &mut __acc_woff);));
        w.fetches.extend(quote!(#dev::cache_fetch(&*#a, #win, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
        w.ahead.extend(quote!(&& __acc_mbx + #span <= #dev::CACHE_AHEAD * __acc_bdx));
        w.first_pf.extend(quote! {
            let mut #pf = if __acc_ahead && #base < #total_id {
                #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span)
            } else {
                #dev::cache_nothing()
            };
        });
        w.stores.extend(quote!(#dev::cache_store(#a.len(), #win, #pf, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
        w.next_pf.extend(quote!(#pf = #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add(__acc_mst).wrapping_add((#lo) as usize), __acc_mbx + #span);));
        w.loads_now.extend(quote!(let #pf = #dev::cache_prefetch(&*#a, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
        w.stores_now.extend(quote!(#dev::cache_store(#a.len(), #win, #pf, __acc_bi.wrapping_add((#lo) as usize), __acc_mbx + #span);));
    }
    w
}

impl Scheduler<'_> {

    /// Trips of the whole block: every thread takes the same trips (those past the loop's end
    /// run only the tile loops' fetches and barriers, `tiles::lower_1d`).
    fn emit_tiles1(&self, p: &LoopPlan, s: &Space, c: &LoopBody) -> TokenStream {
        let dev = DEV();
        let Space { k, bind, bpart, tpart, stride, total_id, active_id, base, .. } = s;
        let body_code = c.body_code;
        let start = c.ctx.shared_end.as_ref().map_or_else(|| quote!(0usize), |e| quote!(#e));
        let places = crate::lower::tiles::places_1d(&p.tiles1, &start, &dev);
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
    }

    /// A loop holding parallel loops: every thread of the block takes the same trips, the
    /// threads past the end on the last trip as spare threads.
    fn emit_uniform(&mut self, p: &LoopPlan, s: &Space, c: &LoopBody) -> Option<TokenStream> {
        let Space { k, bind, tpart, bpart, stride, total_id, active_id, base, .. } = s;
        let end_trip = end_trip(p);
        let (ctx, inner) = (c.ctx, c.inner);
        // The worker rounds its plan chose (`plan::Trips::worker_rounds`) first.
        let rounds = match &p.trips.worker_rounds {
            Some(r) => self.worker_rounds(r, &RoundLoop { k, bind, total: total_id, tpart, stride, base }),
            None => TokenStream::new(),
        };
        // In the lean kernel without index checks, trips in pairs first.
        let pairs = if self.mode.lean && self.mode.unroll > 1 && !p.trips.end_barrier {
            let vars: Vec<Ident> = p.headers.iter().map(|h| h.var.clone()).collect();
            let l = RoundLoop { k, bind, total: total_id, tpart, stride, base };
            let outer = Ctx { active: ctx.active.clone(), ..inner.clone() };
            self.paired_trips(c.body, &outer, &vars, p.n, &l)
        } else {
            None
        };
        // The trips after the pairs (at most one a thread, under a gang per warp) run
        // their vector loop one trip at a time: its rounds of 2 took the papers' gang
        // kernel from 32 to 40 registers, one block of 1024 threads a multiprocessor.
        let rest;
        let body_code = match &pairs {
            Some(_) => {
                let (notes, unroll) = (self.report.notes.len(), self.mode.unroll);
                self.mode.unroll = 1;
                let lowered = self.lower_body(&c.body.stmts, inner, &mut Vec::new());
                self.report.notes.truncate(notes);
                self.mode.unroll = unroll;
                rest = lowered?;
                &rest
            }
            None => c.body_code,
        };
        let pairs = pairs.unwrap_or_default();
        Some(quote! {
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
        })
    }

    /// A reduction's trips: several per round, so that each thread has that many independent
    /// loads in flight (one per trip without it, each waiting for the previous combine, caps
    /// a reduction's bandwidth). Rounds of UNROLL trips, then rounds of 4 (a short loop: the
    /// worker-vector position's 8 trips a lane), then one trip at a time.
    fn emit_unrolled(&self, p: &LoopPlan, s: &Space, c: &LoopBody, plain: TokenStream) -> TokenStream {
        let Space { k, bind, tpart, bpart, stride, total_id, .. } = s;
        let (body_code, t) = (c.body_code, &p.trips);
        // Rounds of UNROLL trips where the reductions' values are 4 bytes or less: on an
        // H100 with 2 gangs (the papers' vector position) 8 trips a round took i32 and f32
        // sums from 4.4 and 6.8 ms to 3.6 and 3.8 ms, but f64 from 4.4 to 7.2 ms (rounds of
        // 4 are kept for it). The test is on the types, so it folds away.
        let main = unrolled_round(p, s, body_code, UNROLL);
        let vars = t.split.iter().map(|r| &r.1);
        let short = unrolled_round(p, s, body_code, 4);
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
        match (&t.chunked, c.lowered) {
            (Some(chunked), Some(b)) if !p.top => {
                // Arrays whose chunks never align together, or rows of fewer than a chunk a
                // thread: one trip at a time (the unrolled rounds here kept the kernel's
                // registers above a block of 1024 threads' 64).
                s.chunk_loop(p.n, body_code).code_16_bytes(chunked, b, &reduction_chunk_rounds(), plain)
            }
            _ => unrolled,
        }
    }

    /// A gang's trips share nothing (no barrier, no shared memory, no leader): where the loop
    /// has at least as many trips as the grid has warps, each warp runs trips of its own, the
    /// loops inside spread over its 32 lanes as one worker (a gang loop whose inner loops use
    /// few of a block's threads kept the others idle: the papers' gang position ran 2 x 32 of
    /// 1024 threads a trip). Else the block runs each trip.
    fn emit_gang_per_warp(&self, s: &Space, c: &LoopBody) -> TokenStream {
        let dev = DEV();
        let Space { k, bind, total_id, .. } = s;
        let body_code = c.body_code;
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
    }

    /// A streaming loop over `threadIdx.x`: chunks of 4 trips a thread, each array of the body
    /// moved 4 elements an access (`chunk.rs`), where it takes them; else `plain`.
    fn emit_streaming(&self, p: &LoopPlan, s: &Space, c: &LoopBody, plain: TokenStream) -> TokenStream {
        match (&p.trips.chunked, c.lowered) {
            (Some(chunked), Some(b)) => {
                s.chunk_loop(p.n, c.body_code).code_16_bytes(chunked, b, &[1], plain)
            }
            _ => plain,
        }
    }

    /// Each reduction's private copy set up before the loop (`pre`) and combined after it
    /// (`post`), and the levels over which those the loop leaves unfinished still differ.
    pub(super) fn emit_reductions(&self, p: &LoopPlan, s: &Space, reds: &[RedPlan]) -> (TokenStream, TokenStream, Vec<(Ident, Levels)>) {
        let (mut pre, mut post, mut unreduced) = (TokenStream::new(), TokenStream::new(), Vec::new());
        for r in reds {
            let (op, v, over) = (r.op, &r.var, r.over);
            let ops = op_path(op);
            match r.finish {
                Finish::Deferred { lanes_identity: true } => {
                    post.extend(quote!(if __acc_vtx != 0 { #v = #ops.identity(&#v); }));
                    unreduced.push((v.clone(), Levels { vector: true, ..over }));
                }
                Finish::Deferred { lanes_identity: false } => unreduced.push((v.clone(), over)),
                Finish::Here => {
                    let orig = format_ident!("__acc_orig{}_{}", p.n, r.slot);
                    let mut combined = self.combined(op, v, over);
                    if p.trips.warp_workers {
                        // A warp's lanes hold equal copies unless the vector loops inside left
                        // them partial values: the first lane's copy of each warp, or every
                        // lane's partial.
                        let by_warps = self.first_threads_combined(op, v, over);
                        let warps_id = &s.warps_id;
                        combined = quote!(if #warps_id #by_warps else { #combined });
                    }
                    pre.extend(quote!(let #orig = #v; #v = #ops.identity(&#v);));
                    post.extend(quote!(#v = #ops.combine(#orig, #combined);));
                }
            }
        }
        (pre, post, unreduced)
    }
}

/// The pieces of the staged windows' code (see [`window_pieces`]).
#[derive(Default)]
struct WindowPieces {
    places: TokenStream,
    fetches: TokenStream,
    ahead: TokenStream,
    first_pf: TokenStream,
    stores: TokenStream,
    next_pf: TokenStream,
    loads_now: TokenStream,
    stores_now: TokenStream,
}

/// Rounds of `n` trips of an unrolled reduction loop, each trip's reductions on copies of
/// their own where the plan split them, combined pairwise after the round.
fn unrolled_round(p: &LoopPlan, s: &Space, body_code: &TokenStream, n: usize) -> TokenStream {
    let (k, bind, total_id) = (&s.k, &s.bind, &s.total_id);
    let (split, split_ok) = (&p.trips.split, p.trips.split_ok);
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
}
