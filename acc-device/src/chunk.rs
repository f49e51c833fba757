//! Chunks of consecutive elements moved by one wide access: a `vector` loop whose body reaches
//! an array only at `a[e + i]` (the same `e` throughout, `i` the loop variable) runs 4
//! consecutive trips a thread (2 where an array has 8-byte elements), each array's elements
//! loaded before the trips and stored after them in one 16-byte access each:
//! `ld.global.nc.v4.f32` / `st.global.v4.f32` for `f32`, `.v2.f64` for `f64`, as nvcc's
//! `float4` / `double2` copies (acc-codegen's `lower/chunk.rs` decides where).
//!
//! A chunk is taken only where its elements lie in the array ([`Chunks::chunk_fits`]; a
//! chunked loop counts such chunks once, before its rounds, with [`Chunks::chunk_count`]) and
//! its first element is aligned for the wide access ([`Chunks::chunk_peel`] finds the first
//! such trip); other trips use the element accesses with their bounds checks. Element types of 1,
//! 2, 4 or 8 bytes take chunks (others never: `chunk_peel` says `usize::MAX`).

use core::mem::size_of;

#[repr(C, align(16))]
struct Align16<T, const N: usize>([T; N]);
#[repr(C, align(8))]
struct Align8<T, const N: usize>([T; N]);
#[repr(C, align(4))]
struct Align4<T, const N: usize>([T; N]);
#[repr(C, align(2))]
struct Align2<T, const N: usize>([T; N]);

/// The alignment a chunk of `N` elements of `T` is accessed at (its size, up to 16 bytes), 0
/// where it takes no chunks (elements of other sizes than 1, 2, 4, 8 bytes).
#[inline(always)]
const fn chunk_align<T, const N: usize>() -> usize {
    match size_of::<T>() {
        1 | 2 | 4 | 8 => {
            let bytes = size_of::<T>() * N;
            if bytes >= 16 {
                16
            } else {
                bytes
            }
        }
        _ => 0,
    }
}

/// Arrays whose elements a chunked loop reads and writes `N` at a time (`N` = 4 or 2: 16 bytes
/// of 4- or 8-byte elements). Implemented for acc's device views and plain slices (what a
/// region's array parameters are in device code).
pub trait Chunks<T> {
    /// The data pointer and the length.
    fn chunk_raw(&self) -> (*const T, usize);

    /// The size of an element (what a chunked loop's chunk and rounds are chosen by).
    #[inline(always)]
    fn chunk_elem_size(&self) -> usize {
        size_of::<T>()
    }

    /// Trips from element `start` to the first element whose address is aligned for a chunk
    /// of `N` (0 to `N - 1`); `usize::MAX` where `T` takes no chunks.
    #[inline(always)]
    fn chunk_peel<const N: usize>(&self, start: usize) -> usize {
        let align = chunk_align::<T, N>();
        if align == 0 || align < size_of::<T>() {
            return usize::MAX;
        }
        let (ptr, _) = self.chunk_raw();
        let at = (ptr as usize).wrapping_add(start.wrapping_mul(size_of::<T>()));
        ((align - at % align) % align) / size_of::<T>()
    }

    /// Whether element `i` lies in the array (the check of a round of worker trips whose
    /// loads come first: acc-codegen's `Scheduler::worker_rounds`). `chunk_fits::<1>` says the
    /// same, but its two tests stayed two in the rounds' checks: the papers' worker kernel took
    /// 73 more lines of PTX with it.
    #[inline(always)]
    fn elem_fits(&self, i: usize) -> bool {
        i < self.chunk_raw().1
    }

    /// Whether elements `first`, `first + step`, .., `first + steps * step` all lie in the
    /// array, `step` read as signed (two's complement: a falling run has a wrapped step), with
    /// no sum past `usize`'s range: the ends lie in it and nothing wraps between them. A worker
    /// loop's counted rounds (acc-codegen's `Scheduler::worker_rounds`) check each index once
    /// for all of a thread's trips with it, where the index is affine in the loop's variable
    /// (no division: a check per array each time the loop was entered cost the gang position
    /// one 64-bit division every 64 elements).
    #[inline(always)]
    fn elem_run_fits(&self, first: usize, step: usize, steps: usize) -> bool {
        let len = self.chunk_raw().1;
        if first >= len {
            return false;
        }
        if (step as isize) >= 0 {
            match step.checked_mul(steps).and_then(|d| first.checked_add(d)) {
                Some(last) => last < len,
                None => false,
            }
        } else {
            match step.wrapping_neg().checked_mul(steps) {
                Some(d) => d <= first,
                None => false,
            }
        }
    }

    /// Element `i`, without a bounds check.
    ///
    /// # Safety
    /// `i` is in bounds ([`Chunks::elem_fits`]).
    #[inline(always)]
    unsafe fn elem_load(&self, i: usize) -> T
    where
        T: Copy,
    {
        // SAFETY: in bounds (the caller's contract).
        unsafe { self.chunk_raw().0.add(i).read() }
    }

    /// Whether elements `start..start + N` lie in the array.
    #[inline(always)]
    fn chunk_fits<const N: usize>(&self, start: usize) -> bool {
        let (_, len) = self.chunk_raw();
        start <= len && len - start >= N
    }

    /// How many whole chunks of `N` elements lie in the array from element `start` on (0 where
    /// `start` is past its end): chunk `c` (elements `start + c * N..start + (c + 1) * N`) lies in
    /// it exactly when `c` is less. A chunked loop asks once for all its rounds.
    #[inline(always)]
    fn chunk_count<const N: usize>(&self, start: usize) -> usize {
        let (_, len) = self.chunk_raw();
        if start <= len {
            (len - start) / N
        } else {
            0
        }
    }

    /// Elements `start..start + N`, in one access (two of 16 bytes for 32).
    ///
    /// # Safety
    /// `chunk_fits::<N>(start)` and `chunk_peel::<N>(start) == 0`; nobody writes the elements
    /// meanwhile.
    #[inline(always)]
    unsafe fn chunk_load<const N: usize>(&self, start: usize) -> [T; N] {
        let (ptr, _) = self.chunk_raw();
        // SAFETY: in bounds and aligned for the wrapper of the chunk's size (the caller's
        // contract).
        unsafe {
            let p = ptr.add(start);
            match const { chunk_align::<T, N>() } {
                16 => core::ptr::read(p.cast::<Align16<T, N>>()).0,
                8 => core::ptr::read(p.cast::<Align8<T, N>>()).0,
                4 => core::ptr::read(p.cast::<Align4<T, N>>()).0,
                _ => core::ptr::read(p.cast::<Align2<T, N>>()).0,
            }
        }
    }
}

/// Arrays a chunked loop writes.
pub trait ChunksMut<T>: Chunks<T> {
    /// Writes `v` to element `i`, without a bounds check.
    ///
    /// # Safety
    /// As [`Chunks::elem_load`]; this thread owns the element (the loop's trips are
    /// independent).
    #[inline(always)]
    unsafe fn elem_store(&mut self, i: usize, v: T) {
        let (ptr, _) = self.chunk_raw();
        // SAFETY: in bounds (the caller's contract), and the view is writable.
        unsafe { ptr.cast_mut().add(i).write(v) }
    }

    /// Writes `v` to elements `start..start + N`, in one access.
    ///
    /// # Safety
    /// As [`Chunks::chunk_load`]; this thread owns the elements (the loop's trips are
    /// independent).
    #[inline(always)]
    unsafe fn chunk_store<const N: usize>(&mut self, start: usize, v: [T; N]) {
        let (ptr, _) = self.chunk_raw();
        // SAFETY: as `chunk_load`, and the view is writable.
        unsafe {
            let p = ptr.cast_mut().add(start);
            match const { chunk_align::<T, N>() } {
                16 => core::ptr::write(p.cast::<Align16<T, N>>(), Align16(v)),
                8 => core::ptr::write(p.cast::<Align8<T, N>>(), Align8(v)),
                4 => core::ptr::write(p.cast::<Align4<T, N>>(), Align4(v)),
                _ => core::ptr::write(p.cast::<Align2<T, N>>(), Align2(v)),
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
        assert_eq!(s.chunk_peel::<4>(0), 0);
        assert_eq!(s.chunk_peel::<4>(1), 3);
        assert_eq!(s.chunk_peel::<4>(6), 2);
        assert_eq!(s.chunk_peel::<2>(1), 1);
        assert!(s.chunk_fits::<4>(8) && !s.chunk_fits::<4>(9) && !s.chunk_fits::<4>(13) && s.chunk_fits::<2>(10));
        // Whole chunks from a start: each counted one fits, the next does not.
        for start in 0..14 {
            let n = s.chunk_count::<4>(start);
            assert!((0..n).all(|c| s.chunk_fits::<4>(start + 4 * c)) && !s.chunk_fits::<4>(start + 4 * n), "from {start}: {n}");
        }
        assert_eq!((s.chunk_count::<4>(0), s.chunk_count::<4>(9), s.chunk_count::<4>(12), s.chunk_count::<2>(11)), (3, 0, 0, 0));
        // SAFETY: fits and aligned.
        unsafe {
            assert_eq!(s.chunk_load::<4>(4), [4.0, 5.0, 6.0, 7.0]);
            assert_eq!(s.chunk_load::<2>(6), [6.0, 7.0]);
            s.chunk_store::<4>(8, [1.0, 2.0, 3.0, 4.0]);
        }
        assert_eq!(&s[7..], &[7.0, 1.0, 2.0, 3.0, 4.0]);
        let odd: &[[u8; 3]] = &[[0; 3]; 8];
        assert_eq!(odd.chunk_peel::<4>(0), usize::MAX);
        let d: &[f64] = &[0.0; 8];
        assert!(d.chunk_peel::<2>(0) <= 1);
    }

    #[test]
    fn a_run_fits_exactly_when_each_of_its_elements_does() {
        let s: &[u8] = &[0; 10];
        // Steps up, none, down (wrapped), and ones that wrap past usize's range.
        let steps = [0usize, 1, 2, 3, 9, 10, usize::MAX, usize::MAX - 1, usize::MAX / 2 + 1, usize::MAX / 2];
        for first in [0usize, 1, 5, 9, 10, 11, usize::MAX] {
            for &step in &steps {
                for n in [0usize, 1, 2, 3, 4, 9, 10, 1 << 40] {
                    // The run's elements as integers, stopping at the first one outside.
                    let each = (0..=n.min(12)).all(|j| {
                        let at = first as i128 + (step as isize as i128) * j as i128;
                        (0..10).contains(&at)
                    }) && (n <= 12 || {
                        let last = first as i128 + (step as isize as i128) * n as i128;
                        (0..10).contains(&last)
                    });
                    assert_eq!(s.elem_run_fits(first, step, n), each, "first {first} step {step} steps {n}");
                }
            }
        }
        assert!(s.elem_run_fits(9, usize::MAX, 9) && !s.elem_run_fits(9, usize::MAX, 10));
        assert!(s.elem_run_fits(0, 3, 3) && !s.elem_run_fits(0, 3, 4));
    }
}
