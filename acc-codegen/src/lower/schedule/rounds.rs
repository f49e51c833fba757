//! Rounds of several trips of a worker loop that may run a worker per warp
//! (`Scheduler::worker_rounds`): the match of the loop's body ([`RoundsBody`]), then the
//! rounds' code.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

use super::{block_assigns, chunk, experiment_size, Ctx, Jam, Scheduler, DEV};
use crate::front::loops;
use crate::front::model::*;
use crate::info::schedule::RoundsReport;

/// A worker loop's body that runs in rounds: updates of the loop's reductions, then one
/// vector loop whose body reaches arrays only as `a[e + i]`.
pub(super) struct RoundsBody {
    /// The updates, and each one's array reads (hoisted before the round).
    updates: Vec<Stmt>,
    reads: Vec<Vec<(Ident, Expr)>>,
    /// The vector loop's body as one thread runs it, its arrays, its number and space.
    b: syn::Block,
    vec_arrays: Vec<chunk::ChunkArray>,
    vn: usize,
    vsetup: TokenStream,
    vtotal: TokenStream,
    vbind: TokenStream,
    /// The distinct index expressions: the vector body's (`vexprs`, each access's in `vix`),
    /// then the updates' (`sexprs`, `six`).
    vexprs: Vec<Expr>,
    vix: Vec<usize>,
    sexprs: Vec<Expr>,
    six: Vec<usize>,
    /// Each index's start and step, and its value at a trip.
    firsts: Vec<Ident>,
    steps: Vec<Ident>,
    es: Vec<Ident>,
    /// The arrays the round reaches (the parameters).
    arrays: Vec<Ident>,
    /// The loop's variable where every index is affine in it and the vector loop's bounds do
    /// not name it: counted rounds, of these sizes.
    counted: Option<Ident>,
    sizes: Vec<usize>,
}

impl RoundsBody {
    fn nv(&self) -> usize {
        self.vexprs.len()
    }

    /// Index `m` at step `u` of the round.
    fn at(&self, m: usize, u: usize) -> TokenStream {
        let (e, d) = (&self.firsts[m], &self.steps[m]);
        quote!(#e.wrapping_add(#d.wrapping_mul(#u)))
    }

    /// This trip's indices at worker trip `at`: the updates', the vector trip count, whether
    /// this lane has a vector trip, the vector trip's.
    fn indices(&self, l: &RoundLoop, at: TokenStream) -> TokenStream {
        let (k, bind) = (l.k, l.bind);
        let (ves, ses) = self.es.split_at(self.nv());
        let (vx, sx) = (&self.vexprs, &self.sexprs);
        let (vsetup, vtotal, vbind) = (&self.vsetup, &self.vtotal, &self.vbind);
        let lane = quote!((__acc_vtx as usize));
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
    }
}

impl Scheduler<'_> {
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
    pub(super) fn paired_trips(&mut self, body: &syn::Block, ctx: &Ctx, vars: &[Ident], n: usize, l: &RoundLoop) -> Option<TokenStream> {
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
        let u = self.mode.unroll;
        let trips: Vec<Ident> = (0..u).map(|c| format_ident!("__acc_pair{}_{}", n, c)).collect();
        // (The body declares no group locals, and a jammed loop stages no windows: the loop
        // keeps the shared memory's end the worker loop's body starts from.)
        let jam = Ctx { jam: Some(Jam { vars: vars.to_vec(), trips: trips.clone() }), ..ctx.clone() };
        // (The loop was lowered once already: its notes are not written twice.)
        let (notes, depth) = (self.report.notes.len(), self.report.depth);
        let lowered = self.lower_loop(fl, &jam, false, &[]);
        self.report.notes.truncate(notes);
        self.report.depth = depth;
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
    /// rest, one trip at a time as written. Returns the code, which advances `base`.
    pub(super) fn worker_rounds(&mut self, r: &RoundsBody, l: &RoundLoop) -> TokenStream {
        let code = match &r.counted {
            Some(_) => self.counted_rounds(r, l, &r.sizes),
            None => self.checked_rounds(r, l),
        };
        // (The loop's trips meet no barrier: the threads need not leave the rounds together.)
        quote!({ use ::acc_device::chunk::{Chunks as _, ChunksMut as _}; #code })
    }

    /// The body `stmts` of a worker loop (its variable `var`, where it spreads one) matched for
    /// rounds (see [`Scheduler::worker_rounds`]), and the report's entry.
    pub(super) fn plan_rounds(&mut self, stmts: &[Stmt], reds: &[(RedOp, Ident)], var: Option<&Ident>) -> Option<(RoundsBody, RoundsReport)> {
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
        let arrays: Vec<Ident> = self.mode.stageable.iter().chain(self.mut_slices).cloned().collect();
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
        self.launch.chunked = true;
        let vn = self.fresh();
        let loops::NestSpace { setup: vsetup, total: vtotal, bind: vbind } = loops::normalise_nest(&headers, vn, &quote!(#dev::index));
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
        // Counted rounds: every index affine in the loop's variable (`degree`) and the vector
        // loop's bounds not naming it, so one check per thread, before the rounds, covers all
        // its trips (each index runs evenly from its first trip to the loop's last), and a
        // round is one compare. Else each round checks its own trips (`checked_rounds`).
        let counted = var.filter(|v| !chunk::mentions(quote!(#lo #hi), v) && vexprs.iter().chain(&sexprs).all(|e| degree(e, v).is_some())).cloned();
        let es: Vec<Ident> = (0..firsts.len()).map(|m| format_ident!("__acc_x{}", m)).collect();
        let (vexprs, sexprs) = (vexprs.into_iter().cloned().collect(), sexprs.into_iter().cloned().collect());
        let names = chunk::array_names(&vec_arrays);
        let (report, sizes) = match &counted {
            Some(v) => {
                let sizes = worker_round_sizes();
                (RoundsReport::Counted { sizes: sizes.clone(), arrays: names, var: v.clone() }, sizes)
            }
            None => (RoundsReport::Checked { arrays: names }, Vec::new()),
        };
        let updates = updates.to_vec();
        Some((RoundsBody { updates, reads, b, vec_arrays, vn, vsetup, vtotal, vbind, vexprs, vix, sexprs, six, firsts, steps, es, arrays, counted, sizes }, report))
    }

    /// Trip `u` of a round: the loads (the updates' elements, then the vector trip's), and
    /// the trip (the updates on the loaded elements, then the vector trip where `g`).
    fn round_trip(&mut self, r: &RoundsBody, l: &RoundLoop, u: usize, g: &Ident) -> (TokenStream, TokenStream) {
        let RoundLoop { k, bind, tpart, stride, base, .. } = l;
        let (vn, nv) = (r.vn, r.nv());
        let lane = quote!((__acc_vtx as usize));
        let mut loads = TokenStream::new();
        let ys: Vec<Ident> = (0..r.six.len()).map(|m| format_ident!("__acc_y{}_{}_{}", vn, u, m)).collect();
        for (((a, _), &m), y) in r.reads.iter().flatten().zip(&r.six).zip(&ys) {
            let i = r.at(nv + m, u);
            // SAFETY (device code): inside the array (checked before the round).
            loads.extend(quote!(let #y = unsafe { #a.elem_load(#i) };));
        }
        let held: Vec<Ident> = (0..r.vec_arrays.len()).map(|j| format_ident!("__acc_h{}_{}_{}", vn, u, j)).collect();
        for ((a, &m), h) in r.vec_arrays.iter().zip(&r.vix).zip(&held) {
            if a.read {
                let (name, i) = (&a.name, r.at(m, u));
                // SAFETY (device code): inside the array where the lane has a trip (checked before the round).
                loads.extend(quote!(let #h = if #g { ::core::mem::MaybeUninit::new(unsafe { #name.elem_load(#i) }) } else { ::core::mem::MaybeUninit::uninit() };));
            }
        }
        let mut next = ys.iter();
        let ups: Vec<TokenStream> = r
            .updates
            .iter()
            .zip(&r.reads)
            .map(|(s, rs)| {
                let by: Vec<Ident> = next.by_ref().take(rs.len()).cloned().collect();
                let mut s = s.clone();
                replace_reads(&mut s, &r.arrays, &by);
                self.one_thread(&s)
            })
            .collect();
        let mut slots = TokenStream::new();
        let mut stores = TokenStream::new();
        for (j, ((a, &m), h)) in r.vec_arrays.iter().zip(&r.vix).zip(&held).enumerate() {
            let s = chunk::slot(vn, j, 0);
            if a.read {
                // SAFETY: loaded where the lane has a trip, which is where this runs.
                slots.extend(quote!(let mut #s = unsafe { #h.assume_init() };));
            } else {
                slots.extend(quote!(let mut #s;));
            }
            if a.written {
                let (name, i) = (&a.name, r.at(m, u));
                // SAFETY (device code): inside the array (checked before the round); the trips are independent.
                stores.extend(quote!(unsafe { #name.elem_store(#i, #s) };));
            }
        }
        let vbody = chunk::trip_body(&r.b, &r.vec_arrays, vn, 0);
        let vstmts = &vbody.stmts;
        let (vsetup, vbind) = (&r.vsetup, &r.vbind);
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
    }

    /// Counted rounds of `sizes` trips, after one check per thread of all its trips' indices.
    fn counted_rounds(&mut self, r: &RoundsBody, l: &RoundLoop, sizes: &[usize]) -> TokenStream {
        let RoundLoop { total, tpart, stride, base, .. } = l;
        let (firsts, steps, es, nv) = (&r.firsts, &r.steps, &r.es, r.nv());
        let lanes = quote!((__acc_vbdx as usize));
        let g = format_ident!("__acc_g{}", r.vn);
        // Rounds of more than 4 trips only where every array's elements are 4 bytes or
        // less (the test is on the types, so it folds away): on an H100 the papers' worker
        // position (2 gangs) went from 6.4 to 3.2 ms for `int` with rounds of 8, but from
        // 6.8 to 10.6 ms for `double`, which rounds of 4 took to 5.7 ms.
        let names: Vec<&Ident> = r.vec_arrays.iter().map(|a| &a.name).chain(r.reads.iter().flatten().map(|(a, _)| a)).collect();
        let mut code = TokenStream::new();
        for &n in sizes {
            let (loads, trips): (Vec<TokenStream>, Vec<TokenStream>) = (0..n).map(|u| self.round_trip(r, l, u, &g)).unzip();
            let small = if n > 4 { quote!(true #(&& #names.chunk_elem_size() <= 4)*) } else { quote!(true) };
            code.extend(quote! {
                while #small && #base + #n * #stride <= __acc_wend {
                    #(#loads)*
                    #(#trips)*
                    #(#firsts = #firsts.wrapping_add(#steps.wrapping_mul(#n));)*
                    #base += #n * #stride;
                }
            });
        }
        let vfits = r.vec_arrays.iter().zip(&r.vix).map(|(a, &m)| {
            let (name, f, d) = (&a.name, &firsts[m], &steps[m]);
            quote!(&& #name.elem_run_fits(#f, #d, __acc_span))
        });
        let sfits = r.reads.iter().flatten().zip(&r.six).map(|((a, _), &m)| {
            let (f, d) = (&firsts[nv + m], &steps[nv + m]);
            quote!(&& #a.elem_run_fits(#f, #d, __acc_span))
        });
        let (first_trip, next_trip) = (r.indices(l, quote!(__acc_t0)), r.indices(l, quote!(__acc_t0 + 1)));
        // Two trips this thread has (`base + 2 * stride <= total`) give each index's start and
        // step: `__acc_t0 + 1` is a trip of the loop, so the indices are computed only where
        // the loop computes them.
        quote! {
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
        }
    }

    /// Rounds of 4, then 2 trips, each checking its own trips' indices and their spacing.
    fn checked_rounds(&mut self, r: &RoundsBody, l: &RoundLoop) -> TokenStream {
        let RoundLoop { total, tpart, stride, base, .. } = l;
        let (firsts, steps, es) = (&r.firsts, &r.steps, &r.es);
        let (ves, ses) = es.split_at(r.nv());
        let lanes = quote!((__acc_vbdx as usize));
        let mut code = TokenStream::new();
        for n in [4usize, 2] {
            let gs: Vec<Ident> = (0..n).map(|u| format_ident!("__acc_g{}_{}", r.vn, u)).collect();
            let oks: Vec<Ident> = (0..n).map(|u| format_ident!("__acc_ok{}_{}", r.vn, u)).collect();
            let mut checks = TokenStream::new();
            let mut loads = TokenStream::new();
            let mut trips = TokenStream::new();
            for u in 0..n {
                let (g, ok) = (&gs[u], &oks[u]);
                // This trip's indices, where each lies, and whether it is the round's first
                // plus `u` steps (the first two trips set the start and the step).
                let vfits = r.vec_arrays.iter().zip(&r.vix).map(|(a, &m)| {
                    let (name, e) = (&a.name, &ves[m]);
                    quote!(&& #name.elem_fits(#e))
                });
                let sfits = r.reads.iter().flatten().zip(&r.six).map(|((a, _), &m)| {
                    let e = &ses[m];
                    quote!(&& #a.elem_fits(#e))
                });
                let spaced: Vec<TokenStream> = (0..es.len())
                    .map(|m| {
                        let (e, want) = (&es[m], r.at(m, u));
                        quote!(&& #e == #want)
                    })
                    .collect();
                let trip_indices = r.indices(l, quote!(#base + #tpart + #u * #stride));
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
                let (l, t) = self.round_trip(r, l, u, g);
                loads.extend(l);
                trips.extend(t);
            }
            // A round that fails its check leaves the rest to the loop after the rounds (the
            // trips one at a time, as written): a copy of that loop here, chunked vector loop
            // and all, spilled the papers' gang worker kernel (0.26 -> 0.45 ms on an H100).
            code.extend(quote! {
                while #base + #n * #stride <= #total {
                    #checks
                    if !(true #(&& #oks)*) {
                        break;
                    }
                    #loads
                    #trips
                    #base += #n * #stride;
                }
            });
        }
        code
    }
}

/// A worker loop's pieces its rounds (`Scheduler::worker_rounds`) are written from.
pub(super) struct RoundLoop<'a> {
    pub k: &'a Ident,
    pub bind: &'a TokenStream,
    pub total: &'a Ident,
    pub tpart: &'a TokenStream,
    pub stride: &'a TokenStream,
    pub base: &'a Ident,
}

/// Trips per round of a worker loop's counted rounds (`Scheduler::worker_rounds`), largest
/// first, then rounds of 4 and 2. `ACC_EXP_WROUND=R` sets the first size, for A/B runs on the
/// GPU (`scripts/gpu-ab.sh`).
pub(super) fn worker_round_sizes() -> Vec<usize> {
    let first = experiment_size("ACC_EXP_WROUND", 2..=32, 8);
    let mut sizes = vec![first];
    sizes.extend([4, 2].into_iter().filter(|&r| r < first));
    sizes
}

/// How index `e` depends on the loop variable `v`: `Some(0)` not at all, `Some(1)` affinely
/// (`v` through sums, differences, products by factors without it and left shifts by amounts
/// without it: then, in wrapping `usize` arithmetic, `e` at trip `t` is its value at one trip
/// plus a fixed step per trip), `None` otherwise (`v` under a cast, a call, a division or
/// remainder, an element access, ..).
pub(super) fn degree(e: &Expr, v: &Ident) -> Option<u8> {
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
pub(super) fn distinct<'e>(seen: &mut Vec<&'e Expr>, e: &'e Expr, text: &dyn Fn(&Expr) -> String) -> usize {
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
pub(super) fn hoistable(e: &Expr, arrays: &[Ident], reds: &[&Ident], found: &mut Vec<(Ident, Expr)>) -> bool {
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
pub(super) fn replace_reads(s: &mut Stmt, arrays: &[Ident], by: &[Ident]) {
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

