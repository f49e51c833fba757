//! Thread and block indices, barriers, and the loop schedules of OpenUH.
//!
//! OpenACC's levels map onto CUDA's as in OpenUH: gang -> `blockIdx.x`, worker ->
//! `threadIdx.y`, vector -> `threadIdx.x`. A loop distributed over some levels runs as a
//! grid-stride ("window sliding") loop: each thread starts at `*_start()` and steps by
//! `*_stride()`, so any trip count runs on any grid and block shape:
//!
//! ```
//! let n = 10;
//! let mut k = acc_device::gang_vector_start();
//! while k < n {
//!     // iteration `lo + k * step` of the user's loop
//!     k += acc_device::gang_vector_stride();
//! }
//! ```
//!
//! The `_y` variants serve the two-dimensional gang/vector schedules of `kernels` regions
//! (gang -> `blockIdx.y`, vector -> `threadIdx.y`).
//!
//! On the host, these describe one thread of a one-thread, one-block grid: every index is 0
//! and every dimension 1, so the loops above run sequentially, and the barriers do nothing.

#[cfg(target_arch = "nvptx64")]
use core::arch::nvptx;

macro_rules! special_register {
    ($(#[$m:meta] $name:ident => $nv:ident, $host:expr;)*) => {$(
        #[$m]
        #[inline(always)]
        #[must_use]
        pub fn $name() -> u32 {
            #[cfg(target_arch = "nvptx64")]
            // SAFETY: reading a special register (`%tid`, `%ntid`, `%ctaid`, `%nctaid`) has no
            // precondition; the intrinsic is `unsafe` only because all of `core::arch` is.
            return unsafe { nvptx::$nv() } as u32;
            #[cfg(not(target_arch = "nvptx64"))]
            return $host;
        }
    )*};
}

special_register! {
    /// `threadIdx.x`: the thread's vector lane in its block.
    thread_idx_x => _thread_idx_x, 0;
    /// `threadIdx.y`: the thread's worker in its block.
    thread_idx_y => _thread_idx_y, 0;
    /// `threadIdx.z`.
    thread_idx_z => _thread_idx_z, 0;
    /// `blockDim.x`: the vector length.
    block_dim_x => _block_dim_x, 1;
    /// `blockDim.y`: the number of workers.
    block_dim_y => _block_dim_y, 1;
    /// `blockDim.z`.
    block_dim_z => _block_dim_z, 1;
    /// `blockIdx.x`: the gang.
    block_idx_x => _block_idx_x, 0;
    /// `blockIdx.y`: the gang's second coordinate (two-dimensional gang schedules).
    block_idx_y => _block_idx_y, 0;
    /// `blockIdx.z`.
    block_idx_z => _block_idx_z, 0;
    /// `gridDim.x`: the number of gangs.
    grid_dim_x => _grid_dim_x, 1;
    /// `gridDim.y`.
    grid_dim_y => _grid_dim_y, 1;
    /// `gridDim.z`.
    grid_dim_z => _grid_dim_z, 1;
}

/// `__syncthreads()`: a barrier for all threads of the block (`bar.sync 0`).
///
/// Every thread of the block must reach the same barrier (not one in a branch that some
/// threads skip), or the block deadlocks. Kernel crates are built with
/// `-Z mir-enable-passes=-JumpThreading` so that rustc does not duplicate a barrier into
/// divergent branches. A thread that ended early (a kernel panic, see
/// [`panic`](mod@crate::panic)) counts as arrived; where what it would have written decides
/// what the others do next, use [`sync_threads_checked`].
#[inline(always)]
pub fn sync_threads() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: `bar.sync` has no memory-safety precondition; misuse (divergent barriers)
    // deadlocks, it does not corrupt memory.
    unsafe {
        nvptx::_syncthreads()
    }
}

/// [`sync_threads`] that also ends every thread of the block if one of its threads ended
/// early (a kernel panic, see [`panic`](mod@crate::panic)): for the barrier after a
/// statement only a group's leader runs, or a broadcast, where the others would go on with
/// what the leader did not write (a trip count, a flag) and might not stop. It counts the
/// threads that arrive (`barrier.red.popc`; an exited thread releases the barrier without
/// being counted), so it costs a few registers more than the plain barrier, which the
/// reductions' barriers, whose values only flow on, keep.
///
/// The barrier is the non-`.aligned` form, so that a compiler pass that duplicates the
/// `asm!` into the arms of a branch (LLVM does not know it as convergent) still gives a
/// correct program.
#[inline(always)]
pub fn sync_threads_checked() {
    #[cfg(target_arch = "nvptx64")]
    {
        let arrived: u32;
        // SAFETY: a barrier with a count of a true predicate; touches no memory (ordering
        // memory is what a barrier is for, so `nomem` is not claimed). Misuse (divergent
        // barriers) deadlocks, it does not corrupt memory.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred p; setp.ne.u32 p, {one}, 0; barrier.red.popc.u32 {n}, 0, p; }}",
                one = in(reg32) 1u32, n = out(reg32) arrived, options(nostack)
            )
        };
        if arrived != block_dim_x() * block_dim_y() * block_dim_z() {
            crate::panic::exit()
        }
    }
}

/// A barrier for all threads of the block that may be reached from different places of a
/// branch (`barrier.sync 0`, the non-`.aligned` form): the 2-D `cache!` staging, whose threads
/// past the loops' ends run the tile fetches and barriers alone while the others run the body
/// around them. Every thread of the block must reach it the same number of times.
#[inline(always)]
pub fn sync_threads_divergent() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a barrier; touches no memory (ordering memory is what a barrier is for, so
    // `nomem` is not claimed). Misuse deadlocks, it does not corrupt memory.
    unsafe {
        core::arch::asm!("barrier.sync 0;", options(nostack))
    }
}

/// `__syncwarp()`: a barrier and memory fence for the threads of the warp (`bar.warp.sync`
/// with all lanes). Every lane of a full warp must call it.
#[inline(always)]
pub fn sync_warp() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as for `sync_threads`; the asm touches no registers besides its immediate.
    unsafe {
        core::arch::asm!("bar.warp.sync 0xffffffff;", options(nostack))
    }
}

/// `__threadfence()`: orders this thread's memory accesses as seen by every thread of the
/// GPU (`fence.sc.gpu`, i.e. `membar.gl`).
#[inline(always)]
pub fn thread_fence() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a fence has no precondition.
    unsafe {
        core::arch::asm!("membar.gl;", options(nostack))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
}

/// `__threadfence_system()`: orders this thread's memory accesses as seen by the host too
/// (`membar.sys`); used before writing to host-mapped memory.
#[inline(always)]
pub fn thread_fence_system() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a fence has no precondition.
    unsafe {
        core::arch::asm!("membar.sys;", options(nostack))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
}

/// The thread's index in its block, counting `x` fastest: `threadIdx.y * blockDim.x +
/// threadIdx.x` (`z` is not used by acc's schedules).
#[inline(always)]
#[must_use]
pub fn block_thread_index() -> u32 {
    thread_idx_y() * block_dim_x() + thread_idx_x()
}

/// The number of threads in the block, `blockDim.x * blockDim.y`.
#[inline(always)]
#[must_use]
pub fn block_threads() -> u32 {
    block_dim_x() * block_dim_y()
}

// The loop schedules. Products are taken in `usize` (a `mul.wide.u32` on the GPU), so no
// product of indices and dimensions overflows.

/// Start of a `gang` loop: `blockIdx.x`.
#[inline(always)]
#[must_use]
pub fn gang_start() -> usize {
    block_idx_x() as usize
}
/// Stride of a `gang` loop: `gridDim.x`.
#[inline(always)]
#[must_use]
pub fn gang_stride() -> usize {
    grid_dim_x() as usize
}
/// Start of a `worker` loop: `threadIdx.y`.
#[inline(always)]
#[must_use]
pub fn worker_start() -> usize {
    thread_idx_y() as usize
}
/// Stride of a `worker` loop: `blockDim.y`.
#[inline(always)]
#[must_use]
pub fn worker_stride() -> usize {
    block_dim_y() as usize
}
/// Start of a `vector` loop: `threadIdx.x`.
#[inline(always)]
#[must_use]
pub fn vector_start() -> usize {
    thread_idx_x() as usize
}
/// Stride of a `vector` loop: `blockDim.x`.
#[inline(always)]
#[must_use]
pub fn vector_stride() -> usize {
    block_dim_x() as usize
}
/// Start of a `gang, vector` loop: `blockIdx.x * blockDim.x + threadIdx.x`.
#[inline(always)]
#[must_use]
pub fn gang_vector_start() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}
/// Stride of a `gang, vector` loop: `gridDim.x * blockDim.x`.
#[inline(always)]
#[must_use]
pub fn gang_vector_stride() -> usize {
    grid_dim_x() as usize * block_dim_x() as usize
}
/// Start of a `gang, worker` loop: `blockIdx.x * blockDim.y + threadIdx.y`.
#[inline(always)]
#[must_use]
pub fn gang_worker_start() -> usize {
    block_idx_x() as usize * block_dim_y() as usize + thread_idx_y() as usize
}
/// Stride of a `gang, worker` loop: `gridDim.x * blockDim.y`.
#[inline(always)]
#[must_use]
pub fn gang_worker_stride() -> usize {
    grid_dim_x() as usize * block_dim_y() as usize
}
/// Start of a `worker, vector` loop: `threadIdx.y * blockDim.x + threadIdx.x`.
#[inline(always)]
#[must_use]
pub fn worker_vector_start() -> usize {
    block_thread_index() as usize
}
/// Stride of a `worker, vector` loop: `blockDim.y * blockDim.x`.
#[inline(always)]
#[must_use]
pub fn worker_vector_stride() -> usize {
    block_threads() as usize
}
/// Start of a `gang, worker, vector` loop:
/// `(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x`.
#[inline(always)]
#[must_use]
pub fn gang_worker_vector_start() -> usize {
    gang_worker_start() * block_dim_x() as usize + thread_idx_x() as usize
}
/// Stride of a `gang, worker, vector` loop: `gridDim.x * blockDim.y * blockDim.x`.
#[inline(always)]
#[must_use]
pub fn gang_worker_vector_stride() -> usize {
    gang_worker_stride() * block_dim_x() as usize
}
/// Start of a gang loop on the grid's second dimension: `blockIdx.y`.
#[inline(always)]
#[must_use]
pub fn gang_start_y() -> usize {
    block_idx_y() as usize
}
/// Stride of a gang loop on the grid's second dimension: `gridDim.y`.
#[inline(always)]
#[must_use]
pub fn gang_stride_y() -> usize {
    grid_dim_y() as usize
}
/// Start of a vector loop on the block's second dimension: `threadIdx.y`.
#[inline(always)]
#[must_use]
pub fn vector_start_y() -> usize {
    thread_idx_y() as usize
}
/// Stride of a vector loop on the block's second dimension: `blockDim.y`.
#[inline(always)]
#[must_use]
pub fn vector_stride_y() -> usize {
    block_dim_y() as usize
}
/// Start of a gang-vector loop on the second dimension: `blockIdx.y * blockDim.y +
/// threadIdx.y`.
#[inline(always)]
#[must_use]
pub fn gang_vector_start_y() -> usize {
    block_idx_y() as usize * block_dim_y() as usize + thread_idx_y() as usize
}
/// Stride of a gang-vector loop on the second dimension: `gridDim.y * blockDim.y`.
#[inline(always)]
#[must_use]
pub fn gang_vector_stride_y() -> usize {
    grid_dim_y() as usize * block_dim_y() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_is_one_thread_of_one_block() {
        assert_eq!((gang_vector_start(), gang_vector_stride()), (0, 1));
        assert_eq!((gang_worker_vector_start(), gang_worker_vector_stride()), (0, 1));
        assert_eq!((worker_vector_start(), worker_vector_stride()), (0, 1));
        assert_eq!((gang_vector_start_y(), gang_vector_stride_y()), (0, 1));
        assert_eq!((block_thread_index(), block_threads()), (0, 1));
        sync_threads();
        thread_fence();
    }
}

/// The private copy (of a region-level `private` array) that this thread uses: one per group
/// of threads that share a trip of the outermost loop, `share_x`/`share_y` saying whether the
/// vector lanes / the workers of a block are in one group. The host sizes the copies the same
/// way (`acc_runtime`'s `PrivateCopies`).
#[inline(always)]
pub fn private_copy(share_x: bool, share_y: bool) -> usize {
    let (bx, by) = (block_dim_x() as usize, block_dim_y() as usize);
    let per_block = if share_x { 1 } else { bx } * if share_y { 1 } else { by };
    let x = if share_x { 0 } else { thread_idx_x() as usize };
    let y = if share_y { 0 } else { thread_idx_y() as usize };
    block_idx_x() as usize * per_block + y * if share_x { 1 } else { bx } + x
}

/// Where this thread starts filling its group's private copy, and its stride: the group's
/// threads share the work.
#[inline(always)]
pub fn private_fill(share_x: bool, share_y: bool) -> (usize, usize) {
    let (bx, by) = (block_dim_x() as usize, block_dim_y() as usize);
    let x = if share_x { thread_idx_x() as usize } else { 0 };
    let y = if share_y { thread_idx_y() as usize } else { 0 };
    let lanes = if share_x { bx } else { 1 };
    (y * lanes + x, lanes * if share_y { by } else { 1 })
}
