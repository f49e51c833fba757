//! What the GPU paths of generated region fns call (feature `cuda`): the launch shape from the
//! clauses and the device, the reduction partials buffer, and the launch itself. Every failure
//! is a panic naming the region (and, for a kernel panic, the kernel's source location).

use std::sync::{Arc, Mutex};

use crate::cuda::{CudaBackend, KernelArgs, LaunchConfig, Module};
use crate::device::backend;
use crate::profile;
use crate::region::RegionInfo;

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
}

impl Geometry {
    /// The shape asked for by the clauses (0 = not given).
    pub fn new(iterations: usize, num_gangs: usize, vector_length: usize, serial: bool) -> Self {
        Geometry { iterations, num_gangs, vector_length, serial, num_workers: 0, uses_worker: false, per_trip: (false, false) }
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

    /// Threads per block in x (vector lanes) and y (workers): the clauses, else 256 x 1
    /// without worker loops and 32 x 8 with them; 1 x 1 for serial loops.
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
        (x.min(1024) as u32, y.min(1024) as u32)
    }

    /// Threads per block.
    pub fn block(&self) -> u32 {
        let (x, y) = self.block_xy();
        x.saturating_mul(y)
    }

    /// Threads the nest can use: one per iteration, or a block's share per trip.
    fn threads_wanted(&self) -> usize {
        let (x, y) = self.block_xy();
        let per = if self.per_trip.0 { x as usize } else { 1 } * if self.per_trip.1 { y as usize } else { 1 };
        self.iterations.saturating_mul(per)
    }

    /// Blocks: the clause, else enough to cover the loop once, capped at what keeps every
    /// multiprocessor busy (the grid-stride loops cover the rest).
    fn grid(&self, cuda: &CudaBackend, module: &Module, name: &str, shared: u32) -> u32 {
        if self.serial {
            return 1;
        }
        if self.num_gangs > 0 {
            return self.num_gangs.min(i32::MAX as usize) as u32;
        }
        cuda.default_grid(module, name, self.block(), shared, self.iterations).unwrap_or(1).max(1)
    }
}

fn cuda_of(region: &RegionInfo) -> Arc<dyn crate::device::Backend> {
    let b = backend();
    if b.as_any().downcast_ref::<CudaBackend>().is_none() {
        panic!("acc: {region}: the region's GPU path ran without a CUDA device");
    }
    b
}

/// The device buffer that receives one partial result per block and reduction variable.
pub struct Partials {
    region: &'static RegionInfo,
    ptr: u64,
    grid: usize,
}

/// Bytes of each partial entry (enough for any scalar).
const ENTRY: usize = 16;

impl Partials {
    /// Room for `vars` reduction variables of the launch `geom` (none when `vars == 0`).
    pub fn new(region: &'static RegionInfo, vars: usize, geom: &Geometry) -> Self {
        let grid = if geom.serial { 1 } else if geom.num_gangs > 0 { geom.num_gangs } else { MAX_DEFAULT_GRID };
        let ptr = if vars == 0 {
            0
        } else {
            let b = cuda_of(region);
            b.alloc(vars * grid * ENTRY).unwrap_or_else(|e| panic!("acc: {region}: cannot allocate reduction partials: {e}")).0
        };
        Partials { region, ptr, grid }
    }

    /// The buffer's device address.
    pub fn device_ptr(&self) -> u64 {
        self.ptr
    }

    /// Reads the partials of variable `slot` written by a launch of `launched` blocks (what
    /// [`launch`] returned) and folds them with `combine`; `like` gives their type.
    pub fn fold<T: Copy>(&self, slot: usize, launched: u32, like: &T, combine: impl Fn(T, T) -> T) -> T {
        let _ = like;
        let launched = (launched as usize).min(self.grid);
        let mut raw = vec![0u8; launched * ENTRY];
        // The kernel lays the partials out by its own grid: `(slot * gridDim.x + block)`.
        let b = cuda_of(self.region);
        // SAFETY: `raw` holds `launched * ENTRY` bytes; the source lies in the buffer
        // allocated by `new` with `grid >= launched` entries per variable.
        unsafe {
            b.d2h(raw.as_mut_ptr(), crate::device::DevPtr(self.ptr + (slot * launched * ENTRY) as u64), raw.len())
        }
        .unwrap_or_else(|e| panic!("acc: {}: cannot read reduction partials: {e}", self.region));
        let mut it = raw.chunks_exact(ENTRY).map(|c| {
            // SAFETY: each entry holds a `T` written by the kernel's `store_partial` (T is at
            // most 16 bytes, a scalar); read unaligned from the byte buffer.
            unsafe { (c.as_ptr() as *const T).read_unaligned() }
        });
        let first = it.next().expect("a launch has one block at least");
        it.fold(first, combine)
    }
}

impl Drop for Partials {
    fn drop(&mut self) {
        if self.ptr != 0 {
            let b = backend();
            // SAFETY: allocated in `new`, freed once; the launch that used it has finished
            // (`fold` synchronised, or the launch was synchronous).
            let _ = unsafe { b.free(crate::device::DevPtr(self.ptr)) };
        }
    }
}

/// The largest grid a launch without `num_gangs` gets (partials are sized for it).
pub const MAX_DEFAULT_GRID: usize = 132 * 32;

/// The module of `ptx` and the launch grid of `name`, looked up once per process: the PTX is
/// a `'static` text (embedded by `include_str!`), so its address identifies it, and hashing
/// it on every launch would cost more than the launch.
fn cached(cuda: &CudaBackend, region: &'static RegionInfo, ptx: &'static str, name: &str, geom: &Geometry, shared: u32) -> (Arc<Module>, u32) {
    type Key = (usize, usize, String, u32);
    static MODULES: Mutex<Vec<(usize, usize, Arc<Module>)>> = Mutex::new(Vec::new());
    static GRIDS: Mutex<Vec<(Key, u32)>> = Mutex::new(Vec::new());
    let backend_key = cuda as *const CudaBackend as usize;
    let module = {
        let mut m = MODULES.lock().unwrap_or_else(|e| e.into_inner());
        match m.iter().find(|(p, b, _)| *p == ptx.as_ptr() as usize && *b == backend_key) {
            Some((_, _, module)) => module.clone(),
            None => {
                let module = cuda.load_ptx(ptx).unwrap_or_else(|e| panic!("acc: {region}: cannot load the kernels' PTX: {e}"));
                m.push((ptx.as_ptr() as usize, backend_key, module.clone()));
                module
            }
        }
    };
    if geom.serial || geom.num_gangs > 0 {
        return (module.clone(), geom.grid(cuda, &module, name, shared));
    }
    // The one-wave grid depends on the kernel and block only; cap it by the iterations here.
    let key: Key = (ptx.as_ptr() as usize, backend_key, name.to_string(), geom.block());
    let wave = {
        let mut g = GRIDS.lock().unwrap_or_else(|e| e.into_inner());
        match g.iter().find(|(k, _)| *k == key) {
            Some((_, w)) => *w,
            None => {
                let w = Geometry { iterations: usize::MAX / 2, ..*geom }.grid(cuda, &module, name, shared);
                g.push((key, w));
                w
            }
        }
    };
    let needed = geom.threads_wanted().div_ceil(geom.block() as usize).max(1);
    (module, wave.min(needed.min(u32::MAX as usize) as u32))
}

/// Launches kernel `name` of the package's PTX for `region`; panics naming the region when the
/// launch or the kernel fails (with the kernel's panic location when it panicked). Returns the
/// number of blocks launched.
pub fn launch(region: &'static RegionInfo, ptx: &'static str, name: &str, args: &mut KernelArgs, geom: &Geometry, queue: Option<i64>) -> u32 {
    let b = cuda_of(region);
    let cuda = b.as_any().downcast_ref::<CudaBackend>().expect("checked by cuda_of");
    let (bx, by) = geom.block_xy();
    if geom.block() > 1024 {
        panic!("acc: {region}: num_workers({by}) x vector_length({bx}) asks for {} threads per gang; a GPU block holds 1024 at most", geom.block());
    }
    // 16 bytes per thread: the collective reductions and broadcasts (acc_device::reduce).
    let shared = 16 * geom.block().max(32);
    let (module, mut grid) = cached(cuda, region, ptx, name, geom, shared);
    if geom.num_gangs == 0 {
        grid = grid.min(MAX_DEFAULT_GRID as u32);
    }
    let mut cfg = LaunchConfig::linear(grid, bx).with_shared(shared);
    cfg.block = (bx, by, 1);
    if let Some(q) = queue {
        cfg = cfg.on_queue(q);
    }
    let timer = profile::launch_begin_on(region, crate::DeviceType::Nvidia);
    cuda.launch(&module, name, cfg, args).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}` failed: {e}"));
    drop(timer);
    grid
}

/// Whether region `region` runs its GPU path now: `if_cond`, the device is a GPU, and the
/// package's PTX holds its kernels. A region acc-build could not see (one generated by
/// `macro_rules!`) runs on the host, and says so once on stderr.
pub fn gpu_ready(region: &'static RegionInfo, if_cond: bool, ptx: &'static str, kernels: &[&str]) -> bool {
    if !if_cond || crate::device::device_type() != crate::DeviceType::Nvidia {
        return false;
    }
    let present = kernels.iter().all(|k| ptx.contains(&format!(".entry {k}(")));
    if !present {
        static SAID: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());
        let key = region as *const RegionInfo as usize;
        let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
        if !said.contains(&key) {
            said.push(key);
            eprintln!("acc: {region} runs on the host: its kernel is not in the package's PTX (acc-build reads the source files, so it cannot see regions generated by `macro_rules!`)");
        }
    }
    present
}
