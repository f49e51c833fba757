//! Chunks of [`W`] consecutive elements moved by one wide access: a `vector` loop whose body
//! reaches an array only at `a[e + i]` (the same `e` throughout, `i` the loop variable) runs
//! [`W`] consecutive trips a thread, each array's [`W`] elements loaded before the trips and
//! stored after them in one access each: `ld.global.nc.v4.f32` / `st.global.v4.f32` for
//! `f32`, two 16-byte accesses for `f64` (acc-codegen's `schedule.rs` decides where).
//!
//! A chunk is taken only where its elements lie in the array ([`Chunks::chunk_fits`]) and its
//! first element is aligned for the wide access ([`Chunks::chunk_peel`] finds the first such
//! trip); other trips use the element accesses with their bounds checks. Element types of 1,
//! 2, 4 or 8 bytes take chunks (others never: `chunk_peel` says `usize::MAX`).

use core::mem::size_of;

/// Trips (and elements of each array) per chunk.
pub const W: usize = 4;

#[repr(C, align(16))]
struct Align16<T>([T; W]);
#[repr(C, align(8))]
struct Align8<T>([T; W]);
#[repr(C, align(4))]
struct Align4<T>([T; W]);

/// The alignment a chunk of `T` is accessed at (its size up to 16 bytes), 0 where `T` takes
/// no chunks.
#[inline(always)]
const fn chunk_align<T>() -> usize {
    match size_of::<T>() {
        1 => 4,
        2 => 8,
        4 | 8 => 16,
        _ => 0,
    }
}

/// Arrays whose elements a chunked loop reads and writes [`W`] at a time. Implemented for
/// acc's device views and plain slices (what a region's array parameters are in device code).
pub trait Chunks<T> {
    /// The data pointer and the length.
    fn chunk_raw(&self) -> (*const T, usize);

    /// The size of an element (what a chunked loop's rounds are chosen by).
    #[inline(always)]
    fn chunk_elem_size(&self) -> usize {
        size_of::<T>()
    }

    /// Trips from element `start` to the first element whose address is aligned for a chunk
    /// (0 to `W - 1`); `usize::MAX` where `T` takes no chunks.
    #[inline(always)]
    fn chunk_peel(&self, start: usize) -> usize {
        let align = chunk_align::<T>();
        if align == 0 {
            return usize::MAX;
        }
        let (ptr, _) = self.chunk_raw();
        let at = (ptr as usize).wrapping_add(start.wrapping_mul(size_of::<T>()));
        ((align - at % align) % align) / size_of::<T>()
    }

    /// Whether elements `start..start + W` lie in the array.
    #[inline(always)]
    fn chunk_fits(&self, start: usize) -> bool {
        let (_, len) = self.chunk_raw();
        start <= len && len - start >= W
    }

    /// Elements `start..start + W`, in one access.
    ///
    /// # Safety
    /// `chunk_fits(start)` and `chunk_peel(start) == 0`; nobody writes the elements meanwhile.
    #[inline(always)]
    unsafe fn chunk_load(&self, start: usize) -> [T; W] {
        let (ptr, _) = self.chunk_raw();
        // SAFETY: in bounds and aligned for the wrapper of `T`'s size (the caller's contract).
        unsafe {
            let p = ptr.add(start);
            match size_of::<T>() {
                4 | 8 => core::ptr::read(p.cast::<Align16<T>>()).0,
                2 => core::ptr::read(p.cast::<Align8<T>>()).0,
                _ => core::ptr::read(p.cast::<Align4<T>>()).0,
            }
        }
    }
}

/// Arrays a chunked loop writes.
pub trait ChunksMut<T>: Chunks<T> {
    /// Writes `v` to elements `start..start + W`, in one access.
    ///
    /// # Safety
    /// As [`Chunks::chunk_load`]; this thread owns the elements (the loop's trips are
    /// independent).
    #[inline(always)]
    unsafe fn chunk_store(&mut self, start: usize, v: [T; W]) {
        let (ptr, _) = self.chunk_raw();
        // SAFETY: as `chunk_load`, and the view is writable.
        unsafe {
            let p = ptr.cast_mut().add(start);
            match size_of::<T>() {
                4 | 8 => core::ptr::write(p.cast::<Align16<T>>(), Align16(v)),
                2 => core::ptr::write(p.cast::<Align8<T>>(), Align8(v)),
                _ => core::ptr::write(p.cast::<Align4<T>>(), Align4(v)),
            }
        }
    }
}

impl<T> Chunks<T> for crate::Slice<T> {
    #[inline(always)]
    fn chunk_raw(&self) -> (*const T, usize) {
        (self.as_ptr(), self.len())
    }
}

impl<T> Chunks<T> for crate::SliceMut<T> {
    #[inline(always)]
    fn chunk_raw(&self) -> (*const T, usize) {
        (self.as_mut_ptr().cast_const(), self.len())
    }
}

impl<T> ChunksMut<T> for crate::SliceMut<T> {}

impl<T> Chunks<T> for [T] {
    #[inline(always)]
    fn chunk_raw(&self) -> (*const T, usize) {
        (self.as_ptr(), self.len())
    }
}

impl<T> ChunksMut<T> for [T] {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_start_at_aligned_elements_inside_the_array() {
        #[repr(align(16))]
        struct A([f32; 12]);
        let mut a = A([0.0; 12]);
        for (i, x) in a.0.iter_mut().enumerate() {
            *x = i as f32;
        }
        let s: &mut [f32] = &mut a.0;
        assert_eq!(s.chunk_peel(0), 0);
        assert_eq!(s.chunk_peel(1), 3);
        assert_eq!(s.chunk_peel(6), 2);
        assert!(s.chunk_fits(8) && !s.chunk_fits(9) && !s.chunk_fits(13));
        // SAFETY: fits and aligned.
        unsafe {
            assert_eq!(s.chunk_load(4), [4.0, 5.0, 6.0, 7.0]);
            s.chunk_store(8, [1.0, 2.0, 3.0, 4.0]);
        }
        assert_eq!(&s[7..], &[7.0, 1.0, 2.0, 3.0, 4.0]);
        let odd: &[[u8; 3]] = &[[0; 3]; 8];
        assert_eq!(odd.chunk_peel(0), usize::MAX);
        let d: &[f64] = &[0.0; 8];
        assert!(d.chunk_peel(0) <= 1);
    }
}
