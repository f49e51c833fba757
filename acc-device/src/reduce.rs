//! Reductions across the threads of a warp, a worker row, a vector column, a block, and the
//! grid: the building blocks of OpenACC `reduction` clauses at every level.
//!
//! Every function here is *collective*: all threads of the group (the block, for everything
//! but [`warp_reduce`]) call it at the same point with the same `op`, `identity` and
//! `shared`, so its barriers match. They are correct for any block shape up to 1024 threads,
//! not only powers of two, and leave `shared` free for reuse when they return.
//!
//! | function | combines over | result in | shared slots of `T` |
//! | --- | --- | --- | --- |
//! | [`warp_reduce`] | the first `active` lanes of the warp | lane 0 | none |
//! | [`block_reduce`] | all threads of the block | every thread | [`BLOCK_REDUCE_SLOTS`] (32) |
//! | [`block_reduce_xyz`] | all threads of a block of up to 3 dimensions | every thread | [`BLOCK_REDUCE_SLOTS`] (32) |
//! | [`vector_reduce`] | `threadIdx.x` (each worker row apart) | every thread of the row | `blockDim.x * blockDim.y` |
//! | [`worker_reduce`] | `threadIdx.y` (each vector column apart) | every thread of the column | `blockDim.x * blockDim.y` |
//! | [`grid_reduce_last_block`] | all blocks (`gridDim.x`) | every thread of the last block to finish | 32, plus `gridDim.x` partials in global memory |
//!
//! A reduction variable's value is a [`RedVar`]: a scalar, or an array of scalars, which
//! [`group_reduce_var`], [`block_reduce_var`] and [`block_reduce_xyz_var`] reduce element by
//! element, one scalar reduction after another through the same shared slots.
//!
//! `op` must be associative and commutative (as OpenACC's reduction operators are; floating
//! point `+` up to rounding) and `identity` its identity (`0` for `+`, `-inf` for `max`...).
//!
//! On the host these run unchanged as one thread of a one-thread block (each returns `v`).

use crate::index::{block_dim_x, block_dim_y, block_thread_index, block_threads, sync_threads};
use crate::index::{block_dim_z, thread_fence, thread_idx_x, thread_idx_y, thread_idx_z};
use crate::shuffle::{Shuffle, FULL_MASK, WARP_SIZE};

/// The shared-memory slots of `T` that [`block_reduce`] and [`grid_reduce_last_block`] need:
/// one per warp of the largest block.
pub const BLOCK_REDUCE_SLOTS: usize = 32;

/// The mask of the first `active` lanes (`1 <= active <= 32`).
#[inline(always)]
fn lanes(active: u32) -> u32 {
    if active >= WARP_SIZE {
        FULL_MASK
    } else {
        (1u32 << active) - 1
    }
}

/// Combines `v` over lanes `0..active` of this warp (`1 <= active <= 32`, and exactly those
/// lanes call it); the result is in lane 0 (other lanes hold partial values).
///
/// A log-step tree of `shfl.sync.down`: at distance `d`, lane `i` takes lane `i + d`'s value
/// when that lane is one of the `active` ones, so partial warps need no identity padding.
#[inline(always)]
pub fn warp_reduce<T: Shuffle, F: Fn(T, T) -> T>(mut v: T, op: &F, active: u32) -> T {
    let mask = lanes(active);
    let lane = crate::shuffle::lane_id();
    let mut d = WARP_SIZE / 2;
    while d > 0 {
        let other = v.shfl_down(d, mask);
        if lane + d < active {
            v = op(v, other);
        }
        d /= 2;
    }
    v
}

/// Combines `v` over all threads of the block; returns the result in every thread.
///
/// Warp shuffles reduce each warp, lane 0 of each warp puts its value in `shared[warp]`, and
/// warp 0 reduces those (`identity` pads the lanes past the last warp). A block of one warp
/// or less needs no shared memory and no barrier.
///
/// # Safety
/// Collective over the block (see the [module docs](self)). `shared` points to at least
/// [`BLOCK_REDUCE_SLOTS`] values of `T` in shared memory that no other code uses during the
/// call.
#[inline(always)]
pub unsafe fn block_reduce<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    shared: *mut T,
) -> T {
    // SAFETY: the caller's contract, which is the callee's; these are the block's threads.
    unsafe { reduce_threads(v, identity, op, shared, block_thread_index(), block_threads()) }
}

/// [`block_reduce`] over a block of up to three dimensions (the multi-dimensional schedules'
/// blocks, whose `threadIdx.z` [`block_reduce`] does not count): combines `v` over all
/// `blockDim.x * blockDim.y * blockDim.z` threads and returns the result in every thread.
///
/// # Safety
/// As for [`block_reduce`].
#[inline(always)]
pub unsafe fn block_reduce_xyz<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    shared: *mut T,
) -> T {
    let (bx, by) = (block_dim_x(), block_dim_y());
    // CUDA numbers a block's threads (and so forms its warps) `x` fastest, then `y`, then `z`.
    let tid = (thread_idx_z() * by + thread_idx_y()) * bx + thread_idx_x();
    // SAFETY: the caller's contract, which is the callee's; these are the block's threads.
    unsafe { reduce_threads(v, identity, op, shared, tid, bx * by * block_dim_z()) }
}

/// The body of [`block_reduce`] and [`block_reduce_xyz`]: this thread is number `tid` of the
/// block's `nt`, numbered as CUDA forms warps.
///
/// # Safety
/// As for [`block_reduce`].
#[inline(always)]
unsafe fn reduce_threads<T: Shuffle, F: Fn(T, T) -> T>(v: T, identity: T, op: F, shared: *mut T, tid: u32, nt: u32) -> T {
    let (warp, lane) = (tid / WARP_SIZE, tid % WARP_SIZE);
    let nwarps = nt.div_ceil(WARP_SIZE);
    let active = (nt - warp * WARP_SIZE).min(WARP_SIZE);
    let v = warp_reduce(v, &op, active);
    if nwarps == 1 {
        return v.shfl_idx(0, lanes(active));
    }
    // SAFETY (all accesses to `shared` below): the caller gives 32 slots of `T`; `warp` and
    // `lane` are below 32 (blocks have at most 1024 threads); barriers order every write
    // before other threads' reads, and the last barrier every read before the caller's
    // next use.
    if lane == 0 {
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        unsafe { shared.add(warp as usize).write(v) };
    }
    sync_threads();
    if warp == 0 {
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        let x = if lane < nwarps { unsafe { shared.add(lane as usize).read() } } else { identity };
        let x = warp_reduce(x, &op, WARP_SIZE);
        if lane == 0 {
            // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
            unsafe { shared.write(x) };
        }
    }
    sync_threads();
    // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
    let r = unsafe { shared.read() };
    sync_threads();
    r
}

/// Combines `v` over `threadIdx.x` within each worker row (`threadIdx.y`); returns each
/// row's result in every thread of the row: OpenACC's `vector` reduction.
///
/// When `blockDim.x` is a multiple of 32, rows are whole warps: shuffles, then one value per
/// warp in shared memory. Otherwise an interleaved log-step tree in shared memory (OpenUH's),
/// which pairs element `i` with `i + ceil(n/2)` so any row length works.
///
/// # Safety
/// Collective over the block. `shared` points to at least `blockDim.x * blockDim.y` values
/// of `T` in shared memory that no other code uses during the call.
#[inline(always)]
pub unsafe fn vector_reduce<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    shared: *mut T,
) -> T {
    let (bx, tx, ty) = (block_dim_x(), thread_idx_x(), thread_idx_y());
    // SAFETY (all accesses to `shared`): indices stay below `blockDim.x * blockDim.y`, the
    // caller's size; barriers separate writes from other threads' reads, and the last one
    // every read from the caller's next use.
    if bx % WARP_SIZE == 0 {
        let per_row = bx / WARP_SIZE; // warps per row, at most 32
        let (warp, lane) = (tx / WARP_SIZE, tx % WARP_SIZE);
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        let row = unsafe { shared.add((ty * per_row) as usize) };
        let v = warp_reduce(v, &op, WARP_SIZE);
        if per_row == 1 {
            return v.shfl_idx(0, FULL_MASK);
        }
        if lane == 0 {
            // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
            unsafe { row.add(warp as usize).write(v) };
        }
        sync_threads();
        if warp == 0 {
            // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
            let x = if lane < per_row { unsafe { row.add(lane as usize).read() } } else { identity };
            let x = warp_reduce(x, &op, WARP_SIZE);
            if lane == 0 {
                // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
                unsafe { row.write(x) };
            }
        }
        sync_threads();
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        let r = unsafe { row.read() };
        sync_threads();
        r
    } else {
        let _ = identity;
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        let row = unsafe { shared.add((ty * bx) as usize) };
        // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
        unsafe { tree(v, &op, bx, tx, 1, row) }
    }
}

/// Combines `v` over `threadIdx.y` within each vector column (`threadIdx.x`); returns each
/// column's result in every thread of the column: OpenACC's `worker` reduction.
///
/// An interleaved log-step tree in shared memory, strided by `blockDim.x` so that a warp's
/// accesses stay consecutive.
///
/// # Safety
/// As for [`vector_reduce`].
#[inline(always)]
pub unsafe fn worker_reduce<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    shared: *mut T,
) -> T {
    let _ = identity;
    let (bx, by, tx, ty) = (block_dim_x(), block_dim_y(), thread_idx_x(), thread_idx_y());
    // SAFETY: the column's elements are `shared[tx + k * bx]`, `k < by`: within the
    // caller's `bx * by` slots.
    unsafe { tree(v, &op, by, ty, bx, shared.add(tx as usize)) }
}

/// The shared-memory tree of [`vector_reduce`] and [`worker_reduce`]: `n` values at
/// `base[k * stride]`, this thread's at `k = me`; returns their combination in every one of
/// the `n` threads.
///
/// # Safety
/// Collective over the block (every thread calls it with the same `n`, so the barriers
/// match); `base[k * stride]` for `k < n` are shared slots owned by this group of `n`.
#[inline(always)]
unsafe fn tree<T: Copy, F: Fn(T, T) -> T>(v: T, op: &F, n: u32, me: u32, stride: u32, base: *mut T) -> T {
    let at = |k: u32| base.wrapping_add((k * stride) as usize);
    // SAFETY: slot `me < n` of the group, per the contract; each step's barrier orders its
    // writes before the next step's reads (so for the accesses below).
    unsafe { at(me).write(v) };
    sync_threads();
    let mut n = n;
    while n > 1 {
        let half = n.div_ceil(2);
        if me < n / 2 {
            // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
            unsafe { at(me).write(op(at(me).read(), at(me + half).read())) };
        }
        sync_threads();
        n = half;
    }
    // SAFETY: within the slots the caller gives; ordered by the barriers (see above).
    let r = unsafe { at(0).read() };
    sync_threads();
    r
}

/// Combines `v` over the block dimensions a loop was spread on (`over_x`: the vector lanes,
/// `threadIdx.x`; `over_y`: the workers, `threadIdx.y`) and returns the result in every
/// thread: the finish of a `reduction` clause inside a gang. Threads that differ only in a
/// dimension not reduced over hold their own copies (they ran the loop redundantly, so the
/// copies are equal) and get their own, equal, results.
///
/// # Safety
/// As for [`vector_reduce`] (collective over the block; `blockDim.x * blockDim.y` slots, and
/// at least [`BLOCK_REDUCE_SLOTS`]).
#[inline(always)]
pub unsafe fn group_reduce<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    over_x: bool,
    over_y: bool,
    shared: *mut T,
) -> T {
    let (bx, by) = (block_dim_x(), block_dim_y());
    match (over_x || bx == 1, over_y || by == 1) {
        // SAFETY: the caller's contract, which is the callee's.
        (true, true) => unsafe { block_reduce(v, identity, op, shared) },
        // SAFETY: as above.
        (true, false) => unsafe { vector_reduce(v, identity, op, shared) },
        // SAFETY: as above.
        (false, true) => unsafe { worker_reduce(v, identity, op, shared) },
        (false, false) => v,
    }
}

/// The value of a reduction variable: a scalar of OpenACC's reductions (one element, itself),
/// or an array `[T; N]` of them (OpenACC 2.7's array reductions), reduced element by element.
pub trait RedVar: Copy {
    /// The scalar each element is.
    type Elem: Shuffle;
    /// How many scalars the value holds (1 for a scalar).
    const ELEMS: usize;
    /// Element `i` (`i < ELEMS`).
    fn elem(&self, i: usize) -> Self::Elem;
    /// Sets element `i` (`i < ELEMS`).
    fn set_elem(&mut self, i: usize, e: Self::Elem);
}

macro_rules! scalar_red_var {
    ($($t:ty),*) => {$(
        impl RedVar for $t {
            type Elem = $t;
            const ELEMS: usize = 1;
            #[inline(always)]
            fn elem(&self, _: usize) -> $t {
                *self
            }
            #[inline(always)]
            fn set_elem(&mut self, _: usize, e: $t) {
                *self = e;
            }
        }
    )*};
}

scalar_red_var!(u8, i8, u16, i16, u32, i32, u64, i64, usize, isize, f32, f64, bool);

impl<T: RedVar<Elem = T> + Shuffle, const N: usize> RedVar for [T; N] {
    type Elem = T;
    const ELEMS: usize = N;
    #[inline(always)]
    fn elem(&self, i: usize) -> T {
        self[i]
    }
    #[inline(always)]
    fn set_elem(&mut self, i: usize, e: T) {
        self[i] = e;
    }
}

/// The scalars a reduction variable holds (`RedVar::ELEMS`): the partial slots it takes.
#[inline(always)]
pub const fn red_elems<V: RedVar>(_like: &V) -> usize {
    V::ELEMS
}

/// [`group_reduce`] of each element of `v` in turn (`op` and `identity` elementwise: a scalar's
/// own, an array's element type's); every thread gets the result.
///
/// # Safety
/// As for [`group_reduce`], with `shared` slots of the element type.
#[inline(always)]
pub unsafe fn group_reduce_var<V: RedVar, F: Fn(V::Elem, V::Elem) -> V::Elem>(
    v: V,
    identity: V,
    op: F,
    over_x: bool,
    over_y: bool,
    shared: *mut V::Elem,
) -> V {
    let mut out = v;
    let mut i = 0;
    while i < V::ELEMS {
        // SAFETY: the caller's contract, which is the callee's; each call leaves `shared` free.
        out.set_elem(i, unsafe { group_reduce(v.elem(i), identity.elem(i), &op, over_x, over_y, shared) });
        i += 1;
    }
    out
}

/// [`block_reduce`] of each element of `v` in turn; every thread gets the result.
///
/// # Safety
/// As for [`block_reduce`], with `shared` slots of the element type.
#[inline(always)]
pub unsafe fn block_reduce_var<V: RedVar, F: Fn(V::Elem, V::Elem) -> V::Elem>(v: V, identity: V, op: F, shared: *mut V::Elem) -> V {
    let mut out = v;
    let mut i = 0;
    while i < V::ELEMS {
        // SAFETY: the caller's contract, which is the callee's; each call leaves `shared` free.
        out.set_elem(i, unsafe { block_reduce(v.elem(i), identity.elem(i), &op, shared) });
        i += 1;
    }
    out
}

/// [`block_reduce_xyz`] of each element of `v` in turn; every thread gets the result.
///
/// # Safety
/// As for [`block_reduce_xyz`], with `shared` slots of the element type.
#[inline(always)]
pub unsafe fn block_reduce_xyz_var<V: RedVar, F: Fn(V::Elem, V::Elem) -> V::Elem>(v: V, identity: V, op: F, shared: *mut V::Elem) -> V {
    let mut out = v;
    let mut i = 0;
    while i < V::ELEMS {
        // SAFETY: the caller's contract, which is the callee's; each call leaves `shared` free.
        out.set_elem(i, unsafe { block_reduce_xyz(v.elem(i), identity.elem(i), &op, shared) });
        i += 1;
    }
    out
}

/// Hands the value of a group's leader to every thread of the group, where a group is the
/// threads that differ only in the dimensions `from_x` (vector lanes) and `from_y` (workers)
/// and its leader is the one with index 0 in those: after code that only the leader ran
/// (a store, an atomic), the variables it assigned are the same again in the whole group.
/// Any `Copy` value: it goes through the group's 16-byte slot 16 bytes at a time.
///
/// # Safety
/// Collective over the block. `shared` points to at least `16 * blockDim.x * blockDim.y`
/// bytes of shared memory (16-byte aligned) that no other code uses during the call.
#[inline(always)]
pub unsafe fn broadcast<T: Copy>(v: T, from_x: bool, from_y: bool, shared: *mut u8) -> T {
    let (bx, tx, ty) = (block_dim_x(), thread_idx_x(), thread_idx_y());
    let gx = if from_x { 0 } else { tx };
    let gy = if from_y { 0 } else { ty };
    let row = if from_x { 1 } else { bx };
    let slot = shared.wrapping_add(16 * (gy * row + gx) as usize).cast::<[u32; 4]>();
    let leader = (!from_x || tx == 0) && (!from_y || ty == 0);
    let mut out = core::mem::MaybeUninit::<T>::uninit();
    let (src, dst) = ((&v as *const T).cast::<u8>(), out.as_mut_ptr().cast::<u8>());
    let size = core::mem::size_of::<T>();
    let mut at = 0;
    while at < size {
        let n = if size - at < 16 { size - at } else { 16 };
        if leader {
            let mut chunk = [0u32; 4];
            // SAFETY: `n` bytes of `v` from `at`, into a 16-byte local.
            unsafe { core::ptr::copy_nonoverlapping(src.add(at), chunk.as_mut_ptr().cast::<u8>(), n) };
            // SAFETY: slot `gy * row + gx` lies within the caller's `blockDim.x *
            // blockDim.y` 16-byte slots, and only this group's leader writes it.
            unsafe { slot.write(chunk) };
        }
        // A leader gone (a kernel panic) ends the group here, before its slot is read.
        crate::index::sync_threads_checked();
        // SAFETY: written by the leader before the barrier; `n` bytes into `out` at `at`.
        unsafe {
            let chunk = slot.read();
            core::ptr::copy_nonoverlapping(chunk.as_ptr().cast::<u8>(), dst.add(at), n);
        }
        sync_threads();
        at += 16;
    }
    // SAFETY: every byte of `out` was copied from the leader's `v`, a valid `T`.
    unsafe { out.assume_init() }
}

/// `__syncthreads_or(pred)`: a block barrier that returns whether `pred` was true in any
/// thread (`bar.red.or.pred`).
#[inline(always)]
pub fn sync_threads_or(pred: bool) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: a barrier with a reduction of one predicate; touches no memory. It is
        // collective over the block like `sync_threads`.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred p; setp.ne.u32 p, {c}, 0; bar.red.or.pred p, 0, p; selp.u32 {r}, 1, 0, p; }}",
                c = in(reg32) pred as u32, r = out(reg32) r, options(nostack)
            )
        };
        r != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    pred
}

/// The grid-level finish of a reduction, in one launch (CUDA's "threadFenceReduction"):
/// each block's value (`v`, as [`block_reduce`] returns it) goes to `partials[blockIdx.x]`;
/// the last block to finish combines all `gridDim.x` partials and gets `Some(result)` in
/// every thread; the other blocks get `None`. It resets `*counter` to 0 for the next launch.
///
/// # Safety
/// Collective over the block, for every block of a one-dimensional grid. `partials` points
/// to `gridDim.x` values of `T` in global memory and `counter` to a `u32` that is 0 at the
/// launch, both used by nothing else during it; `shared` as for [`block_reduce`].
#[inline(always)]
pub unsafe fn grid_reduce_last_block<T: Shuffle, F: Fn(T, T) -> T>(
    v: T,
    identity: T,
    op: F,
    shared: *mut T,
    partials: *mut T,
    counter: *mut u32,
) -> Option<T> {
    let (tid, nt) = (block_thread_index(), block_threads());
    let (bid, nb) = (crate::index::block_idx_x(), crate::index::grid_dim_x());
    let mut last = false;
    if tid == 0 {
        // SAFETY: `partials` has `gridDim.x` slots, one per block; the fence makes the write
        // visible GPU-wide before the counter says it is there.
        unsafe { partials.add(bid as usize).write_volatile(v) };
        thread_fence();
        // SAFETY: `counter` is a valid `u32` accessed only atomically during the launch.
        let ticket = unsafe { crate::AtomicRef::from_ptr(counter) }.fetch_add(1);
        last = ticket == nb - 1;
    }
    if !sync_threads_or(last) {
        return None;
    }
    thread_fence();
    let mut acc = identity;
    let mut i = tid;
    while i < nb {
        // SAFETY: every block wrote its slot before its ticket, and this block holds the
        // last ticket; volatile loads bypass the (non-coherent) L1 cache.
        acc = op(acc, unsafe { partials.add(i as usize).read_volatile() });
        i += nt;
    }
    // SAFETY: the caller's contract for `shared`; the whole block is here.
    let r = unsafe { block_reduce(acc, identity, op, shared) };
    if tid == 0 {
        // SAFETY: no other block touches the counter any more in this launch.
        unsafe { counter.write_volatile(0) };
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_reductions_return_the_value() {
        let mut shared = [0.0f64; 32];
        let p = shared.as_mut_ptr();
        // SAFETY: on the host the block is this one thread; 32 slots are enough everywhere.
        unsafe {
            assert_eq!(block_reduce(2.5, 0.0, |a, b| a + b, p), 2.5);
            assert_eq!(block_reduce_xyz(8.5, f64::INFINITY, f64::min, p), 8.5);
            assert_eq!(vector_reduce(3.5, 0.0, |a, b| a + b, p), 3.5);
            assert_eq!(worker_reduce(4.5, f64::NEG_INFINITY, f64::max, p), 4.5);
            assert_eq!(group_reduce(5.5, 0.0, |a, b| a + b, true, false, p), 5.5);
            assert_eq!(broadcast(6.5f64, true, true, p.cast()), 6.5);
            assert_eq!(broadcast([1.5f64, 2.5, 3.5], true, false, p.cast()), [1.5, 2.5, 3.5]);
            assert_eq!(broadcast((), true, true, p.cast()), ());
        }
        assert_eq!(warp_reduce(7u8, &|a, b| a.max(b), 1), 7);
    }

    #[test]
    fn grid_finish_on_one_block() {
        let mut shared = [0i64; 32];
        let mut partials = [0i64; 1];
        let mut counter = 0u32;
        // SAFETY: a one-block grid of one thread; the buffers are local and sized for it.
        let r = unsafe {
            grid_reduce_last_block(9, 0, |a, b| a + b, shared.as_mut_ptr(), partials.as_mut_ptr(), &mut counter)
        };
        assert_eq!(r, Some(9));
        assert_eq!(counter, 0);
    }
}
// SAFETY: within the slots the caller gives; ordered by the barriers (see above).
