//! 2-D `cache!` windows staged in shared memory (issue 11; the cache paper's Sections III-IV,
//! the "two-dimensional subarray" pass of IV-B, and its GEMM of V-B 1).
//!
//! The shape: a 2-D `tile(x, y)` nest (`grid.rs`) over `i` (block `y`) and `j` (block `x`)
//! whose innermost body holds, as a statement of its own, a sequential loop (the k-tile loop)
//! whose body starts with `acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j])`.
//! Each window is `X * p + Y` with `X` and `Y` each a range of literal width or a variable of
//! the nest: a tile of `rows x cols` elements (`Y` the columns, adjacent in memory), a range
//! giving its width and a nest variable its block dimension, the row pitch padded by one
//! element against bank conflicts. Per trip of the k-tile loop the whole block fetches every
//! tile in parallel (`acc_device::cache_fetch_tile`: adjacent threads at adjacent columns,
//! clamped to the array), meets at a barrier, runs the trip's body, whose references to the
//! windows (proved inside them at compile time, `front/cache.rs`) read the tiles with no
//! range check, and meets at a barrier before the next fetch.
//!
//! Every thread of the block runs the same k-tile trips and reaches the same barriers: the
//! grid-stride loops of the nest step whole tiles of the block (`grid.rs`), and a thread
//! whose `(i, j)` is past the nest's end runs, instead of the body, only the k-tile loops'
//! fetches and barriers (the non-`.aligned` `barrier.sync`, reached from either branch). For
//! that the k-tile loop's bounds and the windows may read no variable of the nest, nor any
//! name the body binds or assigns (besides the k-tile loop's own variable), and the body may
//! not leave early (`return`, `?`, `break`/`continue` of the body's loops).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{Expr, Ident, Stmt};

use crate::front::cache::{self, Tiled};

/// Where a tile dimension's extent comes from.
#[derive(Clone, Copy, PartialEq)]
pub enum Src {
    /// The window's range number `n`: its width.
    Slot(usize),
    /// The variable of the nest's loop at this level: its block dimension.
    Var(usize),
}

/// One staged window.
pub struct TileWin {
    pub tiled: Tiled,
    pub rows: Src,
    pub cols: Src,
    /// The tile's place in shared memory, and its row pitch (both set before the nest).
    pub place: Ident,
    pub pitch: Ident,
}

/// A staged k-tile loop: its statement's index in the innermost body, and its windows.
pub struct StagedLoop {
    pub stmt: usize,
    pub wins: Vec<TileWin>,
    /// The line of its `cache!`.
    pub cache_line: usize,
}

/// A loop of the nest, as the staging sees it.
pub struct Level {
    pub var: Ident,
    /// Its block (and grid) dimension: 0 = x.
    pub dim: usize,
    /// Its value at iteration `k` (the normalised loop's index, see `loops::normalise`).
    pub index: Box<dyn Fn(&Ident) -> TokenStream>,
    /// The name of its trip count.
    pub trip: Ident,
    /// Its block dimension's size where the clause gives it as a literal (`tile(16, 16)`):
    /// the launch's block is at most that (it only shrinks, for the kernel's registers).
    pub size: Option<usize>,
}

/// The staging of the innermost body `body` of a 2-D nest with loops `levels` (outermost
/// first): the k-tile loops staged, and notes (line, text) on those that are not and why.
pub fn plan(body: &syn::Block, levels: &[Level], stageable: &[Ident]) -> (Vec<StagedLoop>, Vec<(usize, String)>) {
    let candidates: Vec<(usize, &syn::ExprForLoop)> = body
        .stmts
        .iter()
        .enumerate()
        .filter_map(|(s, st)| match st {
            Stmt::Expr(Expr::ForLoop(f), _) if !cache::leading_tiles(&f.body).is_empty() => Some((s, f)),
            _ => None,
        })
        .collect();
    let mut staged = Vec::new();
    let mut notes = Vec::new();
    if candidates.is_empty() {
        return (staged, notes);
    }
    let vars: Vec<Ident> = levels.iter().map(|l| l.var.clone()).collect();
    let (bound, assigned) = names_bound(body);
    let why_not_all: Option<String> = if levels.len() != 2 {
        Some("a 2-D window is staged in a 2-D `tile(x, y)` nest".into())
    } else if let Some(j) = early_exit(body) {
        Some(format!("the nest's body leaves early (`{j}`), so its threads would not meet at the same barriers"))
    } else {
        vars.iter().find(|v| bound.contains(v) || assigned.contains(v)).map(|v| format!("the nest's body rebinds or assigns `{v}`"))
    };
    for (s, f) in candidates {
        let line = crate::info::loop_line(f);
        if let Some(w) = &why_not_all {
            notes.push((line, format!("cache!: not staged: {w}")));
            continue;
        }
        match plan_loop(s, f, levels, &vars, &bound, &assigned, stageable) {
            Ok(l) => staged.push(l),
            Err(w) => notes.push((line, format!("cache!: not staged: {w}"))),
        }
    }
    (staged, notes)
}

fn plan_loop(s: usize, f: &syn::ExprForLoop, levels: &[Level], vars: &[Ident], bound: &[Ident], assigned: &[Ident], stageable: &[Ident]) -> Result<StagedLoop, String> {
    let syn::Pat::Ident(pi) = &*f.pat else { return Err("the k-tile loop's variable is not a plain name".into()) };
    let kvar = &pi.ident;
    // Names that are not the same in every thread of the block (or not set in a thread that
    // skips the body).
    let varying = |id: &Ident| vars.contains(id) || ((bound.contains(id) || assigned.contains(id)) && id != kvar);
    if let Some(id) = cache::names_in(&f.expr).iter().find(|id| varying(id)) {
        return Err(format!("the k-tile loop's bounds read `{id}`, which is not the same in every thread of the block (every thread must take the same trips to meet at the barriers)"));
    }
    if assigned.contains(kvar) {
        return Err(format!("`{kvar}` is assigned in the body"));
    }
    let mut wins = Vec::new();
    for (w, t) in cache::leading_tiles(&f.body).into_iter().enumerate() {
        let a = &t.array;
        if !stageable.contains(a) {
            return Err(format!("`{a}` is not a read-only `&[T]` parameter of the region"));
        }
        let (rows, cols, p) = shape(&t, vars).ok_or_else(|| {
            let ix = &t.index;
            format!("`{a}[{}]` is not of the form `X * p + Y`, each of `X` and `Y` a range `(lo..lo + w)` or a variable of the nest (not both variables), `p` reading neither", quote!(#ix))
        })?;
        let mut reads: Vec<Ident> = cache::names_in(&p);
        for sl in &t.slots {
            reads.extend(cache::names_in(&sl.lo));
        }
        if let Some(id) = reads.iter().find(|id| varying(id)) {
            return Err(format!("the window `{a}[..]` reads `{id}` besides its variables, which is not the same in every thread of the block"));
        }
        wins.push(TileWin { tiled: t, rows, cols, place: format_ident!("__acc_tile{}_{}", s, w), pitch: format_ident!("__acc_pitch{}_{}", s, w) });
    }
    let _ = levels;
    let cache_line = match f.body.stmts.first() {
        Some(Stmt::Macro(m)) => crate::info::line_of(syn::spanned::Spanned::span(&m.mac.path)),
        Some(Stmt::Expr(Expr::Macro(m), _)) => crate::info::line_of(syn::spanned::Spanned::span(&m.mac.path)),
        _ => 0,
    };
    Ok(StagedLoop { stmt: s, wins, cache_line })
}

/// The window's dimensions: `X * p + Y` as (rows `X`, columns `Y`, `p`).
fn shape(t: &Tiled, vars: &[Ident]) -> Option<(Src, Src, Expr)> {
    let Expr::Binary(b) = cache::strip(&t.index) else { return None };
    if !matches!(b.op, syn::BinOp::Add(_)) {
        return None;
    }
    // The slots of the left side come first.
    let left_slots = count_slots(&b.left);
    let src = |e: &Expr, first_slot: usize| -> Option<Src> {
        if cache::slot_node(e) {
            return Some(Src::Slot(first_slot));
        }
        match cache::strip(e) {
            Expr::Path(p) => vars.iter().position(|v| p.path.is_ident(v)).map(Src::Var),
            _ => None,
        }
    };
    let plain = |e: &Expr| count_slots(e) == 0 && !vars.iter().any(|v| crate::front::loops::mentions(e, v));
    let mul = |e: &Expr, first_slot: usize| -> Option<(Src, Expr)> {
        let Expr::Binary(m) = cache::strip(e) else { return None };
        if !matches!(m.op, syn::BinOp::Mul(_)) {
            return None;
        }
        if plain(&m.right) {
            if let Some(x) = src(&m.left, first_slot) {
                return Some((x, (*m.right).clone()));
            }
        }
        if plain(&m.left) {
            if let Some(x) = src(&m.right, first_slot) {
                return Some((x, (*m.left).clone()));
            }
        }
        None
    };
    let (rows, cols, p) = if let Some((x, p)) = mul(&b.left, 0) {
        (x, src(&b.right, left_slots)?, p)
    } else {
        let (x, p) = mul(&b.right, left_slots)?;
        (x, src(&b.left, 0)?, p)
    };
    if matches!((rows, cols), (Src::Var(_), Src::Var(_))) || rows == cols {
        return None;
    }
    Some((rows, cols, p))
}

fn count_slots(e: &Expr) -> usize {
    struct V(usize);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_range(&mut self, _: &'ast syn::ExprRange) {
            self.0 += 1;
        }
    }
    let mut v = V(0);
    v.visit_expr(e);
    v.0
}

/// The names `body` binds (patterns) and assigns (`x = ..`, `x op= ..`).
fn names_bound(body: &syn::Block) -> (Vec<Ident>, Vec<Ident>) {
    struct V(Vec<Ident>, Vec<Ident>);
    impl<'ast> Visit<'ast> for V {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.clone());
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            if let Expr::Path(p) = cache::strip(&a.left) {
                self.1.extend(p.path.get_ident().cloned());
            }
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if crate::front::loops::is_compound_assign(&b.op) {
                if let Expr::Path(p) = cache::strip(&b.left) {
                    self.1.extend(p.path.get_ident().cloned());
                }
            }
            syn::visit::visit_expr_binary(self, b);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(Vec::new(), Vec::new());
    v.visit_block(body);
    (v.0, v.1)
}

/// A way `body` leaves early: `return`, `?`, a labeled `break`/`continue`, or one of the body
/// or of a loop at its top (the k-tile loops).
fn early_exit(body: &syn::Block) -> Option<&'static str> {
    struct V {
        depth: usize,
        found: Option<&'static str>,
    }
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_return(&mut self, _: &'ast syn::ExprReturn) {
            self.found = Some("return");
        }
        fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
            self.found = Some("?");
        }
        fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
            if b.label.is_some() || self.depth <= 1 {
                self.found = Some("break");
            }
            syn::visit::visit_expr_break(self, b);
        }
        fn visit_expr_continue(&mut self, c: &'ast syn::ExprContinue) {
            if c.label.is_some() || self.depth <= 1 {
                self.found = Some("continue");
            }
        }
        fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
            self.visit_expr(&f.expr);
            self.depth += 1;
            self.visit_block(&f.body);
            self.depth -= 1;
        }
        fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
            self.visit_expr(&w.cond);
            self.depth += 1;
            self.visit_block(&w.body);
            self.depth -= 1;
        }
        fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
            self.depth += 1;
            self.visit_block(&l.body);
            self.depth -= 1;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V { depth: 0, found: None };
    v.visit_block(body);
    v.found
}

/// The tokens of a tile dimension's extent.
fn extent(t: &Tiled, s: Src, levels: &[Level], dev: &TokenStream) -> TokenStream {
    match s {
        Src::Slot(n) => {
            let w = t.slots[n].width as usize;
            quote!(#w)
        }
        Src::Var(l) => {
            let f = format_ident!("block_dim_{}", ["x", "y", "z"][levels[l].dim]);
            quote!((#dev::#f() as usize))
        }
    }
}

/// The places of the staged tiles in shared memory, before the nest, and the host's sizes of
/// them: (array, elements per `blockDim.x`, per `blockDim.y`, fixed).
pub fn places(staged: &[StagedLoop], levels: &[Level], dev: &TokenStream) -> (TokenStream, Vec<(Ident, [usize; 3])>) {
    let mut code = quote!(let mut __acc_woff: usize = 0;);
    let mut sizes = Vec::new();
    for l in staged {
        for w in &l.wins {
            let (a, place, pitch) = (&w.tiled.array, &w.place, &w.pitch);
            let rows = extent(&w.tiled, w.rows, levels, dev);
            // The row pitch: a constant where the columns' extent is (the tile size of a
            // literal `tile(..)`, which the block never exceeds), so that the reads of a row
            // are at constant offsets.
            let fixed_cols = match w.cols {
                Src::Var(l) => levels[l].size,
                Src::Slot(c) => Some(w.tiled.slots[c].width as usize),
            };
            let cols = match fixed_cols {
                Some(n) => quote!(#n),
                None => extent(&w.tiled, w.cols, levels, dev),
            };
            code.extend(quote! {
                let #pitch: usize = #cols + 1;
                let #place = #dev::cache_window(&*#a, #rows * #pitch, &mut __acc_woff);
            });
            // rows * (cols + 1) elements.
            let mut per = [0usize; 3];
            match (w.rows, w.cols) {
                (Src::Var(l), Src::Slot(c)) => per[levels[l].dim] += w.tiled.slots[c].width as usize + 1,
                (Src::Slot(r), Src::Var(l)) => {
                    let r = w.tiled.slots[r].width as usize;
                    match levels[l].size {
                        Some(n) => per[2] += r * (n + 1),
                        None => {
                            per[levels[l].dim] += r;
                            per[2] += r;
                        }
                    }
                }
                (Src::Slot(r), Src::Slot(c)) => per[2] += w.tiled.slots[r].width as usize * (w.tiled.slots[c].width as usize + 1),
                (Src::Var(_), Src::Var(_)) => unreachable!("refused by `shape`"),
            }
            sizes.push((a.clone(), per));
        }
    }
    (code, sizes)
}

/// The innermost body with its k-tile loops staged: `active` names the condition that the
/// thread's `(i, j)` is inside the nest; the others run only the fetches and barriers.
/// `tile_base(l)`: the name of the first iteration of the block's tile at level `l`.
pub fn lower(body: &syn::Block, staged: &[StagedLoop], levels: &[Level], active: &TokenStream, tile_base: &dyn Fn(usize) -> Ident, dev: &TokenStream) -> syn::Block {
    let sync: Stmt = syn::parse_quote!(#dev::sync_threads_divergent(););
    let mut stmts = body.stmts.clone();
    let mut shadow: Vec<Stmt> = Vec::new();
    for l in staged {
        let Stmt::Expr(Expr::ForLoop(f), _) = &body.stmts[l.stmt] else { unreachable!("planned on a loop") };
        let fetches: Vec<Stmt> = l.wins.iter().map(|w| fetch(w, levels, tile_base, dev)).collect();
        // The trip: the fetches, a barrier, the body reading the tiles, a barrier.
        let mut rest: Vec<Stmt> = f.body.stmts[1..].to_vec();
        let mut reads = Reads { wins: &l.wins, levels, bounds: Vec::new(), dev };
        for s in &mut rest {
            reads.visit_stmt_mut(s);
        }
        if let Some(Stmt::Expr(e, semi @ None)) = rest.last_mut() {
            let _ = e;
            *semi = Some(Default::default());
        }
        let mut fl = f.clone();
        fl.body.stmts = fetches.iter().cloned().chain([sync.clone()]).chain(rest).chain([sync.clone()]).collect();
        stmts[l.stmt] = Stmt::Expr(Expr::ForLoop(fl), None);
        let mut sh = f.clone();
        sh.attrs.clear();
        sh.body.stmts = fetches.into_iter().chain([sync.clone(), sync.clone()]).collect();
        shadow.push(Stmt::Expr(Expr::ForLoop(sh), None));
    }
    syn::parse_quote!({
        if #active {
            #(#stmts)*
        } else {
            #(#shadow)*
        }
    })
}

/// The fetch of one tile: element `(r, c)` is the window's index with its ranges at `lo + r`
/// or `lo + c` and its nest variable at the block's `r`-th (or `c`-th) iteration.
fn fetch(w: &TileWin, levels: &[Level], tile_base: &dyn Fn(usize) -> Ident, dev: &TokenStream) -> Stmt {
    let pos = |s: Src| if s == w.rows { quote!(__acc_r) } else { quote!(__acc_c) };
    let mut binds = TokenStream::new();
    for s in [w.rows, w.cols] {
        if let Src::Var(l) = s {
            let (p, tb, kv) = (pos(s), tile_base(l), format_ident!("__acc_kv{}", l));
            let (trip, var) = (&levels[l].trip, &levels[l].var);
            let value = (levels[l].index)(&kv);
            binds.extend(quote! {
                let #kv: usize = #tb + #p;
                if #kv >= #trip {
                    return ::core::option::Option::None;
                }
                let #var = #value;
            });
        }
    }
    // The window's index with each range at `lo + r` / `lo + c`.
    struct Subst<'t> {
        with: Vec<TokenStream>,
        next: usize,
        t: &'t Tiled,
    }
    impl VisitMut for Subst<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if cache::slot_node(e) {
                let lo = &self.t.slots[self.next].lo;
                let p = &self.with[self.next];
                self.next += 1;
                *e = syn::parse_quote!(((#lo) + #p));
                return;
            }
            syn::visit_mut::visit_expr_mut(self, e);
        }
    }
    let with: Vec<TokenStream> = (0..w.tiled.slots.len()).map(|n| pos(Src::Slot(n))).collect();
    let mut index = w.tiled.index.clone();
    Subst { with, next: 0, t: &w.tiled }.visit_expr_mut(&mut index);
    let (a, place, pitch) = (&w.tiled.array, &w.place, &w.pitch);
    let (rows, cols) = (extent(&w.tiled, w.rows, levels, dev), extent(&w.tiled, w.cols, levels, dev));
    syn::parse_quote! {
        // SAFETY: the tile holds `rows * pitch` elements (`cache_window`), `cols < pitch`;
        // every thread of the block runs this fetch, and a barrier follows it.
        #[allow(clippy::redundant_closure_call)]
        unsafe {
            #dev::cache_fetch_tile(&*#a, #place, #rows, #cols, #pitch, |__acc_r: usize, __acc_c: usize| -> ::core::option::Option<usize> {
                #binds
                ::core::option::Option::Some((#index) as usize)
            })
        };
    }
}

/// Each reference to a staged window, proved inside it (`cache::match_ref`), read from its
/// tile: row and column the nest variable's thread index or the range's `e - lo`.
struct Reads<'w> {
    wins: &'w [TileWin],
    levels: &'w [Level],
    bounds: Vec<cache::Bound>,
    dev: &'w TokenStream,
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
            let b = cache::bound_of(f).filter(|b| b.hi > b.lo && self.wins.iter().any(|w| w.tiled.slots.iter().any(|s| s.base == b.base)));
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
                // The edge's trips: the same `w` steps, each guarded (the loop's trips are at
                // most `w`, proved), so that this copy too has a constant trip count.
                *e = syn::parse_quote! {{
                    let __acc_klo = #lo;
                    let __acc_khi = #hi;
                    if __acc_khi >= __acc_klo && __acc_khi - __acc_klo >= #span {
                        #(#attrs)* #label for __acc_u in 0..#w {
                            let #pat = __acc_klo + __acc_u;
                            #body
                        }
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
                if let Some(w) = self.wins.iter().find(|w| p.path.is_ident(&w.tiled.array)) {
                    let mut got = Vec::new();
                    let mut next = 0;
                    if cache::match_ref(&w.tiled.index, &ix.index, &w.tiled.slots, &mut next, &self.bounds, &mut got) && next == w.tiled.slots.len() {
                        let got: Vec<Expr> = got.into_iter().cloned().collect();
                        let dev = self.dev;
                        let at = |s: Src| match s {
                            Src::Slot(n) => {
                                let (g, lo) = (&got[n], &w.tiled.slots[n].lo);
                                quote!(((#g) as usize).wrapping_sub((#lo) as usize))
                            }
                            Src::Var(l) => {
                                let f = format_ident!("thread_idx_{}", ["x", "y", "z"][self.levels[l].dim]);
                                quote!((#dev::#f() as usize))
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
        syn::visit_mut::visit_expr_mut(self, e);
    }
    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
