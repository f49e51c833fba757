//! The launch: which of a nest's kernels runs (its kernel, its lean kernel, its kernel of one
//! point a thread), the kernel the registers allow for the block, the grid, and the launch
//! itself.
//!
//! The generated code names the kernel its bounds allow (the nest's, `_inb` or `_inbc`, with its
//! kernel of one point a thread, `_pt_inb` or `_pt_inbc`, where it has one). Here the lean kernel
//! runs instead where `Geometry::lean_kernel` expects it to be faster: its twin without checks,
//! `_lean_inb`, where the launch bounded the indices (compiled again with the checked one's
//! registers where it would run fewer blocks at once), else the checked `_lean`. Otherwise the
//! kernel of one point a thread runs where its grid covers the trips, else the named kernel, on a
//! `Dims` grid or a one-dimensional one.

use std::cell::Cell;

use super::geometry::{block_shared, linear_grid, most_shared, worker_blocks_y, Dims, Geometry, Shape, CACHE_SHARED};
use super::kernels::{max_default_grid, one_wave, with_entry, Launchable, Source};
use super::recompile::{capped_key, capped_kernel, compiles_for_block, entry_geometry, load_for_block, rounds_for_block, tile_compile_threads, twin_registers, RECOMPILED};
use super::{cuda_of, fail};
use crate::backend::{Backend, DeviceType};
use crate::cuda::{Kernel, KernelArgs, LaunchConfig};
use crate::prof;
use crate::profile;
use crate::region_info::RegionInfo;

thread_local! {
    /// The queue of this thread's last launch (`None`: synchronous): the launch whose
    /// partials [`Partials::fold`](super::Partials::fold) reads next.
    pub(super) static LAST_QUEUE: Cell<Option<i64>> = const { Cell::new(None) };
}

/// The most warps a multiprocessor holds (2048 threads: sm_70 to sm_90; fewer on some, where
/// the lean kernel is then taken for gang loops of more trips only).
const WARPS_PER_SM: usize = 64;

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
    let start = super::hosttime::launch_begin();
    let blocks = launch_as(region, ptx, name, args, geom, queue, 0);
    super::hosttime::launch_end(start);
    blocks
}

/// [`launch`], with kernel `name` compiled again with at most `registers` registers a thread
/// where `registers` > 0 (see [`twin_registers`]).
fn launch_as(region: &'static RegionInfo, ptx: &'static str, name: &str, args: &mut KernelArgs, geom: &Geometry, queue: Option<i64>, registers: u32) -> u32 {
    let cuda = cuda_of(region);
    let src = Source { cuda: &cuda, region, ptx };
    // A nest with a lean kernel runs it where it is expected to be faster (see
    // `Geometry::lean_kernel`).
    if let Some((kernel, registers)) = lean_choice(src, name, geom) {
        let plain = Geometry { shape: Shape { lean_kernel: None, ..geom.shape }, ..*geom };
        return launch_as(region, ptx, kernel, args, &plain, queue, registers);
    }
    // The kernel is opened up to the shared memory of the largest block (16 KiB, under the
    // 48 KiB every kernel gets): 16 bytes per thread for the collective reductions and
    // broadcasts (acc_device::reduce). Each launch asks for its own block's share.
    // A kernel with `cache!` windows is opened up to 64 KiB more for them.
    let most_shared = most_shared(geom);
    // The kernel of one point a thread, on the grid that covers the trips.
    if let (Some(dims), false, Some(point)) = (&geom.shape.dims, geom.shape.serial, geom.point_kernel) {
        let launched = with_entry(src, point, most_shared, |e| {
            let block = dims.block_shape(geom.shape.vector_length, e.kernel.max_threads());
            let grid = dims.covering_shape(block)?;
            let shared = 16 * block.iter().product::<u32>().max(32);
            Some(launch_with(src, point, &e.kernel, grid_config(grid, block, shared, queue), args, grid.iter().product()))
        });
        if let Some(blocks) = launched {
            return blocks;
        }
    }
    with_entry(src, name, most_shared, |entry| match (&geom.shape.dims, geom.shape.serial) {
        (Some(dims), false) => launch_on_dims(src, name, entry, geom, dims, (queue, args)),
        _ => launch_linear(src, name, entry, geom, registers, (queue, args)),
    })
}

/// Which of its lean kernels a nest with one runs, with the registers to compile it with (0:
/// as built), where the lean kernel is expected to be faster (see `Geometry::lean_kernel`);
/// `None`: the nest's kernel `name` runs.
fn lean_choice(src: Source, name: &str, geom: &Geometry) -> Option<(&'static str, u32)> {
    let lean = geom.shape.lean_kernel?.name;
    // The lean kernel as checked, and the one without the checks where the launch bounded
    // the indices (`_lean_inb`).
    let checked = lean.strip_suffix("_inb").unwrap_or(lean);
    let sms = src.cuda.sm_count() as usize;
    if !(geom.every_warp_has_trips(sms, WARPS_PER_SM) || geom.fills_the_gpu(sms) || lean_fills_more(src, name, checked, geom)) {
        return None;
    }
    if lean == checked || checked_lean_only() {
        return Some((checked, 0));
    }
    // The one without checks runs its loops of single trips in rounds of 2 (more registers).
    // Where that runs fewer of the launch's blocks at once than the checked one (a launch of
    // fewer blocks than either runs at once takes it), it is compiled again with the checked
    // one's registers; where even that runs fewer, the checked one runs.
    let wanted = geom.blocks_wanted().min(u32::MAX as usize) as u32;
    let blocks = blocks_a_wave(src, checked, geom).min(wanted);
    if blocks_a_wave(src, lean, geom) >= blocks {
        return Some((lean, 0));
    }
    Some(match twin_registers(src, lean, geom, blocks) {
        Some(registers) => (lean, registers),
        None => (checked, 0),
    })
}

/// The launch of a nest on a multi-dimensional grid: its blocks (as many threads as the kernel
/// holds), compiled for 4 blocks' threads where [`tile_compile_threads`] says, then its blocks
/// per dimension within a wave.
fn launch_on_dims(src: Source, name: &str, entry: &mut Launchable, geom: &Geometry, dims: &Dims, (queue, args): (Option<i64>, &mut KernelArgs)) -> u32 {
    let Source { cuda, region, .. } = src;
    let block = dims.block_shape(geom.shape.vector_length, entry.kernel.max_threads());
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
            let k = load_for_block(src, name, target, most_shared(geom));
            entry.for_block.push((target, Some(k)));
        }
    }
    let kernel = tiled.and_then(|t| entry.for_block.iter().find(|(b, _)| *b == t)).and_then(|(_, k)| k.as_ref()).unwrap_or(&entry.kernel);
    // (The recompiled kernel's waves are kept apart from the nest's kernel's.)
    let key = if tiled.is_some() { threads | RECOMPILED } else { threads };
    let wave = one_wave(cuda, kernel, name, &mut entry.waves, key, threads, shared).min(max_default_grid(cuda) as u32);
    let grid = dims.grid_shape(block, wave as usize);
    launch_with(src, name, kernel, grid_config(grid, block, shared, queue), args, grid.iter().product())
}

/// The launch of a nest on a one-dimensional grid: the kernel compiled for the block where
/// its registers cannot hold it (see below), or with at most `registers` registers a thread
/// (> 0), the block then clamped to what the kernel holds, and the grid: `num_gangs`, else
/// the blocks the trips need within the nest's waves.
fn launch_linear(src: Source, name: &str, entry: &mut Launchable, geom: &Geometry, registers: u32, (queue, args): (Option<i64>, &mut KernelArgs)) -> u32 {
    let Source { cuda, region, .. } = src;
    let most_shared = most_shared(geom);
    // A kernel that needs many registers holds fewer threads per block than the clauses
    // ask for: fewer workers first, then a shorter vector (OpenACC lets the
    // implementation use less than asked for the target's limits).
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
            let k = load_for_block(src, name, block, most_shared);
            entry.for_block.push((block, (force || k.max_threads() > entry.kernel.max_threads()).then_some(k)));
        }
        entry.for_block.iter().position(|(b, k)| *b == block && k.is_some())
    } else {
        None
    };
    let kernel = match recompiled {
        Some(i) => entry.for_block[i].1.as_ref().expect("found with a kernel"),
        None if registers > 0 => capped_kernel(&mut entry.capped, src, name, registers, most_shared),
        None => &entry.kernel,
    };
    let geom = &entry_geometry(geom, kernel.max_threads());
    let (bx, by) = geom.block_xy();
    let (shared, cache) = block_shared(geom);
    if cache > CACHE_SHARED as usize {
        fail(format!("acc: {region}: kernel `{name}`: its `cache!` windows take {cache} bytes of shared memory with blocks of {bx} threads, more than the {CACHE_SHARED} acc gives them: narrow the windows or the `vector_length`"));
    }
    let shared = shared + cache as u32;
    let block = geom.block();
    let mut wave = || one_wave(cuda, kernel, name, &mut entry.waves, capped_key(block, registers), block, shared);
    let grid = if geom.shape.serial {
        1
    } else if geom.shape.num_gangs > 0 {
        geom.shape.num_gangs.min(i32::MAX as usize) as u32
    } else {
        linear_grid(wave(), geom.shape.waves, geom.blocks_needed(block), max_default_grid(cuda))
    };
    // A gang loop whose body is one worker loop alone: its worker trips over blocks in `y`
    // too, where the gangs' blocks are fewer than the GPU holds at once.
    let grid_y = if geom.shape.worker_blocks && !geom.shape.serial && worker_blocks_on() { worker_blocks_y(grid, wave()) } else { 1 };
    let mut cfg = LaunchConfig::linear(grid, bx).with_shared(shared);
    cfg.grid.1 = grid_y;
    cfg.block = (bx, by, 1);
    cfg.queue = queue;
    launch_with(src, name, kernel, cfg, args, grid * grid_y)
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
fn lean_fills_more(src: Source, name: &str, lean: &str, geom: &Geometry) -> bool {
    let sms = src.cuda.sm_count();
    // (The test that needs no kernel first: most launches of few blocks stop there.)
    if !geom.outnumbers(sms as usize) {
        return false;
    }
    blocks_a_wave(src, name, geom) <= sms && blocks_a_wave(src, lean, geom) >= 2 * sms
}

/// Whether a gang loop whose body is one worker loop alone gets blocks in `y` for that loop's
/// trips (`Shape::worker_blocks`): yes, but with `ACC_EXP_NOWORKERBLOCKS=1`, an experiment
/// switch for A/B runs. On an H200 at class B (one call, each run twice) NPB SP ran in
/// 2.17 s with them and 2.70 s without, BT in 4.11 s and 4.22-4.24 s, LU in 4.38 s and 4.39 s.
fn worker_blocks_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ACC_EXP_NOWORKERBLOCKS").is_none_or(|v| v != "1"))
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
fn blocks_a_wave(src: Source, name: &str, geom: &Geometry) -> u32 {
    let block = geom.block();
    let (base, cache) = block_shared(geom);
    let shared = base + cache as u32;
    with_entry(src, name, most_shared(geom), |e| {
        if e.kernel.max_threads() < block {
            src.cuda.sm_count()
        } else {
            one_wave(src.cuda, &e.kernel, name, &mut e.waves, block, block, shared)
        }
    })
}

/// The launch of a nest on a multi-dimensional grid: `grid` blocks of `block` threads, with
/// `shared` bytes of dynamic shared memory, on `queue`.
fn grid_config(grid: [u32; 3], block: [u32; 3], shared: u32, queue: Option<i64>) -> LaunchConfig {
    let mut cfg = LaunchConfig::linear(grid[0], block[0]).with_shared(shared);
    (cfg.grid, cfg.block, cfg.queue) = ((grid[0], grid[1], grid[2]), (block[0], block[1], block[2]), queue);
    cfg
}

/// Launches `kernel` with `cfg` (see [`launch`]); returns `blocks`.
fn launch_with(src: Source, name: &str, kernel: &Kernel, cfg: LaunchConfig, args: &mut KernelArgs, blocks: u32) -> u32 {
    let Source { cuda, region, .. } = src;
    LAST_QUEUE.set(cfg.queue);
    let timer = profile::launch_begin_noted(region, profile::Track::of(cuda, cfg.queue), profile::KernelNote::of(name));
    let range = profile::nvtx::Range::launch(region);
    let span = prof::Span::start(prof::Event::EnqueueLaunchStart, |e| prof::Info::of(e, region, (DeviceType::Nvidia, cuda.device_num()), cfg.queue).with(prof::Detail::Launch(launch_info(name, &cfg))));
    cuda.launch_kernel(kernel, cfg, args, Some(region)).unwrap_or_else(|e| match e {
        // The panic's own text names the kernel and the user's file:line.
        crate::cuda::CudaError::KernelPanic { .. } | crate::cuda::CudaError::Pending { .. } => fail(format!("acc: {region}: {e}")),
        e => fail(format!("acc: {region}: kernel `{name}` failed on {}: {e}", cuda.name())),
    });
    if cfg.queue.is_none() && cuda.defers_waits() {
        crate::devices::settle_thread();
    }
    drop(span);
    drop(range);
    drop(timer);
    blocks
}

/// What the profiling interface's launch events say of a launch of kernel `name` with `cfg`:
/// its gangs are the grid's blocks, its workers a block's threads in `y` and `z`, its vector
/// length a block's threads in `x`.
fn launch_info<'a>(name: &'a str, cfg: &LaunchConfig) -> prof::LaunchInfo<'a> {
    let (g, b) = (cfg.grid, cfg.block);
    prof::LaunchInfo {
        kernel: name,
        num_gangs: g.0 as usize * g.1 as usize * g.2 as usize,
        num_workers: b.1 as usize * b.2 as usize,
        vector_length: b.0 as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_tells_the_profiling_interface_its_grid_and_block() {
        let mut cfg = LaunchConfig::linear(4, 128);
        (cfg.grid.1, cfg.block.1) = (3, 2);
        let info = launch_info("k_7_lean", &cfg);
        assert_eq!((info.kernel, info.num_gangs, info.num_workers, info.vector_length), ("k_7_lean", 12, 2, 128));
    }
}
