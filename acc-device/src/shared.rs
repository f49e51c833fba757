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

/// How the threads of a warp read a 2-D `cache!` tile's rows, which sets its row pitch
/// ([`tile_pitch`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TileReads {
    /// A row at a time, the same element in every lane of a row: the tile's rows follow a
    /// nest variable on the block's `y` (or `z`), its columns a range
    /// (`a[i * n + (kk..kk + 16)]`, `i` on `y`).
    Rows,
    /// Adjacent lanes at adjacent columns: its columns follow the nest variable on `x`
    /// (`b[(kk..kk + 16) * n + j]`, `j` on `x`).
    Lanes,
    /// Otherwise (a warp may read down a column).
    Other,
}

/// The row pitch, in elements, of a 2-D `cache!` tile of `cols` columns of `elem_bytes`-byte
/// elements, read as `reads` says. For 4-byte and 8-byte elements, [`TileReads::Rows`] takes
/// an odd number of 16-byte words a row, so that a row starts 16-byte aligned (four `f32`s or
/// two `f64`s of it read as one 16-byte load) and the rows a warp reads at once lie on
/// different banks; [`TileReads::Lanes`] whole 16-byte words (the fetch copies 16 bytes at a
/// time; a warp reads within a row, no conflict). Otherwise the pitch is `cols + 1`, against
/// bank conflicts where a warp reads down a column (the paper's padding). Used on the host,
/// sizing the launch, and on the device, placing the rows.
#[inline(always)]
#[must_use]
pub const fn tile_pitch(cols: usize, elem_bytes: usize, reads: TileReads) -> usize {
    let words = elem_bytes == 4 || elem_bytes == 8;
    let per_word = if words { 16 / elem_bytes } else { 1 };
    match reads {
        TileReads::Rows if words => (cols.div_ceil(per_word) | 1) * per_word,
        TileReads::Lanes if words => cols.div_ceil(per_word) * per_word,
        _ => cols + 1,
    }
}

/// [`tile_pitch`] for a tile of `a`'s elements.
#[inline(always)]
#[must_use]
pub const fn tile_pitch_of<T>(_a: &[T], cols: usize, reads: TileReads) -> usize {
    tile_pitch(cols, core::mem::size_of::<T>(), reads)
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
        crate::panic::panic_shared(crate::panic::KIND_SHARED_LOCAL, groups * size, have.saturating_sub(start));
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
    // Every offset is a multiple of 16 already (`shared_bytes`); rounded here as well, and the
    // start of the shared memory declared 16-byte aligned (`Words16`), so that the compiler
    // knows the window is (a 2-D tile's rows are read 16 bytes at a time, `tile_pitch`).
    let base = 16 * block_dim_x() as usize * block_dim_y() as usize;
    let start = (base + *offset).next_multiple_of(16);
    let size = shared_bytes::<T>(elems);
    let have = dynamic_shared_size();
    if start + size > have || core::mem::align_of::<T>() > 16 {
        crate::panic::panic_shared(crate::panic::KIND_SHARED_WINDOW, size, have.saturating_sub(start));
    }
    *offset = start - base + size;
    let place = dynamic_shared::<Words16>().cast::<u8>().wrapping_add(start).cast::<T>();
    // SAFETY: the shared memory starts 16-byte aligned (declared so) and `start` is a
    // multiple of 16.
    unsafe { core::hint::assert_unchecked(place.addr() % 16 == 0) };
    place
}

/// A 16-byte word: the dynamic shared memory taken as an array of these is declared 16-byte
/// aligned (`.extern .shared .align 16`), which the launch gives it.
#[cfg(target_arch = "nvptx64")]
#[repr(C, align(16))]
struct Words16([u8; 16]);

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

/// The points each thread of a block takes a trip of a loop whose `cache!` windows move with
/// it (acc-codegen's `schedule.rs`), for blocks of `block_x` threads and windows whose elements
/// take `bytes_a_point` bytes together (one element of each window a point): 4, or 2 or 1
/// where the windows of 4 would take more than [`WINDOW_POINTS_BYTES`]. A trip of the block
/// then covers `points * blockDim.x` iterations, its windows `points * blockDim.x + span`
/// elements, fetched with `points + 1` loads a thread in flight and one barrier pair for all
/// the points (a 3-point stencil on an H200: 0.143 ms with 4 points against 0.216 with one,
/// nvcc's own kernels, `benches/results/cache1d-points-h200/` as of 67a55c8). The host sizes the launch
/// with the same function (acc-runtime's `Geometry::window_points`).
#[must_use]
pub const fn window_points(block_x: usize, bytes_a_point: usize) -> usize {
    let per = block_x.saturating_mul(bytes_a_point);
    if per.saturating_mul(4) <= WINDOW_POINTS_BYTES {
        4
    } else if per.saturating_mul(2) <= WINDOW_POINTS_BYTES {
        2
    } else {
        1
    }
}

/// The most shared memory the windows of a trip of several points a thread take
/// ([`window_points`]): 32 KiB, half of what acc gives `cache!` windows.
pub const WINDOW_POINTS_BYTES: usize = 32 * 1024;

/// The bytes of an element of `a` (what [`window_points`] counts, in the kernel and, through
/// acc-runtime's `gpu::elem_bytes`, on the host).
#[must_use]
pub const fn elem_bytes<T>(_a: &[T]) -> usize {
    core::mem::size_of::<T>()
}

/// The elements of a `cache!` window each thread loads a trip ahead (`cache_prefetch`): a
/// window of at most `CACHE_AHEAD * blockDim.x` elements (4 points a thread and a span of at
/// most a block) is fetched a trip ahead.
pub const CACHE_AHEAD: usize = 5;

/// The elements of a `cache!` window this thread fetches (`threadIdx.x + j * blockDim.x` of
/// the window that starts at `a[first]`, for `j <` [`CACHE_AHEAD`], those inside `a` and the
/// window's `elems`), loaded into registers ahead of the trip that stores them
/// ([`cache_store`]): the next trip's loads are in flight while this trip computes, all of a
/// thread's at once. A window of at most `CACHE_AHEAD * blockDim.x` elements.
///
/// # Safety
/// None beyond `a`'s: it only reads `a` (the elements not loaded stay uninitialised, and
/// [`cache_store`] with the same `first` and `elems` skips them).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_prefetch<T: Copy>(a: &[T], first: usize, elems: usize) -> [core::mem::MaybeUninit<T>; CACHE_AHEAD] {
    use crate::{block_dim_x, thread_idx_x};
    let (tx, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut v = [core::mem::MaybeUninit::uninit(); CACHE_AHEAD];
    let mut j = 0;
    while j < CACHE_AHEAD {
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
pub fn cache_nothing<T: Copy>() -> [core::mem::MaybeUninit<T>; CACHE_AHEAD] {
    [core::mem::MaybeUninit::uninit(); CACHE_AHEAD]
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
pub unsafe fn cache_store<T: Copy>(len: usize, place: *mut T, v: [core::mem::MaybeUninit<T>; CACHE_AHEAD], first: usize, elems: usize) {
    use crate::{block_dim_x, thread_idx_x};
    let (tx, step) = (thread_idx_x() as usize, block_dim_x() as usize);
    let mut j = 0;
    while j < CACHE_AHEAD {
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
/// `a[row(r) + col(c)]` to `place[r * pitch + c]` (the window's index `X * p + Y` as its rows'
/// part `X * p` and its columns' part `Y`). Elements where `row` or `col` gives `None` (an
/// iteration past the loop's end) or the index is outside `a` (the window clamped to the
/// slice) are not fetched. The caller puts the barrier after the fetches.
///
/// Where 16 bytes hold several elements (4-byte and 8-byte types) and the tile's rows are
/// whole 16-byte words, each thread copies 16 bytes at a time: the block's threads in turn
/// (`threadIdx.y * blockDim.x + threadIdx.x`) take the words of a row, then of the next rows;
/// a word whose elements lie apart in `a`, or not 16-byte aligned there, or past its end,
/// goes element by element. Else adjacent threads (along `x`) take adjacent columns, the
/// rows spread over `y`.
///
/// # Safety
/// `place` holds at least `rows * pitch` elements ([`cache_window`]), 16-byte aligned,
/// `cols <= pitch`; every thread of the block calls it with the same arguments, and no thread
/// reads the tile until a barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_fetch_tile<T: Copy>(a: &[T], place: *mut T, rows: usize, cols: usize, pitch: usize, row: impl Fn(usize) -> Option<usize>, col: impl Fn(usize) -> Option<usize>) {
    use crate::{block_dim_x, block_dim_y, thread_idx_x, thread_idx_y};
    let (bx, by) = (block_dim_x() as usize, block_dim_y() as usize);
    let (tx, ty) = (thread_idx_x() as usize, thread_idx_y() as usize);
    let len = a.len();
    // SAFETY (both): `r < rows`, `c < cols <= pitch`: inside the tile (the caller's
    // contract); each thread writes its own elements.
    let one = |r: usize, rg: usize, c: usize| unsafe { fetch_element(a, place, pitch, &col, r, rg, c) };
    let size = core::mem::size_of::<T>();
    let per = if size == 4 || size == 8 { 16 / size } else { 0 };
    if per > 1 && cols % per == 0 && pitch % per == 0 {
        let words = cols / per;
        let threads = bx * by;
        if words.is_power_of_two() && threads % words == 0 {
            let shift = words.trailing_zeros();
            let t = ty * bx + tx;
            let c = (t & (words - 1)) * per;
            let step = threads >> shift;
            // The word's columns in `a`: adjacent (`Y` a range, or a nest variable of step 1).
            let first = col(c);
            let adjacent = matches!((first, col(c + per - 1)), (Some(f), Some(l)) if l.wrapping_sub(f) == per - 1);
            let mut r = t >> shift;
            while r < rows {
                if let Some(rg) = row(r) {
                    let g = rg.wrapping_add(first.unwrap_or(0));
                    let from = a.as_ptr().wrapping_add(g);
                    if adjacent && g < len && len - g >= per && from.addr() % 16 == 0 {
                        // SAFETY: `g..g + per` inside `a`, 16-byte aligned; the word `c / per`
                        // of row `r` inside the tile, 16-byte aligned (`place` and `pitch`).
                        unsafe { copy_word(from.cast(), place.add(r * pitch + c).cast()) };
                    } else {
                        let mut e = 0;
                        while e < per {
                            one(r, rg, c + e);
                            e += 1;
                        }
                    }
                }
                r += step;
            }
            return;
        }
    }
    let mut r = ty;
    while r < rows {
        if let Some(rg) = row(r) {
            let mut c = tx;
            while c < cols {
                one(r, rg, c);
                c += bx;
            }
        }
        r += by;
    }
}

/// Fetches a 2-D `cache!` tile as [`cache_fetch_tile`] does, for tiles whose rows are not a
/// power of two of 16-byte words (a window that moves with the nest: the block's columns and a
/// halo, the Jacobi's 34 `f32`). The block's threads in turn take the tile's units in row-major
/// order, several loads of a thread in flight before its stores: whole 16-byte words of each
/// row where the type allows (the last one's columns past `cols` land in the row's padding),
/// else elements. Kept apart from `cache_fetch_tile`: inlined beside the GEMM's fetch, these
/// paths' hoisted values cost its k loop registers (9180 -> 7175 GFLOP/s with 16 x 16 tiles on
/// an H100).
///
/// # Safety
/// As for [`cache_fetch_tile`]; `walk` is [`halo_walk`]'s for `a`, `cols` and `pitch`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn cache_fetch_halo_tile<T: Copy>(a: &[T], place: *mut T, rows: usize, cols: usize, pitch: usize, walk: HaloWalk, row: impl Fn(usize) -> Option<usize>, col: impl Fn(usize) -> Option<usize>) {
    let len = a.len();
    // SAFETY: `r < rows`, `c < cols <= pitch`: inside the tile (the caller's contract); each
    // thread writes its own elements.
    let one = |r: usize, rg: usize, c: usize| unsafe { fetch_element(a, place, pitch, &col, r, rg, c) };
    // (A tile holds far fewer than 2^32 elements: shared memory is a few hundred KiB.)
    let (Ok(cols32), Ok(rows32)) = (u32::try_from(cols), u32::try_from(rows)) else { return };
    if cols32 == 0 {
        return;
    }
    // The rest in row-major order over the block's threads (`Walk`), several loads of a thread
    // in flight before its stores: one at a time, the Jacobi's 34 x 34 tile took 0.16 ms a
    // step where nvcc's kernel, its ten loads unrolled, took 0.085 (4096^2 f32, H100).
    if let Some(per) = word_elems::<T>(pitch) {
        // Whole 16-byte words of each row (the last one's columns past `cols` land in the
        // row's padding, `pitch` being whole words): the Jacobi's rows of 34 `f32`, 9 words,
        // the units of the thread's `walk`.
        let mut w = walk.0;
        // This thread's next word: loaded (and its place in the tile), or copied element by
        // element where its columns lie apart in `a`, are not 16-byte aligned there or pass
        // its end. (Called four times by name below: as a loop over an array, the compiler
        // kept the loaded words in local memory, one load in flight again.)
        let take = |w: &mut Walk| -> ([u32; 4], u32) {
            let mut out = ([0u32; 4], u32::MAX);
            if w.r < rows32 {
                let (r, c) = (w.r as usize, w.c as usize * per);
                if let Some(rg) = row(r) {
                    let first = col(c);
                    let adjacent = matches!((first, col(c + per - 1)), (Some(f), Some(l)) if l.wrapping_sub(f) == per - 1);
                    let g = rg.wrapping_add(first.unwrap_or(0));
                    let from = a.as_ptr().wrapping_add(g);
                    if adjacent && g < len && len - g >= per && from.addr() % 16 == 0 {
                        // SAFETY: `g..g + per` inside `a`, 16-byte aligned.
                        out = (unsafe { load_word(from.cast()) }, (r * pitch + c) as u32);
                    } else {
                        let mut e = 0;
                        while e < per && c + e < cols {
                            one(r, rg, c + e);
                            e += 1;
                        }
                    }
                }
                w.step();
            }
            out
        };
        // SAFETY: the word `c / per` of row `r < rows`, inside the tile (`c + per <= pitch`),
        // 16-byte aligned (`place` and `pitch`); each thread writes its own words.
        let put = |(v, at): ([u32; 4], u32)| {
            if at != u32::MAX {
                unsafe { store_word(place.add(at as usize).cast(), v) };
            }
        };
        while w.r < rows32 {
            let (w0, w1, w2, w3) = (take(&mut w), take(&mut w), take(&mut w), take(&mut w));
            put(w0);
            put(w1);
            put(w2);
            put(w3);
        }
        return;
    }
    // Element by element.
    let mut w = walk.0;
    const BATCH: usize = 8;
    while w.r < rows32 {
        let mut vals = [core::mem::MaybeUninit::<T>::uninit(); BATCH];
        let mut at = [u32::MAX; BATCH];
        let mut u = 0;
        while u < BATCH {
            if w.r < rows32 {
                let (r, c) = (w.r as usize, w.c as usize);
                if let (Some(rg), Some(cg)) = (row(r), col(c)) {
                    let g = rg.wrapping_add(cg);
                    if g < len {
                        // SAFETY: `g < a.len()`.
                        vals[u] = core::mem::MaybeUninit::new(unsafe { *a.get_unchecked(g) });
                        at[u] = (r * pitch + c) as u32;
                    }
                }
                w.step();
            }
            u += 1;
        }
        let mut u = 0;
        while u < BATCH {
            if at[u] != u32::MAX {
                // SAFETY: loaded above; `(r, c)` inside the tile (`r < rows`, `c < cols <=
                // pitch`); each thread writes its own elements.
                unsafe { place.add(at[u] as usize).write(vals[u].assume_init()) };
            }
            u += 1;
        }
    }
}

/// Copies element `(r, c)` of a tile, whose row `r` starts at `rg` in `a`, from
/// `a[rg + col(c)]` to `place[r * pitch + c]`, where `col(c)` is some and the index inside `a`.
///
/// # Safety
/// `place` holds at least `(r + 1) * pitch` elements, `c < pitch`; no other thread writes the
/// element.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn fetch_element<T: Copy>(a: &[T], place: *mut T, pitch: usize, col: &impl Fn(usize) -> Option<usize>, r: usize, rg: usize, c: usize) {
    if let Some(cg) = col(c) {
        let g = rg.wrapping_add(cg);
        if g < a.len() {
            // SAFETY: the caller's contract.
            unsafe { place.add(r * pitch + c).write(a[g]) };
        }
    }
}

/// The elements of a 16-byte word where a halo tile of `T` with rows `pitch` elements apart
/// moves whole words ([`cache_fetch_halo_tile`]): 4-byte and 8-byte types, `pitch` whole words.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
const fn word_elems<T>(pitch: usize) -> Option<usize> {
    let size = core::mem::size_of::<T>();
    let per = if size == 4 || size == 8 { 16 / size } else { 0 };
    if per > 1 && pitch % per == 0 {
        Some(per)
    } else {
        None
    }
}

/// Where this thread starts and how it steps over the units of a halo tile of `cols` columns,
/// rows `pitch` elements apart ([`cache_fetch_halo_tile`]): made once before the nest's loops.
/// (Made each tile, a 4096^2 `f32` Jacobi step's cached `tile(32, 16)` kernel took 0.077-0.080
/// ms on an H100, made once 0.0755-0.076: as fast as the same nest without `cache!`.)
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
pub struct HaloWalk(Walk);

/// The [`HaloWalk`] of a tile of `a`'s elements, `cols` columns of rows `pitch` apart.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
#[must_use]
pub fn halo_walk<T>(_a: &[T], cols: usize, pitch: usize) -> HaloWalk {
    let units = match word_elems::<T>(pitch) {
        Some(per) => cols.div_ceil(per),
        None => cols,
    };
    HaloWalk(Walk::new(u32::try_from(units).unwrap_or(u32::MAX).max(1)))
}

/// The block's threads in turn over a grid of `units` columns in row-major order: this
/// thread's unit `(r, c)`, then the one a block's threads later, with no division a step.
#[cfg(target_arch = "nvptx64")]
#[derive(Clone, Copy)]
struct Walk {
    r: u32,
    c: u32,
    /// The step: `threads / units` rows and `threads % units` columns.
    dq: u32,
    dm: u32,
    units: u32,
}

#[cfg(target_arch = "nvptx64")]
impl Walk {
    #[inline(always)]
    fn new(units: u32) -> Walk {
        use crate::{block_dim_x, block_dim_y, thread_idx_x, thread_idx_y};
        let (threads, t) = (block_dim_x() * block_dim_y(), thread_idx_y() * block_dim_x() + thread_idx_x());
        Walk { r: t / units, c: t % units, dq: threads / units, dm: threads % units, units }
    }

    #[inline(always)]
    fn step(&mut self) {
        (self.r, self.c) = (self.r + self.dq, self.c + self.dm);
        if self.c >= self.units {
            (self.r, self.c) = (self.r + 1, self.c - self.units);
        }
    }
}

/// The 16 bytes at `from` (global memory, read-only for the kernel), in one load
/// (`ld.global.nc.v4.b32`).
///
/// # Safety
/// `from` points to global memory nobody writes during the kernel, 16-byte aligned and valid
/// for 16 bytes.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn load_word(from: *const u8) -> [u32; 4] {
    let (w0, w1, w2, w3): (u32, u32, u32, u32);
    // SAFETY: the caller's contract.
    unsafe {
        core::arch::asm!(
            "cvta.to.global.u64 {g}, {from};",
            "ld.global.nc.v4.b32 {{{w0}, {w1}, {w2}, {w3}}}, [{g}];",
            from = in(reg64) from,
            g = out(reg64) _,
            w0 = out(reg32) w0,
            w1 = out(reg32) w1,
            w2 = out(reg32) w2,
            w3 = out(reg32) w3,
            options(nostack, preserves_flags, readonly),
        );
    }
    [w0, w1, w2, w3]
}

/// Stores 16 bytes at `to` in one store (`st.v4.b32`).
///
/// # Safety
/// `to` points to memory this thread may write, 16-byte aligned and valid for 16 bytes.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn store_word(to: *mut u8, w: [u32; 4]) {
    // SAFETY: the caller's contract.
    unsafe {
        core::arch::asm!(
            "st.v4.b32 [{to}], {{{w0}, {w1}, {w2}, {w3}}};",
            to = in(reg64) to,
            w0 = in(reg32) w[0],
            w1 = in(reg32) w[1],
            w2 = in(reg32) w[2],
            w3 = in(reg32) w[3],
            options(nostack, preserves_flags),
        );
    }
}

/// Copies the 16 bytes at `from` (global memory, read-only for the kernel) to `to` in one
/// 16-byte load and one 16-byte store ([`load_word`], [`store_word`]; as plain Rust the
/// compiler made the copy a `memcpy` of two 8-byte halves).
///
/// # Safety
/// `from` points to global memory nobody writes during the kernel, `to` to memory this thread
/// may write; both 16-byte aligned and valid for 16 bytes.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
unsafe fn copy_word(from: *const u8, to: *mut u8) {
    // SAFETY: the caller's contract.
    unsafe { store_word(to, load_word(from)) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_trip_of_staged_windows_takes_4_points_a_thread_where_32_kib_hold_them() {
        use super::{window_points, WINDOW_POINTS_BYTES};
        assert_eq!(WINDOW_POINTS_BYTES, 32 * 1024);
        // Blocks of 256: one f32 window (4 KiB for 4 points), three f64 windows (24 KiB).
        assert_eq!(window_points(256, 4), 4);
        assert_eq!(window_points(256, 24), 4);
        assert_eq!(window_points(256, 32), 4);
        assert_eq!(window_points(256, 33), 2);
        // Blocks of 1024: an f64 window takes 32 KiB for 4 points; two take it for 2; three
        // would take 48 KiB for 2.
        assert_eq!(window_points(1024, 8), 4);
        assert_eq!(window_points(1024, 16), 2);
        assert_eq!(window_points(1024, 24), 1);
        assert_eq!(window_points(1024, 1 << 40), 1);
    }

    #[test]
    fn tile_pitches_follow_how_warps_read_the_rows() {
        use super::{tile_pitch, TileReads::*};
        // 16 f32s read a row at a time: 4 words, made 5 (rows 80 bytes apart: the two rows of
        // a warp of 16-wide rows start on banks 0 and 20).
        assert_eq!(tile_pitch(16, 4, Rows), 20);
        assert_eq!(tile_pitch(32, 4, Rows), 36);
        assert_eq!(tile_pitch(3, 4, Rows), 4);
        assert_eq!(tile_pitch(16, 8, Rows), 18);
        assert_eq!(tile_pitch(7, 8, Rows), 10);
        // Read by adjacent lanes: whole words, no padding.
        assert_eq!(tile_pitch(16, 4, Lanes), 16);
        assert_eq!(tile_pitch(17, 4, Lanes), 20);
        assert_eq!(tile_pitch(16, 8, Lanes), 16);
        assert_eq!(tile_pitch(3, 8, Lanes), 4);
        // Other element sizes and column reads: one element of padding.
        assert_eq!(tile_pitch(16, 2, Rows), 17);
        assert_eq!(tile_pitch(16, 2, Lanes), 17);
        assert_eq!(tile_pitch(16, 4, Other), 17);
        for cols in 1..100 {
            for eb in [4, 8] {
                let p = tile_pitch(cols, eb, Rows);
                assert!(p >= cols && (p * eb).is_multiple_of(16) && (p * eb / 16) % 2 == 1, "{cols} x {eb}: {p}");
                let p = tile_pitch(cols, eb, Lanes);
                assert!(p >= cols && (p * eb).is_multiple_of(16) && p * eb < cols * eb + 16, "{cols} x {eb}: {p}");
            }
        }
    }

    #[test]
    fn bytes_are_rounded_to_16() {
        assert_eq!(super::shared_bytes::<f64>(32), 256);
        assert_eq!(super::shared_bytes::<u8>(3), 16);
        assert_eq!(super::shared_bytes::<u8>(0), 0);
    }
}
