//! The values a kernel takes from the host code around its loop nest (locals declared before
//! the loop: sizes, scalars, reduction variables), packed into one by-value kernel parameter.
//!
//! The host packs each value with [`Captures::put`] and the kernel unpacks it in the same order
//! with [`Captures::take`]; both align each value to its own alignment, so the two sides agree
//! for any `Copy` type of the same layout. The kernel learns each value's type from a closure
//! that is never called (the local's own initialiser), so no type has to be written out.

/// The captured values, passed by value as one kernel parameter: up to 256 bytes of them in
/// the parameter itself, more in device memory that the host filled before the launch
/// (`spilled`, its address; 0 when the values are inline), laid out alike.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct Captures {
    bytes: [u8; Captures::CAPACITY],
    len: usize,
    spilled: u64,
}

impl Default for Captures {
    fn default() -> Self {
        Self::new()
    }
}

impl Captures {
    /// How many bytes of values the parameter holds itself.
    pub const CAPACITY: usize = 256;

    /// No values.
    pub const fn new() -> Self {
        Captures { bytes: [0; Self::CAPACITY], len: 0, spilled: 0 }
    }

    /// The values laid out in `bytes` by [`Captures::slot`] (host side): inline when they fit
    /// [`Captures::CAPACITY`], else `None` (the host puts them in device memory, [`spilled`](Self::spilled)).
    pub fn inline(bytes: &[u8]) -> Option<Self> {
        let mut c = Self::new();
        c.bytes.get_mut(..bytes.len())?.copy_from_slice(bytes);
        c.len = bytes.len();
        Some(c)
    }

    /// Values laid out by [`Captures::slot`], `len` bytes at device address `addr` (host side).
    pub const fn spilled(addr: u64, len: usize) -> Self {
        Captures { bytes: [0; Self::CAPACITY], len, spilled: addr }
    }

    /// The bytes `start..end` of the next value of type `T` after `off` bytes of values: each
    /// value at its own alignment (the host and the kernel lay them out alike).
    pub fn slot<T>(off: usize) -> (usize, usize) {
        let start = off.next_multiple_of(core::mem::align_of::<T>());
        (start, start + core::mem::size_of::<T>())
    }

    /// Appends `v` (host side). Panics when the values exceed [`Captures::CAPACITY`] bytes.
    pub fn put<T: Copy>(&mut self, v: &T) {
        let (start, end) = Self::slot::<T>(self.len);
        assert!(
            end <= Self::CAPACITY,
            "acc: the locals a loop nest uses take more than {} bytes; pass large values as slices",
            Self::CAPACITY
        );
        // SAFETY: `start..end` is within `bytes` (checked above); the write is unaligned-safe
        // and `T: Copy` has no drop glue.
        unsafe { (self.bytes.as_mut_ptr().add(start) as *mut T).write_unaligned(*v) };
        self.len = end;
    }

    /// Reads the next value (kernel side), advancing `off`. `_witness` gives the type and is
    /// never called.
    #[inline(always)]
    pub fn take<T: Copy>(&self, off: &mut usize, _witness: impl FnOnce() -> T) -> T {
        let (start, end) = Self::slot::<T>(*off);
        *off = end;
        if self.spilled != 0 {
            // SAFETY: the host wrote `len` bytes of values at `spilled`, this one at `start`
            // with the same type (the same layout as inline).
            return unsafe { ((self.spilled as usize as *const u8).add(start) as *const T).read_unaligned() };
        }
        if end > Self::CAPACITY {
            panic!("acc: captured values out of range");
        }
        // SAFETY: `start..end` is within `bytes` (checked above), written by `put` with a value
        // of the same type at the same offset.
        unsafe { (self.bytes.as_ptr().add(start) as *const T).read_unaligned() }
    }
}

/// Stores a block's partial reduction result `v` for reduction variable `slot` into the
/// partials buffer: `slot` selects a region of `grid * 16` bytes, the block index the entry.
///
/// # Safety
/// `partials` points to a device buffer of at least `(slot + 1) * gridDim.x * 16` bytes.
#[inline(always)]
pub unsafe fn store_partial<T: Copy>(partials: *mut u8, slot: usize, v: T) {
    let grid = crate::grid_dim_x() as usize;
    let block = crate::block_idx_x() as usize;
    // SAFETY: in bounds by the caller's contract; entries are 16 bytes, enough for any scalar.
    unsafe { (partials.add((slot * grid + block) * 16) as *mut T).write_unaligned(v) };
}

/// [`store_partial`] for a grid of up to three dimensions (the multi-dimensional schedules'):
/// the entry is the block's linear index, `blockIdx.x` fastest, among the `gridDim.x *
/// gridDim.y * gridDim.z` blocks (the host folds that many: the launch returns their number).
///
/// # Safety
/// `partials` points to a device buffer of at least `(slot + 1) * blocks * 16` bytes, where
/// `blocks` is the number of blocks of the grid.
#[inline(always)]
pub unsafe fn store_grid_partial<T: Copy>(partials: *mut u8, slot: usize, v: T) {
    let (gx, gy, gz) = (crate::grid_dim_x() as usize, crate::grid_dim_y() as usize, crate::grid_dim_z() as usize);
    let block = (crate::block_idx_z() as usize * gy + crate::block_idx_y() as usize) * gx + crate::block_idx_x() as usize;
    // SAFETY: in bounds by the caller's contract; entries are 16 bytes, enough for any scalar.
    unsafe { (partials.add((slot * gx * gy * gz + block) * 16) as *mut T).write_unaligned(v) };
}

/// [`store_partial`] of each element of a reduction variable's value: element `i` at slot
/// `slot + i` (a scalar at `slot`), as the host's `Partials::fold` reads them.
///
/// # Safety
/// `partials` points to a device buffer of at least `(slot + V::ELEMS) * gridDim.x * 16` bytes.
#[inline(always)]
pub unsafe fn store_partial_var<V: crate::reduce::RedVar>(partials: *mut u8, slot: usize, v: V) {
    let mut i = 0;
    while i < V::ELEMS {
        // SAFETY: the caller's contract covers slots `slot..slot + V::ELEMS`.
        unsafe { store_partial(partials, slot + i, v.elem(i)) };
        i += 1;
    }
}

/// [`store_grid_partial`] of each element of a reduction variable's value (see
/// [`store_partial_var`]).
///
/// # Safety
/// `partials` points to a device buffer of at least `(slot + V::ELEMS) * blocks * 16` bytes.
#[inline(always)]
pub unsafe fn store_grid_partial_var<V: crate::reduce::RedVar>(partials: *mut u8, slot: usize, v: V) {
    let mut i = 0;
    while i < V::ELEMS {
        // SAFETY: the caller's contract covers slots `slot..slot + V::ELEMS`.
        unsafe { store_grid_partial(partials, slot + i, v.elem(i)) };
        i += 1;
    }
}

/// Stores a value that a one-thread kernel computed for the host (a `let` of the region body
/// that reads an array): at 16-byte slot `*at` of the partials buffer, taking as many slots as
/// it needs, and advances `*at` past them. The host reads it back with `Partials::value`.
///
/// # Safety
/// The kernel runs as one block; `partials` points to a 16-byte aligned device buffer of at
/// least `(*at + slots) * 16` bytes, where `slots` is `size_of::<T>()` in 16-byte slots.
#[inline(always)]
pub unsafe fn store_value<T: Copy>(partials: *mut u8, at: &mut usize, v: T) {
    let size = core::mem::size_of::<T>();
    let dst = partials.wrapping_add(*at * 16) as *mut T;
    if size > 0 && core::mem::align_of::<T>() <= 16 {
        // SAFETY: in bounds by the caller's contract; slots are 16-byte aligned (the buffer
        // is), so `dst` is aligned for `T`: whole-word stores, not byte by byte.
        unsafe { dst.write(v) };
    } else if size > 0 {
        // SAFETY: in bounds by the caller's contract.
        unsafe { dst.write_unaligned(v) };
    }
    *at += size.div_ceil(16);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_with_their_alignment() {
        let mut c = Captures::new();
        c.put(&3u8);
        c.put(&2.5f64);
        c.put(&(-7i32));
        c.put(&[1u16, 2, 3]);
        let mut off = 0;
        assert_eq!(c.take(&mut off, || 0u8), 3);
        assert_eq!(c.take(&mut off, || 0.0f64), 2.5);
        assert_eq!(c.take(&mut off, || 0i32), -7);
        assert_eq!(c.take(&mut off, || [0u16; 3]), [1, 2, 3]);
        assert_eq!(off, c.len);
        assert_eq!(off, 8 + 8 + 4 + 6);
    }

    #[test]
    fn values_take_whole_slots() {
        #[repr(align(16))]
        struct Buf([u8; 64]);
        let mut buf = Buf([0u8; 64]);
        let buf = &mut buf.0;
        let mut at = 1;
        // SAFETY: 64 bytes hold slots 1..4.
        unsafe {
            store_value(buf.as_mut_ptr(), &mut at, [7u64, 8, 9]);
            store_value(buf.as_mut_ptr(), &mut at, ());
        }
        assert_eq!(at, 3);
        assert_eq!(u64::from_ne_bytes(buf[16..24].try_into().unwrap()), 7);
        assert_eq!(u64::from_ne_bytes(buf[32..40].try_into().unwrap()), 9);
    }

    #[test]
    #[should_panic(expected = "more than 256 bytes")]
    fn too_many_values_panic() {
        let mut c = Captures::new();
        for _ in 0..33 {
            c.put(&1u64);
        }
    }
}
