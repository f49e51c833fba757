//! Indices: the thread and block indices, barriers, the loop schedules of OpenUH, and the
//! normalisation of every annotated loop to `k in 0..trip` with `i = lo + k * step`.
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
//!
//! # Loop normalisation
//! Every annotated loop becomes `k in 0..trip` with `i = lo + k * step` (on the host too: the
//! runtime re-exports these as `acc_runtime::idx`):
//!
//! ```
//! use acc_device::index::{index, trip, trip_inclusive, trip_step};
//! // for i in (-10i8..10).step_by(3)
//! let n = trip_step(trip(-10i8, 10), 3);
//! let is: Vec<i8> = (0..n).map(|k| index(-10i8, k, 3)).collect();
//! assert_eq!(is, (-10i8..10).step_by(3).collect::<Vec<_>>());
//! // for i in i8::MIN..=i8::MAX
//! assert_eq!(trip_inclusive(i8::MIN, i8::MAX), 256);
//! assert_eq!(index(i8::MIN, 255, 1), i8::MAX);
//! ```

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
            exit()
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

/// Ends the calling thread (`exit`); the rest of the launch runs on.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub(crate) fn exit() -> ! {
    // SAFETY: `exit` ends this thread; the barriers it would have met count it as arrived.
    unsafe { core::arch::asm!("exit;", options(noreturn, nostack)) }
}

mod sealed {
    pub trait Sealed {}
}

/// Integer types a loop may count with: `i8..=i128`, `u8..=u128`, `isize`, `usize`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the index of an acc loop",
    label = "not an integer",
    note = "acc loops count with primitive integers: `for i in lo..hi` with `i8`..`i128`, `u8`..`u128`, `isize` or `usize` bounds"
)]
pub trait LoopIndex: Copy + sealed::Sealed {
    /// `hi - lo` as an unsigned distance when `hi > lo`, else 0; `None` when it exceeds
    /// `usize`.
    #[doc(hidden)]
    fn distance(lo: Self, hi: Self) -> Option<usize>;
    /// `hi - lo` as an unsigned distance when `hi > lo`, else 0 (every distance fits in
    /// `u128`).
    #[doc(hidden)]
    fn span(lo: Self, hi: Self) -> u128;
    /// `lo + k * step`, exact whenever the result is representable.
    #[doc(hidden)]
    fn offset(lo: Self, k: usize, step: usize) -> Self;
}

macro_rules! narrow {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LoopIndex for $t {
            #[inline]
            fn distance(lo: Self, hi: Self) -> Option<usize> {
                if hi <= lo { Some(0) } else { usize::try_from(hi.abs_diff(lo)).ok() }
            }
            #[inline]
            fn span(lo: Self, hi: Self) -> u128 {
                if hi <= lo { 0 } else { hi.abs_diff(lo) as u128 }
            }
            #[inline]
            fn offset(lo: Self, k: usize, step: usize) -> Self {
                // Arithmetic mod 2^bits: `k * step` mod 2^64 then truncated is `k * step` mod
                // 2^bits (bits <= 64), and the wrapping add is exact when the true result
                // fits in the type.
                lo.wrapping_add(k.wrapping_mul(step) as $t)
            }
        }
    )*};
}

macro_rules! wide {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LoopIndex for $t {
            #[inline]
            fn distance(lo: Self, hi: Self) -> Option<usize> {
                if hi <= lo { Some(0) } else { usize::try_from(hi.abs_diff(lo)).ok() }
            }
            #[inline]
            fn span(lo: Self, hi: Self) -> u128 {
                if hi <= lo { 0 } else { hi.abs_diff(lo) }
            }
            #[inline]
            fn offset(lo: Self, k: usize, step: usize) -> Self {
                // The full product fits in 128 bits (both factors are below 2^64 on every
                // target Rust supports).
                lo.wrapping_add(((k as u128) * (step as u128)) as $t)
            }
        }
    )*};
}

narrow!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
wide!(i128, u128);

#[cold]
#[inline(never)]
#[track_caller]
fn too_long(what: &str) -> ! {
    panic!("acc: the trip count of loop `{what}` does not fit in usize")
}

/// Iterations of `lo..hi`: `hi - lo`, or 0 when `hi <= lo`.
#[inline]
#[track_caller]
pub fn trip<T: LoopIndex>(lo: T, hi: T) -> usize {
    T::distance(lo, hi).unwrap_or_else(|| too_long("lo..hi"))
}

/// Iterations of `lo..=hi`: `hi - lo + 1`, or 0 when `hi < lo`.
#[inline]
#[track_caller]
pub fn trip_inclusive<T: LoopIndex>(lo: T, hi: T) -> usize {
    // `hi < lo` <=> `distance(hi, lo) > 0`, without needing `PartialOrd` on `T`.
    match T::distance(hi, lo) {
        Some(0) => {}
        _ => return 0,
    }
    T::distance(lo, hi)
        .and_then(|d| d.checked_add(1))
        .unwrap_or_else(|| too_long("lo..=hi"))
}

/// Iterations of a loop of `trip` steps taken `step` at a time (`.step_by(step)`):
/// `ceil(trip / step)`. Panics when `step == 0`, like [`Iterator::step_by`].
#[inline]
#[track_caller]
pub fn trip_step(trip: usize, step: usize) -> usize {
    assert!(step != 0);
    trip.div_ceil(step)
}

/// Iterations of `(lo..hi).step_by(step)`: `ceil((hi - lo) / step)`, computed without
/// overflow (the distance may exceed `usize` when the step count does not). Panics when
/// `step == 0`, like [`Iterator::step_by`], and when the count does not fit in `usize`.
///
/// ```
/// use acc_device::idx::trip_stepped;
/// assert_eq!(trip_stepped(0u128, 1 << 100, 1 << 40), 1 << 60); // 2^100 does not fit in usize
/// assert_eq!(trip_stepped(i64::MIN, i64::MAX, 1 << 62), 4);
/// ```
#[inline]
#[track_caller]
pub fn trip_stepped<T: LoopIndex>(lo: T, hi: T, step: usize) -> usize {
    assert!(step != 0);
    // In `usize` where the distance fits (no 128-bit division in a kernel's prologue).
    if let Some(d) = T::distance(lo, hi) {
        return d.div_ceil(step);
    }
    let n = T::span(lo, hi).div_ceil(step as u128);
    usize::try_from(n).unwrap_or_else(|_| too_long("(lo..hi).step_by(s)"))
}

/// Iterations of `(lo..=hi).step_by(step)`: `(hi - lo) / step + 1`, or 0 when `hi < lo`,
/// computed without overflow: `(0..=usize::MAX).step_by(usize::MAX)` has 2. Panics when
/// `step == 0`, like [`Iterator::step_by`], and when the count does not fit in `usize`.
///
/// ```
/// use acc_device::idx::trip_inclusive_stepped;
/// assert_eq!(trip_inclusive_stepped(0usize, usize::MAX, usize::MAX), 2);
/// assert_eq!(trip_inclusive_stepped(5u8, 4, 1), 0);
/// ```
#[inline]
#[track_caller]
pub fn trip_inclusive_stepped<T: LoopIndex>(lo: T, hi: T, step: usize) -> usize {
    assert!(step != 0);
    if T::distance(hi, lo) != Some(0) {
        return 0;
    }
    // In `usize` where the distance fits (no 128-bit division in a kernel's prologue);
    // `d / step + 1` overflows only for `d == usize::MAX` with `step == 1`.
    if let Some(d) = T::distance(lo, hi) {
        if let Some(n) = (d / step).checked_add(1) {
            return n;
        }
    }
    let n = T::span(lo, hi) / step as u128 + 1;
    usize::try_from(n).unwrap_or_else(|_| too_long("(lo..=hi).step_by(s)"))
}

/// Iterations of a `collapse`/`tile` nest: the product of its loops' trip counts, 0 when any
/// of them is 0 (whatever the others), and a panic naming the nest's trip counts when the
/// product does not fit in `usize` (never a wrapped count).
///
/// ```
/// use acc_device::idx::nest_trip;
/// assert_eq!(nest_trip([3, 4, 5]), 60);
/// assert_eq!(nest_trip([usize::MAX, usize::MAX, 0]), 0);
/// ```
#[inline]
#[track_caller]
pub fn nest_trip<const N: usize>(trips: [usize; N]) -> usize {
    if trips.contains(&0) {
        return 0;
    }
    let mut total = 1usize;
    for t in trips {
        match total.checked_mul(t) {
            Some(p) => total = p,
            None => nest_too_long(),
        }
    }
    total
}

#[cold]
#[inline(never)]
#[track_caller]
fn nest_too_long() -> ! {
    panic!("acc: the iteration count of a `collapse`/`tile` nest (the product of its loops' trip counts) does not fit in usize")
}

/// The loop variable of iteration `k`: `lo + k * step`, computed without overflow for every
/// `k` in the loop's range (e.g. `index(i8::MIN, 255, 1) == i8::MAX`).
#[inline]
pub fn index<T: LoopIndex>(lo: T, k: usize, step: usize) -> T {
    T::offset(lo, k, step)
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


    /// Normalised iteration equals Rust's own ranges.
    fn same<T: LoopIndex + PartialEq + std::fmt::Debug>(
        lo: T,
        n: usize,
        step: usize,
        want: impl Iterator<Item = T>,
    ) {
        let got: Vec<T> = (0..n).map(|k| index(lo, k, step)).collect();
        let want: Vec<T> = want.collect();
        assert_eq!(got, want);
    }

    #[test]
    fn half_open() {
        assert_eq!(trip(0usize, 10), 10);
        assert_eq!(trip(10usize, 0), 0);
        assert_eq!(trip(5i32, 5), 0);
        assert_eq!(trip(-5i32, 5), 10);
        assert_eq!(trip(-20i64, -3), 17);
        assert_eq!(trip(i8::MIN, i8::MAX), 255);
        assert_eq!(trip(i64::MIN, i64::MAX), usize::MAX);
        assert_eq!(trip(0u8, 255), 255);
        same(-5i32, trip(-5i32, 5), 1, -5i32..5);
        same(3u16, trip(3u16, 40), 1, 3u16..40);
        same(i8::MIN, trip(i8::MIN, i8::MAX), 1, i8::MIN..i8::MAX);
    }

    #[test]
    fn inclusive() {
        assert_eq!(trip_inclusive(0u32, 9), 10);
        assert_eq!(trip_inclusive(9u32, 9), 1);
        assert_eq!(trip_inclusive(10u32, 9), 0);
        assert_eq!(trip_inclusive(-3i16, 3), 7);
        assert_eq!(trip_inclusive(i8::MIN, i8::MAX), 256);
        assert_eq!(trip_inclusive(u8::MIN, u8::MAX), 256);
        assert_eq!(trip_inclusive(i128::MAX - 2, i128::MAX), 3);
        same(
            i8::MIN,
            trip_inclusive(i8::MIN, i8::MAX),
            1,
            i8::MIN..=i8::MAX,
        );
        same(
            u8::MIN,
            trip_inclusive(u8::MIN, u8::MAX),
            1,
            u8::MIN..=u8::MAX,
        );
        same(-3i16, trip_inclusive(-3i16, 3), 1, -3i16..=3);
    }

    #[test]
    fn stepped() {
        assert_eq!(trip_step(0, 3), 0);
        assert_eq!(trip_step(9, 3), 3);
        assert_eq!(trip_step(10, 3), 4);
        assert_eq!(trip_step(1, 100), 1);
        assert_eq!(trip_step(usize::MAX, 1), usize::MAX);
        for step in 1..9 {
            same(
                -10i8,
                trip_step(trip(-10i8, 10), step),
                step,
                (-10i8..10).step_by(step),
            );
            same(
                -100i32,
                trip_step(trip_inclusive(-100, 77), step),
                step,
                (-100..=77).step_by(step),
            );
            same(
                i8::MIN,
                trip_step(trip_inclusive(i8::MIN, i8::MAX), step),
                step,
                (i8::MIN..=i8::MAX).step_by(step),
            );
            same(
                250u8,
                trip_step(trip_inclusive(250u8, 255), step),
                step,
                (250u8..=255).step_by(step),
            );
        }
        same(
            0u64,
            trip_step(trip(0u64, 1000), 999),
            999,
            (0u64..1000).step_by(999),
        );
    }

    #[test]
    #[should_panic(expected = "assertion failed: step != 0")]
    fn step_zero_panics_like_step_by() {
        trip_step(10, 0);
    }

    #[test]
    fn stepped_without_overflow() {
        // The issue's case: 2 trips, 0 and usize::MAX.
        assert_eq!(trip_inclusive_stepped(0usize, usize::MAX, usize::MAX), 2);
        same(0usize, 2, usize::MAX, (0..=usize::MAX).step_by(usize::MAX));
        assert_eq!(trip_inclusive_stepped(i8::MIN, i8::MAX, 255), 2);
        assert_eq!(trip_inclusive_stepped(i8::MIN, i8::MAX, 256), 1);
        assert_eq!(trip_inclusive_stepped(0u128, 1 << 100, 1 << 40), (1 << 60) + 1);
        assert_eq!(trip_stepped(0usize, usize::MAX, usize::MAX), 1);
        assert_eq!(trip_stepped(i128::MIN, i128::MIN + (1 << 90), 1 << 30), 1 << 60);
        // Both agree with the old forms and with Rust's own iterators wherever those fit.
        for (lo, hi) in [(-10i32, 10), (3, 3), (5, 4), (-100, 77), (0, 1)] {
            for step in 1..12 {
                assert_eq!(trip_stepped(lo, hi, step), (lo..hi).step_by(step).count());
                assert_eq!(trip_inclusive_stepped(lo, hi, step), (lo..=hi).step_by(step).count());
                assert_eq!(trip_stepped(lo, hi, step), trip_step(trip(lo, hi), step));
                assert_eq!(trip_inclusive_stepped(lo, hi, step), trip_step(trip_inclusive(lo, hi), step));
            }
        }
        assert_eq!(trip_inclusive_stepped(u8::MIN, u8::MAX, 1), 256);
        assert_eq!(trip_inclusive_stepped(i64::MIN, i64::MAX, 2), 1usize << 63);
    }

    #[test]
    #[should_panic(expected = "trip count of loop `(lo..=hi).step_by(s)` does not fit in usize")]
    fn stepped_inclusive_too_long() {
        trip_inclusive_stepped(0usize, usize::MAX, 1);
    }

    #[test]
    #[should_panic(expected = "assertion failed: step != 0")]
    fn stepped_zero_step() {
        trip_inclusive_stepped(0u8, 3, 0);
    }

    #[test]
    fn nest_trips() {
        assert_eq!(nest_trip([7]), 7);
        assert_eq!(nest_trip([1 << 32, 1 << 31]), 1 << 63);
        assert_eq!(nest_trip([0, usize::MAX, usize::MAX]), 0);
        assert_eq!(nest_trip([usize::MAX, 1]), usize::MAX);
    }

    #[test]
    #[should_panic(expected = "iteration count of a `collapse`/`tile` nest")]
    fn nest_trip_overflow_panics() {
        nest_trip([1 << 32, 1 << 32, 1]);
    }

    #[test]
    fn wide_types() {
        assert_eq!(trip(i128::MIN, i128::MIN + 5), 5);
        assert_eq!(index(i128::MIN, 5, 1), i128::MIN + 5);
        assert_eq!(index(u128::MAX - 10, 5, 2), u128::MAX);
        assert_eq!(index(-1i128, 3, usize::MAX), -1 + 3 * (usize::MAX as i128));
        same(
            -7i128,
            trip_step(trip(-7i128, 30), 4),
            4,
            (-7i128..30).step_by(4),
        );
    }

    #[test]
    #[should_panic(expected = "does not fit in usize")]
    fn huge_trip_panics() {
        trip(0u128, u128::MAX);
    }

    #[test]
    #[should_panic(expected = "does not fit in usize")]
    fn huge_inclusive_trip_panics() {
        trip_inclusive(0usize, usize::MAX);
    }

    #[test]
    fn pointer_sized_and_signed_extremes() {
        assert_eq!(index(isize::MIN, usize::MAX, 1), isize::MAX);
        assert_eq!(index(i64::MIN, 1 << 63, 1), 0);
        assert_eq!(index(i32::MAX, 0, 5), i32::MAX);
        assert_eq!(index(-128i8, 127, 2), 126);
        assert_eq!(trip(usize::MAX - 1, usize::MAX), 1);
    }
}
