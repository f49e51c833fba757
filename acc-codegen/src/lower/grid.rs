//! Multi-dimensional GPU schedules (OpenUH's kernels loop scheduling, `openuh-nested-loops-
//! and-reductions` §4.2, Fig. 9-10): two or three tightly nested loops, each a grid-stride loop
//! over a dimension of a 2-D/3-D grid and/or of a 2-D/3-D block.
//!
//! Which nests take it (the others keep `schedule.rs`'s gang -> `blockIdx.x`, worker ->
//! `threadIdx.y`, vector -> `threadIdx.x`):
//! - a bare `kernels` nest (no level clause): the loops from the outermost that the
//!   dependence test proves independent, each with the outer ones' variables fixed (two
//!   distinct iterations differ in the first loop where their indices differ, and that loop's
//!   test covers them), up to three; the innermost on `x`, the next on `y`, then `z`, each over
//!   the grid and block dimension of that name, so adjacent threads take adjacent iterations
//!   of the innermost loop (coalesced row-major accesses);
//! - a `kernels` nest whose tightly nested loops all name levels (g-v, gv-v, g-gv, gv-gv,
//!   g-gv-v, v-gv-gv, gv-gv-gv...): the loops with `worker`/`vector` take block dimensions
//!   and the loops with `gang` grid dimensions, each innermost first (x, then y, then z);
//!   `gang(dim: d)` picks the grid dimension; `gang(n)` sets that dimension's blocks and
//!   `vector(n)`/`worker(n)` that loop's threads; as in `schedule.rs`, the outermost loop takes
//!   the gangs when none names them and the innermost the vector lanes when none names them;
//! - `tile(x, y[, z])` on the outermost loop of a nest (any region): the tile is one block of
//!   `x * y (* z)` threads (the first size the innermost loop's, on `x`); the tile loops run over
//!   the blocks (grid-stride by whole tiles) and the element loops over the block's threads.
//!
//! Reductions (NVIDIA's Jacobi: `reduction(max: err)` on a 2-D nest): each thread accumulates
//! its own copy (the operator's identity, set up by the caller) across its grid-stride
//! iterations; after the loops the block combines the copies of all its threads in x, y and z
//! (`acc_device::block_reduce_xyz`, the shuffle and shared-memory tree of the one-dimensional
//! schedule's block reductions), and thread (0, 0, 0) stores one partial per block at the
//! block's linear index (`acc_device::store_grid_partial`); the host folds the `gridDim.x *
//! gridDim.y * gridDim.z` partials (what the launch returns) and combines them with the value
//! the variable had before the nest, as for the one-dimensional schedule. The clauses may be
//! on any loop of the nest, for every operator and type a reduction takes; an inner loop that
//! updates a variable an outer loop reduces gets its clause (OpenUH's placement, as in
//! `schedule.rs`), so a clause on the outermost loop is enough. A nest keeps the
//! one-dimensional schedule where a reduction's variable is read in the body other than in its
//! updates (`s += a[i]; b[i] = s;`), where a clause names a variable declared inside the nest,
//! or where a loop of it has a `private` clause.
//!
//! Only nests whose innermost body holds no parallel loop. Nothing before the reductions'
//! finish needs a barrier: each thread runs the body for its own iterations.
//!
//! What is decided (`GridPlan`: each loop's dimension, tiles, rows a thread, bands) comes before
//! what is written. A two-loop nest without reductions that is not a `tile` nest gives each block
//! a band of consecutive `y` trips on up to `BAND_WAVES` (8) waves of blocks (`banded`,
//! acc-device's `Dims::waves`); other nests are grid-stride in every dimension. A three-loop nest
//! without reductions, bands or tiles whose trips the host computes (`takes_points`) also gets a
//! kernel of one point a thread (`schedule` with `point`: each loop's first trip only), written
//! beside the unchecked kernel as `<name>_pt_inb` (acc-build makes its `_pt_inbc` as for any
//! `_inb` kernel); the launch runs it on the grid `Dims::covering_shape` computes
//! (`Geometry::point_kernel`), only where each dimension's threads fit a `u32`, so that the
//! kernel computes its indices and tests all loops' trips at once in 32 bits.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, ExprForLoop};

use crate::front::directives::LoopDirectives;
use crate::front::loops::{self, LoopHeader};
use crate::front::model::*;
use crate::info::{self, Notes};
use crate::lower::tiles;
use crate::paths;

const XYZ: [&str; 3] = ["x", "y", "z"];

/// The waves of blocks a banded nest's grid may hold (see `banded` in [`schedule`]): on an
/// H100 the Laplacian's bands in CUDA ran 0.2926 / 0.2974 / 0.2685 / 0.2523 / 0.2481 ms on 1, 2,
/// 4, 8 and 16 waves (one point a thread: 0.2733).
const BAND_WAVES: usize = 8;

/// One loop of a grid schedule.
struct GridLoop {
    header: LoopHeader,
    line: usize,
    /// The grid dimension (0 = x) its gangs spread over.
    gang: Option<usize>,
    /// The block dimension its threads spread over.
    block: Option<usize>,
    /// `gang(n)`: the blocks of its grid dimension.
    gang_size: Option<Expr>,
    /// `vector(n)` / `worker(n)` / a tile size: the threads of its block dimension.
    block_size: Option<Expr>,
}

/// A nest scheduled over a multi-dimensional grid.
pub struct Grid {
    /// The kernel code of the nest.
    pub code: TokenStream,
    /// The host expression of the launch's `acc::__private::Dims`.
    pub dims: TokenStream,
    /// info: what each loop became.
    pub notes: Notes,
    /// The 2-D `cache!` tiles staged in shared memory (`tiles.rs`): the array, and the
    /// tile's elements per `blockDim.x`, per `blockDim.y` and fixed.
    pub tiles: Vec<(syn::Ident, [TokenStream; 3])>,
    /// The lines of the `cache!`s of those tiles.
    pub tile_lines: Vec<usize>,
}

/// A nest asked of the grid schedule.
pub struct GridNest<'a> {
    pub f: &'a ExprForLoop,
    pub kind: RegionKind,
    pub directives: &'a LoopDirectives,
    /// The nest's reductions, which the kernel reduces into block partials `0..reds.len()`
    /// (their private copies are set up by the caller); `None` when the nest has reductions a
    /// grid does not take (then it never does).
    pub reds: Option<&'a [(RedOp, syn::Ident)]>,
    /// The read-only `&[T]` parameters whose 2-D `cache!` windows may be staged.
    pub stageable: &'a [syn::Ident],
    /// The region's clauses: in `parallel`, `num_gangs(n1, n2, n3)` sizes the grid
    /// dimensions of a nest whose loops name `gang(dim: d)`, and `num_workers` /
    /// `vector_length` its block dimensions.
    pub clauses: &'a RegionClauses,
}

/// A nest's grid schedule, decided: each loop's dimensions, the 2-D tiles staged, the rows
/// of a tile a thread takes, bands.
struct GridPlan {
    chain: Vec<GridLoop>,
    /// The innermost body, the staged tiles' reads and fetches written in (`tiles::lower`).
    body: syn::Block,
    levels: Vec<tiles::Level>,
    staged: Vec<tiles::StagedLoop>,
    coarse: Option<tiles::Coarse>,
    tile_nest: bool,
    /// The nest's loops step whole tiles of the block (every thread the same trips), where
    /// tiles are staged or the block's threads take several rows.
    whole_tiles: bool,
    /// Each block takes a band of consecutive trips of the loop on `y` (see [`banded`]).
    banded: bool,
    /// info: what each loop became.
    notes: Notes,
}

impl GridPlan {
    /// The rows a thread takes on level `lvl` (1 but on the coarsened level).
    fn coarse_m(&self, lvl: usize) -> usize {
        self.coarse.as_ref().filter(|c| c.level == lvl).map_or(1, |c| c.m)
    }
}

/// The grid schedule of the nest `n.f`, or `None` when the nest takes the one-dimensional
/// schedule (see [`GridNest`]).
///
/// With `point`, the nest's kernel of one point a thread instead (see `takes_points`): each
/// loop runs its first trip only, `if` where the grid-stride loop has `while`, for a launch on
/// a grid that covers every loop's trips (`Dims::covering_shape`, from the trips the host
/// computes, so only loops whose bounds it can: `host_computable`); `None` for a nest that
/// does not take it.
pub fn schedule(n: &GridNest, point: bool, body_of: &mut dyn FnMut(&syn::Block) -> syn::Block) -> Option<Grid> {
    let reds = n.reds?;
    let plan = decide(n, reds)?;
    if point && !takes_points(&plan.chain, reds, plan.tile_nest || plan.whole_tiles || plan.banded) {
        return None;
    }
    let (places, tiles) = tiles::places(&plan.staged, &plan.levels, &paths::device(), &paths::runtime());
    let tile_lines: Vec<usize> = plan.staged.iter().map(|l| l.cache_line).collect();
    // The kernel: the loops' grid-stride loops around the body, run by one thread.
    let code = super::schedule::run_once(&body_of(&plan.body).stmts);
    let code = loops_code(&plan, point, code);
    let dims = launch_dims(&plan);
    let mut notes = plan.notes;
    let code = reductions_code(&plan.chain, reds, code, &mut notes);
    let code = quote!(#places #code);
    Some(Grid { code, dims, notes, tiles, tile_lines })
}

/// Decides the grid schedule of `n.f`: its loops' dimensions (`chain_of`), then the tiles,
/// rows and bands.
fn decide(n: &GridNest, reds: &[(RedOp, syn::Ident)]) -> Option<GridPlan> {
    let (chain, body) = chain_of(n.f, n.kind, n.directives, n.clauses)?;
    // A reduction variable the body reads for anything but its updates (its partial value)
    // keeps the one-dimensional schedule.
    if reds.iter().any(|(_, v)| !crate::lower::schedule::only_updates(&body, v)) {
        return None;
    }
    let mut notes = dims_notes(&chain);
    // 2-D `cache!` windows of a tile nest (`tiles.rs`): staged where every thread of a block
    // takes the same trips, which the grid-stride loops then keep (whole tiles).
    let tile_nest = n.directives.get(n.f).is_some_and(|d| d.tile.is_some());
    let uniform = chain.iter().enumerate().all(|(lvl, g)| g.gang == g.block && g.block.is_some() && !chain[..lvl].iter().any(|o| g.header.mentions(&o.header.var)));
    let mut levels = tile_levels(&chain);
    let (staged, why_not) = if tile_nest && uniform { tiles::plan(&body, &levels, n.stageable) } else { (Vec::new(), Vec::new()) };
    for (line, text) in why_not {
        notes.at(line, chain.len(), text);
    }
    let coarse = match coarse_rows(&body, &levels, &staged, tile_nest && uniform) {
        Ok(c) => c,
        Err(why) => {
            notes.at(chain[0].line, 0, format!("tile: one row of the tile a thread: {why}"));
            None
        }
    };
    if let Some(c) = &coarse {
        levels[c.level].coarse = c.m;
        coarse_notes(&chain, c, staged.is_empty(), &mut notes);
    }
    let whole_tiles = !staged.is_empty() || coarse.is_some();
    let body = if !whole_tiles {
        body
    } else {
        staged_notes(&chain, &body, &staged, &mut notes);
        tiles::lower(&body, &staged, &levels, coarse.as_ref(), &tile_base, &paths::device())
    };
    let banded = banded(&chain, reds, tile_nest, whole_tiles);
    if banded {
        if let Some((lvl, g)) = chain.iter().enumerate().find(|(_, g)| g.gang == Some(1)) {
            notes.0[lvl].text = format!(
                "loop `{}`: blockIdx.y, threadIdx.y (multi-dimensional schedule); a band of consecutive trips a block (trips / gridDim.y, rounded up), trip = band start + threadIdx.y, by blockDim.y within the band",
                g.header.var
            );
        }
    }
    Some(GridPlan { chain, body, levels, staged, coarse, tile_nest, whole_tiles, banded, notes })
}

/// info: each loop's dimensions, one note a loop (in the chain's order: later notes restate
/// them by index).
fn dims_notes(chain: &[GridLoop]) -> Notes {
    let mut notes = Notes::default();
    for (lvl, g) in chain.iter().enumerate() {
        let mut parts = Vec::new();
        if let Some(d) = g.gang {
            parts.push(format!("blockIdx.{}", XYZ[d]));
        }
        if let Some(b) = g.block {
            parts.push(format!("threadIdx.{}", XYZ[b]));
        }
        let (start, stride) = match (g.gang, g.block) {
            (Some(d), Some(b)) => (format!("blockIdx.{0} * blockDim.{1} + threadIdx.{1}", XYZ[d], XYZ[b]), format!("gridDim.{} * blockDim.{}", XYZ[d], XYZ[b])),
            (Some(d), None) => (format!("blockIdx.{}", XYZ[d]), format!("gridDim.{}", XYZ[d])),
            (None, Some(b)) => (format!("threadIdx.{}", XYZ[b]), format!("blockDim.{}", XYZ[b])),
            (None, None) => unreachable!("every loop of a grid schedule has a dimension"),
        };
        let text = |e: &Expr| quote!(#e).to_string();
        let mut sizes = Vec::new();
        if let (Some(d), Some(n)) = (g.gang, &g.gang_size) {
            sizes.push(format!("gridDim.{} = {}", XYZ[d], text(n)));
        }
        if let (Some(b), Some(n)) = (g.block, &g.block_size) {
            sizes.push(format!("blockDim.{} = {}", XYZ[b], text(n)));
        }
        let sizes = if sizes.is_empty() { String::new() } else { format!("; {}", sizes.join(", ")) };
        notes.at(g.line, lvl, format!("loop `{}`: {} (multi-dimensional schedule); trip = {start}, grid-stride by {stride}{sizes}", g.header.var, parts.join(", ")));
    }
    notes
}

/// The chain's loops as `tiles.rs` takes them.
fn tile_levels(chain: &[GridLoop]) -> Vec<tiles::Level> {
    let dev = paths::device();
    chain
        .iter()
        .enumerate()
        .map(|(lvl, g)| {
            let norm = loops::normalise(&g.header, 900 + lvl, &quote!(#dev::index));
            let size = match &g.block_size {
                Some(Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })) => n.base10_parse::<usize>().ok().filter(|n| (1..=1024).contains(n)),
                _ => None,
            };
            tiles::Level { var: g.header.var.clone(), dim: g.block.unwrap_or(0), index: norm.index, trip: norm.trip, size, coarse: 1, unit: g.header.step.is_none() }
        })
        .collect()
}

/// Several rows of the tile a thread: where tiles are staged, and in a 2-D tile nest without
/// them whose body holds a loop (the copies' reads of the same element, `b[k * n + j]` in a
/// GEMM, loaded once). Not a body without one (a stencil's): the copies share no load, and
/// the jammed copies' registers left a 9-point Jacobi step at 0.35 ms against 0.093 with
/// one row a thread (4096^2 f32, `tile(32, 32)`, H100). `uniform_tiles`: a tile nest whose
/// every thread of a block takes the same trips. `Err`: why the tile keeps one row a thread.
fn coarse_rows(body: &syn::Block, levels: &[tiles::Level], staged: &[tiles::StagedLoop], uniform_tiles: bool) -> Result<Option<tiles::Coarse>, String> {
    if staged.is_empty() && !(uniform_tiles && levels.len() == 2 && has_loop(body)) {
        return Ok(None);
    }
    Ok(tiles::coarsening(body, levels)?.map(|c| match tiles::adjacent_rows(staged, levels, &c) {
        Some(m) => tiles::Coarse { adjacent: true, m, ..c },
        None => c,
    }))
}

/// info: the coarsened level's trips restated, and the rows a thread takes.
fn coarse_notes(chain: &[GridLoop], c: &tiles::Coarse, unstaged: bool, notes: &mut Notes) {
    let g = &chain[c.level];
    if let (Some(d), Some(b)) = (g.gang, g.block) {
        let (d, b, m) = (XYZ[d], XYZ[b], c.m);
        // (The loops' notes are the first, one a loop: this one's trips restated.)
        let at = if c.adjacent { format!("{m} * threadIdx.{b} + q") } else { format!("threadIdx.{b} + q * blockDim.{b}") };
        notes.0[c.level].text = format!(
            "loop `{}`: blockIdx.{d}, threadIdx.{b} (multi-dimensional schedule); trips = blockIdx.{d} * {m} * blockDim.{b} + {at} for q < {m}, grid-stride by gridDim.{d} * {m} * blockDim.{b}",
            g.header.var
        );
    }
    let (at, why) = if c.adjacent {
        (format!("{} * threadIdx.y + q", c.m), ", adjacent rows since the window's rows move with it (a row of the tile the copies share is loaded once)")
    } else {
        ("threadIdx.y + q * blockDim.y".to_string(), "")
    };
    notes.at(g.line, c.level, format!(
        "tile: each thread takes {} rows of the tile (`{}` at {at}, q < {}{why}; blocks of 1/{} of the tile's rows), the {} copies of the body jammed, loops of one header fused: an element every copy reads is loaded once{}",
        c.m, g.header.var, c.m, c.m, c.m, if unstaged { "" } else { ", one fetch and two barriers a trip of the staged loops for all of them" }));
}

/// info: each staged loop's 2-D tiles (or the body's own, `top`).
fn staged_notes(chain: &[GridLoop], body: &syn::Block, staged: &[tiles::StagedLoop], notes: &mut Notes) {
    for l in staged {
        let shown: Vec<String> = l.wins.iter().map(|w| {
            let (a, ix) = (&w.tiled.array, &w.tiled.index);
            format!("{a}[{}]", quote!(#ix))
        }).collect();
        if l.top {
            notes.at(chain[chain.len() - 1].line, chain.len(), format!(
                "cache!: {} staged in shared memory as 2-D tiles shared by the block (along a range of width `w` that moves with a loop of the nest, the block's iterations and `w - 1` more; rows padded against bank conflicts): each tile of the block, the whole block fetches them in parallel (adjacent threads at adjacent columns; clamped to the arrays), a barrier, then the body reads them there with no range check (references proved inside at compile time), a barrier; threads past the nest's end fetch and meet at the barriers but skip the body",
                shown.join(", ")));
            continue;
        }
        let Some(syn::Stmt::Expr(Expr::ForLoop(kf), _)) = body.stmts.get(l.stmt) else { continue };
        notes.at(info::loop_line(kf), chain.len(), format!(
            "cache!: {} staged in shared memory as 2-D tiles shared by the block (rows padded against bank conflicts; a tile the warps read a row at a time has rows of an odd number of 16-byte words, read 16 bytes at a time): each trip of this loop the whole block fetches them in parallel (16 bytes a thread where a tile's rows are whole 16-byte words, else adjacent threads at adjacent columns; clamped to the arrays), a barrier, then the trip reads them there with no range check (references proved inside at compile time), a barrier ends the trip; threads past the nest's end fetch and meet at the barriers but skip the body",
            shown.join(", ")));
    }
}

/// A nest of two loops, each over a grid and a block dimension, without reductions and not
/// a `tile` nest: each block takes a band of consecutive trips of the loop on `y`, and the
/// grid holds up to `BAND_WAVES` waves of blocks (`Dims::waves`). On an H100 the 8190^2
/// Laplacian's one-wave grid-stride kernel ran at 0.80x nvcc's one point a thread, banded
/// at 0.92-1.02x; the same traversals written in CUDA, `benches/results/cover-h100/` as of
/// f64af1f. A
/// nest with reductions keeps one wave (a partial per block: more blocks were slower), as
/// do `tile` nests (3-4% slower banded) and 3-D nests (the wave step slower on more blocks).
fn banded(chain: &[GridLoop], reds: &[(RedOp, syn::Ident)], tile_nest: bool, whole_tiles: bool) -> bool {
    reds.is_empty() && !tile_nest && !whole_tiles && chain.len() == 2 && chain.iter().all(|g| g.gang.is_some() && g.gang == g.block)
}

/// The base of a level's tile in its whole-tile loop.
fn tile_base(lvl: usize) -> syn::Ident {
    syn::Ident::new(&format!("__acc_tb{lvl}"), proc_macro2::Span::call_site())
}

/// A special register (`block_idx`, `grid_dim`...) of dimension `d`, as the device's `u32`.
fn reg32(name: &str, d: usize) -> TokenStream {
    let dev = paths::device();
    let id = syn::Ident::new(&format!("{name}_{}", XYZ[d]), proc_macro2::Span::call_site());
    quote!(#dev::#id())
}

/// A special register of dimension `d`, as a `usize`.
fn reg(name: &str, d: usize) -> TokenStream {
    let r = reg32(name, d);
    quote!((#r as usize))
}

/// The loops around `code` (the body, run by one thread): one point a thread (`point`), or a
/// grid-stride loop a level, innermost first.
fn loops_code(plan: &GridPlan, point: bool, mut code: TokenStream) -> TokenStream {
    let dev = paths::device();
    let norms: Vec<loops::Normalised> = plan.chain.iter().enumerate().map(|(lvl, g)| loops::normalise(&g.header, 900 + lvl, &quote!(#dev::index))).collect();
    // One point a thread: every loop's trip first, then one test of all of them (the loops'
    // bounds name no variable of the loops around them: `takes_points`), in 32 bits: the launch
    // runs this kernel only on a grid whose every index fits a `u32` (`Dims::covering_shape`),
    // so the trips do too. One branch and one exit where nested 64-bit tests took three, as
    // nvcc's kernel has. `ACC_EXP_POINT_NESTED=1` keeps a test a loop, for A/B runs on the GPU.
    let joined = point && std::env::var_os("ACC_EXP_POINT_NESTED").is_none();
    if joined {
        return joined_point(plan, &norms, code);
    }
    for lvl in (0..plan.chain.len()).rev() {
        code = if plan.whole_tiles { whole_tile_loop(plan, &norms[lvl], lvl, code) } else { stride_loop(plan, &norms[lvl], lvl, point, code) };
    }
    code
}

/// One point a thread, every level's trip tested at once (see [`loops_code`]).
fn joined_point(plan: &GridPlan, norms: &[loops::Normalised], code: TokenStream) -> TokenStream {
    let (mut first, mut inside, mut vars) = (TokenStream::new(), Vec::new(), TokenStream::new());
    for (lvl, g) in plan.chain.iter().enumerate() {
        let norm = &norms[lvl];
        let (setup, trip) = (&norm.setup, &norm.trip);
        let (Some(d), Some(b)) = (g.gang, g.block) else { unreachable!("a nest of one point a thread has a grid and a block dimension a loop") };
        let (bi, bd, ti) = (reg32("block_idx", d), reg32("block_dim", b), reg32("thread_idx", b));
        let (k, k32) = (quote::format_ident!("__acc_k{lvl}"), quote::format_ident!("__acc_p{lvl}"));
        let (idx, var) = ((norm.index)(&k), &g.header.var);
        first.extend(quote!(#setup let #k32: u32 = #bi.wrapping_mul(#bd).wrapping_add(#ti);));
        inside.push(quote!((#k32 < #trip as u32)));
        vars.extend(quote!(let #k: usize = #k32 as usize; let #var = #idx;));
    }
    quote! {{
        #first
        if #(#inside)&* {
            #vars
            #code
        }
    }}
}

/// Level `lvl`'s loop over whole tiles of the block per trip (every thread the same trips),
/// each thread marking whether its iteration is inside the loop.
fn whole_tile_loop(plan: &GridPlan, norm: &loops::Normalised, lvl: usize, code: TokenStream) -> TokenStream {
    let g = &plan.chain[lvl];
    let (setup, trip) = (&norm.setup, &norm.trip);
    let k = syn::Ident::new("__acc_k", proc_macro2::Span::call_site());
    let idx = (norm.index)(&k);
    let var = &g.header.var;
    let (d, b) = (g.gang.expect("uniform"), g.block.expect("uniform"));
    let (bi, bd, ti, gd) = (reg("block_idx", d), reg("block_dim", b), reg("thread_idx", b), reg("grid_dim", d));
    let (tb, whole) = (tile_base(lvl), quote::format_ident!("__acc_wh{lvl}"));
    let m = plan.coarse_m(lvl);
    let rows = if m == 1 { quote!(#bd) } else { quote!((#m * #bd)) };
    // The iterations of the thread: one, or `m` on the coarsened level (copies of the
    // variable, `tiles::copy_name`).
    let mut its = TokenStream::new();
    match &plan.coarse {
        Some(c) if c.level == lvl => {
            for q in 0..m {
                let (kq, inside, vq) = (quote::format_ident!("__acc_k{q}"), quote::format_ident!("__acc_in{lvl}_{q}"), tiles::copy_name(var, q));
                let idx = (norm.index)(&kq);
                let at = if c.adjacent { quote!(#m * #ti + #q) } else { quote!(#ti + #q * #bd) };
                its.extend(quote! {
                    let #kq: usize = #tb + #at;
                    let #inside: bool = #kq < #trip;
                    let #vq = #idx;
                });
            }
        }
        _ => {
            let inside = quote::format_ident!("__acc_in{lvl}");
            its = quote! {
                let #k: usize = #tb + #ti;
                let #inside: bool = #k < #trip;
                let #var = #idx;
            };
        }
    }
    quote! {{
        #setup
        let mut #tb: usize = #bi * #rows;
        while #tb < #trip {
            let #whole: bool = #tb + #rows <= #trip;
            #its
            #code
            #tb += #gd * #rows;
        }
    }}
}

/// Level `lvl`'s grid-stride loop (a band of trips a block on a banded nest's `y`; with
/// `point`, its first trip only).
fn stride_loop(plan: &GridPlan, norm: &loops::Normalised, lvl: usize, point: bool, code: TokenStream) -> TokenStream {
    let g = &plan.chain[lvl];
    let (setup, trip) = (&norm.setup, &norm.trip);
    let k = syn::Ident::new("__acc_k", proc_macro2::Span::call_site());
    let idx = (norm.index)(&k);
    let var = &g.header.var;
    let (start, stride) = match (g.gang, g.block) {
        (Some(d), Some(b)) => {
            let (bi, bd, ti, gd) = (reg("block_idx", d), reg("block_dim", b), reg("thread_idx", b), reg("grid_dim", d));
            if plan.banded && d == 1 {
                // A band of consecutive trips a block (`Dims::waves`).
                return quote! {{
                    #setup
                    let __acc_per: usize = #trip.div_ceil(#gd);
                    let __acc_lo: usize = #bi * __acc_per;
                    let __acc_hi: usize = if #trip - __acc_lo.min(#trip) < __acc_per { #trip } else { __acc_lo + __acc_per };
                    let mut #k: usize = __acc_lo + #ti;
                    while #k < __acc_hi {
                        let #var = #idx;
                        #code
                        #k += #bd;
                    }
                }};
            }
            (quote!(#bi * #bd + #ti), quote!(#gd * #bd))
        }
        (Some(d), None) => (reg("block_idx", d), reg("grid_dim", d)),
        (None, Some(b)) => (reg("thread_idx", b), reg("block_dim", b)),
        (None, None) => unreachable!(),
    };
    if point {
        // The launch runs this kernel only on a grid that covers the trips, computed on the
        // host from the same bounds with the same `idx` functions (`Dims::covering_shape`).
        // (No check on the device: one before or after the body held the wave step at its
        // grid-stride kernel's 0.104 ms, against 0.102 without; H100.)
        quote! {{
            #setup
            let #k: usize = #start;
            if #k < #trip {
                let #var = #idx;
                #code
            }
        }}
    } else {
        quote! {{
            #setup
            let mut #k: usize = #start;
            while #k < #trip {
                let #var = #idx;
                #code
                #k += #stride;
            }
        }}
    }
}

/// The reductions after `code`: each thread's copy, combined over its block (all its
/// threads, in x, y and z), then one partial per block at the block's linear index, folded on
/// the host.
fn reductions_code(chain: &[GridLoop], reds: &[(RedOp, syn::Ident)], mut code: TokenStream, notes: &mut Notes) -> TokenStream {
    let dev = paths::device();
    let vars: Vec<&syn::Ident> = reds.iter().map(|r| &r.1).collect();
    for ((op, v), slot) in reds.iter().zip(crate::lower::schedule::red_slots(&dev, &vars)) {
        let ops = crate::lower::schedule::op_path(*op);
        code = quote! {
            #code
            let __acc_v = #dev::block_reduce_xyz_var(#v, #ops.identity(&#v), |a, b| #ops.combine(a, b), #dev::dynamic_shared());
            if #dev::thread_idx_x() == 0 && #dev::thread_idx_y() == 0 && #dev::thread_idx_z() == 0 {
                #dev::store_grid_partial_var(__acc_partials, #slot, __acc_v);
            }
        };
        notes.at(chain[0].line, 0, format!("reduction `{v}`: each thread's copy is combined over all the threads of its block (x, y, z), then the host folds one partial per block of the grid"));
    }
    code
}

/// The launch's `Dims`: per dimension, whether a loop uses it, the size asked and the trips.
fn launch_dims(plan: &GridPlan) -> TokenStream {
    let chain = &plan.chain;
    let rt = paths::runtime();
    let none = quote!(::core::option::Option::None);
    let (mut grid, mut block) = (vec![none.clone(); 3], vec![none; 3]);
    let mut trips = vec![quote!((0usize, ::core::option::Option::None)); 3];
    let outer_vars: Vec<&syn::Ident> = chain.iter().map(|g| &g.header.var).collect();
    for (lvl, g) in chain.iter().enumerate() {
        // A coarsened level's blocks are 1/m of its tile's rows, and its grid covers the
        // trips m rows a thread.
        let m = plan.coarse_m(lvl);
        if let Some(b) = g.block {
            block[b] = match &g.block_size {
                Some(e) => {
                    let n = super::clause_usize(e);
                    quote!(::core::option::Option::Some(#n / #m))
                }
                None => quote!(::core::option::Option::Some(0usize)),
            };
        }
        if let Some(d) = g.gang {
            grid[d] = match &g.gang_size {
                Some(e) => {
                    let n = super::clause_usize(e);
                    quote!(::core::option::Option::Some(#n))
                }
                None => quote!(::core::option::Option::Some(0usize)),
            };
            // The trips on the host, where the bounds name no variable of the loops around
            // it and read no array (a triangular nest's are not known: 0).
            let known = host_computable(&g.header) && !outer_vars[..lvl].iter().any(|v| g.header.mentions(v));
            let t = if known {
                let n = loops::normalise(&g.header, 950 + lvl, &rt);
                let (setup, trip) = (&n.setup, &n.trip);
                quote!({ #setup #trip }.div_ceil(#m))
            } else {
                quote!(0usize)
            };
            let with = match g.block {
                Some(b) => quote!(::core::option::Option::Some(#b)),
                None => quote!(::core::option::Option::None),
            };
            trips[d] = quote!((#t, #with));
        }
    }
    let waves = if plan.banded { BAND_WAVES } else { 1 };
    quote!(#rt::Dims { grid: [#(#grid),*], block: [#(#block),*], trips: [#(#trips),*], waves: #waves })
}

/// Whether a nest takes a kernel of one point a thread beside its grid-stride one (launched
/// where its grid covers the trips): three loops, each over a grid and a block dimension of
/// its own (a bare 3-D nest, gv-gv-gv) with no `gang(n)`, trips the host computes, no
/// reductions, and neither a `tile` nest, staged tiles nor bands (`other_form`). On an H100 the
/// 13-point wave step's unchecked kernel took 40 registers with its loops (6 blocks of 256 a
/// multiprocessor; 0.1039-0.1043 ms on one wave) and 26 without them (8 blocks; 0.1016-0.1021
/// ms on the covering grid, nvcc's one point a thread 0.1000-0.1008;
/// the logs of 25fc1ca in `benches/results/`).
/// Two-loop nests keep their bands, measured at nvcc's speed.
fn takes_points(chain: &[GridLoop], reds: &[(RedOp, syn::Ident)], other_form: bool) -> bool {
    reds.is_empty()
        && !other_form
        && chain.len() == 3
        && chain.iter().enumerate().all(|(lvl, g)| {
            g.gang.is_some() && g.gang == g.block && g.gang_size.is_none() && host_computable(&g.header) && !chain[..lvl].iter().any(|o| g.header.mentions(&o.header.var))
        })
}

/// Whether `body` holds a loop (outside closures and items).
fn has_loop(body: &syn::Block) -> bool {
    struct V(bool);
    impl<'ast> syn::visit::Visit<'ast> for V {
        fn visit_expr_for_loop(&mut self, _: &'ast syn::ExprForLoop) {
            self.0 = true;
        }
        fn visit_expr_while(&mut self, _: &'ast syn::ExprWhile) {
            self.0 = true;
        }
        fn visit_expr_loop(&mut self, _: &'ast syn::ExprLoop) {
            self.0 = true;
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut v = V(false);
    syn::visit::Visit::visit_block(&mut v, body);
    v.0
}

/// Whether the host can compute the loop's bounds as the device does: names, literals,
/// fields, arithmetic, casts and `.len()` (no array element, no call).
fn host_computable(h: &LoopHeader) -> bool {
    fn ok(e: &Expr) -> bool {
        match e {
            Expr::Lit(_) | Expr::Path(_) => true,
            Expr::Paren(p) => ok(&p.expr),
            Expr::Group(g) => ok(&g.expr),
            Expr::Field(f) => ok(&f.base),
            Expr::Binary(b) => !loops::is_compound_assign(&b.op) && ok(&b.left) && ok(&b.right),
            Expr::Unary(u) => ok(&u.expr),
            Expr::Cast(c) => ok(&c.expr),
            Expr::MethodCall(m) => m.method == "len" && m.args.is_empty() && ok(&m.receiver),
            _ => false,
        }
    }
    ok(&h.lo) && ok(&h.hi) && h.step.as_ref().is_none_or(ok)
}

/// The loops of the grid schedule of `f` and the innermost body, or `None`.
fn chain_of(f: &ExprForLoop, kind: RegionKind, directives: &LoopDirectives, clauses: &RegionClauses) -> Option<(Vec<GridLoop>, syn::Block)> {
    let d0 = directives.get(f).cloned().unwrap_or_default();
    if d0.seq.is_some() || !d0.private.is_empty() {
        return None;
    }
    if let Some((_, sizes)) = &d0.tile {
        return tile_chain(f, &d0, sizes, directives);
    }
    if !matches!(kind, RegionKind::Kernels | RegionKind::Parallel) || d0.collapse.is_some() {
        return None;
    }
    let explicit = d0.has_level();
    let chain = tight_chain(f, d0, kind, directives);
    // In `parallel` only a nest that names gang dimensions: the others keep the
    // one-dimensional schedule, where the region's `num_gangs` and lanes are the launch's.
    let dims_named = chain.iter().any(|(_, d)| d.gang.as_ref().is_some_and(|g| g.dim.is_some()));
    if chain.len() < 2 || (kind == RegionKind::Parallel && !dims_named) {
        return None;
    }
    let body = chain.last().expect("not empty").0.body.clone();
    if crate::lower::schedule::holds_parallel(&body, directives) {
        return None;
    }
    let n = chain.len();
    let mut out: Vec<GridLoop> = Vec::new();
    for (fl, d) in &chain {
        let size = |c: &Option<LevelClause>| c.as_ref().and_then(|c| c.size.clone());
        let block_size = block_size(size(&d.worker).as_ref(), size(&d.vector).as_ref());
        out.push(GridLoop { header: LoopHeader::parse(fl).ok()?, line: info::loop_line(fl), gang: None, block: None, gang_size: size(&d.gang), block_size });
    }
    if !explicit {
        for (lvl, g) in out.iter_mut().enumerate() {
            g.gang = Some(n - 1 - lvl);
            g.block = Some(n - 1 - lvl);
        }
        return Some((out, body));
    }
    let dirs: Vec<&LoopDirective> = chain.iter().map(|(_, d)| d).collect();
    level_dims(&dirs, &mut out)?;
    if kind == RegionKind::Parallel {
        region_sizes(&dirs, clauses, &mut out);
    }
    Some((out, body))
}

/// A `parallel` nest's sizes, from its region's clauses (its loops have none): the blocks of
/// grid dimension `d` are `num_gangs`' value `d` (OpenACC 3.3's `num_gangs(n1, n2, n3)`), the
/// threads of a worker loop's block dimension `num_workers`, of a vector loop's
/// `vector_length` (of a loop that is both, their product).
fn region_sizes(dirs: &[&LoopDirective], clauses: &RegionClauses, out: &mut [GridLoop]) {
    let gangs: Vec<&Expr> = clauses.num_gangs.iter().chain(&clauses.more_gangs).collect();
    for (d, g) in dirs.iter().zip(out.iter_mut()) {
        if let Some(n) = g.gang.and_then(|dim| gangs.get(dim)) {
            g.gang_size = Some((*n).clone());
        }
        let workers = d.worker.as_ref().and(clauses.num_workers.as_ref());
        let lanes = d.vector.as_ref().and(clauses.vector_length.as_ref());
        g.block_size = block_size(workers, lanes);
    }
}

/// The threads of a loop's block dimension from its worker and vector sizes: their product
/// where it has both.
fn block_size(workers: Option<&Expr>, lanes: Option<&Expr>) -> Option<Expr> {
    match (workers, lanes) {
        (Some(w), Some(v)) => {
            let (w, v) = (super::clause_usize(w), super::clause_usize(v));
            Some(syn::parse_quote!(#w * #v))
        }
        (w, v) => w.or(v).cloned(),
    }
}

/// `tile(..)`: the tile is a block; its loops, each on the grid and block dimension of its
/// size (the first size the innermost loop's, on `x`).
fn tile_chain(f: &ExprForLoop, d0: &LoopDirective, sizes: &[Expr], directives: &LoopDirectives) -> Option<(Vec<GridLoop>, syn::Block)> {
    if !(2..=3).contains(&sizes.len()) {
        return None;
    }
    let (headers, body) = loops::directive_nest(f, d0)?;
    if crate::lower::schedule::holds_parallel(&body, directives) {
        return None;
    }
    let n = headers.len();
    let mut lines = Vec::new();
    let mut cur = f;
    for lvl in 0..n {
        lines.push(info::loop_line(cur));
        if lvl + 1 < n {
            cur = loops::only_inner_loop(&cur.body)?;
        }
    }
    let chain = headers
        .into_iter()
        .enumerate()
        .map(|(lvl, header)| {
            let dim = n - 1 - lvl;
            GridLoop { header, line: lines[lvl], gang: Some(dim), block: Some(dim), gang_size: None, block_size: Some(sizes[dim].clone()) }
        })
        .collect();
    Some((chain, body))
}

/// The tightly nested loops from `f` (directive `d0`) that take dimensions: all bare or all
/// naming levels, none `seq`, `collapse`, `tile` or with privates, each proved independent;
/// up to three.
fn tight_chain<'f>(f: &'f ExprForLoop, d0: LoopDirective, kind: RegionKind, directives: &LoopDirectives) -> Vec<(&'f ExprForLoop, LoopDirective)> {
    let explicit = d0.has_level();
    let mut chain: Vec<(&ExprForLoop, LoopDirective)> = vec![(f, d0)];
    while chain.len() < 3 {
        let Some(inner) = loops::only_inner_loop(&chain.last().expect("not empty").0.body) else { break };
        let d = directives.get(inner).cloned().unwrap_or_default();
        if d.has_level() != explicit || d.seq.is_some() || d.collapse.is_some() || d.tile.is_some() || !d.private.is_empty() {
            break;
        }
        // An inner loop that updates a variable an outer loop of the chain reduces, without a
        // clause of its own, reduces it too (OpenUH's placement: a clause on the outermost
        // loop is enough): its test counts those variables as reductions.
        let mut reds = d.reduction_vars();
        for v in chain.iter().flat_map(|(_, od)| od.reduction_vars()) {
            if !reds.contains(&v) {
                reds.push(v);
            }
        }
        let dependence = if reds.len() == d.reduction_vars().len() {
            directives.dependence(inner).is_some()
        } else {
            let d = directives.get(inner).cloned().unwrap_or_else(|| LoopDirective { auto: Some(inner.for_token.span), ..LoopDirective::default() });
            loops::dependence_of(inner, &d, kind, &reds).is_some()
        };
        if loops::LoopHeader::parse(inner).is_err() || dependence {
            break;
        }
        chain.push((inner, d));
    }
    chain
}

/// The dimensions of a chain whose loops name levels (`dirs`: their directives): the
/// worker/vector loops take block dimensions, innermost first; `gang(dim: d)` its grid
/// dimension, then the other gang loops innermost first (the outermost loop when none names
/// `gang`). `None` where two loops ask for one grid dimension.
fn level_dims(dirs: &[&LoopDirective], out: &mut [GridLoop]) -> Option<()> {
    let n = dirs.len();
    let mut next = 0;
    for lvl in (0..n).rev() {
        let d = dirs[lvl];
        if d.worker.is_some() || d.vector.is_some() {
            out[lvl].block = Some(next);
            next += 1;
        }
    }
    if next == 0 {
        out[n - 1].block = Some(0);
    }
    let mut taken = [false; 3];
    for lvl in 0..n {
        if let Some(g) = &dirs[lvl].gang {
            if let Some(dim) = g.dim {
                let dim = dim as usize - 1;
                if taken[dim] {
                    // (The region's checks report it: see `check/body.rs`.)
                    return None;
                }
                taken[dim] = true;
                out[lvl].gang = Some(dim);
            }
        }
    }
    let free = |taken: &mut [bool; 3]| -> Option<usize> {
        let d = taken.iter().position(|t| !t)?;
        taken[d] = true;
        Some(d)
    };
    for lvl in (0..n).rev() {
        if dirs[lvl].gang.as_ref().is_some_and(|g| g.dim.is_none()) {
            out[lvl].gang = Some(free(&mut taken)?);
        }
    }
    if out.iter().all(|g| g.gang.is_none()) {
        out[0].gang = Some(free(&mut taken)?);
    }
    Some(())
}
