//! What the GPU paths of generated region fns call (feature `cuda`): the launch shape from the
//! clauses and the device, the reduction partials buffer, and the launch itself. Every failure
//! is a panic naming the region (and, for a kernel panic, the kernel's source location).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use crate::cuda::{CudaBackend, Kernel, KernelArgs, LaunchConfig, MappedBuf, Module};
use crate::backend::Backend;
use crate::profile;
use crate::region_info::RegionInfo;

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
    fn blocks_needed(&self, block: u32) -> usize {
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
    fn fills_the_gpu(&self, sms: usize) -> bool {
        matches!(self.lean_kernel, Some((_, _, true))) && self.outnumbers(sms)
    }

    /// Whether a launch of this shape on a one-dimensional grid has more blocks than the GPU's
    /// `sms` multiprocessors (what both lean-kernel rules on blocks ask first).
    fn outnumbers(&self, sms: usize) -> bool {
        !self.serial && self.dims.is_none() && self.blocks_wanted() > sms
    }

    /// Whether a gang loop that may give each warp trips of its own has a trip for every warp
    /// of the grid, which is at most `warps_per_sm` warps on each of `sms` multiprocessors (or
    /// `num_gangs` blocks).
    fn every_warp_has_trips(&self, sms: usize, warps_per_sm: usize) -> bool {
        let block = self.block() as usize;
        let warps = if self.num_gangs > 0 { self.num_gangs.saturating_mul(block / 32) } else { sms * warps_per_sm };
        matches!(self.lean_kernel, Some((_, true, _))) && !self.serial && self.dims.is_none() && block.is_multiple_of(32) && self.iterations >= warps
    }

    /// The blocks a launch of this shape runs at most: `num_gangs`, else one per block's
    /// worth of threads the nest can use.
    fn blocks_wanted(&self) -> usize {
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
    fn threads_wanted(&self) -> usize {
        let (x, y) = self.block_xy();
        let per = if self.per_trip.0 { x as usize } else { 1 } * if self.per_trip.1 { y as usize } else { 1 };
        let iterations = if self.per_trip.0 { self.iterations } else { self.iterations.div_ceil(self.window_points()) };
        iterations.saturating_mul(per)
    }
}

/// Panics with `msg` about a failure on the calling thread's device, adding what a device
/// fault cost when it was one (the device is lost for the process and its data reported lost
/// by name: see [`crate::devices::Device::take_loss`]).
fn fail(msg: String) -> ! {
    match crate::devices::current().ok().and_then(|d| d.take_loss()) {
        Some(lost) => panic!("{msg}\nacc: {lost}"),
        None => panic!("{msg}"),
    }
}

/// The CUDA backend of the calling thread's device; panics naming `region` when its device
/// is not a CUDA device.
pub(crate) fn cuda_of(region: &RegionInfo) -> Arc<CudaBackend> {
    crate::devices::cuda_backend().unwrap_or_else(|| panic!("acc: {region}: the region's GPU path ran without a CUDA device"))
}

/// Hashes the keys of the per-thread caches below (addresses and small numbers): one
/// multiplication per word, where the default hasher would cost more than the lookup.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(26) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type AddrMap<K, V> = HashMap<K, V, BuildHasherDefault<AddrHasher>>;

/// A kernel ready to launch on one backend, and the one-wave grids found for it.
struct Launchable {
    kernel: Kernel,
    /// The name the entry was made for (the key holds only its address).
    name: Box<str>,
    /// By threads per block, for blocks larger than `kernel` can hold: the kernel compiled for
    /// that block (`None`: even then it holds fewer threads, and the block shrinks).
    for_block: Vec<(u32, Option<Kernel>)>,
    /// One full wave of blocks (every multiprocessor at its occupancy limit), by threads per
    /// block.
    waves: Vec<(u32, u32)>,
    /// By registers a thread: the kernel compiled again with at most that many (a lean
    /// kernel's twin without index checks, see [`twin_registers`]).
    capped: Vec<(u32, Kernel)>,
}

/// Which kernel a launch means: the backend, the PTX text's and the name's addresses (the
/// generated code passes `'static` texts), the dynamic shared memory.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct KernelKey {
    backend: u64,
    ptx: usize,
    name: (usize, usize),
    shared: u32,
}

thread_local! {
    /// The kernels this thread launched. Per thread, so that a launch takes no lock for it.
    static KERNELS: RefCell<AddrMap<KernelKey, Launchable>> = RefCell::new(AddrMap::default());
    /// `gpu_ready`'s finding for (region, PTX text).
    static READY: RefCell<AddrMap<(usize, usize), bool>> = RefCell::new(AddrMap::default());
    /// The queue of this thread's last launch (`None`: synchronous): the launch whose
    /// partials [`Partials::fold`] reads next.
    static LAST_QUEUE: Cell<Option<i64>> = const { Cell::new(None) };
}

/// The device buffer that receives one partial result per block and reduction variable:
/// pinned host memory mapped for the device (taken from the backend's pool, given back when
/// dropped), so the host reads the kernel's partials where the kernel wrote them, with no
/// copy.
pub struct Partials {
    region: &'static RegionInfo,
    buf: Option<(Arc<CudaBackend>, MappedBuf)>,
    grid: usize,
    /// Whether the launch that writes the buffer is known to have completed.
    settled: Cell<bool>,
}

/// Bytes of each partial entry (enough for any scalar).
const ENTRY: usize = 16;

impl Partials {
    /// Room for `vars` reduction variables of the launch `geom` (none when `vars == 0`).
    pub fn new(region: &'static RegionInfo, vars: usize, geom: &Geometry) -> Self {
        let cuda = (vars > 0).then(|| cuda_of(region));
        let grid = if geom.serial {
            1
        } else if let Some(dims) = &geom.dims {
            // A multi-dimensional grid (`launch`): at most `waves` waves of the blocks acc
            // chooses (a wave at most this device's default grid), or the blocks `gang(n)` fixes.
            dims.most_blocks(cuda.as_deref().map_or(0, max_default_grid))
        } else if geom.num_gangs > 0 {
            geom.num_gangs
        } else {
            cuda.as_deref().map_or(0, max_default_grid)
        };
        let buf = cuda.map(|b| {
            let buf = b
                .take_mapped(vars * grid * ENTRY)
                .unwrap_or_else(|e| panic!("acc: {region}: cannot allocate reduction partials: {e}"));
            (b, buf)
        });
        Partials { region, buf, grid, settled: Cell::new(false) }
    }

    /// The buffer's device address.
    pub fn device_ptr(&self) -> u64 {
        self.buf.as_ref().map_or(0, |(_, buf)| buf.dev)
    }

    /// Waits for the launch that writes the partials (this thread's last [`launch`]) when it
    /// went to an async queue; a synchronous launch has finished already.
    fn settle(&self) {
        if self.settled.replace(true) {
            return;
        }
        if let (Some(q), Some((b, _))) = (LAST_QUEUE.get(), &self.buf) {
            if let Err(e) = b.wait_queue(q) {
                fail(format!("acc: {}: async queue {q} failed: {e}", self.region));
            }
        }
    }

    /// Reads the partials of variable `slot` written by a launch of `launched` blocks (what
    /// [`launch`] returned, the last launch of this thread) and folds them with `combine`;
    /// `like` gives their type. A launch on an async queue is waited for at the first fold.
    pub fn fold<T: Copy>(&self, slot: usize, launched: u32, like: &T, combine: impl Fn(T, T) -> T) -> T {
        let _ = like;
        const { assert!(std::mem::size_of::<T>() <= ENTRY) };
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no reduction partials to fold", self.region));
        self.settle();
        let launched = (launched as usize).clamp(1, self.grid);
        // The kernel lays the partials out by its own grid: `(slot * gridDim.x + block)`.
        let base = slot * launched * ENTRY;
        assert!(base + launched * ENTRY <= buf.bytes, "acc: {}: partial slot {slot} out of range", self.region);
        let entry = |i: usize| {
            // SAFETY: in bounds (checked above); each 16-byte aligned entry holds a `T`
            // (at most 16 bytes, a scalar) written by the kernel's `store_partial`, and the
            // kernel has completed (`settle`). Volatile: the device wrote it.
            unsafe { buf.host.add(base + i * ENTRY).cast::<T>().read_volatile() }
        };
        (1..launched).fold(entry(0), |acc, i| combine(acc, entry(i)))
    }
}

impl Partials {
    /// [`fold`](Self::fold) of a reduction variable's value, a scalar or an array: element `i`
    /// of each block's value from slot `slot + i` (`acc_device::store_partial_var`).
    pub fn fold_var<V: acc_device::RedVar>(&self, slot: usize, launched: u32, like: &V, combine: impl Fn(V, V) -> V) -> V {
        let value = |b: usize| {
            let mut v = *like;
            for i in 0..V::ELEMS {
                v.set_elem(i, self.entry::<V::Elem>(slot + i, launched, b));
            }
            v
        };
        let launched_blocks = (launched as usize).clamp(1, self.grid);
        (1..launched_blocks).fold(value(0), |acc, b| combine(acc, value(b)))
    }

    /// Entry `block` of slot `slot` of a launch of `launched` blocks (a partial of one scalar).
    fn entry<T: Copy>(&self, slot: usize, launched: u32, block: usize) -> T {
        const { assert!(std::mem::size_of::<T>() <= ENTRY) };
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no reduction partials to fold", self.region));
        self.settle();
        let launched = (launched as usize).clamp(1, self.grid);
        let at = (slot * launched + block) * ENTRY;
        assert!(block < launched && at + ENTRY <= buf.bytes, "acc: {}: partial slot {slot} out of range", self.region);
        // SAFETY: in bounds (checked above); the 16-byte aligned entry holds a `T` (a scalar
        // of at most 16 bytes) written by the kernel's `store_partial`, and the kernel has
        // completed (`settle`). Volatile: the device wrote it.
        unsafe { buf.host.add(at).cast::<T>().read_volatile() }
    }

    /// Reads a value that a one-thread kernel computed for the host (`acc_device::store_value`)
    /// from 16-byte slot `*at` on, and advances `*at` past it; `_witness` (never called) gives
    /// its type. A launch on an async queue is waited for first.
    pub fn value<T: Copy, F: FnOnce() -> T>(&self, at: &mut usize, _witness: &F) -> T {
        let size = std::mem::size_of::<T>();
        let start = *at;
        *at += size.div_ceil(ENTRY);
        if size == 0 {
            // SAFETY: a zero-sized `T: Copy` is read from any aligned, non-null address.
            return unsafe { std::ptr::NonNull::<T>::dangling().as_ptr().read() };
        }
        let (_, buf) = self.buf.as_ref().unwrap_or_else(|| panic!("acc: {}: no buffer for the kernel's values", self.region));
        self.settle();
        assert!(self.grid == 1 && *at * ENTRY <= buf.bytes, "acc: {}: value slot {start} out of range", self.region);
        // SAFETY: in bounds (checked above); the one-thread kernel wrote a `T` there with
        // `store_value` (unaligned) and has completed (`settle`, or a synchronous launch).
        unsafe { buf.host.add(start * ENTRY).cast::<T>().read_unaligned() }
    }
}

/// The 16-byte partial slots a value of the witness's type takes (see [`Partials::value`]).
pub fn value_slots<T, F: FnOnce() -> T>(_witness: &F) -> usize {
    std::mem::size_of::<T>().div_ceil(ENTRY)
}

impl Drop for Partials {
    fn drop(&mut self) {
        if let Some((cuda, buf)) = self.buf.take() {
            if !self.settled.get() {
                if let Some(q) = LAST_QUEUE.get() {
                    // A launch that nobody folded (a panic came between): it must not write
                    // the buffer once another launch holds it. Its failure is reported by
                    // the next wait, or was already.
                    if cuda.wait_queue(q).is_err() {
                        return;
                    }
                }
            }
            // SAFETY: the launch that used the buffer has completed (waited for above, or
            // by `fold`, or it was synchronous).
            unsafe { cuda.give_back_mapped(buf) };
        }
    }
}

/// The shared memory of a block whose kernel keeps locals of gang or worker loop bodies there
/// (the 48 KiB every kernel may have without opting in to more): the reductions' 16 bytes per
/// thread, then the locals.
const GROUP_LOCALS_SHARED: u32 = 48 * 1024;

/// The most shared memory a kernel's `cache!` windows may take (above the reductions' and
/// group locals'); a launch asks for what its block needs.
const CACHE_SHARED: u32 = 64 * 1024;

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

/// The largest grid a launch without `num_gangs` gets on `cuda` (partials are sized for
/// it): 32 blocks per multiprocessor of its device (4224 on an H100's 132).
pub fn max_default_grid(cuda: &CudaBackend) -> usize {
    cuda.sm_count() as usize * 32
}

/// The module of the PTX text `ptx` on `cuda`, loaded once per process: the PTX is a
/// `'static` text (embedded by `include_str!`), so its address identifies it, and hashing it
/// on every launch would cost more than the launch.
fn module(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str) -> Arc<Module> {
    /// The backend, the PTX text's address.
    type Key = (u64, usize);
    static MODULES: Mutex<Vec<(Key, Arc<Module>)>> = Mutex::new(Vec::new());
    let mut m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    let key = (cuda.id(), ptx.as_ptr() as usize);
    if let Some((_, module)) = m.iter().find(|(k, _)| *k == key) {
        return module.clone();
    }
    let module = cuda.load_ptx(ptx).unwrap_or_else(|e| panic!("acc: {region}: cannot load the kernels' PTX: {e}"));
    m.push((key, module.clone()));
    module
}

/// Launches kernel `name` of the package's PTX for `region`: synchronously (`queue` is
/// `None`), or on async queue `q` (`Some(q)`), returning at once; a failure of an async
/// launch is reported by the next wait for `q` (or the fold of its partials), naming the
/// region. Panics naming the region when the launch or a synchronous kernel fails (with the
/// kernel's panic location when it panicked). Returns the number of blocks launched.
///
/// Everything but the launch itself is looked up once per thread and kernel: after the first
/// launch this costs a `cuLaunchKernel` (and a `cuStreamSynchronize` when synchronous), a
/// lock of the runtime's state, and a hash lookup.
pub fn launch(region: &'static RegionInfo, ptx: &'static str, name: &str, args: &mut KernelArgs, geom: &Geometry, queue: Option<i64>) -> u32 {
    launch_as(region, ptx, name, args, geom, queue, 0)
}

/// [`launch`], with kernel `name` compiled again with at most `registers` registers a thread
/// where `registers` > 0 (see [`twin_registers`]).
fn launch_as(region: &'static RegionInfo, ptx: &'static str, name: &str, args: &mut KernelArgs, geom: &Geometry, queue: Option<i64>, registers: u32) -> u32 {
    let cuda = cuda_of(region);
    let cuda = &*cuda;
    // A nest with a lean kernel runs it where it is expected to be faster (see
    // `Geometry::lean_kernel`).
    if let Some((lean, _, _)) = geom.lean_kernel {
        // The lean kernel as checked, and the one without the checks where the launch
        // bounded the indices (`_lean_inb`).
        let checked = lean.strip_suffix("_inb").unwrap_or(lean);
        let sms = cuda.sm_count() as usize;
        if geom.every_warp_has_trips(sms, WARPS_PER_SM) || geom.fills_the_gpu(sms) || lean_fills_more(cuda, region, ptx, name, checked, geom) {
            let plain = Geometry { lean_kernel: None, ..*geom };
            if lean == checked || checked_lean_only() {
                return launch(region, ptx, checked, args, &plain, queue);
            }
            // The one without checks runs its loops of single trips in rounds of 2 (more
            // registers). Where that runs fewer of the launch's blocks at once than the
            // checked one (a launch of fewer blocks than either runs at once takes it), it is
            // compiled again with the checked one's registers; where even that runs fewer,
            // the checked one runs.
            let wanted = geom.blocks_wanted().min(u32::MAX as usize) as u32;
            let blocks = blocks_a_wave(cuda, region, ptx, checked, geom).min(wanted);
            if blocks_a_wave(cuda, region, ptx, lean, geom) >= blocks {
                return launch(region, ptx, lean, args, &plain, queue);
            }
            return match twin_registers(cuda, region, ptx, lean, geom, blocks) {
                Some(registers) => launch_as(region, ptx, lean, args, &plain, queue, registers),
                None => launch(region, ptx, checked, args, &plain, queue),
            };
        }
    }
    // The kernel is opened up to the shared memory of the largest block (16 KiB, under the
    // 48 KiB every kernel gets): 16 bytes per thread for the collective reductions and
    // broadcasts (acc_device::reduce). Each launch asks for its own block's share.
    // A kernel with `cache!` windows is opened up to 64 KiB more for them.
    let most_shared = most_shared(geom);
    KERNELS.with(|kernels| {
        let mut kernels = kernels.borrow_mut();
        // The kernel of one point a thread, on the grid that covers the trips.
        if let (Some(dims), false, Some(point)) = (&geom.dims, geom.serial, geom.point_kernel) {
            let e = launchable(&mut kernels, cuda, region, ptx, point, most_shared);
            let block = dims.block_shape(geom.vector_length, e.kernel.max_threads());
            if let Some(grid) = dims.covering_shape(block) {
                let shared = 16 * block.iter().product::<u32>().max(32);
                return launch_with(cuda, region, point, &e.kernel, grid_config(grid, block, shared, queue), args, grid.iter().product());
            }
        }
        let entry = launchable(&mut kernels, cuda, region, ptx, name, most_shared);
        // A kernel that needs many registers holds fewer threads per block than the clauses
        // ask for: fewer workers first, then a shorter vector (OpenACC lets the
        // implementation use less than asked for the target's limits).
        if let (Some(dims), false) = (&geom.dims, geom.serial) {
            // A multi-dimensional grid: its blocks, then its blocks per dimension within a wave.
            let block = dims.block_shape(geom.vector_length, entry.kernel.max_threads());
            let threads = block.iter().product::<u32>();
            let cache = geom.cache.0 * block[0] as usize + geom.cache_y * block[1] as usize + geom.cache.1;
            if cache > CACHE_SHARED as usize {
                fail(format!("acc: {region}: kernel `{name}`: its `cache!` windows take {cache} bytes of shared memory with blocks of {} x {} threads, more than the {CACHE_SHARED} acc gives them: narrow the windows or the tile", block[0], block[1]));
            }
            let shared = 16 * threads.max(32) + cache as u32;
            let per_sm = one_wave(cuda, &entry.kernel, name, &mut entry.waves, threads, threads, shared) / cuda.sm_count().max(1);
            let tiled = tile_compile_threads(geom, threads, per_sm, entry.kernel.registers());
            if let Some(target) = tiled {
                if !entry.for_block.iter().any(|(b, _)| *b == target) {
                    let ptx = crate::ptx_modules::only_kernel(crate::ptx_modules::module_of(ptx, name), name);
                    let module = cuda.load_ptx_for_block(&ptx, target).unwrap_or_else(|e| panic!("acc: {region}: cannot load kernel `{name}` for blocks of {target} threads: {e}"));
                    let k = cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(&ptx);
                    entry.for_block.push((target, Some(k)));
                }
            }
            let kernel = tiled.and_then(|t| entry.for_block.iter().find(|(b, _)| *b == t)).and_then(|(_, k)| k.as_ref()).unwrap_or(&entry.kernel);
            // (The recompiled kernel's waves are kept apart from the nest's kernel's.)
            let key = if tiled.is_some() { threads | RECOMPILED } else { threads };
            let wave = one_wave(cuda, kernel, name, &mut entry.waves, key, threads, shared).min(max_default_grid(cuda) as u32);
            let grid = dims.grid_shape(block, wave as usize);
            return launch_with(cuda, region, name, kernel, grid_config(grid, block, shared, queue), args, grid.iter().product());
        }
        // Where the outermost loop holds worker or vector loops (its trips are shared by the
        // block's threads), such a kernel is compiled again for the block the clauses ask for
        // (the compiler keeps fewer registers, as nvcc does under `__launch_bounds__`): with
        // the block shrunk instead, the papers' `num_workers(8), vector_length(128)` kernels of
        // 72-80 registers ran 6 workers, their worker loops took more trips each, and each
        // block kept fewer loads in flight (on an H100, 4-byte sums in the vector position
        // 3.7-3.8 -> 2.9-3.0 ms, gang worker vector 0.33 -> 0.18 ms). A loop over every level
        // (`gang, worker, vector` on one loop) spreads its trips over whatever block it gets,
        // and its kernel keeps its registers: the same line's sums ran at 0.115 ms with
        // 640-thread blocks, at 0.16 ms compiled for 1024 threads (registers spilled in the
        // unrolled rounds). Where even the recompiled kernel holds fewer threads, the block
        // shrinks.
        let block = geom.block();
        let force = rounds_for_block(geom);
        let recompiled = if registers > 0 {
            None
        } else if force || compiles_for_block(geom, entry.kernel.max_threads()) {
            if !entry.for_block.iter().any(|(b, _)| *b == block) {
                // The kernel alone: its file's module compiled again would take seconds for a
                // file of many regions (the differential tester's 300 ran 12 times slower).
                let ptx = crate::ptx_modules::only_kernel(crate::ptx_modules::module_of(ptx, name), name);
                let module = cuda.load_ptx_for_block(&ptx, block).unwrap_or_else(|e| panic!("acc: {region}: cannot load kernel `{name}` for blocks of {block} threads: {e}"));
                let k = cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(&ptx);
                entry.for_block.push((block, (force || k.max_threads() > entry.kernel.max_threads()).then_some(k)));
            }
            entry.for_block.iter().position(|(b, k)| *b == block && k.is_some())
        } else {
            None
        };
        let kernel = match recompiled {
            Some(i) => entry.for_block[i].1.as_ref().expect("found with a kernel"),
            None if registers > 0 => capped_kernel(&mut entry.capped, cuda, region, ptx, name, registers, most_shared),
            None => &entry.kernel,
        };
        let geom = &entry_geometry(geom, kernel.max_threads());
        let (bx, by) = geom.block_xy();
        let (shared, cache) = block_shared(geom);
        if cache > CACHE_SHARED as usize {
            fail(format!("acc: {region}: kernel `{name}`: its `cache!` windows take {cache} bytes of shared memory with blocks of {bx} threads, more than the {CACHE_SHARED} acc gives them: narrow the windows or the `vector_length`"));
        }
        let shared = shared + cache as u32;
        let grid = if geom.serial {
            1
        } else if geom.num_gangs > 0 {
            geom.num_gangs.min(i32::MAX as usize) as u32
        } else {
            let block = geom.block();
            let wave = one_wave(cuda, kernel, name, &mut entry.waves, capped_key(block, registers), block, shared);
            linear_grid(wave, geom.waves, geom.blocks_needed(block), max_default_grid(cuda))
        };
        let mut cfg = LaunchConfig::linear(grid, bx).with_shared(shared);
        cfg.block = (bx, by, 1);
        cfg.queue = queue;
        launch_with(cuda, region, name, kernel, cfg, args, grid)
    })
}

/// The blocks of a launch on a one-dimensional grid without `num_gangs`: as many as the
/// trips need (`needed`), at least one, at most `waves` waves of `wave` blocks and `waves`
/// times the default grid (`most`).
fn linear_grid(wave: u32, waves: usize, needed: usize, most: usize) -> u32 {
    let waves = waves.max(1);
    (wave as usize).saturating_mul(waves).min(needed.max(1)).min(most.saturating_mul(waves)).min(i32::MAX as usize) as u32
}

/// The shared memory a kernel of `geom`'s nest is opened up to: that of the largest block (16
/// KiB, under the 48 KiB every kernel gets): 16 bytes per thread for the collective reductions
/// and broadcasts (acc_device::reduce); each launch asks for its own block's share. A kernel
/// with `cache!` windows is opened up to 64 KiB more for them.
fn most_shared(geom: &Geometry) -> u32 {
    (if geom.group_locals { GROUP_LOCALS_SHARED } else { 16 * 1024 }) + if geom.cache != (0, 0) || geom.window_bytes > 0 { CACHE_SHARED } else { 0 }
}

/// The dynamic shared memory a block of `geom`'s (a nest on a one-dimensional grid) asks for:
/// the group locals' or 16 bytes a thread, and apart the bytes of its `cache!` windows.
fn block_shared(geom: &Geometry) -> (u32, usize) {
    let base = if geom.group_locals { GROUP_LOCALS_SHARED } else { 16 * geom.block().max(32) };
    let x = geom.block_xy().0 as usize;
    (base, (geom.cache.0 + geom.window_bytes * geom.window_points()) * x + geom.cache.1)
}

/// This thread's entry for kernel `name` of the PTX text `ptx` on `cuda`, made (the kernel
/// loaded) at its first launch.
fn launchable<'k>(kernels: &'k mut AddrMap<KernelKey, Launchable>, cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, most_shared: u32) -> &'k mut Launchable {
    let key = KernelKey { backend: cuda.id(), ptx: ptx.as_ptr() as usize, name: (name.as_ptr() as usize, name.len()), shared: most_shared };
    // One hash lookup for a kernel launched before.
    let entry = kernels.entry(key).and_modify(|l| {
        if *l.name != *name {
            // Another name's entry at a reused address (a name that is not `'static`).
            *l = Launchable::load(cuda, region, ptx, name, most_shared);
        }
    });
    entry.or_insert_with(|| Launchable::load(cuda, region, ptx, name, most_shared))
}

impl Launchable {
    /// Kernel `name` of the package's PTX text `ptx`, loaded on `cuda` (its module loaded once
    /// per process) and opened up to `most_shared` bytes of shared memory.
    fn load(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, most_shared: u32) -> Self {
        // Its panics' columns (the PTX file's header).
        crate::columns::register(ptx);
        // The module of the package's PTX that defines the kernel (acc-build may write
        // several, see `ptx_modules`).
        let ptx = crate::ptx_modules::module_of(ptx, name);
        let module = module(cuda, region, ptx);
        let kernel = cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(ptx);
        Launchable { kernel, name: name.into(), for_block: Vec::new(), waves: Vec::new(), capped: Vec::new() }
    }
}

/// Whether the nest whose kernel is `name` holds one of `geom`'s blocks a multiprocessor where
/// its lean kernel `lean` holds two or more, and the launch has more blocks than one a
/// multiprocessor (so the lean kernel runs more of them at once). A block alone on its
/// multiprocessor leaves it idle at each of its barriers and serial phases: the papers' gang
/// worker position (1024 gangs of 1024 threads, rows of 64 trips that never take chunks)
/// ran 0.775 ms in one block a multiprocessor, 0.467 in two (H100). Where the kernel holds
/// two blocks or more already, the chunks are kept: a row of many trips moves 16 bytes a
/// load with them. A kernel whose registers do not let a block of `geom`'s hold all its
/// threads counts one block a multiprocessor (it is compiled for the block at launch, see
/// `launch`).
fn lean_fills_more(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, lean: &str, geom: &Geometry) -> bool {
    let sms = cuda.sm_count();
    // (The test that needs no kernel first: most launches of few blocks stop there.)
    if !geom.outnumbers(sms as usize) {
        return false;
    }
    blocks_a_wave(cuda, region, ptx, name, geom) <= sms && blocks_a_wave(cuda, region, ptx, lean, geom) >= 2 * sms
}

/// `ACC_EXP_NOLEANINB` set: nests run their checked lean kernel where they have one without
/// the checks too (an experiment switch for A/B runs on the GPU, read once).
fn checked_lean_only() -> bool {
    static ONLY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ONLY.get_or_init(|| std::env::var_os("ACC_EXP_NOLEANINB").is_some())
}

/// The blocks of `geom`'s that kernel `name` runs at once on the GPU (one a multiprocessor
/// where its registers do not let a block hold all its threads: it is compiled for the block
/// at launch, see `launch`).
fn blocks_a_wave(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, geom: &Geometry) -> u32 {
    let block = geom.block();
    let (base, cache) = block_shared(geom);
    let shared = base + cache as u32;
    KERNELS.with(|kernels| {
        let mut kernels = kernels.borrow_mut();
        let e = launchable(&mut kernels, cuda, region, ptx, name, most_shared(geom));
        if e.kernel.max_threads() < block {
            cuda.sm_count()
        } else {
            one_wave(cuda, &e.kernel, name, &mut e.waves, block, block, shared)
        }
    })
}

/// The registers a thread of kernel `name` (a lean kernel's twin without index checks) may
/// have for `blocks` of `geom`'s blocks to run at once, where the kernel compiled again with
/// at most that many does run them: `None` where it still runs fewer (or
/// `ACC_EXP_NOTWINREGS` is set, an experiment switch for A/B runs), or spills registers to
/// local memory. The twins of the papers' gang and gang worker positions need more than the
/// 32 registers that let two blocks of 1024 threads share a multiprocessor, where their
/// checked lean kernels take 28-30.
fn twin_registers(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, geom: &Geometry, blocks: u32) -> Option<u32> {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OFF.get_or_init(|| std::env::var_os("ACC_EXP_NOTWINREGS").is_some()) {
        return None;
    }
    let block = geom.block();
    let registers = registers_for(blocks.div_ceil(cuda.sm_count().max(1)), block)?;
    let (base, cache) = block_shared(geom);
    KERNELS.with(|kernels| {
        let mut kernels = kernels.borrow_mut();
        let e = launchable(&mut kernels, cuda, region, ptx, name, most_shared(geom));
        let kernel = capped_kernel(&mut e.capped, cuda, region, ptx, name, registers, most_shared(geom));
        // Only where it spills nothing: the papers' gang twins, kept to 32 registers, spilled
        // and ran slower than their checked lean kernels (4-byte sums 0.253 -> 0.265 ms, 8-byte
        // 0.39 -> 0.465 on an H100), where the gang worker twins ran faster (0.26 -> 0.22 ms).
        let spills = kernel.local_bytes() > e.kernel.local_bytes();
        let wave = one_wave(cuda, kernel, name, &mut e.waves, capped_key(block, registers), block, base + cache as u32);
        (wave >= blocks && !spills).then_some(registers)
    })
}

/// The registers of a multiprocessor (sm_70 to sm_90).
const REGISTERS_PER_SM: u32 = 65536;

/// The most registers a thread may have for `per_sm` blocks of `block` threads to share a
/// multiprocessor (a warp's registers come in units of 256, 8 a thread; 255 at most); `None`
/// under 16, too few to compile for.
fn registers_for(per_sm: u32, block: u32) -> Option<u32> {
    let r = (REGISTERS_PER_SM / (per_sm.max(1) * block.max(1).next_multiple_of(32)) / 8 * 8).min(255);
    (r >= 16).then_some(r)
}

/// Kernel `name` compiled alone with at most `registers` registers a thread, from `capped`
/// (compiled and kept there at its first use).
fn capped_kernel<'c>(capped: &'c mut Vec<(u32, Kernel)>, cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, registers: u32, most_shared: u32) -> &'c Kernel {
    let at = match capped.iter().position(|(r, _)| *r == registers) {
        Some(at) => at,
        None => {
            let ptx = crate::ptx_modules::only_kernel(crate::ptx_modules::module_of(ptx, name), name);
            let module = cuda.load_ptx_with_registers(&ptx, registers).unwrap_or_else(|e| panic!("acc: {region}: cannot load kernel `{name}` with {registers} registers a thread: {e}"));
            let k = cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(&ptx);
            capped.push((registers, k));
            capped.len() - 1
        }
    };
    &capped[at].1
}

/// The key of a wave of blocks of `block` threads in an entry's waves: the block, or for the
/// kernel compiled with at most `registers` registers (> 0) a key apart from the others.
fn capped_key(block: u32, registers: u32) -> u32 {
    if registers == 0 {
        block
    } else {
        RECOMPILED | (registers << 16) | block
    }
}

/// The most warps a multiprocessor holds (2048 threads: sm_70 to sm_90; fewer on some, where
/// the lean kernel is then taken for gang loops of more trips only).
const WARPS_PER_SM: usize = 64;

/// The block size a nest on a multi-dimensional grid, in blocks of `threads`, is compiled for:
/// the threads of 4 blocks (64 registers a thread for blocks of 256), so that 4 blocks share
/// a multiprocessor and hide each other's latencies and barriers. For a nest staging 2-D
/// `cache!` tiles always: the GEMM's kernels kept 96-100 registers (nvcc's 32), 2 blocks a
/// multiprocessor; compiled this way, 2268 -> 3746 GFLOP/s with 16 x 16 tiles and 2770 -> 4356
/// with 32 x 32 on an H100 (benches/README.md). For other nests where the kernel as compiled
/// (`registers` a thread) holds fewer than 4 blocks a multiprocessor (`per_sm`) and needs at
/// most a quarter more registers than 4 blocks leave, so that few spill: the 13-point wave
/// step's 68 registers, 3 blocks, took 0.251 ms; compiled for 4 blocks (64 registers, no
/// spill), 0.18-0.21 ms on an H200. `None` for other kernels, and where the block is a
/// multiprocessor's most already.
fn tile_compile_threads(geom: &Geometry, threads: u32, per_sm: u32, registers: u32) -> Option<u32> {
    // (Tiles: 1024 threads, 64 registers, whatever the block: a coarsened nest's blocks of 64
    // threads, compiled for 256, took 162 registers, 6 blocks a multiprocessor.)
    let target = if geom.cache_y > 0 { 1024 } else { (threads * 4).min(1024) };
    let fits = 65536 / target.max(1);
    let short = per_sm < 4 && registers > fits && registers * 4 <= fits * 5;
    (geom.cache_y > 0 || short).then_some(target).filter(|&t| t > threads)
}

/// The key of a recompiled kernel's waves in its entry's (beside the nest's kernel's, keyed by
/// the block's threads, at most 1024).
const RECOMPILED: u32 = 1 << 31;

/// Whether the nest's kernel (not its lean kernel: `launch` has passed that by) is compiled for
/// `geom`'s block whatever its registers: its inner loops reduce in rounds of chunks
/// (`Geometry::lean_kernel`'s third field), and the outermost loop's trips are shared by the
/// block's lanes or workers. Compiled without the block, the rounds' loop (chunk.rs) kept its
/// loads behind its adds: the papers' vector position ran 1.64 ms on an H100, compiled for the
/// block 1.09 ms (1.23 before the rounds lost their checks; `results/diag-h100-session21/`).
/// Other nests keep their own compilation: compiling every nest whose trips are shared for
/// its block took the papers' gang and gang worker positions from 0.25 to 0.35-0.40 ms.
fn rounds_for_block(geom: &Geometry) -> bool {
    geom.lean_kernel.is_some_and(|(_, _, rounds)| rounds) && (geom.per_trip.0 || geom.per_trip.1)
}

/// Whether a kernel that holds at most `max_threads` threads a block is compiled again for
/// `geom`'s block (see `launch`): the block is larger, and the outermost loop's trips are
/// shared by the block's lanes or workers.
fn compiles_for_block(geom: &Geometry, max_threads: u32) -> bool {
    geom.block() > max_threads && (geom.per_trip.0 || geom.per_trip.1)
}

/// One full wave of blocks of `block` threads of `kernel` (every multiprocessor at its
/// occupancy limit): it depends on the kernel and block only, so it is found once (`waves`).
fn one_wave(cuda: &CudaBackend, kernel: &Kernel, name: &str, waves: &mut Vec<(u32, u32)>, key: u32, block: u32, shared: u32) -> u32 {
    if let Some(&(_, w)) = waves.iter().find(|(k, _)| *k == key) {
        return w;
    }
    let w = cuda.default_grid(kernel.module(), name, block, shared, usize::MAX / 2).unwrap_or(1).max(1);
    waves.push((key, w));
    w
}

/// The launch of a nest on a multi-dimensional grid: `grid` blocks of `block` threads, with
/// `shared` bytes of dynamic shared memory, on `queue`.
fn grid_config(grid: [u32; 3], block: [u32; 3], shared: u32, queue: Option<i64>) -> LaunchConfig {
    let mut cfg = LaunchConfig::linear(grid[0], block[0]).with_shared(shared);
    (cfg.grid, cfg.block, cfg.queue) = ((grid[0], grid[1], grid[2]), (block[0], block[1], block[2]), queue);
    cfg
}

/// Launches `kernel` with `cfg` (see [`launch`]); returns `blocks`.
fn launch_with(cuda: &CudaBackend, region: &'static RegionInfo, name: &str, kernel: &Kernel, cfg: LaunchConfig, args: &mut KernelArgs, blocks: u32) -> u32 {
    LAST_QUEUE.set(cfg.queue);
    let timer = profile::launch_begin_noted(region, profile::Track::of(cuda, cfg.queue), profile::KernelNote::of(name));
    cuda.launch_kernel(kernel, cfg, args, Some(region)).unwrap_or_else(|e| match e {
        // The panic's own text names the kernel and the user's file:line.
        crate::cuda::CudaError::KernelPanic { .. } => fail(format!("acc: {region}: {e}")),
        e => fail(format!("acc: {region}: kernel `{name}` failed on {}: {e}", cuda.name())),
    });
    drop(timer);
    blocks
}

/// `geom` with a block of at most `max_threads` threads.
fn entry_geometry(geom: &Geometry, max_threads: u32) -> Geometry {
    let (bx, by) = geom.block_xy();
    if bx * by <= max_threads {
        return *geom;
    }
    let mut g = *geom;
    let max = max_threads as usize;
    if (bx as usize) <= max {
        g.vector_length = bx as usize;
        g.num_workers = (max / bx as usize).max(1);
    } else {
        // Whole warps where possible.
        g.vector_length = if max >= 32 { max / 32 * 32 } else { max };
        g.num_workers = 1;
    }
    g
}

/// Whether region `region` runs its GPU path now: `if_cond` (its `if` and `self` clauses)
/// and the device is a GPU. Its kernels must be in the package's PTX (acc-build built them;
/// the region macro makes a region it did not see a compile error): a PTX without them is
/// a build that went wrong, and a panic naming the region, never a silent run on the host.
pub fn gpu_ready(region: &'static RegionInfo, if_cond: bool, ptx: &'static str, kernels: &[&str]) -> bool {
    if !if_cond || crate::devices::device_type() != crate::DeviceType::Nvidia {
        return false;
    }
    let key = (region as *const RegionInfo as usize, ptx.as_ptr() as usize);
    if READY.with(|r| r.borrow().contains_key(&key)) {
        return true;
    }
    if let Some(k) = kernels.iter().find(|k| !ptx.contains(&format!(".entry {k}("))) {
        panic!("acc: {region}: kernel `{k}` is not in the package's PTX: rebuild with `--features cuda` (acc-build writes it)");
    }
    READY.with(|r| r.borrow_mut().insert(key, true));
    true
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

    /// The papers' `num_workers(8), vector_length(128)`, an outermost loop of 64 trips.
    fn papers(per_trip: (bool, bool)) -> Geometry {
        Geometry::new(64, 0, 128, false).workers(8, true).per_trip(per_trip.0, per_trip.1)
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
    fn a_nest_that_reduces_in_rounds_of_chunks_is_compiled_for_its_block() {
        let shared = Geometry::new(1 << 20, 2, 128, false).workers(8, true).per_trip(true, true);
        assert!(rounds_for_block(&shared.lean_kernel("k_lean", false, true)));
        assert!(!rounds_for_block(&shared.lean_kernel("k_lean", false, false)), "no rounds of chunks");
        assert!(!rounds_for_block(&shared), "no lean kernel: no chunked rounds");
        assert!(!rounds_for_block(&Geometry::new(1 << 20, 2, 128, false).lean_kernel("k_lean", false, true)), "trips not shared");
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

    #[test]
    fn a_nest_whose_block_shares_trips_gets_its_block_compiled_for() {
        // A gang loop over worker and vector loops, kernel of 80 registers (768 threads).
        assert!(compiles_for_block(&papers((true, true)), 768));
        // Nests staging 2-D tiles are compiled for 4 blocks' threads, at most 1024.
        let tiles = Geometry::new(1 << 20, 0, 0, false).cache_tile(4, 16, 16, 0);
        assert_eq!(tile_compile_threads(&tiles, 256, 2, 100), Some(1024));
        assert_eq!(tile_compile_threads(&tiles, 64, 8, 100), Some(1024));
        assert_eq!(tile_compile_threads(&tiles, 1024, 1, 100), None);
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 4, 64), None);
        // Other nests where the kernel holds fewer than 4 blocks and needs at most a quarter
        // more registers than 4 blocks leave (64 for blocks of 256): the wave step's 68.
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 3, 68), Some(1024));
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 3, 80), Some(1024));
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 2, 81), None);
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 4, 64), None);
        assert_eq!(tile_compile_threads(&papers((true, true)), 256, 2, 40), None);
        assert_eq!(tile_compile_threads(&papers((true, true)), 1024, 1, 72), None);
        assert!(compiles_for_block(&papers((false, true)), 768));
        // The kernel holds the block: nothing to compile.
        assert!(!compiles_for_block(&papers((true, true)), 1024));
        // One loop over every level: it keeps its registers and gets a smaller block.
        assert!(!compiles_for_block(&papers((false, false)), 768));
        assert_eq!(entry_geometry(&papers((false, false)), 640).block_xy(), (128, 5));
    }

    #[test]
    fn the_registers_that_let_blocks_share_a_multiprocessor() {
        assert_eq!(registers_for(2, 1024), Some(32), "the papers' lean kernels: 2 blocks of 1024");
        assert_eq!(registers_for(1, 1024), Some(64));
        assert_eq!(registers_for(4, 256), Some(64));
        assert_eq!(registers_for(3, 1000), Some(16), "1000 threads take 32 warps: 21 -> 16");
        assert_eq!(registers_for(1, 100), Some(255), "at most 255");
        assert_eq!(registers_for(5, 1024), None, "12 registers: too few");
        assert_eq!(registers_for(0, 0), Some(255), "no blocks asked: as for one");
    }

    #[test]
    fn a_block_too_big_for_the_kernel_loses_workers_first() {
        assert_eq!(entry_geometry(&papers((true, true)), 768).block_xy(), (128, 6));
        assert_eq!(entry_geometry(&papers((true, true)), 1024).block_xy(), (128, 8));
        // A vector longer than the kernel holds: one worker, whole warps.
        let wide = Geometry::new(64, 0, 1024, false);
        assert_eq!(entry_geometry(&wide, 600).block_xy(), (576, 1));
    }
}
