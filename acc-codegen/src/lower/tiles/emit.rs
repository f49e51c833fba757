//! The staged tiles' code: their places in shared memory, the fetches before each trip of a
//! k-tile loop and the body's references read from the tiles.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

use super::*;
use crate::front::cache::{self, Tiled};

/// The tokens of a tile dimension's extent.
pub(super) fn extent(t: &Tiled, s: Src, levels: &[Level], dev: &TokenStream) -> TokenStream {
    match s {
        Src::Slot(n) => {
            let w = t.slots[n].width as usize;
            quote!(#w)
        }
        Src::Var(l) => {
            let f = format_ident!("block_dim_{}", ["x", "y", "z"][levels[l].dim]);
            let m = levels[l].coarse;
            if m == 1 {
                quote!((#dev::#f() as usize))
            } else {
                quote!((#m * #dev::#f() as usize))
            }
        }
        Src::Moving(_, l) => {
            let (block, halo) = (extent(t, Src::Var(l), levels, dev), s.halo(t));
            quote!((#block + #halo))
        }
    }
}

/// How a warp reads the tile's rows (`acc_device::TileReads`): a row at a time where its
/// rows follow a nest variable on the block's `y` (or `z`) and its columns a range
/// (`a[i * n + (kk..kk + 16)]` with `i` on `y`); adjacent lanes at adjacent columns where its
/// columns follow the variable on `x`.
pub(super) fn tile_reads(w: &TileWin, levels: &[Level]) -> Ident {
    let reads = match (w.rows.level(), w.cols) {
        (Some(l), Src::Slot(_)) if levels[l].dim != 0 => "Rows",
        (_, Src::Var(l) | Src::Moving(_, l)) if levels[l].dim == 0 => "Lanes",
        _ => "Other",
    };
    format_ident!("{}", reads)
}

/// A tile's columns where they do not depend on the launch: a range's width, or a literal tile
/// size (which the block never exceeds) plus a moving range's halo.
pub(super) fn fixed_cols(w: &TileWin, levels: &[Level]) -> Option<usize> {
    match w.cols {
        Src::Slot(c) => Some(w.tiled.slots[c].width as usize),
        Src::Var(l) | Src::Moving(_, l) => levels[l].size.map(|n| n + w.cols.halo(&w.tiled)),
    }
}

/// The places of the staged tiles in shared memory, before the nest, and the host's sizes of
/// them: (array, elements per `blockDim.x`, per `blockDim.y`, fixed), the host's expressions
/// (`rt`: the runtime's path).
pub fn places(staged: &[StagedLoop], levels: &[Level], dev: &TokenStream, rt: &TokenStream) -> (TokenStream, Vec<(Ident, [TokenStream; 3])>) {
    let mut code = quote!(let mut __acc_woff: usize = 0;);
    let mut sizes = Vec::new();
    for l in staged {
        for w in &l.wins {
            let (a, place, pitch) = (&w.tiled.array, &w.place, &w.pitch);
            let rows = extent(&w.tiled, w.rows, levels, dev);
            // The row pitch: a constant where the columns' extent is (the tile size of a
            // literal `tile(..)`, which the block never exceeds), so that the reads of a row
            // are at constant offsets.
            let fixed_cols = fixed_cols(w, levels);
            let reads = tile_reads(w, levels);
            let cols = match fixed_cols {
                Some(n) => quote!(#n),
                None => extent(&w.tiled, w.cols, levels, dev),
            };
            code.extend(quote! {
                let #pitch: usize = #dev::tile_pitch_of(&*#a, #cols, #dev::TileReads::#reads);
                let #place = #dev::cache_window(&*#a, #rows * #pitch, &mut __acc_woff);
            });
            if w.halo() {
                let (walk, cols) = (&w.walk, extent(&w.tiled, w.cols, levels, dev));
                code.extend(quote!(let #walk = #dev::halo_walk(&*#a, #cols, #pitch);));
            }
            // rows * pitch elements.
            let host_pitch = |cols: usize| quote!(#rt::tile_pitch(#cols, #rt::elem_bytes(&#a[..]), #rt::TileReads::#reads));
            let mut per = [quote!(0usize), quote!(0usize), quote!(0usize)];
            let t = &w.tiled;
            match (w.rows, w.cols) {
                // Rows `m * blockDim + halo` of a fixed pitch.
                (Src::Var(l) | Src::Moving(_, l), _) => {
                    let p = host_pitch(fixed_cols.expect("refused by `plan_windows`"));
                    let (m, halo) = (levels[l].coarse, w.rows.halo(t));
                    per[levels[l].dim] = quote!(#m * #p);
                    if halo > 0 {
                        per[2] = quote!(#halo * #p);
                    }
                }
                (Src::Slot(r), Src::Var(l) | Src::Moving(_, l)) => {
                    let r = t.slots[r].width as usize;
                    match fixed_cols {
                        Some(n) => {
                            let p = host_pitch(n);
                            per[2] = quote!(#r * #p);
                        }
                        // `cols + 1` with the columns `coarse * blockDim + halo` (no row reads).
                        None => {
                            let (m, one) = (levels[l].coarse, w.cols.halo(t) + 1);
                            per[levels[l].dim] = quote!(#r * #m);
                            per[2] = if one == 1 { quote!(#r) } else { quote!(#r * #one) };
                        }
                    }
                }
                (Src::Slot(r), Src::Slot(c)) => {
                    let r = t.slots[r].width as usize;
                    let p = host_pitch(t.slots[c].width as usize);
                    per[2] = quote!(#r * #p);
                }
            }
            sizes.push((a.clone(), per));
        }
    }
    (code, sizes)
}

/// The innermost body with its k-tile loops staged. `__acc_in{l}` (per level; per copy
/// `__acc_in{l}_{q}` on the coarsened level) says whether the thread's iteration is inside
/// the nest, and `__acc_wh{l}` whether the block's whole tile is on level `l`; threads
/// outside run only the fetches and barriers. `tile_base(l)`: the name of the first
/// iteration of the block's tile at level `l`.
pub fn lower(body: &syn::Block, staged: &[StagedLoop], levels: &[Level], coarse: Option<&Coarse>, tile_base: &dyn Fn(usize) -> Ident, dev: &TokenStream) -> syn::Block {
    let sync: Stmt = syn::parse_quote!(#dev::sync_threads_divergent(););
    let inside = |q: usize| -> TokenStream {
        let flags = (0..levels.len()).map(|l| match coarse {
            Some(c) if c.level == l => format_ident!("__acc_in{}_{}", l, q),
            _ => format_ident!("__acc_in{}", l),
        });
        quote!(#(#flags)&&*)
    };
    let trip = |l: &StagedLoop, f: &syn::ExprForLoop, rest: Vec<Stmt>, copies: Vec<(usize, Vec<Tiled>)>| -> (Stmt, Stmt) {
        let fetches: Vec<Stmt> = l.wins.iter().map(|w| fetch(w, levels, tile_base, dev)).collect();
        let mut reads = Reads { wins: &l.wins, copies, coarse, flat: &[], levels, bounds: Vec::new(), dev };
        staged_trip(f, fetches, rest, &mut reads, &sync)
    };
    let staged_at = |s: usize| staged.iter().find(|l| l.stmt == s);
    let as_loop = |st: &Stmt| -> syn::ExprForLoop {
        let Stmt::Expr(Expr::ForLoop(f), _) = st else { unreachable!("planned on a loop") };
        f.clone()
    };
    // The windows as copy `q` of the body names them (a moving range's base renamed too).
    let windows = |l: &StagedLoop, q: usize| -> Vec<Tiled> {
        l.wins.iter().map(|w| match coarse {
            Some(c) => {
                let mut t = w.tiled.clone();
                t.index = renamed(&t.index, &c.names, q, |r, e| r.visit_expr_mut(e));
                for sl in &mut t.slots {
                    sl.lo = renamed(&sl.lo, &c.names, q, |r, e| r.visit_expr_mut(e));
                    sl.base = cache::split_offset(&sl.lo).0;
                }
                t
            }
            None => w.tiled.clone(),
        }).collect()
    };
    // Windows of the body's own `cache!` (`StagedLoop::top`, planned alone): fetched once per
    // tile of the block, a barrier, the body (each copy where its iteration is inside the
    // nest, jammed where the block's whole tile is), a barrier.
    if let Some(l) = staged.iter().find(|l| l.top) {
        let fetches = l.wins.iter().map(|w| fetch(w, levels, tile_base, dev));
        let read = |q: usize, stmts: &[Stmt]| -> Vec<Stmt> {
            let mut reads = Reads { wins: &l.wins, copies: vec![(q, windows(l, q))], coarse, flat: &[], levels, bounds: Vec::new(), dev };
            let mut out = stmts[1..].to_vec();
            read_staged(&mut out, &mut reads);
            out
        };
        let run = match coarse {
            None => {
                let (active, rest) = (inside(0), read(0, &body.stmts));
                quote!(if #active { #(#rest)* })
            }
            Some(c) => {
                let copies: Vec<Vec<Stmt>> = (0..c.m).map(|q| read(q, &body.stmts.iter().map(|st| renamed(st, &c.names, q, |r, s| r.visit_stmt_mut(s))).collect::<Vec<_>>())).collect();
                let edge: TokenStream = copies.iter().enumerate().map(|(q, cp)| {
                    let active = inside(q);
                    quote!(if #active { #(#cp)* })
                }).collect();
                whole_or_edge(levels, &jam(copies.clone()), edge)
            }
        };
        return syn::parse_quote!({
            #(#fetches)*
            #sync
            #run
            #sync
        });
    }
    // One copy of the body (`q`; the body itself where not coarsened): its staged loops
    // lowered, inside an `if` on the thread's iteration, the shadow loops outside it.
    let one = |q: usize, stmts: &[Stmt]| -> Stmt {
        let mut stmts = stmts.to_vec();
        let mut shadow = Vec::new();
        for (s, st) in stmts.iter_mut().enumerate() {
            if let Some(l) = staged_at(s) {
                let f = as_loop(st);
                let (lowered, sh) = trip(l, &f, f.body.stmts[1..].to_vec(), vec![(q, windows(l, q))]);
                *st = lowered;
                shadow.push(sh);
            }
        }
        let active = inside(q);
        syn::parse_quote! {
            if #active {
                #(#stmts)*
            } else {
                #(#shadow)*
            }
        }
    };
    let Some(c) = coarse else {
        let only = one(0, &body.stmts);
        return syn::parse_quote!({ #only });
    };
    let copies: Vec<Vec<Stmt>> = (0..c.m).map(|q| body.stmts.iter().map(|st| renamed(st, &c.names, q, |r, s| r.visit_stmt_mut(s))).collect()).collect();
    // A whole tile: every copy of every thread inside the nest, so the copies run jammed.
    let mut whole = Vec::new();
    for s in 0..body.stmts.len() {
        match staged_at(s) {
            Some(l) => {
                let f = as_loop(&copies[0][s]);
                let rest = jam(copies.iter().map(|cp| as_loop(&cp[s]).body.stmts[1..].to_vec()).collect());
                whole.push(trip(l, &f, rest, (0..c.m).map(|q| (q, windows(l, q))).collect()).0);
            }
            None => whole.extend(jam(copies.iter().map(|cp| vec![cp[s].clone()]).collect())),
        }
    }
    // A tile at the nest's edge: the copies one after the other.
    let edge: Vec<Stmt> = copies.iter().enumerate().map(|(q, cp)| one(q, cp)).collect();
    let run = whole_or_edge(levels, &whole, quote!(#(#edge)*));
    syn::parse_quote!({ #run })
}

/// A staged loop `f`'s trip: `fetches`, a barrier (`sync`), `rest` (the loop's body after its
/// `cache!`) with its references to the windows read from shared memory (`reads`), a barrier;
/// and the same loop with only the fetches and barriers, for threads past the nest's end.
pub(super) fn staged_trip(f: &syn::ExprForLoop, fetches: Vec<Stmt>, mut rest: Vec<Stmt>, reads: &mut Reads, sync: &Stmt) -> (Stmt, Stmt) {
    read_staged(&mut rest, reads);
    let mut fl = f.clone();
    fl.body.stmts = fetches.iter().cloned().chain([sync.clone()]).chain(rest).chain([sync.clone()]).collect();
    let mut sh = f.clone();
    sh.attrs.clear();
    sh.body.stmts = fetches.into_iter().chain([sync.clone(), sync.clone()]).collect();
    (Stmt::Expr(Expr::ForLoop(fl), None), Stmt::Expr(Expr::ForLoop(sh), None))
}

/// The statements after a `cache!` with their references to the windows read from shared
/// memory (`reads`), the last one ended by a `;` (a barrier follows it).
pub(super) fn read_staged(rest: &mut [Stmt], reads: &mut Reads) {
    for s in rest.iter_mut() {
        reads.visit_stmt_mut(s);
    }
    if let Some(Stmt::Expr(_, semi @ None)) = rest.last_mut() {
        *semi = Some(Default::default());
    }
}

/// A coarsened body's runs: `whole` where the block's tile is whole on every level
/// (`__acc_wh{l}`), else `edge`.
pub(super) fn whole_or_edge(levels: &[Level], whole: &[Stmt], edge: TokenStream) -> TokenStream {
    let wh = (0..levels.len()).map(|l| format_ident!("__acc_wh{}", l));
    quote! {
        if #(#wh)&&* {
            #(#whole)*
        } else {
            #edge
        }
    }
}

/// The fetch of one tile: element `(r, c)` is the window's index with its ranges at `lo + r`
/// or `lo + c` and its nest variable at the block's `r`-th (or `c`-th) iteration.
pub(super) fn fetch(w: &TileWin, levels: &[Level], tile_base: &dyn Fn(usize) -> Ident, dev: &TokenStream) -> Stmt {
    // A nest variable from the tile's row or column number `at`, `None` past the loop's end.
    let bind = |s: Src, at: TokenStream| -> TokenStream {
        if let Src::Moving(_, l) = s {
            // The variable at the block's first row: the range's element `at` is `lo + at`.
            let (var, value) = (&levels[l].var, (levels[l].index)(&tile_base(l)));
            return quote!(let #var = #value;);
        }
        let Src::Var(l) = s else { return TokenStream::new() };
        let (tb, kv) = (tile_base(l), format_ident!("__acc_kv{}", l));
        let (trip, var) = (&levels[l].trip, &levels[l].var);
        let value = (levels[l].index)(&kv);
        quote! {
            let #kv: usize = #tb + #at;
            if #kv >= #trip {
                return ::core::option::Option::None;
            }
            let #var = #value;
        }
    };
    // A part of the index with its ranges at `lo + at` (a moving range's in the type of its
    // variable, wrapping as the device code's arithmetic does: `i - 1` at `i = 0`).
    struct Subst<'t> {
        at: TokenStream,
        next: usize,
        t: &'t Tiled,
        moving: &'t [usize],
        dev: &'t TokenStream,
    }
    impl VisitMut for Subst<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if cache::slot_node(e) {
                let (lo, at, dev) = (&self.t.slots[self.next].lo, &self.at, self.dev);
                *e = if self.moving.contains(&self.next) { syn::parse_quote!(#dev::index::index(#lo, #at, 1)) } else { syn::parse_quote!(((#lo) + #at)) };
                self.next += 1;
                return;
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    let moving: Vec<usize> = [w.rows, w.cols].into_iter().filter_map(Src::moving).map(|(n, _)| n).collect();
    let part = |e: &Expr, first: usize, at: TokenStream| -> Expr {
        let mut e = e.clone();
        Subst { at, next: first, t: &w.tiled, moving: &moving, dev }.visit_expr_mut(&mut e);
        e
    };
    let (x, p, y) = &w.parts;
    let x = part(x, w.first_slot.0, quote!(__acc_r));
    let y = part(y, w.first_slot.1, quote!(__acc_c));
    let (bind_r, bind_c) = (bind(w.rows, quote!(__acc_r)), bind(w.cols, quote!(__acc_c)));
    let (a, place, pitch) = (&w.tiled.array, &w.place, &w.pitch);
    let (rows, cols) = (extent(&w.tiled, w.rows, levels, dev), extent(&w.tiled, w.cols, levels, dev));
    // A tile with a halo (a range that moves with the nest) has rows of no power of two of
    // 16-byte words: its own fetch (`acc_device::cache_fetch_halo_tile`).
    let walk = &w.walk;
    let (fetch_fn, walk_arg) = if w.halo() { (format_ident!("cache_fetch_halo_tile"), quote!(#walk,)) } else { (format_ident!("cache_fetch_tile"), TokenStream::new()) };
    syn::parse_quote! {
        // SAFETY: the tile holds `rows * pitch` elements (`cache_window`), `cols < pitch`;
        // every thread of the block runs this fetch, and a barrier follows it.
        #[allow(clippy::redundant_closure_call)]
        unsafe {
            #dev::#fetch_fn(
                &*#a, #place, #rows, #cols, #pitch, #walk_arg
                |__acc_r: usize| -> ::core::option::Option<usize> {
                    #bind_r
                    ::core::option::Option::Some(((#x) * (#p)) as usize)
                },
                |__acc_c: usize| -> ::core::option::Option<usize> {
                    #bind_c
                    ::core::option::Option::Some((#y) as usize)
                },
            )
        };
    }
}


/// The row (or column) of the tile of copy `q` of the thread's iteration on level `l`: its
/// thread index, plus `q * blockDim` on the coarsened level (`m * thread index + q` where its
/// rows are adjacent).
pub(super) fn at_var(levels: &[Level], l: usize, coarse: Option<&Coarse>, q: usize, dev: &TokenStream) -> TokenStream {
    let xyz = ["x", "y", "z"][levels[l].dim];
    let (t, b) = (format_ident!("thread_idx_{}", xyz), format_ident!("block_dim_{}", xyz));
    match coarse {
        Some(c) if c.level == l && c.adjacent => {
            let m = c.m;
            quote!((#m * #dev::#t() as usize + #q))
        }
        Some(c) if c.level == l && q > 0 => quote!((#dev::#t() as usize + #q * #dev::#b() as usize)),
        _ => quote!((#dev::#t() as usize)),
    }
}

/// Each reference to a staged window, proved inside it (`cache::match_ref`), read from its
/// tile: row and column the nest variable's thread index or the range's `e - lo`.
pub(super) struct Reads<'w> {
    pub(super) wins: &'w [TileWin],
    /// The copies of the body whose references this visit reads (`Coarse`): the copy's
    /// number and its windows (the windows' own where not coarsened, else renamed).
    pub(super) copies: Vec<(usize, Vec<Tiled>)>,
    /// The coarsened nest: copy `q` reads its tile rows at `thread_idx + q * blockDim`, or at
    /// `m * thread_idx + q` where they are adjacent.
    pub(super) coarse: Option<&'w Coarse>,
    /// 1-D windows at the top of a tile loop of a `vector` loop's body ([`Window1`]).
    pub(super) flat: &'w [Window1],
    pub(super) levels: &'w [Level],
    pub(super) bounds: Vec<cache::Bound>,
    pub(super) dev: &'w TokenStream,
}

impl VisitMut for Reads<'_> {
    fn visit_expr_for_loop_mut(&mut self, f: &mut syn::ExprForLoop) {
        self.visit_expr_mut(&mut f.expr);
        let b = cache::bound_of(f);
        let pushed = b.is_some();
        self.bounds.extend(b);
        self.visit_block_mut(&mut f.body);
        if pushed {
            self.bounds.pop();
        }
    }
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        // A loop over a window's range (`for k in kk..(kk + 16).min(n)`): its trips are known
        // to be at most the range's width `w`; where they are exactly `w` (every trip but
        // those at the array's edge), it runs as `for u in 0..w` with `k = lo + u`, which the
        // compiler unrolls, its reads at constant places of the tile; at the edge, as the same
        // loop with each trip guarded by the loop's end.
        if let Expr::ForLoop(f) = e {
            let b = cache::bound_of(f).filter(|b| b.hi > b.lo && self.wins.iter().map(|w| &w.tiled).chain(self.flat.iter().map(|w| &w.tiled)).any(|t| t.slots.iter().any(|s| s.base == b.base)));
            if let (Some(b), Expr::Range(r)) = (b, cache::strip(&f.expr).clone()) {
                let (Some(lo), Some(hi)) = (&r.start, &r.end) else { unreachable!("a bound has both") };
                let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
                let mut body = f.body.clone();
                self.bounds.push(b.clone());
                self.visit_block_mut(&mut body);
                self.bounds.pop();
                let mut lo = (**lo).clone();
                let mut hi = (**hi).clone();
                self.visit_expr_mut(&mut lo);
                self.visit_expr_mut(&mut hi);
                let (pat, label, attrs) = (&f.pat, &f.label, &f.attrs);
                let w = (b.hi - b.lo) as usize;
                let (span, lt) = if inclusive { (w - 1, quote!(<=)) } else { (w, quote!(<)) };
                // The loop's trips are at most `w` (proved), so it has all `w` exactly where
                // `hi - lo` is `span` (an empty loop, `hi < lo`, wraps to far more). The
                // edge's trips: the same `w` steps, each guarded, so that this copy too has a
                // constant trip count.
                // The full loop is unrolled here (its body written out `w` times) where it
                // cannot leave early and `w` is at most 32: the compiler's own unrolling gives
                // up on the bodies of coarsened nests (`Coarse`), several copies each.
                let full: TokenStream = if w <= 32 && label.is_none() && !leaves(&body) {
                    (0..w).map(|u| quote!({ let #pat = __acc_klo + #u; #body })).collect()
                } else {
                    quote! {
                        #(#attrs)* #label for __acc_u in 0..#w {
                            let #pat = __acc_klo + __acc_u;
                            #body
                        }
                    }
                };
                *e = syn::parse_quote! {{
                    let __acc_klo = #lo;
                    let __acc_khi = #hi;
                    if __acc_khi.wrapping_sub(__acc_klo) == #span {
                        #full
                    } else {
                        #(#attrs)* #label for __acc_u in 0..#w {
                            let #pat = __acc_klo + __acc_u;
                            if #pat #lt __acc_khi #body
                        }
                    }
                }};
                return;
            }
        }
        if let Expr::Index(ix) = e {
            if let Expr::Path(p) = cache::strip(&ix.expr) {
                if let Some(w) = self.flat.iter().find(|w| p.path.is_ident(&w.tiled.array)) {
                    let (mut got, mut next) = (Vec::new(), 0);
                    if cache::match_ref(&w.tiled.index, &ix.index, &w.tiled.slots, &mut next, &self.bounds, &mut got) && next == 1 {
                        let (g, lo, place) = (got[0].clone(), &w.tiled.slots[0].lo, &w.place);
                        *e = syn::parse_quote! {
                            // SAFETY: the reference was proved inside the window at compile
                            // time; a barrier followed the fetch.
                            unsafe { *#place.add(((#g) as usize).wrapping_sub((#lo) as usize)) }
                        };
                        return;
                    }
                }
                for (wi, w) in self.wins.iter().enumerate().filter(|(_, w)| p.path.is_ident(&w.tiled.array)) {
                  for (q, windex) in &self.copies {
                    let q = *q;
                    let mut got = Vec::new();
                    let mut next = 0;
                    let mine = &windex[wi];
                    if cache::match_ref(&mine.index, &ix.index, &mine.slots, &mut next, &self.bounds, &mut got) && next == w.tiled.slots.len() {
                        let dev = self.dev;
                        let at = |s: Src| match s {
                            Src::Slot(n) => {
                                let (g, lo) = (&got[n], &w.tiled.slots[n].lo);
                                quote!(((#g) as usize).wrapping_sub((#lo) as usize))
                            }
                            Src::Var(l) => at_var(self.levels, l, self.coarse, q, dev),
                            // The thread's row, and the reference's place in the range: a
                            // constant where it is `lo`'s base plus a literal.
                            Src::Moving(n, l) => {
                                let row = at_var(self.levels, l, self.coarse, q, dev);
                                let (g, sl) = (&got[n], &mine.slots[n]);
                                let (gb, gc) = cache::split_offset(g);
                                if gb == sl.base {
                                    let d = (gc - sl.off) as usize;
                                    quote!((#row + #d))
                                } else {
                                    let lo = &sl.lo;
                                    quote!((#row + ((#g) as usize).wrapping_sub((#lo) as usize)))
                                }
                            }
                        };
                        let (row, col, place, pitch) = (at(w.rows), at(w.cols), &w.place, &w.pitch);
                        *e = syn::parse_quote! {
                            // SAFETY: the reference was proved inside the window at compile
                            // time, so its row and column are inside the tile; a barrier
                            // followed the fetch.
                            unsafe { *#place.add(#row * #pitch + #col) }
                        };
                        return;
                    }
                  }
                }
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
