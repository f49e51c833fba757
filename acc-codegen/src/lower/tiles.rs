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
//! Where the tile has 8 or more rows, a multiple of 4 (2 rows for 4 or 6), each thread takes
//! 4 (or 2) rows of it ([`Coarse`]): the block is a quarter of the tile's rows high, and the
//! body is copied once per row (its `let` names and the row variable renamed apart), the
//! copies jammed statement by statement into the k-tile loop, loops of the same header fused
//! into one. One fetch and two barriers a trip then serve all the rows; a tile element that
//! all the copies read (`b`'s, at the thread's column) is loaded once, and a row of `a`'s tile
//! 16 bytes at a time (`acc_device::tile_pitch`). Measured on an H100 (benches/README.md):
//! the paper's GEMM with 16 x 16 tiles from 0.46 to 1.13 of nvcc's shared-memory kernel.
//! Where the block's tile is not whole (the nest's edge), the copies run one after another.
//!
//! Every thread of the block runs the same k-tile trips and reaches the same barriers: the
//! grid-stride loops of the nest step whole tiles of the block (`grid.rs`), and a thread
//! whose `(i, j)` is past the nest's end runs, instead of the body, only the k-tile loops'
//! fetches and barriers (the non-`.aligned` `barrier.sync`, reached from either branch). For
//! that the k-tile loop's bounds and the windows may read no variable of the nest, nor any
//! name the body binds or assigns (besides the k-tile loop's own variable), and the body may
//! not leave early (`return`, `?`, `break`/`continue` of the body's loops).
//!
//! The rows a thread (`tiles/coarse.rs`, `adjacent_rows`) are a block apart, or adjacent where a
//! window's rows move with the loop: a quarter of the tile's rows a thread, at most 8, so that the
//! copies' shared rows are read once. A body's own leading `cache!` whose ranges move with the
//! nest (`Src::Moving`, `StagedLoop::top`: the paper's Jacobi,
//! `a[(i - 1..i + 2) * n + (j - 1..j + 2)]`) has the block's tile and halo fetched once per tile
//! of the block. Tile pitches follow
//! how warps read them (`acc_device::tile_pitch`). Loops over a window's range are versioned to a
//! constant trip count and written out up to 32 trips (`tiles/emit.rs`). 1-D windows at the top
//! of a sequential loop in a `vector` loop's body are `tiles/one_d.rs`'s (`Window1`, `plan_1d`,
//! `lower_1d`), called from `lower::schedule`, which runs that loop in trips of the whole block.
//! The reasons a window is not staged are strings built here, for the report.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit::Visit;
use syn::{Expr, Ident, Stmt};

use crate::front::cache::{self, Tiled};

mod coarse;
mod emit;
mod one_d;

pub use coarse::{adjacent_rows, coarsening, copy_name};
use coarse::*;
pub use emit::{lower, places};
use emit::*;
pub use one_d::{lower_1d, places_1d, plan_1d, StagedLoop1, Window1};

/// Where a tile dimension's extent comes from.
#[derive(Clone, Copy, PartialEq)]
pub enum Src {
    /// The window's range number `n`: its width.
    Slot(usize),
    /// The variable of the nest's loop at this level: its block dimension.
    Var(usize),
    /// The window's range number `n`, which moves with the variable of the nest's loop at
    /// level `l` (`(i - 1..i + 2)`, the paper's `ITR + const`): the block dimension and the
    /// range's width less one (the iterations of the block share `blockDim + w - 1` rows).
    Moving(usize, usize),
}

impl Src {
    /// The nest level the extent follows, if any.
    fn level(self) -> Option<usize> {
        match self {
            Src::Var(l) | Src::Moving(_, l) => Some(l),
            Src::Slot(_) => None,
        }
    }

    /// The range number and nest level of a moving range.
    fn moving(self) -> Option<(usize, usize)> {
        match self {
            Src::Moving(n, l) => Some((n, l)),
            _ => None,
        }
    }

    /// The rows or columns past the block's own (`w - 1` for a moving range of width `w`).
    fn halo(self, t: &Tiled) -> usize {
        match self {
            Src::Moving(n, _) => t.slots[n].width as usize - 1,
            _ => 0,
        }
    }
}

/// One staged window.
pub struct TileWin {
    pub tiled: Tiled,
    pub rows: Src,
    pub cols: Src,
    /// The window's index as `x * p + y`: `x` (the rows), `p`, `y` (the columns), and the
    /// number of the first range (slot) in `x` and in `y`.
    pub parts: (Expr, Expr, Expr),
    pub first_slot: (usize, usize),
    /// The tile's place in shared memory, and its row pitch (both set before the nest).
    pub place: Ident,
    pub pitch: Ident,
    /// A tile with a halo (a range that moves with the nest): where each thread starts its
    /// fetch (`acc_device::halo_walk`, set before the nest).
    pub walk: Ident,
}

impl TileWin {
    /// Whether a range of the window moves with the nest (a halo around the block's tile).
    fn halo(&self) -> bool {
        self.rows.moving().is_some() || self.cols.moving().is_some()
    }
}

/// A staged k-tile loop: its statement's index in the innermost body, and its windows; or
/// (`top`) the windows of the body's own leading `cache!` (statement 0), fetched once per
/// tile of the block (the paper's Jacobi: `a[(i - 1..i + 2) * n + (j - 1..j + 2)]`).
pub struct StagedLoop {
    pub stmt: usize,
    pub top: bool,
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
    /// The rows of the tile each thread takes on this level ([`Coarse`]): 1, or the
    /// coarsened level's `m`; the tile is `coarse * blockDim` iterations on it.
    pub coarse: usize,
    /// Whether the loop steps by 1 (a window may move with its variable only then).
    pub unit: bool,
}

/// A staged nest whose threads each take `m` rows of the block's tile (the tile's rows `ty`,
/// `ty + blockDim.y`, ..; or `m ty`, `m ty + 1`, .., see `adjacent`): the element loop on the
/// block's `y` unrolled `m` times and jammed into the k-tile loops (one fetch and two barriers
/// a trip for all `m` rows, each element of a tile staged across the columns read once for
/// them all), as nvcc's register-blocked GEMMs do by hand. The iterations of a `tile` loop are independent, so running `m` of them
/// interleaved is running them in another order.
pub struct Coarse {
    /// The index in the nest of the loop on `y`.
    pub level: usize,
    pub m: usize,
    /// Whether a thread's `m` rows are adjacent (`m * ty + q`) rather than a block apart
    /// (`ty + q * blockDim.y`): where a staged window's rows move with the level (a stencil's
    /// `a[(i - 1..i + 2) * n + ..]`), so that adjacent copies read the same tile rows and each
    /// is loaded once for them all (a 3-row window: `m + 2` rows of loads, not `3 m`).
    pub adjacent: bool,
    /// The names each copy of the body renames (`name` -> `name__acc{q}`): the level's
    /// variable and the body's `let` bindings.
    pub names: Vec<Ident>,
}

/// Whether `body` holds a `break` or `continue` at any depth (outside closures).
fn leaves(body: &syn::Block) -> bool {
    struct V(bool);
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_break(&mut self, _: &'ast syn::ExprBreak) {
            self.0 = true;
        }
        fn visit_expr_continue(&mut self, _: &'ast syn::ExprContinue) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(false);
    v.visit_block(body);
    v.0
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
    let top = !cache::leading_tiles(body).is_empty();
    if candidates.is_empty() && !top {
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
    if top {
        let why = match &why_not_all {
            Some(w) => Err(w.clone()),
            None => plan_top(body, levels, &vars, &bound, &assigned, stageable),
        };
        match why {
            Ok(l) => staged.push(l),
            Err(w) => notes.push((cache_line(body), format!("cache!: not staged: {w}"))),
        }
    }
    for (s, f) in candidates {
        let line = crate::info::loop_line(f);
        if let Some(w) = &why_not_all {
            notes.push((line, format!("cache!: not staged: {w}")));
            continue;
        }
        if staged.iter().any(|l| l.top) {
            notes.push((line, "cache!: not staged: the nest's body stages windows of its own (its leading `cache!`), and a loop in it does not stage more yet".into()));
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
    let wins = plan_windows(s, &f.body, levels, vars, &varying, stageable)?;
    Ok(StagedLoop { stmt: s, top: false, wins, cache_line: cache_line(&f.body) })
}

/// The windows of the nest body's own leading `cache!`, fetched once per tile of the block.
fn plan_top(body: &syn::Block, levels: &[Level], vars: &[Ident], bound: &[Ident], assigned: &[Ident], stageable: &[Ident]) -> Result<StagedLoop, String> {
    let varying = |id: &Ident| vars.contains(id) || bound.contains(id) || assigned.contains(id);
    let wins = plan_windows(0, body, levels, vars, &varying, stageable)?;
    Ok(StagedLoop { stmt: 0, top: true, wins, cache_line: cache_line(body) })
}

/// The line of the `cache!` that starts `body`.
fn cache_line(body: &syn::Block) -> usize {
    match body.stmts.first() {
        Some(Stmt::Macro(m)) => crate::info::line_of(syn::spanned::Spanned::span(&m.mac.path)),
        Some(Stmt::Expr(Expr::Macro(m), _)) => crate::info::line_of(syn::spanned::Spanned::span(&m.mac.path)),
        _ => 0,
    }
}

/// The 2-D windows of the `cache!` that starts `body` (statement `s` of the nest's body),
/// each of a `stageable` array, of the shape `X * p + Y`, reading no `varying` name besides
/// the nest variables its ranges move with.
fn plan_windows(s: usize, body: &syn::Block, levels: &[Level], vars: &[Ident], varying: &dyn Fn(&Ident) -> bool, stageable: &[Ident]) -> Result<Vec<TileWin>, String> {
    let mut wins = Vec::new();
    for (w, t) in cache::leading_tiles(body).into_iter().enumerate() {
        let a = &t.array.clone();
        if !stageable.contains(a) {
            return Err(format!("`{a}` is not a read-only `&[T]` parameter of the region"));
        }
        let Shape { rows, cols, p, x, y, first_slot } = shape(&t, vars).ok_or_else(|| {
            let ix = &t.index;
            format!("`{a}[{}]` is not of the form `X * p + Y`, each of `X` and `Y` a range `(lo..lo + w)` or a variable of the nest (not both variables, nor both following one), `p` reading neither", quote!(#ix))
        })?;
        let mut reads: Vec<Ident> = cache::names_in(&p);
        for (n, sl) in t.slots.iter().enumerate() {
            // A range that moves with a nest variable reads only it (`base + off`).
            if let Some((_, l)) = [rows, cols].into_iter().filter_map(Src::moving).find(|&(m, _)| m == n) {
                if !levels[l].unit {
                    return Err(format!("the window `{a}[..]` moves with `{}`, whose loop does not step by 1", levels[l].var));
                }
                continue;
            }
            reads.extend(cache::names_in(&sl.lo));
        }
        if let Some(id) = reads.iter().find(|id| varying(id)) {
            return Err(format!("the window `{a}[..]` reads `{id}` besides its variables, which is not the same in every thread of the block"));
        }
        let win = TileWin { tiled: t, rows, cols, parts: (x, p, y), first_slot, place: format_ident!("__acc_tile{}_{}", s, w), pitch: format_ident!("__acc_pitch{}_{}", s, w), walk: format_ident!("__acc_walk{}_{}", s, w) };
        if rows.level().is_some() && fixed_cols(&win, levels).is_none() {
            return Err(format!("the window `{a}[..]`'s rows and columns both follow the nest, which needs the column loop's tile size as a literal (`tile(32, 8)`)"));
        }
        wins.push(win);
    }
    Ok(wins)
}

/// A window's index `X * p + Y` (in either order, `p * X` too).
struct Shape {
    rows: Src,
    cols: Src,
    p: Expr,
    x: Expr,
    y: Expr,
    /// The number of the first range (slot) in `X` and in `Y`.
    first_slot: (usize, usize),
}

/// The window's dimensions: `X * p + Y` as (rows `X`, columns `Y`, `p`).
fn shape(t: &Tiled, vars: &[Ident]) -> Option<Shape> {
    let Expr::Binary(b) = cache::strip(&t.index) else { return None };
    if !matches!(b.op, syn::BinOp::Add(_)) {
        return None;
    }
    // The slots of the left side come first.
    let left_slots = count_slots(&b.left);
    let src = |e: &Expr, first_slot: usize| -> Option<Src> {
        if cache::slot_node(e) {
            let base = &t.slots[first_slot].base;
            return Some(match vars.iter().position(|v| *v == *base) {
                Some(l) => Src::Moving(first_slot, l),
                None => Src::Slot(first_slot),
            });
        }
        match cache::strip(e) {
            Expr::Path(p) => vars.iter().position(|v| p.path.is_ident(v)).map(Src::Var),
            _ => None,
        }
    };
    let plain = |e: &Expr| count_slots(e) == 0 && !vars.iter().any(|v| crate::front::loops::mentions(e, v));
    // `X * p` or `p * X`: (X's source, p, X).
    let mul = |e: &Expr, first_slot: usize| -> Option<(Src, Expr, Expr)> {
        let Expr::Binary(m) = cache::strip(e) else { return None };
        if !matches!(m.op, syn::BinOp::Mul(_)) {
            return None;
        }
        if plain(&m.right) {
            if let Some(x) = src(&m.left, first_slot) {
                return Some((x, (*m.right).clone(), (*m.left).clone()));
            }
        }
        if plain(&m.left) {
            if let Some(x) = src(&m.right, first_slot + count_slots(&m.left)) {
                return Some((x, (*m.left).clone(), (*m.right).clone()));
            }
        }
        None
    };
    let shape = if let Some((rows, p, x)) = mul(&b.left, 0) {
        Shape { rows, cols: src(&b.right, left_slots)?, p, x, y: (*b.right).clone(), first_slot: (0, left_slots) }
    } else {
        let (rows, p, x) = mul(&b.right, left_slots)?;
        Shape { rows, cols: src(&b.left, 0)?, p, x, y: (*b.left).clone(), first_slot: (left_slots, 0) }
    };
    if matches!((shape.rows, shape.cols), (Src::Var(_), Src::Var(_))) || shape.rows == shape.cols || (shape.rows.level().is_some() && shape.rows.level() == shape.cols.level()) {
        return None;
    }
    Some(shape)
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

