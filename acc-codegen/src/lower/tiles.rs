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

/// The name of copy `q` of `name` in a coarsened body.
pub fn copy_name(name: &Ident, q: usize) -> Ident {
    format_ident!("{}__acc{}", name, q)
}

/// Whether (and how far) to coarsen a staged 2-D nest: the loop on `y` with a literal tile
/// size of at least 4 rows, even, takes `m` = 4 rows a thread (2 where the size is not a
/// multiple of 4). `Err`: why not, where the body is what stops it.
pub fn coarsening(body: &syn::Block, levels: &[Level]) -> Result<Option<Coarse>, String> {
    let Some(level) = levels.iter().position(|l| l.dim == 1) else { return Ok(None) };
    let Some(size) = levels[level].size else { return Ok(None) };
    let m = if size % 4 == 0 && size >= 8 { 4 } else if size % 2 == 0 && size >= 4 { 2 } else { 1 };
    if m == 1 {
        return Ok(None);
    }
    if let Some(j) = early_exit(body) {
        return Err(format!("the nest's body leaves early (`{j}`), which would leave the other rows' copies too"));
    }
    let (lets, others) = bindings(body);
    if let Some(id) = lets.iter().find(|id| others.contains(id)) {
        return Err(format!("`{id}` is bound both by a `let` and by another pattern in the nest's body"));
    }
    let mut names = vec![levels[level].var.clone()];
    names.extend(lets);
    names.dedup();
    Ok(Some(Coarse { level, m, names, adjacent: false }))
}

/// The names `body` binds with `let`, and those other patterns bind (loops, closures, `match`).
fn bindings(body: &syn::Block) -> (Vec<Ident>, Vec<Ident>) {
    struct V {
        in_let: bool,
        lets: Vec<Ident>,
        others: Vec<Ident>,
    }
    impl<'ast> Visit<'ast> for V {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            let was = std::mem::replace(&mut self.in_let, true);
            self.visit_pat(&l.pat);
            self.in_let = was;
            if let Some(init) = &l.init {
                self.visit_expr(&init.expr);
                if let Some((_, e)) = &init.diverge {
                    self.visit_expr(e);
                }
            }
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if self.in_let {
                self.lets.push(p.ident.clone());
            } else {
                self.others.push(p.ident.clone());
            }
            syn::visit::visit_pat_ident(self, p);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V { in_let: false, lets: Vec::new(), others: Vec::new() };
    v.visit_block(body);
    v.lets.sort();
    v.lets.dedup();
    (v.lets, v.others)
}

/// Renames `names` to their copy `q` (`copy_name`): in expressions, `let` patterns, field
/// shorthands and macro arguments (an identifier there, unless it follows a `.`).
struct Rename<'a> {
    names: &'a [Ident],
    q: usize,
}

impl Rename<'_> {
    fn tokens(&self, ts: TokenStream) -> TokenStream {
        use proc_macro2::TokenTree;
        let mut out = Vec::new();
        let mut after_dot = false;
        for t in ts {
            let t = match t {
                TokenTree::Ident(i) if !after_dot && self.names.contains(&i) => TokenTree::Ident(copy_name(&i, self.q)),
                TokenTree::Group(g) => {
                    let mut n = proc_macro2::Group::new(g.delimiter(), self.tokens(g.stream()));
                    n.set_span(g.span());
                    TokenTree::Group(n)
                }
                other => other,
            };
            after_dot = matches!(&t, TokenTree::Punct(p) if p.as_char() == '.');
            out.push(t);
        }
        out.into_iter().collect()
    }
}

impl VisitMut for Rename<'_> {
    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                if self.names.contains(id) {
                    p.path = copy_name(id, self.q).into();
                }
            }
        }
    }
    fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
        if self.names.contains(&p.ident) {
            p.ident = copy_name(&p.ident, self.q);
        }
        syn::visit_mut::visit_pat_ident_mut(self, p);
    }
    fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
        if f.colon_token.is_none() {
            f.colon_token = Some(Default::default());
        }
        syn::visit_mut::visit_field_value_mut(self, f);
    }
    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        m.tokens = self.tokens(std::mem::take(&mut m.tokens));
    }
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

fn renamed<T: Clone>(t: &T, names: &[Ident], q: usize, visit: impl Fn(&mut Rename, &mut T)) -> T {
    let mut t = t.clone();
    visit(&mut Rename { names, q }, &mut t);
    t
}

/// Copies of the same statements (renamed apart) interleaved: statement by statement, the
/// copies of a `for` loop whose header is the same in all and whose body cannot leave it
/// early fused into one loop over the copies' bodies, jammed in turn (so a loop reading the
/// same tile element for every copy reads it once); any other statement copy after copy.
fn jam(copies: Vec<Vec<Stmt>>) -> Vec<Stmt> {
    let n = copies.first().map_or(0, Vec::len);
    let mut out = Vec::new();
    for s in 0..n {
        let sts: Vec<&Stmt> = copies.iter().map(|c| &c[s]).collect();
        match fuse(&sts) {
            Some(f) => out.push(f),
            None => out.extend(sts.into_iter().cloned()),
        }
    }
    out
}

fn fuse(sts: &[&Stmt]) -> Option<Stmt> {
    let loops: Vec<&syn::ExprForLoop> = sts
        .iter()
        .map(|s| match s {
            Stmt::Expr(Expr::ForLoop(f), _) => Some(f),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let head = |f: &syn::ExprForLoop| {
        let (attrs, pat, e) = (&f.attrs, &f.pat, &f.expr);
        quote!(#(#attrs)* #pat #e).to_string()
    };
    let first = loops[0];
    if first.label.is_some() || loops.iter().any(|f| head(f) != head(first)) || early_exit(&first.body).is_some() || leaves(&first.body) {
        return None;
    }
    let mut f = first.clone();
    f.body.stmts = jam(loops.iter().map(|l| l.body.stmts.clone()).collect());
    let Stmt::Expr(_, semi) = sts[0] else { unreachable!("a loop") };
    Some(Stmt::Expr(Expr::ForLoop(f), *semi))
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

/// The tokens of a tile dimension's extent.
fn extent(t: &Tiled, s: Src, levels: &[Level], dev: &TokenStream) -> TokenStream {
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
fn tile_reads(w: &TileWin, levels: &[Level]) -> Ident {
    let reads = match (w.rows.level(), w.cols) {
        (Some(l), Src::Slot(_)) if levels[l].dim != 0 => "Rows",
        (_, Src::Var(l) | Src::Moving(_, l)) if levels[l].dim == 0 => "Lanes",
        _ => "Other",
    };
    format_ident!("{}", reads)
}

/// A tile's columns where they do not depend on the launch: a range's width, or a literal tile
/// size (which the block never exceeds) plus a moving range's halo.
fn fixed_cols(w: &TileWin, levels: &[Level]) -> Option<usize> {
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
fn staged_trip(f: &syn::ExprForLoop, fetches: Vec<Stmt>, mut rest: Vec<Stmt>, reads: &mut Reads, sync: &Stmt) -> (Stmt, Stmt) {
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
fn read_staged(rest: &mut [Stmt], reads: &mut Reads) {
    for s in rest.iter_mut() {
        reads.visit_stmt_mut(s);
    }
    if let Some(Stmt::Expr(_, semi @ None)) = rest.last_mut() {
        *semi = Some(Default::default());
    }
}

/// A coarsened body's runs: `whole` where the block's tile is whole on every level
/// (`__acc_wh{l}`), else `edge`.
fn whole_or_edge(levels: &[Level], whole: &[Stmt], edge: TokenStream) -> TokenStream {
    let wh = (0..levels.len()).map(|l| format_ident!("__acc_wh{}", l));
    quote! {
        if #(#wh)&&* {
            #(#whole)*
        } else {
            #edge
        }
    }
}

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
    let exit = early_exit(body);
    for (s, st) in body.stmts.iter().enumerate() {
        let Stmt::Expr(Expr::ForLoop(f), _) = st else { continue };
        let windows = cache::leading(&f.body);
        if windows.is_empty() {
            continue;
        }
        let line = crate::info::loop_line(f);
        match plan_loop_1d(s, f, &windows, var, &bound, &assigned, stageable, exit) {
            Ok(l) => staged.push(l),
            Err(why) => notes.push((line, format!("cache!: not staged: {why}"))),
        }
    }
    (staged, notes)
}

#[allow(clippy::too_many_arguments)]
fn plan_loop_1d(s: usize, f: &syn::ExprForLoop, windows: &[cache::Window], var: &Ident, bound: &[Ident], assigned: &[Ident], stageable: &[Ident], exit: Option<&str>) -> Result<StagedLoop1, String> {
    if let Some(j) = exit {
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

/// The places of the 1-D windows in shared memory (after `start` bytes), before the loop, and
/// the host's sizes of them: (array, elements).
pub fn places_1d(staged: &[StagedLoop1], start: &TokenStream, dev: &TokenStream) -> (TokenStream, Vec<(Ident, usize)>) {
    let mut code = quote!(let mut __acc_woff1: usize = #start;);
    let mut sizes = Vec::new();
    for w in staged.iter().flat_map(|l| &l.wins) {
        let (a, place, width) = (&w.tiled.array, &w.place, w.width);
        code.extend(quote!(let #place = #dev::cache_window(&*#a, #width, &mut __acc_woff1);));
        sizes.push((a.clone(), width));
    }
    (code, sizes)
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

/// The fetch of one tile: element `(r, c)` is the window's index with its ranges at `lo + r`
/// or `lo + c` and its nest variable at the block's `r`-th (or `c`-th) iteration.
fn fetch(w: &TileWin, levels: &[Level], tile_base: &dyn Fn(usize) -> Ident, dev: &TokenStream) -> Stmt {
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
                *e = if self.moving.contains(&self.next) { syn::parse_quote!(#dev::idx::index(#lo, #at, 1)) } else { syn::parse_quote!(((#lo) + #at)) };
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

/// Where staged windows' rows move with the coarsened level (a stencil's, see
/// [`Coarse::adjacent`]), its rows a thread: blocks of 4 rows of threads, each thread `size / 4`
/// adjacent rows of the tile (at most 8): `tile(32, 32)` 8, `tile(32, 16)` 4. On an H200, the
/// cache paper's Jacobi step (4096^2 `f32`, one call, three rounds; ms, `cache!` on
/// `tile(32, 32)` / `tile(32, 16)`): rows a block apart 0.072-0.073 / 0.066; adjacent, 4 a
/// thread 0.069-0.070 / 0.063-0.066; 8 a thread 0.061-0.064 / 0.065-0.067 (blocks of 2 rows);
/// 2 a thread 0.100 / 0.092 (`benches/results/jacobi-rows-h200/` as of 33f665f). `ACC_EXP_STRIDED_ROWS=1`
/// keeps the rows a block apart, `ACC_EXP_ADJ_ROWS=m` sets `m`, for A/B runs on the GPU.
/// Tiles of fewer than 8 rows keep [`coarsening`]'s `m` (`c`), adjacent.
pub fn adjacent_rows(staged: &[StagedLoop], levels: &[Level], c: &Coarse) -> Option<usize> {
    let moves = staged.iter().flat_map(|l| &l.wins).any(|w| matches!(w.rows, Src::Moving(_, l) if l == c.level));
    if !moves || std::env::var_os("ACC_EXP_STRIDED_ROWS").is_some() {
        return None;
    }
    let size = levels[c.level].size.unwrap_or(0);
    let m = std::env::var("ACC_EXP_ADJ_ROWS").ok().and_then(|v| v.parse::<usize>().ok()).unwrap_or((size / 4).min(8));
    Some(if m >= 2 && size.is_multiple_of(m) { m } else { c.m })
}

/// The row (or column) of the tile of copy `q` of the thread's iteration on level `l`: its
/// thread index, plus `q * blockDim` on the coarsened level (`m * thread index + q` where its
/// rows are adjacent).
fn at_var(levels: &[Level], l: usize, coarse: Option<&Coarse>, q: usize, dev: &TokenStream) -> TokenStream {
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
struct Reads<'w> {
    wins: &'w [TileWin],
    /// The copies of the body whose references this visit reads (`Coarse`): the copy's
    /// number and its windows (the windows' own where not coarsened, else renamed).
    copies: Vec<(usize, Vec<Tiled>)>,
    /// The coarsened nest: copy `q` reads its tile rows at `thread_idx + q * blockDim`, or at
    /// `m * thread_idx + q` where they are adjacent.
    coarse: Option<&'w Coarse>,
    /// 1-D windows at the top of a tile loop of a `vector` loop's body ([`Window1`]).
    flat: &'w [Window1],
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
