//! The block's shared memory.
//!
//! A kernel gets one region of *dynamic* shared memory, sized by the host at each launch
//! (`sharedMemBytes` of `cuLaunchKernel`). `dynamic_shared` (nvptx only) returns its start; every call
//! in a block, whatever `T`, returns the same address, so a kernel that needs several arrays
//! (a reduction's scratch, a `cache` window) carves them out of it at offsets it computes,
//! and the host sizes the launch as the sum (see [`shared_bytes`]).

/// The start of the block's dynamic shared memory, aligned for `T`
/// (`core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`, PTX `.extern .shared`).
///
/// The pointer is valid for the number of bytes the launch asked for, for all threads of the
/// block, until the block ends. Accesses from several threads need a barrier
/// ([`sync_threads`](crate::sync_threads)) between a write and another thread's read.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[must_use]
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// The bytes of shared memory that `count` values of `T` take, rounded up to 16 so that the
/// next array carved after them stays aligned for any scalar. Usable on the host when
/// sizing a launch.
#[inline]
#[must_use]
pub const fn shared_bytes<T>(count: usize) -> usize {
    (count * core::mem::size_of::<T>()).div_ceil(16) * 16
}

/// The bytes of dynamic shared memory the launch gave the block (`%dynamic_smem_size`).
#[inline(always)]
#[must_use]
pub fn dynamic_shared_size() -> usize {
    #[cfg(target_arch = "nvptx64")]
    {
        let r: u32;
        // SAFETY: reads a special register; touches no memory.
        unsafe { core::arch::asm!("mov.u32 {r}, %dynamic_smem_size;", r = out(reg32) r, options(nomem, nostack, pure)) };
        r as usize
    }
    #[cfg(not(target_arch = "nvptx64"))]
    0
}

/// A local of a gang (or worker) loop body that the parallel loops inside it write
/// (DESIGN §4.4, OpenACC 3.3 §2.9): one copy in shared memory for each group of threads
/// that runs the body together, the group being the block's vector lanes (`lanes`) and/or
/// its workers (`workers`). The group's leader stores `v` there, a barrier follows, and every
/// thread of the group gets the same place. `offset` is where the body's locals end (after
/// the reductions' 16 bytes per thread); it moves past this one.
///
/// Panics, naming the bytes, when the launch's shared memory cannot hold it.
///
/// # Safety
/// Collective over the block (a barrier): every thread of the block calls it, in the same
/// order with the same `offset`. The place stays valid until the body's next trip makes a
/// new one at the same offset; accesses from several threads need barriers in between.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn group_local<T: Copy>(v: T, lanes: bool, workers: bool, offset: &mut usize) -> &'static mut T {
    use crate::{block_dim_x, block_dim_y, sync_threads, thread_idx_x, thread_idx_y};
    let (bx, by) = (block_dim_x() as usize, block_dim_y() as usize);
    let groups = if lanes { 1 } else { bx } * if workers { 1 } else { by };
    let group = if workers { 0 } else { thread_idx_y() as usize } * if lanes { 1 } else { bx } + if lanes { 0 } else { thread_idx_x() as usize };
    let size = shared_bytes::<T>(1).max(16);
    let start = 16 * bx * by + *offset;
    let end = start + groups * size;
    let have = dynamic_shared_size();
    if end > have || core::mem::align_of::<T>() > 16 {
        panic!("acc: a local of a gang or worker loop body that inner parallel loops write takes {} bytes of shared memory per group, {} for the block's {groups} groups, more than the {} the launch has left", size, groups * size, have.saturating_sub(start));
    }
    *offset += groups * size;
    let place = dynamic_shared::<u8>().wrapping_add(start + group * size).cast::<T>();
    let leader = (!lanes || thread_idx_x() == 0) && (!workers || thread_idx_y() == 0);
    if leader {
        // SAFETY: the group's own slot, in the launch's shared memory (checked above),
        // 16-byte aligned; only the group's leader writes it here.
        unsafe { place.write(v) };
    }
    sync_threads();
    // SAFETY: written above; shared by the group by design (the caller's contract).
    unsafe { &mut *place }
}

/// The place of a `cache!` window of `elems` elements of `a`'s type in the block's shared
/// memory: after the reductions' 16 bytes per thread and `offset` (the group locals of the
/// enclosing bodies, then the windows placed before it), which moves past it, rounded to 16.
/// The host sizes the launch for it (`Geometry::cache`).
///
/// A 1-D window is read by consecutive threads at consecutive elements (no bank conflict, so
/// no padding: the paper's padding is for 2-D tiles whose row is a multiple of the banks).
///
/// Panics, naming the bytes, when the launch's shared memory cannot hold it.
///
/// # Safety
/// Every thread of the block calls it with the same `elems` and `offset`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_window<T: Copy>(_a: &[T], elems: usize, offset: &mut usize) -> *mut T {
    use crate::{block_dim_x, block_dim_y};
    let start = 16 * block_dim_x() as usize * block_dim_y() as usize + *offset;
    let size = shared_bytes::<T>(elems);
    let have = dynamic_shared_size();
    if start + size > have || core::mem::align_of::<T>() > 16 {
        panic!("acc: a `cache!` window of {elems} elements takes {size} bytes of shared memory, more than the {} the launch has left", have.saturating_sub(start));
    }
    *offset += size;
    dynamic_shared::<u8>().wrapping_add(start).cast::<T>()
}

/// Fetches a `cache!` window in parallel: the block's threads (along `x`) copy `a[first..]`,
/// `elems` elements, into `place` (element `s` of the window is `a[first + s]`, wrapping),
/// skipping those outside `a` (the window clamped to the slice). The caller puts the
/// barrier after the fetches.
///
/// # Safety
/// `place` is a window of at least `elems` elements from [`cache_window`]; every thread of
/// the block calls it with the same arguments, and no thread reads the window until a barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_fetch<T: Copy>(a: &[T], place: *mut T, first: usize, elems: usize) {
    use crate::{block_dim_x, thread_idx_x};
    let step = block_dim_x() as usize;
    let mut s = thread_idx_x() as usize;
    while s < elems {
        let g = first.wrapping_add(s);
        if g < a.len() {
            // SAFETY: `s < elems`, inside the window (the caller's contract); each thread
            // writes its own elements.
            unsafe { place.add(s).write(a[g]) };
        }
        s += step;
    }
}

/// The elements of a `cache!` window this thread fetches (`threadIdx.x` and
/// `threadIdx.x + blockDim.x` of the window that starts at `a[first]`, those inside `a` and
/// the window's `elems`), loaded into registers ahead of the trip that stores them
/// ([`cache_store`]): the next trip's loads are in flight while this trip computes. A window
/// of at most `2 * blockDim.x` elements.
///
/// # Safety
/// None beyond `a`'s: it only reads `a` (the elements not loaded stay uninitialised, and
/// [`cache_store`] with the same `first` and `elems` skips them).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_prefetch<T: Copy>(a: &[T], first: usize, elems: usize) -> [core::mem::MaybeUninit<T>; 2] {
    use crate::{block_dim_x, thread_idx_x};
    let (tx, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut v = [core::mem::MaybeUninit::uninit(); 2];
    let mut j = 0;
    while j < 2 {
        let s = tx + j * step;
        let g = first.wrapping_add(s);
        if s < elems && g < a.len() {
            v[j] = core::mem::MaybeUninit::new(a[g]);
        }
        j += 1;
    }
    v
}

/// No prefetched elements (before a loop whose first trip has none).
#[inline(always)]
#[must_use]
pub fn cache_nothing<T: Copy>() -> [core::mem::MaybeUninit<T>; 2] {
    [core::mem::MaybeUninit::uninit(); 2]
}

/// Stores the elements [`cache_prefetch`] loaded for the window at `a[first]` (`len` is
/// `a.len()`) into its place in shared memory. The caller puts the barrier after the stores.
///
/// # Safety
/// `v` comes from `cache_prefetch(a, first, elems)` with the same `first` and `elems`, by the
/// same thread; `place` is a window of at least `elems` elements from [`cache_window`], and
/// no thread reads it until a barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_store<T: Copy>(len: usize, place: *mut T, v: [core::mem::MaybeUninit<T>; 2], first: usize, elems: usize) {
    use crate::{block_dim_x, thread_idx_x};
    let (tx, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut j = 0;
    while j < 2 {
        let s = tx + j * step;
        let g = first.wrapping_add(s);
        if s < elems && g < len {
            // SAFETY: loaded by `cache_prefetch` under the same condition; `s < elems`, inside
            // the window; each thread writes its own elements.
            unsafe { place.add(s).write(v[j].assume_init()) };
        }
        j += 1;
    }
}

/// Fetches a 2-D `cache!` tile in parallel (the paper's 2-D pass, Section IV-B): the block's
/// threads copy element `(r, c)` of a `rows x cols` tile, for `r < rows` and `c < cols`, from
/// `a[at(r, c)]` to `place[r * pitch + c]`, adjacent threads (along `x`) at adjacent columns,
/// the rows spread over `y`. Elements where `at` gives `None` (a row of iterations past the
/// loop's end) or an index outside `a` (the window clamped to the slice) are not fetched.
/// The caller puts the barrier after the fetches.
///
/// # Safety
/// `place` holds at least `rows * pitch` elements ([`cache_window`]), `cols <= pitch`; every
/// thread of the block calls it with the same arguments, and no thread reads the tile until a
/// barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_fetch_tile<T: Copy>(a: &[T], place: *mut T, rows: usize, cols: usize, pitch: usize, at: impl Fn(usize, usize) -> Option<usize>) {
    use crate::{block_dim_x, block_dim_y, thread_idx_x, thread_idx_y};
    let (bx, by) = (block_dim_x() as usize, block_dim_y() as usize);
    let tx = thread_idx_x() as usize;
    let mut r = thread_idx_y() as usize;
    while r < rows {
        let mut c = tx;
        while c < cols {
            if let Some(g) = at(r, c) {
                if g < a.len() {
                    // SAFETY: `r < rows`, `c < cols <= pitch`: inside the tile (the caller's
                    // contract); each thread writes its own elements.
                    unsafe { place.add(r * pitch + c).write(a[g]) };
                }
            }
            c += bx;
        }
        r += by;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_are_rounded_to_16() {
        assert_eq!(super::shared_bytes::<f64>(32), 256);
        assert_eq!(super::shared_bytes::<u8>(3), 16);
        assert_eq!(super::shared_bytes::<u8>(0), 0);
    }
}
