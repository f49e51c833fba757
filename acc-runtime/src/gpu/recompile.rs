//! The register recompiles: a kernel whose registers cannot hold the block asked for is
//! compiled again for that block (where the outermost loop's trips are shared by the block's
//! threads, or its inner loops reduce in rounds of chunks), else the block is clamped to the
//! kernel's limit; a nest on a multi-dimensional grid compiled for 4 blocks' threads; a lean
//! kernel's twin without index checks compiled with the checked one's registers.
//!
//! A nest's kernel is compiled for its block whatever its registers where its inner loops reduce
//! in rounds of chunks (`rounds_for_block`). A nest on a multi-dimensional grid is compiled for 4
//! blocks' threads where it stages 2-D `cache!` tiles, or where it holds fewer than 4 blocks a
//! multiprocessor and needs at most a quarter more registers than 4 blocks leave.

use super::geometry::{block_shared, most_shared, Geometry};
use super::kernels::{one_wave, with_entry, Source};
use crate::cuda::Kernel;

/// Kernel `name` of `src` alone (its file's module compiled again would take seconds for a
/// file of many regions: the differential tester's 300 ran 12 times slower), compiled for
/// blocks of `block` threads and opened up to `most_shared` bytes of shared memory.
pub(super) fn load_for_block(src: Source, name: &str, block: u32, most_shared: u32) -> Kernel {
    let Source { cuda, region, ptx } = src;
    let ptx = crate::ptx_modules::only_kernel(crate::ptx_modules::module_of(ptx, name), name);
    let module = cuda.load_ptx_for_block(&ptx, block).unwrap_or_else(|e| panic!("acc: {region}: cannot load kernel `{name}` for blocks of {block} threads: {e}"));
    cuda.kernel(&module, name, most_shared).unwrap_or_else(|e| panic!("acc: {region}: kernel `{name}`: {e}")).with_params_from(&ptx)
}

/// The registers a thread of kernel `name` (a lean kernel's twin without index checks) may
/// have for `blocks` of `geom`'s blocks to run at once, where the kernel compiled again with
/// at most that many does run them: `None` where it still runs fewer (or
/// `ACC_EXP_NOTWINREGS` is set, an experiment switch for A/B runs), or spills registers to
/// local memory. The twins of the papers' gang and gang worker positions need more than the
/// 32 registers that let two blocks of 1024 threads share a multiprocessor, where their
/// checked lean kernels take 28-30.
pub(super) fn twin_registers(src: Source, name: &str, geom: &Geometry, blocks: u32) -> Option<u32> {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OFF.get_or_init(|| std::env::var_os("ACC_EXP_NOTWINREGS").is_some()) {
        return None;
    }
    let block = geom.block();
    let registers = registers_for(blocks.div_ceil(src.cuda.sm_count().max(1)), block)?;
    let (base, cache) = block_shared(geom);
    with_entry(src, name, most_shared(geom), |e| {
        let kernel = capped_kernel(&mut e.capped, src, name, registers, most_shared(geom));
        // Only where it spills nothing: the papers' gang twins, kept to 32 registers, spilled
        // and ran slower than their checked lean kernels (4-byte sums 0.253 -> 0.265 ms, 8-byte
        // 0.39 -> 0.465 on an H100), where the gang worker twins ran faster (0.26 -> 0.22 ms).
        let spills = kernel.local_bytes() > e.kernel.local_bytes();
        let wave = one_wave(src.cuda, kernel, name, &mut e.waves, capped_key(block, registers), block, base + cache as u32);
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
pub(super) fn capped_kernel<'c>(capped: &'c mut Vec<(u32, Kernel)>, src: Source, name: &str, registers: u32, most_shared: u32) -> &'c Kernel {
    let at = match capped.iter().position(|(r, _)| *r == registers) {
        Some(at) => at,
        None => {
            let Source { cuda, region, ptx } = src;
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
pub(super) fn capped_key(block: u32, registers: u32) -> u32 {
    if registers == 0 {
        block
    } else {
        RECOMPILED | (registers << 16) | block
    }
}

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
pub(super) fn tile_compile_threads(geom: &Geometry, threads: u32, per_sm: u32, registers: u32) -> Option<u32> {
    // (Tiles: 1024 threads, 64 registers, whatever the block: a coarsened nest's blocks of 64
    // threads, compiled for 256, took 162 registers, 6 blocks a multiprocessor.)
    let target = if geom.cache_y > 0 { 1024 } else { (threads * 4).min(1024) };
    let fits = 65536 / target.max(1);
    let short = per_sm < 4 && registers > fits && registers * 4 <= fits * 5;
    (geom.cache_y > 0 || short).then_some(target).filter(|&t| t > threads)
}

/// The key of a recompiled kernel's waves in its entry's (beside the nest's kernel's, keyed by
/// the block's threads, at most 1024).
pub(super) const RECOMPILED: u32 = 1 << 31;

/// Whether the nest's kernel (not its lean kernel: `launch` has passed that by) is compiled for
/// `geom`'s block whatever its registers: its inner loops reduce in rounds of chunks
/// (`LeanKernel::chunked_reductions`), and the outermost loop's trips are shared by the
/// block's lanes or workers. Compiled without the block, the rounds' loop (chunk.rs) kept its
/// loads behind its adds: the papers' vector position ran 1.64 ms on an H100, compiled for the
/// block 1.09 ms (1.23 before the rounds lost their checks; the logs of b59d590 in `benches/results/`).
/// Other nests keep their own compilation: compiling every nest whose trips are shared for
/// its block took the papers' gang and gang worker positions from 0.25 to 0.35-0.40 ms.
pub(super) fn rounds_for_block(geom: &Geometry) -> bool {
    geom.shape.lean_kernel.is_some_and(|l| l.chunked_reductions) && (geom.shape.per_trip.0 || geom.shape.per_trip.1)
}

/// Whether a kernel that holds at most `max_threads` threads a block is compiled again for
/// `geom`'s block (see `launch`): the block is larger, and the outermost loop's trips are
/// shared by the block's lanes or workers.
pub(super) fn compiles_for_block(geom: &Geometry, max_threads: u32) -> bool {
    geom.block() > max_threads && (geom.shape.per_trip.0 || geom.shape.per_trip.1)
}

/// `geom` with a block of at most `max_threads` threads.
pub(super) fn entry_geometry(geom: &Geometry, max_threads: u32) -> Geometry {
    let (bx, by) = geom.block_xy();
    if bx * by <= max_threads {
        return *geom;
    }
    let mut g = *geom;
    let max = max_threads as usize;
    if (bx as usize) <= max {
        g.shape.vector_length = bx as usize;
        g.shape.num_workers = (max / bx as usize).max(1);
    } else {
        // Whole warps where possible.
        g.shape.vector_length = if max >= 32 { max / 32 * 32 } else { max };
        g.shape.num_workers = 1;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::geometry::Geometry;

    /// The papers' `num_workers(8), vector_length(128)`, an outermost loop of 64 trips.
    fn papers(per_trip: (bool, bool)) -> Geometry {
        Geometry::new(64, 0, 128, false).workers(8, true).per_trip(per_trip.0, per_trip.1)
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

