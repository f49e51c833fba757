//! The launch shape of a nest as the host launches it: [`Geometry`], built from the [`Shape`]
//! the GPU lowering writes (acc-device's `launch`, which acc-codegen shares), and what follows
//! from it alone, without a device: threads per block, the blocks the trips need, the grid
//! within its waves, the shared memory a block asks for.

pub use acc_device::launch::{Dims, LeanKernel, Shape, CHUNK_WAVES, MAX_GRID_YZ, STREAM_WAVES, WORKER_BLOCK_WAVES};

/// The launch shape of one loop nest: its [`Shape`], the shared memory of its `cache!`
/// windows and tiles, and the kernel of one point a thread the launch may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// What the nest's clauses ask and its schedule chose.
    pub shape: Shape,
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
    /// The nest's kernel of one point a thread (acc-codegen's `grid::takes_points`: a 3-D nest
    /// without the checks of the indices the launch bounded), run where its grid covers the
    /// trips ([`Dims::covering_shape`]). See [`Geometry::point_kernel`].
    pub point_kernel: Option<&'static str>,
}

impl From<Shape> for Geometry {
    /// The launch of `shape` without `cache!` windows or a kernel of one point a thread (waves
    /// and trips a thread of 0 count as 1).
    fn from(shape: Shape) -> Self {
        let shape = Shape { waves: shape.waves.max(1), chunk: shape.chunk.max(1), ..shape };
        Geometry { shape, cache: (0, 0), window_bytes: 0, cache_y: 0, point_kernel: None }
    }
}

impl Geometry {
    /// The shape asked for by the clauses (0 = not given).
    pub fn new(iterations: usize, num_gangs: usize, vector_length: usize, serial: bool) -> Self {
        Shape::new(iterations, num_gangs, vector_length, serial).into()
    }

    /// The same shape for a nest on a multi-dimensional grid.
    pub fn dims(mut self, dims: Dims) -> Self {
        self.shape.dims = Some(dims);
        self
    }

    /// The same shape for a nest whose one-dimensional grid may hold `waves` waves of blocks.
    pub fn waves(mut self, waves: usize) -> Self {
        self.shape.waves = waves.max(1);
        self
    }

    /// The same shape for a top loop whose threads each take `trips` consecutive trips at
    /// once (a chunk). Its kernel takes chunks only where every thread has one (`trips *
    /// threads <= iterations`), so the launch gives it one thread per whole chunk, rounded
    /// down, at most `waves` waves of blocks.
    pub fn chunks(mut self, trips: usize) -> Self {
        self.shape.chunk = trips.max(1);
        self
    }

    /// The blocks of `block` threads a launch on a one-dimensional grid would need: one thread
    /// per chunk where the top loop takes chunks (whole chunks only: see [`Geometry::chunks`]),
    /// else one per trip the threads can share ([`Geometry::threads_wanted`]).
    pub(super) fn blocks_needed(&self, block: u32) -> usize {
        let block = block.max(1) as usize;
        if self.shape.chunk > 1 {
            (self.shape.iterations / self.shape.chunk.saturating_mul(block)).max(1)
        } else {
            self.threads_wanted().div_ceil(block)
        }
    }

    /// The same shape with `num_workers(n)` (0 = not given) for a nest that has worker loops
    /// (`uses`); without worker loops, blocks are one worker high.
    pub fn workers(mut self, num_workers: usize, uses: bool) -> Self {
        self.shape.num_workers = num_workers;
        self.shape.uses_worker = uses;
        self
    }

    /// The same shape for an outermost loop whose trips are shared by the vector lanes
    /// (`x`) or the workers (`y`) of a block.
    pub fn per_trip(mut self, x: bool, y: bool) -> Self {
        self.shape.per_trip = (x, y);
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
        self.shape.lean_kernel = Some(LeanKernel { name, per_warp, chunked_reductions: reductions });
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
        self.shape.lean_kernel.is_some_and(|l| l.chunked_reductions) && self.outnumbers(sms)
    }

    /// Whether a launch of this shape on a one-dimensional grid has more blocks than the GPU's
    /// `sms` multiprocessors (what both lean-kernel rules on blocks ask first).
    pub(super) fn outnumbers(&self, sms: usize) -> bool {
        !self.shape.serial && self.shape.dims.is_none() && self.blocks_wanted() > sms
    }

    /// Whether a gang loop that may give each warp trips of its own has a trip for every warp
    /// of the grid, which is at most `warps_per_sm` warps on each of `sms` multiprocessors (or
    /// `num_gangs` blocks).
    pub(super) fn every_warp_has_trips(&self, sms: usize, warps_per_sm: usize) -> bool {
        let block = self.block() as usize;
        let warps = if self.shape.num_gangs > 0 { self.shape.num_gangs.saturating_mul(block / 32) } else { sms * warps_per_sm };
        self.shape.lean_kernel.is_some_and(|l| l.per_warp) && !self.shape.serial && self.shape.dims.is_none() && block.is_multiple_of(32) && self.shape.iterations >= warps
    }

    /// The blocks a launch of this shape runs at most: `num_gangs`, else one per block's
    /// worth of threads the nest can use.
    pub(super) fn blocks_wanted(&self) -> usize {
        if self.shape.num_gangs > 0 {
            self.shape.num_gangs
        } else {
            self.threads_wanted().div_ceil(self.block().max(1) as usize).max(1)
        }
    }

    /// The same shape for a kernel that keeps group locals in shared memory.
    pub fn group_locals(mut self, yes: bool) -> Self {
        self.shape.group_locals = yes;
        self
    }

    /// Threads per block in x (vector lanes) and y (workers): the clauses, else 256 x 1
    /// without worker loops and 32 x 8 with them; 1 x 1 for serial loops; at most 1024 in all.
    pub fn block_xy(&self) -> (u32, u32) {
        if self.shape.serial {
            return (1, 1);
        }
        let x = if self.shape.vector_length > 0 {
            self.shape.vector_length
        } else if self.shape.uses_worker {
            32
        } else {
            256
        };
        let y = if !self.shape.uses_worker {
            1
        } else if self.shape.num_workers > 0 {
            self.shape.num_workers
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
        let per = if self.shape.per_trip.0 { x as usize } else { 1 } * if self.shape.per_trip.1 { y as usize } else { 1 };
        let iterations = if self.shape.per_trip.0 { self.shape.iterations } else { self.shape.iterations.div_ceil(self.window_points()) };
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

/// The blocks in `y` for a nest whose gang loop's worker loop takes them
/// (`Shape::worker_blocks`), with `grid` blocks in `x` and `wave` blocks a full wave of the
/// GPU: as many as make [`WORKER_BLOCK_WAVES`] waves in all, 1 where the `x` blocks alone fill
/// one.
pub(super) fn worker_blocks_y(grid: u32, wave: u32) -> u32 {
    if grid >= wave {
        return 1;
    }
    let all = wave as usize * WORKER_BLOCK_WAVES;
    (all.div_ceil(grid.max(1) as usize)).clamp(1, MAX_GRID_YZ) as u32
}

/// The shared memory a kernel of `geom`'s nest is opened up to: that of the largest block (16
/// KiB, under the 48 KiB every kernel gets): 16 bytes per thread for the collective reductions
/// and broadcasts (acc_device::reduce); each launch asks for its own block's share. A kernel
/// with `cache!` windows is opened up to 64 KiB more for them.
pub(super) fn most_shared(geom: &Geometry) -> u32 {
    (if geom.shape.group_locals { GROUP_LOCALS_SHARED } else { 16 * 1024 }) + if geom.cache != (0, 0) || geom.window_bytes > 0 { CACHE_SHARED } else { 0 }
}

/// The dynamic shared memory a block of `geom`'s (a nest on a one-dimensional grid) asks for:
/// the group locals' or 16 bytes a thread, and apart the bytes of its `cache!` windows.
pub(super) fn block_shared(geom: &Geometry) -> (u32, usize) {
    let base = if geom.shape.group_locals { GROUP_LOCALS_SHARED } else { 16 * geom.block().max(32) };
    let x = geom.block_xy().0 as usize;
    (base, (geom.cache.0 + geom.window_bytes * geom.window_points()) * x + geom.cache.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worker_blocks_fill_two_waves_where_the_gangs_do_not_fill_one() {
        // NPB SP's point-wise regions at class B: 100 gangs of 256 threads, 528 a wave.
        assert_eq!(worker_blocks_y(100, 528), 11);
        assert_eq!(worker_blocks_y(528, 528), 1);
        assert_eq!(worker_blocks_y(4000, 528), 1);
        assert_eq!(worker_blocks_y(1, 528), 1056);
        assert_eq!(worker_blocks_y(1, 1 << 20), 65535);
    }

    #[test]
    fn a_shape_written_as_one_literal_is_the_builders_geometry() {
        let built = Geometry::new(1000, 0, 128, false).workers(8, true).per_trip(true, false).group_locals(true).lean_kernel("k_lean", true, false).waves(STREAM_WAVES).chunks(4);
        let lean = LeanKernel { name: "k_lean", per_warp: true, chunked_reductions: false };
        let shape = Shape { iterations: 1000, num_gangs: 0, vector_length: 128, serial: false, num_workers: 8, uses_worker: true, per_trip: (true, false), group_locals: true, dims: None, lean_kernel: Some(lean), waves: STREAM_WAVES, chunk: 4, worker_blocks: false };
        assert_eq!(Geometry::from(shape), built);
        assert_eq!(Geometry::from(shape).block_xy(), (128, 8));
        // Waves and trips a thread of 0 count as 1, as the builders make them.
        let zero = Shape { waves: 0, chunk: 0, ..Shape::new(5, 0, 0, false) };
        assert_eq!(Geometry::from(zero), Geometry::new(5, 0, 0, false).waves(0).chunks(0));
        assert_eq!((Geometry::from(zero).shape.waves, Geometry::from(zero).shape.chunk), (1, 1));
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
        assert_eq!(linear_grid(1056, copy.shape.waves, blocks, 4224), 48_828);
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
