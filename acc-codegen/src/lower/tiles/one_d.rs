//! 1-D `cache!` windows at the top of the tile loops of a `vector` loop's body ([`Window1`]).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Expr, Ident, Stmt};

use super::*;
use crate::front::cache::{self, Tiled};

/// A 1-D `cache!` window at the top of a sequential loop (a tile loop) in the body of a
/// `vector` loop, which does not move with the vector loop: `x[jj..jj + 256]` in
/// `for jj in (0..n).step_by(256) { acc::cache!(x[jj..jj + 256]); for j in jj..(jj + 256).min(n) { .. x[j] .. } }`
/// (the cache paper's N-body). Each trip of the tile loop the whole block fetches the window
/// (`acc_device::cache_fetch`), meets a barrier, runs the trip reading it from shared memory
/// (references proved inside it), and meets a barrier. The `vector` loop runs in trips of the
/// whole block (`schedule.rs`), threads past its end running only the fetches and barriers.
pub struct Window1 {
    /// The window as a tile of one range (`x[(lo..lo + width)]`).
    pub tiled: Tiled,
    pub width: usize,
    pub place: Ident,
}

/// A tile loop with its 1-D windows ([`Window1`]).
pub struct StagedLoop1 {
    pub stmt: usize,
    pub wins: Vec<Window1>,
}

/// The tile loops of a `vector` loop's body (its variable `var`) whose leading `cache!` holds
/// 1-D windows of `stageable` arrays that do not move with `var` (see [`Window1`]), and notes
/// (line, text) on those that are not staged and why.
pub fn plan_1d(body: &syn::Block, var: &Ident, stageable: &[Ident]) -> (Vec<StagedLoop1>, Vec<(usize, String)>) {
    let (mut staged, mut notes) = (Vec::new(), Vec::new());
    let (bound, assigned) = names_bound(body);
    let vector_body = VectorBody { var, bound, assigned, stageable, exit: early_exit(body) };
    for (s, st) in body.stmts.iter().enumerate() {
        let Stmt::Expr(Expr::ForLoop(f), _) = st else { continue };
        let windows = cache::leading(&f.body);
        if windows.is_empty() {
            continue;
        }
        let line = crate::info::loop_line(f);
        match vector_body.plan_loop(s, f, &windows) {
            Ok(l) => staged.push(l),
            Err(why) => notes.push((line, format!("cache!: not staged: {why}"))),
        }
    }
    (staged, notes)
}

/// What [`plan_1d`] knows of a `vector` loop's body, the same for each tile loop in it: the
/// vector loop's variable `var`, the names the body binds and assigns, the arrays that may be
/// staged, and a way the body leaves early.
struct VectorBody<'a> {
    var: &'a Ident,
    bound: Vec<Ident>,
    assigned: Vec<Ident>,
    stageable: &'a [Ident],
    exit: Option<&'static str>,
}

impl VectorBody<'_> {
    /// The tile loop `f` (statement `s` of the body) with its leading `cache!` windows
    /// `windows` staged, or why not.
    fn plan_loop(&self, s: usize, f: &syn::ExprForLoop, windows: &[cache::Window]) -> Result<StagedLoop1, String> {
        let (var, bound, assigned, stageable) = (self.var, &self.bound, &self.assigned, self.stageable);
        if let Some(j) = self.exit {
            return Err(format!("the loop's body leaves early (`{j}`), so its threads would not meet at the same barriers"));
        }
        let syn::Pat::Ident(pi) = &*f.pat else { return Err("the tile loop's variable is not a plain name".into()) };
        let kvar = &pi.ident;
        let (inner_bound, inner_assigned) = names_bound(&f.body);
        if inner_bound.contains(kvar) || inner_assigned.contains(kvar) {
            return Err(format!("`{kvar}` is bound again or assigned in the loop's body"));
        }
        let varying = |id: &Ident| id == var || ((bound.contains(id) || assigned.contains(id)) && id != kvar);
        if let Some(id) = cache::names_in(&f.expr).iter().find(|id| varying(id)) {
            return Err(format!("the tile loop's bounds read `{id}`, which is not the same in every thread of the block (every thread must take the same trips to meet at the barriers)"));
        }
        let mut wins = Vec::new();
        for (w, win) in windows.iter().enumerate() {
            let a = &win.array;
            if !stageable.contains(a) {
                return Err(format!("`{a}` is not a read-only `&[T]` parameter of the region"));
            }
            let ((lb, lo_off), (hb, hi_off)) = (cache::split_offset(&win.lo), cache::split_offset(&win.hi));
            let width = hi_off - lo_off + i64::from(win.inclusive);
            if lb != hb || !(1..=4096).contains(&width) {
                return Err(format!("the window `{a}[..]` is not `lo..lo + w` with a literal width of 1 to 4096"));
            }
            if let Some(id) = cache::names_in(&win.lo).iter().find(|id| varying(id)) {
                return Err(format!("the window `{a}[..]` reads `{id}`, which is not the same in every thread of the block"));
            }
            let lo = &win.lo;
            let slot = cache::Slot { lo: lo.clone(), base: lb, off: lo_off, width };
            // (Parenthesized: a range in a window's index is one of its slots, `cache::slot_node`.)
            let index: Expr = syn::parse_quote!(((#lo)..(#lo) + #width));
            wins.push(Window1 { tiled: Tiled { array: a.clone(), index, slots: vec![slot] }, width: width as usize, place: format_ident!("__acc_win1_{}_{}", s, w) });
        }
        Ok(StagedLoop1 { stmt: s, wins })
    }
}

/// The places of the 1-D windows in shared memory (after `start` bytes), before the loop (the
/// host sizes them from the plan: `Scheduled::tiles1`).
pub fn places_1d(staged: &[StagedLoop1], start: &TokenStream, dev: &TokenStream) -> TokenStream {
    let mut code = quote!(let mut __acc_woff1: usize = #start;);
    for w in staged.iter().flat_map(|l| &l.wins) {
        let (a, place, width) = (&w.tiled.array, &w.place, w.width);
        code.extend(quote!(let #place = #dev::cache_window(&*#a, #width, &mut __acc_woff1);));
    }
    code
}

/// The `vector` loop's body with its tile loops staged ([`Window1`]): `active` names whether
/// the thread's iteration is inside the loop; the others run only the fetches and barriers.
pub fn lower_1d(body: &syn::Block, staged: &[StagedLoop1], active: &Ident, dev: &TokenStream) -> syn::Block {
    let sync: Stmt = syn::parse_quote!(#dev::sync_threads_divergent(););
    let mut stmts = body.stmts.clone();
    let mut shadow = Vec::new();
    for l in staged {
        let Stmt::Expr(Expr::ForLoop(f), _) = &body.stmts[l.stmt] else { unreachable!("planned on a loop") };
        let fetches: Vec<Stmt> = l
            .wins
            .iter()
            .map(|w| {
                let (a, place, lo, width) = (&w.tiled.array, &w.place, &w.tiled.slots[0].lo, w.width);
                // SAFETY: the window holds `width` elements (`cache_window`); every thread of
                // the block runs this fetch, and a barrier follows it.
                syn::parse_quote!(unsafe { #dev::cache_fetch(&*#a, #place, (#lo) as usize, #width) };)
            })
            .collect();
        let mut reads = Reads { wins: &[], copies: Vec::new(), coarse: None, flat: &l.wins, levels: &[], bounds: Vec::new(), dev };
        let (lowered, sh) = staged_trip(f, fetches, f.body.stmts[1..].to_vec(), &mut reads, &sync);
        stmts[l.stmt] = lowered;
        shadow.push(sh);
    }
    syn::parse_quote!({
        if #active {
            #(#stmts)*
        } else {
            #(#shadow)*
        }
    })
}

