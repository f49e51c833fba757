//! The launch shape of a nest: what the clauses and the schedule ask ([`Geometry`], and
//! [`Dims`] for multi-dimensional grids), and what follows from it alone, without a device:
//! threads per block, the blocks the trips need, the grid within its waves, the shared memory
//! a block asks for.

/// The launch shape of one loop nest: threads per block (the vector length) and blocks.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// Iterations of the nest's parallel loop.
    pub iterations: usize,
    /// `num_gangs(n)`, 0 when not given.
    pub num_gangs: usize,
    /// `vector_length(n)`, 0 when not given.
    pub vector_length: usize,
    /// One gang of one thread (`serial`, `seq`, or a loop not proved independent).
    pub serial: bool,
    /// `num_workers(n)`, 0 when not given.
    pub num_workers: usize,
    /// Whether a loop of the nest is a `worker` loop (blocks get `threadIdx.y`).
    pub uses_worker: bool,
    /// Whether the vector lanes / the workers of a block share each trip of the outermost
    /// loop (it holds vector / worker loops): the grid then needs a block's worth of
    /// threads per trip.
    pub per_trip: (bool, bool),
    /// Whether the kernel keeps locals of gang or worker loop bodies in shared memory
    /// (`acc_device::group_local`): it gets all the shared memory a block may have.
    pub group_locals: bool,
    /// A nest on a multi-dimensional grid and block (acc-codegen's `grid.rs`).
    pub dims: Option<Dims>,
    /// The shared memory of the nest's `cache!` windows and tiles (`acc_device::cache_window`),
    /// in bytes: per thread along `x` (2-D tiles), and fixed (16-byte aligned; the spans of
    /// 1-D windows).
    pub cache: (usize, usize),
    /// The bytes of one element of each 1-D `cache!` window, together: a window holds
    /// `points * blockDim.x + span` elements, `points` from [`Geometry::window_points`].
    pub window_bytes: usize,
    /// The shared memory of 2-D `cache!` tiles, in bytes per thread along `y` (those along
    /// `x` and the fixed ones are in `cache`).
    pub cache_y: usize,
    /// The nest's lean kernel (acc-codegen's `Scheduler::lean`: the loops inside its top loop
    /// without chunks, fewer registers), whether its gang loop may give each warp trips of
    /// its own, and whether a reduction loop of the nest takes chunks. See
    /// [`Geometry::lean_kernel`].
    pub lean_kernel: Option<(&'static str, bool, bool)>,
    /// The nest's kernel of one point a thread (acc-codegen's `grid::takes_points`: a 3-D nest
    /// without the checks of the indices the launch bounded), run where its grid covers the
    /// trips ([`Dims::covering_shape`]). See [`Geometry::point_kernel`].
    pub point_kernel: Option<&'static str>,
    /// Waves of blocks a nest on a one-dimensional grid may launch without `num_gangs` (1;
    /// acc-codegen's `STREAM_WAVES` for a streaming loop or a gang loop over vector loops whose
    /// kernel writes nothing per block).
    pub waves: usize,
    /// Trips a thread of the nest's top loop takes at once (1; 4 or 2 for a streaming loop
    /// that takes chunks of 16 bytes, acc-codegen's `chunk.rs`): the launch gives it a thread
    /// per chunk. See [`Geometry::chunks`].
    pub chunk: usize,
}

/// What the loops of a nest on a multi-dimensional grid ask of each dimension (x, y, z):
/// OpenUH's kernels schedules, a bare `kernels` nest, `tile`. A dimension no loop uses is 1,
/// so that no iteration runs twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dims {
    /// Per grid dimension: `None` when no loop spreads over it, else the blocks asked
    /// (`gang(n)`; 0: as the trips need).
    pub grid: [Option<usize>; 3],
    /// Per block dimension: `None` when no loop spreads over it, else the threads asked
    /// (`vector(n)`, `worker(n)`, a tile size; 0: acc chooses).
    pub block: [Option<usize>; 3],
    /// Per grid dimension: the trips of the loop over it (0: not known on the host) and the
    /// block dimension that loop spreads over too.
    pub trips: [(usize, Option<usize>); 3],
    /// Waves of blocks the grid may hold (1: one wave, each thread's grid-stride loops take
    /// the rest; more for a nest whose blocks take bands of rows).
    pub waves: usize,
}

/// The largest grid in `y` and `z`, and block in `z`, that CUDA launches.
const MAX_GRID_YZ: usize = 65535;
const MAX_BLOCK_Z: usize = 64;

impl Dims {
    /// Threads per block in x, y, z: the sizes asked (a tile's exactly), else 32 in `x`
    /// (256 when `x` is the only block dimension) and the rest of 256 threads in `y` (`z` is 1
    /// unless sized: a flat block);
    /// then at most `max_threads` in all (1024, or fewer for the kernel's registers), taken
    /// from `z`, then `y`, then `x` (OpenACC lets the implementation use fewer than asked).
    pub fn block_shape(&self, vector_length: usize, max_threads: u32) -> [u32; 3] {
        let [ux, uy, uz] = self.block.map(|b| b.is_some());
        let asked = self.block.map(|b| b.unwrap_or(0));
        let mut b = [1usize; 3];
        if ux {
            b[0] = match (asked[0], vector_length) {
                (0, 0) if uy || uz => 32,
                (0, 0) => 256,
                (0, v) => v,
                (n, _) => n,
            };
        }
        let rest = (256 / b[0]).max(1);
        match (uy, uz) {
            (true, true) => {
                // Unsized, a 3-D nest's block is flat (32 x 8 x 1, as hand-written 3-D
                // stencils' are): the 13-point wave step ran 0.113 ms on 32 x 8 x 1 against
                // 0.135 on 32 x 4 x 2 (H100, benches/README.md).
                b[1] = if asked[1] > 0 { asked[1] } else { rest.checked_div(asked[2]).map_or(rest, |r| r.max(1)) };
                b[2] = if asked[2] > 0 { asked[2] } else { (rest / b[1]).max(1) };
            }
            (true, false) => b[1] = if asked[1] > 0 { asked[1] } else { rest },
            (false, true) => b[2] = if asked[2] > 0 { asked[2] } else { rest },
            (false, false) => {}
        }
        b[0] = b[0].clamp(1, 1024);
        b[1] = b[1].clamp(1, 1024);
        b[2] = b[2].clamp(1, MAX_BLOCK_Z);
        let max = (max_threads as usize).clamp(1, 1024);
        for d in [2, 1, 0] {
            while b[0] * b[1] * b[2] > max && b[d] > 1 {
                b[d] = b[d].div_ceil(2);
            }
        }
        b.map(|n| n as u32)
    }

    /// The blocks the sizes asked (`gang(n)`) fix: the product of those dimensions' blocks
    /// (1 when none is fixed). A grid from [`Dims::grid_shape`] holds at most
    /// [`Dims::most_blocks`].
    pub fn fixed_blocks(&self) -> usize {
        (0..3)
            .filter_map(|d| match self.grid[d] {
                Some(n) if n > 0 => Some(n.clamp(1, if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ })),
                _ => None,
            })
            .product()
    }

    /// The most blocks a grid of these dimensions holds where one wave is `wave` blocks: its
    /// `waves` waves, or the blocks the sizes asked fix.
    pub fn most_blocks(&self, wave: usize) -> usize {
        (wave * self.waves.max(1)).max(self.fixed_blocks())
    }

    /// Blocks in x, y, z for blocks of `block` threads that cover every loop's trips (one
    /// point a thread): `None` where a loop's trips are not known on the host (0), a dimension's
    /// blocks are fixed (`gang(n)`), the grid passes CUDA's limits, or a thread's index
    /// `blockIdx * blockDim + threadIdx` would not fit a `u32` (the kernel computes and tests
    /// its indices in 32 bits: acc-codegen `grid::schedule`).
    pub fn covering_shape(&self, block: [u32; 3]) -> Option<[u32; 3]> {
        let mut g = [1u32; 3];
        for (d, gd) in g.iter_mut().enumerate() {
            let (blocks, threads) = match (self.grid[d], self.trips[d]) {
                (None, _) => (1, 1),
                (Some(0), (0, _)) | (Some(1..), _) => return None,
                (Some(0), (t, Some(b))) => (t.div_ceil(block[b].max(1) as usize), block[b].max(1) as usize),
                (Some(0), (t, None)) => (t, 1),
            };
            let max = if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ };
            *gd = u32::try_from(blocks).ok().filter(|&n| n as usize <= max)?;
            u32::try_from(blocks * threads).ok()?;
        }
        Some(g)
    }

    /// Blocks in x, y, z for blocks of `block` threads where one wave is `wave` blocks: the
    /// sizes asked, else as many as the trips need (`waves` waves when not known); the
    /// dimensions acc chooses then shrink, `z` first, until the grid holds at most `waves`
    /// waves (each thread takes more trips of its grid-stride loops or its band).
    pub fn grid_shape(&self, block: [u32; 3], wave: usize) -> [u32; 3] {
        let most = (wave * self.waves.max(1)).max(1);
        let mut g = [1usize; 3];
        let mut auto = [false; 3];
        for d in 0..3 {
            g[d] = match self.grid[d] {
                None => 1,
                Some(0) => {
                    auto[d] = true;
                    match self.trips[d] {
                        (0, _) => most,
                        (t, Some(b)) => t.div_ceil(block[b] as usize),
                        (t, None) => t,
                    }
                }
                Some(n) => n,
            };
            let max = if d == 0 { i32::MAX as usize } else { MAX_GRID_YZ };
            g[d] = g[d].clamp(1, max);
        }
        let fixed: usize = (0..3).filter(|&d| !auto[d]).map(|d| g[d]).product();
        let budget = (most / fixed.max(1)).max(1);
        for d in [2, 1, 0] {
            if auto[d] {
                let others: usize = (0..3).filter(|&e| e != d && auto[e]).map(|e| g[e]).product();
                g[d] = g[d].min((budget / others.max(1)).max(1));
            }
        }
        g.map(|n| n as u32)
    }
}

impl Geometry {
    /// The shape asked for by the clauses (0 = not given).
    pub fn new(iterations: usize, num_gangs: usize, vector_length: usize, serial: bool) -> Self {
        Geometry { iterations, num_gangs, vector_length, serial, num_workers: 0, uses_worker: false, per_trip: (false, false), group_locals: false, dims: None, cache: (0, 0), window_bytes: 0, cache_y: 0, lean_kernel: None, point_kernel: None, waves: 1, chunk: 1 }
    }

    /// The same shape for a nest on a multi-dimensional grid.
    pub fn dims(mut self, dims: Dims) -> Self {
        self.dims = Some(dims);
        self
    }

    /// The same shape for a nest whose one-dimensional grid may hold `waves` waves of blocks.
    pub fn waves(mut self, waves: usize) -> Self {
        self.waves = waves.max(1);
        self
    }

    /// The same shape for a top loop whose threads each take `trips` consecutive trips at
    /// once (a chunk). Its kernel takes chunks only where every thread has one (`trips *
    /// threads <= iterations`), so the launch gives it one thread per whole chunk, rounded
    /// down, at most `waves` waves of blocks.
    pub fn chunks(mut self, trips: usize) -> Self {
        self.chunk = trips.max(1);
        self
    }

    /// The blocks of `block` threads a launch on a one-dimensional grid would need: one thread
    /// per chunk where the top loop takes chunks (whole chunks only: see [`Geometry::chunks`]),
    /// else one per trip the threads can share ([`Geometry::threads_wanted`]).
    pub(super) fn blocks_needed(&self, block: u32) -> usize {
        let block = block.max(1) as usize;
        if self.chunk > 1 {
            (self.iterations / self.chunk.saturating_mul(block)).max(1)
        } else {
            self.threads_wanted().div_ceil(block)
        }
    }

    /// The same shape with `num_workers(n)` (0 = not given) for a nest that has worker loops
    /// (`uses`); without worker loops, blocks are one worker high.
    pub fn workers(mut self, num_workers: usize, uses: bool) -> Self {
        self.num_workers = num_workers;
        self.uses_worker = uses;
        self
    }

    /// The same shape for an outermost loop whose trips are shared by the vector lanes
    /// (`x`) or the workers (`y`) of a block.
    pub fn per_trip(mut self, x: bool, y: bool) -> Self {
        self.per_trip = (x, y);
        self
    }

    /// The same shape with one more 1-D `cache!` window in shared memory: `points *
    /// blockDim.x + span` elements of `elem_bytes` each ([`Geometry::window_points`]).
    pub fn cache(mut self, elem_bytes: usize, span: usize) -> Self {
        self.window_bytes += elem_bytes;
        self.cache.1 += span * elem_bytes + 16;
        self
    }

    /// The iterations each thread takes a trip of a loop whose 1-D `cache!` windows move with
    /// it: `acc_device::window_points` of the block's `x` and the windows' element bytes, as
    /// the kernel computes them (1 without such windows).
    pub fn window_points(&self) -> usize {
        if self.window_bytes == 0 {
            1
        } else {
            acc_device::window_points(self.block_xy().0 as usize, self.window_bytes)
        }
    }

    /// The same shape with one more 2-D `cache!` tile in shared memory: `per_x * blockDim.x +
    /// per_y * blockDim.y + fixed` elements of `elem_bytes` each.
    pub fn cache_tile(mut self, elem_bytes: usize, per_x: usize, per_y: usize, fixed: usize) -> Self {
        self.cache.0 += per_x * elem_bytes;
        self.cache_y += per_y * elem_bytes;
        self.cache.1 += fixed * elem_bytes + 16;
        self
    }

    /// The same shape for a nest that has a lean kernel, `name`; `per_warp`: its gang loop may
    /// give each warp trips of its own; `reductions`: a reduction loop of the nest takes
    /// chunks. Both kernels run any launch right; `launch` runs the lean one where it is
    /// expected to be faster: where the gang loop gives every warp trips of its own
    /// (`Geometry::every_warp_has_trips`: the rows of the loops inside are a warp's, too short
    /// for chunks to pay), where the nest's kernel holds one block a multiprocessor, the lean
    /// one two or more, and the launch has the blocks for them (`lean_fills_more`), or where a
    /// reduction loop takes chunks and the launch has more blocks than the GPU has
    /// multiprocessors (`Geometry::fills_the_gpu`: chunked reductions pay where few blocks
    /// must keep the memory busy). `name` ends in `_lean_inb` where the launch bounded the
    /// nest's indices and the nest has a lean kernel without their checks: that one runs, but
    /// where it holds fewer blocks a multiprocessor than the checked one (`_lean`, which the
    /// choice above asks about).
    pub fn lean_kernel(mut self, name: &'static str, per_warp: bool, reductions: bool) -> Self {
        self.lean_kernel = Some((name, per_warp, reductions));
        self
    }

    /// The same launch with the kernel of one point a thread `name` (or none): the launch runs
    /// it, on a grid that covers the trips, where such a grid fits the device's limits and the
    /// trips are known on the host; else the nest's kernel with its grid-stride loops. On an
    /// H100 the 13-point wave step's kernel took 26 registers without its loops and 40 with
    /// them, 0.1016-0.1021 ms against 0.1039-0.1044 (benches/README.md).
    pub fn point_kernel(mut self, name: Option<&'static str>) -> Self {
        self.point_kernel = name;
        self
    }

    /// Whether a nest whose reduction loops take chunks launches more blocks than the GPU's
    /// `sms` multiprocessors (its lean kernel runs: on a full H200 the bench's Table 2
    /// worker-vector and gang-worker-vector nests ran at 0.90 of nvcc chunked, 0.95-1.04
    /// without chunks; the papers' vector position, 2 blocks, 4.2x faster chunked).
    pub(super) fn fills_the_gpu(&self, sms: usize) -> bool {
        matches!(self.lean_kernel, Some((_, _, true))) && self.outnumbers(sms)
    }

    /// Whether a launch of this shape on a one-dimensional grid has more blocks than the GPU's
    /// `sms` multiprocessors (what both lean-kernel rules on blocks ask first).
    pub(super) fn outnumbers(&self, sms: usize) -> bool {
        !self.serial && self.dims.is_none() && self.blocks_wanted() > sms
    }

    /// Whether a gang loop that may give each warp trips of its own has a trip for every warp
    /// of the grid, which is at most `warps_per_sm` warps on each of `sms` multiprocessors (or
    /// `num_gangs` blocks).
    pub(super) fn every_warp_has_trips(&self, sms: usize, warps_per_sm: usize) -> bool {
        let block = self.block() as usize;
        let warps = if self.num_gangs > 0 { self.num_gangs.saturating_mul(block / 32) } else { sms * warps_per_sm };
        matches!(self.lean_kernel, Some((_, true, _))) && !self.serial && self.dims.is_none() && block.is_multiple_of(32) && self.iterations >= warps
    }

    /// The blocks a launch of this shape runs at most: `num_gangs`, else one per block's
    /// worth of threads the nest can use.
    pub(super) fn blocks_wanted(&self) -> usize {
        if self.num_gangs > 0 {
            self.num_gangs
        } else {
            self.threads_wanted().div_ceil(self.block().max(1) as usize).max(1)
        }
    }

    /// The same shape for a kernel that keeps group locals in shared memory.
    pub fn group_locals(mut self, yes: bool) -> Self {
        self.group_locals = yes;
        self
    }

    /// Threads per block in x (vector lanes) and y (workers): the clauses, else 256 x 1
    /// without worker loops and 32 x 8 with them; 1 x 1 for serial loops; at most 1024 in all.
    pub fn block_xy(&self) -> (u32, u32) {
        if self.serial {
            return (1, 1);
        }
        let x = if self.vector_length > 0 {
            self.vector_length
        } else if self.uses_worker {
            32
        } else {
            256
        };
        let y = if !self.uses_worker {
            1
        } else if self.num_workers > 0 {
            self.num_workers
        } else {
            (256 / x).max(1)
        };
        // A block holds 1024 threads: fewer workers than asked where the clauses ask for more
        // (OpenACC lets the implementation use fewer for the target's limits).
        let x = x.min(1024);
        (x as u32, y.min(1024 / x).max(1) as u32)
    }

    /// Threads per block.
    pub fn block(&self) -> u32 {
        let (x, y) = self.block_xy();
        x.saturating_mul(y)
    }

    /// Threads the nest can use: one per iteration (one per `window_points` iterations of a
    /// loop staging 1-D `cache!` windows), or a block's share per trip.
    pub(super) fn threads_wanted(&self) -> usize {
        let (x, y) = self.block_xy();
        let per = if self.per_trip.0 { x as usize } else { 1 } * if self.per_trip.1 { y as usize } else { 1 };
        let iterations = if self.per_trip.0 { self.iterations } else { self.iterations.div_ceil(self.window_points()) };
        iterations.saturating_mul(per)
    }
}

/// The shared memory of a block whose kernel keeps locals of gang or worker loop bodies there
/// (the 48 KiB every kernel may have without opting in to more): the reductions' 16 bytes per
/// thread, then the locals.
pub(super) const GROUP_LOCALS_SHARED: u32 = 48 * 1024;

/// The most shared memory a kernel's `cache!` windows may take (above the reductions' and
/// group locals'); a launch asks for what its block needs.
pub(super) const CACHE_SHARED: u32 = 64 * 1024;

/// The bytes of one element of `a` (a `cache!` window's, when sizing a launch): the function
/// the kernels count the same windows with.
pub use acc_device::elem_bytes;

/// The element size of a region's array parameter (a slice or a [`DeviceSlice`]), for the
/// launch's shape (`Geometry::chunks`): `elem_size(&*a)`.
///
/// [`DeviceSlice`]: crate::DeviceSlice
pub fn elem_size<A: Elements + ?Sized>(_a: &A) -> usize {
    std::mem::size_of::<A::Elem>()
}

/// An array a region takes: its element type. Host arrays have theirs from [`HostData`].
///
/// [`HostData`]: crate::HostData
pub trait Elements {
    /// The element type.
    type Elem;
}

impl<D: crate::HostData + ?Sized> Elements for D {
    type Elem = D::Elem;
}

impl<T: Copy> Elements for crate::DeviceSlice<T> {
    type Elem = T;
}

/// The blocks of a launch on a one-dimensional grid without `num_gangs`: as many as the
/// trips need (`needed`), at least one, at most `waves` waves of `wave` blocks and `waves`
/// times the default grid (`most`).
pub(super) fn linear_grid(wave: u32, waves: usize, needed: usize, most: usize) -> u32 {
    let waves = waves.max(1);
    (wave as usize).saturating_mul(waves).min(needed.max(1)).min(most.saturating_mul(waves)).min(i32::MAX as usize) as u32
}

/// The shared memory a kernel of `geom`'s nest is opened up to: that of the largest block (16
/// KiB, under the 48 KiB every kernel gets): 16 bytes per thread for the collective reductions
/// and broadcasts (acc_device::reduce); each launch asks for its own block's share. A kernel
/// with `cache!` windows is opened up to 64 KiB more for them.
pub(super) fn most_shared(geom: &Geometry) -> u32 {
    (if geom.group_locals { GROUP_LOCALS_SHARED } else { 16 * 1024 }) + if geom.cache != (0, 0) || geom.window_bytes > 0 { CACHE_SHARED } else { 0 }
}

/// The dynamic shared memory a block of `geom`'s (a nest on a one-dimensional grid) asks for:
/// the group locals' or 16 bytes a thread, and apart the bytes of its `cache!` windows.
pub(super) fn block_shared(geom: &Geometry) -> (u32, usize) {
    let base = if geom.group_locals { GROUP_LOCALS_SHARED } else { 16 * geom.block().max(32) };
    let x = geom.block_xy().0 as usize;
    (base, (geom.cache.0 + geom.window_bytes * geom.window_points()) * x + geom.cache.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: Option<usize> = Some(0);

    #[test]
    fn blocks_of_a_bare_nest_are_32_wide_flat_and_fill_256_threads() {
        let two = Dims { grid: [X, X, None], block: [X, X, None], trips: [(1000, Some(0)), (100, Some(1)), (0, None)], waves: 1 };
        assert_eq!(two.block_shape(0, 1024), [32, 8, 1]);
        let three = Dims { grid: [X, X, X], block: [X, X, X], trips: [(10, Some(0)), (10, Some(1)), (10, Some(2))], waves: 1 };
        assert_eq!(three.block_shape(0, 1024), [32, 8, 1]);
        // x alone: 256 lanes; sizes asked are kept, and the register limit takes z, then y.
        let g_v = Dims { grid: [X, None, None], block: [X, None, None], trips: [(5, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(g_v.block_shape(0, 1024), [256, 1, 1]);
        let sized = Dims { block: [Some(64), Some(4), Some(8)], ..three };
        assert_eq!(sized.block_shape(0, 1024), [64, 4, 4]);
        assert_eq!(sized.block_shape(0, 128), [64, 2, 1]);
    }

    #[test]
    fn grids_cover_the_trips_within_one_wave() {
        let two = Dims { grid: [X, X, None], block: [X, X, None], trips: [(1000, Some(0)), (100, Some(1)), (0, None)], waves: 1 };
        // 32 x 8 blocks: 32 x 13 blocks cover 1000 x 100.
        assert_eq!(two.grid_shape([32, 8, 1], 4224), [32, 13, 1]);
        // A smaller wave shrinks y first.
        assert_eq!(two.grid_shape([32, 8, 1], 64), [32, 2, 1]);
        assert_eq!(two.grid_shape([32, 8, 1], 16), [16, 1, 1]);
        // `gang(n)` is kept; an unknown trip count takes the wave; unused dimensions are 1.
        let fixed = Dims { grid: [Some(3), X, None], block: [X, None, None], trips: [(0, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(fixed.grid_shape([256, 1, 1], 30), [3, 10, 1]);
    }

    #[test]
    fn a_covering_grid_takes_every_trip_within_cuda_s_limits() {
        // The wave step: 252^3 trips on 32 x 8 x 1 blocks; odd trips round up.
        let wave = Dims { grid: [X, X, X], block: [X, X, X], trips: [(252, Some(0)), (252, Some(1)), (252, Some(2))], waves: 1 };
        assert_eq!(wave.covering_shape([32, 8, 1]), Some([8, 32, 252]));
        let odd = Dims { trips: [(33, Some(0)), (9, Some(1)), (1, Some(2))], ..wave };
        assert_eq!(odd.covering_shape([32, 8, 1]), Some([2, 2, 1]));
        // A loop over a grid dimension alone takes a block per trip; an unused one is 1.
        let gangs = Dims { grid: [X, X, None], block: [X, None, None], trips: [(100, Some(0)), (7, None), (0, None)], waves: 1 };
        assert_eq!(gangs.covering_shape([32, 1, 1]), Some([4, 7, 1]));
        // None: trips not known on the host, `gang(n)`, or more than 65535 blocks in z.
        assert_eq!(Dims { trips: [(252, Some(0)), (0, Some(1)), (252, Some(2))], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { grid: [X, Some(4), X], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { trips: [(252, Some(0)), (252, Some(1)), (65536, Some(2))], ..wave }.covering_shape([32, 8, 1]), None);
        assert_eq!(Dims { trips: [(252, Some(0)), (252, Some(1)), (65535, Some(2))], ..wave }.covering_shape([32, 8, 1]), Some([8, 32, 65535]));
        // None where the grid's threads in a dimension would pass `u32::MAX` (the kernel's
        // indices and trips are 32-bit), though CUDA would take the blocks.
        let x = |t: usize| Dims { trips: [(t, Some(0)), (1, Some(1)), (1, Some(2))], ..wave }.covering_shape([1024, 1, 1]);
        assert_eq!(x((1 << 32) - 1024), Some([(1 << 22) - 1, 1, 1]));
        assert_eq!(x((1 << 32) - 1023), None);
        assert_eq!(x(1 << 32), None);
    }

    #[test]
    fn a_grid_holds_at_most_a_wave_or_the_fixed_blocks() {
        // The reduction partials are sized by this bound (`Partials::new`).
        let three = Dims { grid: [X, X, X], block: [X, X, X], trips: [(5000, Some(0)), (5000, Some(1)), (5000, Some(2))], waves: 1 };
        for wave in [1, 7, 100, 4224] {
            let g = three.grid_shape([32, 8, 1], wave);
            assert!(g.iter().product::<u32>() as usize <= three.most_blocks(wave), "{g:?} in a wave of {wave}");
        }
        let fixed = Dims { grid: [Some(70), X, Some(90)], block: [X, X, None], trips: [(0, None), (0, None), (0, None)], waves: 1 };
        assert_eq!(fixed.fixed_blocks(), 6300);
        for wave in [1, 100, 4224, 100_000] {
            let g = fixed.grid_shape([32, 8, 1], wave);
            assert!(g.iter().product::<u32>() as usize <= fixed.most_blocks(wave), "{g:?} in a wave of {wave}");
        }
        assert_eq!(Dims::default().fixed_blocks(), 1);
    }

    #[test]
    fn a_streaming_loop_takes_up_to_its_waves() {
        // An H100: 132 multiprocessors, 8 blocks of 256 threads each (1056 a wave), a default
        // grid of 32 blocks a multiprocessor.
        assert_eq!(linear_grid(1056, 1, 1_000_000, 4224), 1056);
        assert_eq!(linear_grid(1056, 8, 1_000_000, 4224), 8448);
        assert_eq!(linear_grid(1056, 8, 5000, 4224), 5000);
        assert_eq!(linear_grid(1056, 8, 0, 4224), 1);
        // Blocks of 1024 threads, two a multiprocessor: the waves, not the default grid, bind.
        assert_eq!(linear_grid(264, 8, 1_000_000, 4224), 2112);
        // A kernel that fits more blocks than the default grid allows keeps to it.
        assert_eq!(linear_grid(8448, 1, 1_000_000, 4224), 4224);
        assert_eq!(linear_grid(u32::MAX, 8, usize::MAX, usize::MAX), i32::MAX as u32);
    }

    #[test]
    fn a_loop_of_chunks_takes_a_thread_per_whole_chunk() {
        // 50M `f32`s in chunks of 4, blocks of 256: 48828 blocks, every thread a whole chunk
        // (the kernel takes chunks only where `4 * threads <= trips`).
        let copy = Geometry::new(50_000_000, 0, 256, false).waves(128).chunks(4);
        let blocks = copy.blocks_needed(256);
        assert_eq!(blocks, 48_828);
        assert!(4 * blocks * 256 <= 50_000_000 && 4 * (blocks + 1) * 256 > 50_000_000);
        assert_eq!(linear_grid(1056, copy.waves, blocks, 4224), 48_828);
        // 8-byte elements: chunks of 2.
        assert_eq!(Geometry::new(50_000_000, 0, 256, false).chunks(2).blocks_needed(256), 97_656);
        // Fewer trips than a block's chunks: one block, whose threads take trips one at a time.
        assert_eq!(Geometry::new(1000, 0, 256, false).chunks(4).blocks_needed(256), 1);
        assert_eq!(Geometry::new(0, 0, 256, false).chunks(4).blocks_needed(256), 1);
        // Without chunks: a thread per trip, the last block part full.
        assert_eq!(Geometry::new(1000, 0, 256, false).blocks_needed(256), 4);
        // Past the waves, a grid stride: the grid stays within them.
        assert_eq!(linear_grid(1056, 128, Geometry::new(1 << 34, 0, 256, false).chunks(4).blocks_needed(256), 4224), 135_168);
    }

    #[test]
    fn a_banded_nest_takes_up_to_its_waves() {
        // 8190^2 points in 32 x 8 blocks: one wave of 1056 blocks is 256 x 4; eight waves
        // give each block a band of 8190 / 33 rows.
        let one = Dims { grid: [X, X, None], block: [X, X, None], trips: [(8190, Some(0)), (8190, Some(1)), (0, None)], waves: 1 };
        assert_eq!(one.grid_shape([32, 8, 1], 1056), [256, 4, 1]);
        let banded = Dims { waves: 8, ..one };
        let g = banded.grid_shape([32, 8, 1], 1056);
        assert_eq!(g, [256, 33, 1]);
        assert!(g.iter().product::<u32>() as usize <= banded.most_blocks(1056));
        // Never more blocks than the trips need.
        let short = Dims { trips: [(8190, Some(0)), (40, Some(1)), (0, None)], ..banded };
        assert_eq!(short.grid_shape([32, 8, 1], 1056), [256, 5, 1]);
    }

    #[test]
    fn the_lean_kernel_runs_gang_loops_with_a_trip_for_every_warp() {
        // 132 multiprocessors of 64 warps: 8448 warps at most, whatever the block.
        let g = |trips: usize| Geometry::new(trips, 0, 128, false).workers(8, true).per_trip(true, true).lean_kernel("k_lean", true, false);
        assert!(g(8448).every_warp_has_trips(132, 64) && g(1 << 20).every_warp_has_trips(132, 64));
        assert!(!g(8447).every_warp_has_trips(132, 64) && !g(2).every_warp_has_trips(132, 64));
        // `num_gangs(n)`: its blocks' warps.
        let gangs = |trips: usize| Geometry::new(trips, 10, 128, false).workers(8, true).lean_kernel("k_lean", true, false);
        assert!(gangs(320).every_warp_has_trips(132, 64) && !gangs(319).every_warp_has_trips(132, 64));
        // A gang loop that never runs a gang per warp, blocks not of whole warps, a serial
        // nest, a nest with no lean kernel: never.
        assert!(!Geometry::new(1 << 20, 0, 128, false).lean_kernel("k_lean", false, false).every_warp_has_trips(132, 64));
        assert!(!Geometry::new(1 << 20, 0, 100, false).lean_kernel("k_lean", true, false).every_warp_has_trips(132, 64));
        assert!(!Geometry::new(1 << 20, 0, 128, true).lean_kernel("k_lean", true, false).every_warp_has_trips(132, 64));
        assert!(!Geometry::new(1 << 20, 0, 128, false).every_warp_has_trips(132, 64));
        // The blocks a launch can use: a block per trip where the block shares each trip.
        assert_eq!(g(1024).blocks_wanted(), 1024);
        assert_eq!(Geometry::new(1000, 0, 256, false).blocks_wanted(), 4);
        assert_eq!(gangs(5).blocks_wanted(), 10);
    }

    #[test]
    fn a_nest_with_chunked_reductions_runs_its_lean_kernel_where_its_blocks_fill_the_gpu() {
        // The papers' vector position (2 gangs of 8 x 128 threads) keeps the chunks; the
        // bench's Table 2 nests (512 gangs) run the lean kernel on 132 multiprocessors.
        let nest = |trips: usize, reductions: bool| Geometry::new(trips, 0, 128, false).workers(8, true).per_trip(true, true).lean_kernel("k_lean", false, reductions);
        assert!(!nest(2, true).fills_the_gpu(132) && !nest(132, true).fills_the_gpu(132));
        assert!(nest(133, true).fills_the_gpu(132) && nest(512, true).fills_the_gpu(132));
        // `num_gangs(n)` blocks, whatever the trips.
        let gangs = |n: usize| Geometry::new(4, n, 128, false).workers(8, true).lean_kernel("k_lean", false, true);
        assert!(gangs(200).fills_the_gpu(132) && !gangs(100).fills_the_gpu(132));
        // Chunks in streaming loops only, no lean kernel, a serial nest: never.
        assert!(!nest(512, false).fills_the_gpu(132));
        assert!(!Geometry::new(512, 0, 128, false).workers(8, true).per_trip(true, true).fills_the_gpu(132));
        assert!(!Geometry::new(512, 0, 128, true).lean_kernel("k_lean", false, true).fills_the_gpu(132));
    }

    #[test]
    fn a_loop_staging_1d_windows_takes_its_points_a_thread_in_the_grid_and_the_windows() {
        // Blocks of 256, one f32 window of span 2: 4 points a thread, so a quarter of the
        // blocks, each window 4 x 256 + 2 elements.
        let one = Geometry::new(1 << 20, 0, 0, false).cache(4, 2);
        assert_eq!(one.window_points(), 4);
        assert_eq!(one.blocks_wanted(), (1 << 20) / (4 * 256));
        assert_eq!(block_shared(&one).1, 4 * (4 * 256 + 2) + 16);
        // Blocks of 1024: two f64 windows take 2 points, three take 1.
        let two = Geometry::new(1 << 20, 0, 1024, false).cache(8, 2).cache(8, 1);
        assert_eq!(two.window_points(), 2);
        assert_eq!(block_shared(&two).1, 8 * (2 * 1024 + 2) + 8 * (2 * 1024 + 1) + 32);
        let three = two.cache(8, 1);
        assert_eq!(three.window_points(), 1);
        assert_eq!(three.blocks_wanted(), (1 << 20) / 1024);
        assert_eq!(block_shared(&three).1, 8 * (3 * 1024 + 4) + 48);
        // A vector loop inside a gang loop: the grid is the gang loop's.
        let rows = Geometry::new(100, 0, 0, false).cache(4, 2).per_trip(true, false);
        assert_eq!(rows.blocks_wanted(), 100);
        // No window: 1 point.
        assert_eq!(Geometry::new(1 << 20, 0, 0, false).window_points(), 1);
    }
}
