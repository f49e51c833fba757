//! The device views of a region's slices: [`Slice`] (a `&[T]` of the region, read-only) and
//! [`SliceMut`] (a `&mut [T]`), and the kernel parameter type [`ReadOnlyPtr`].
//!
//! # Parameter conventions
//! A region's `&[T]` becomes two kernel parameters, `(ReadOnlyPtr<T>, usize)`; a `&mut [T]`
//! becomes `(*mut T, usize)`. Both pointers are device addresses (`u64` on the launch side).
//!
//! # The read-only data path
//! Loads through a [`Slice`] made by [`Slice::from_param`] compile to `ld.global.nc` (the
//! read-only data cache, `__ldg`): [`ReadOnlyPtr`] is a `#[repr(transparent)]` wrapper of a
//! `&[T; 0]`, so rustc marks the kernel parameter `noalias readonly` (and, being zero-sized,
//! not `dereferenceable`, so nothing is loaded speculatively from it), and LLVM's NVPTX
//! backend emits the non-coherent load for every load based on such a parameter. The
//! contract is the one OpenACC's read-only data has: nothing writes the data while the kernel
//! runs, and the address is non-null and aligned for `T` (for an empty slice too: pass
//! `align_of::<T>()`, never 0).

use core::marker::PhantomData;
use core::ops::{Deref, Index, IndexMut};

use crate::atomic::{AtomicRef, AtomicValue};

/// The kernel parameter type of a read-only slice's data pointer (a device address).
///
/// Declared as a kernel parameter, it tells LLVM that the kernel only reads the memory
/// behind it and that nothing else writes it during the kernel (see the [module
/// docs](self)). On the launch side it is one 64-bit pointer, which must be non-null and
/// aligned for `T`.
#[repr(transparent)]
pub struct ReadOnlyPtr<T: 'static>(&'static [T; 0]);

impl<T> Clone for ReadOnlyPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ReadOnlyPtr<T> {}

impl<T> ReadOnlyPtr<T> {
    /// The address, as a raw pointer (its provenance stays the parameter's, so loads through
    /// it keep using the read-only path).
    #[inline(always)]
    #[must_use]
    pub fn as_ptr(self) -> *const T {
        self.0.as_ptr()
    }

    /// Wraps a raw pointer (tests and host-side callers; kernels receive it as a parameter).
    ///
    /// # Safety
    /// `p` is non-null and aligned for `T`, and the memory it points to is not written while
    /// the result (or anything derived from it) is in use.
    #[inline(always)]
    pub unsafe fn from_ptr(p: *const T) -> Self {
        // SAFETY: a `&[T; 0]` covers no bytes: it needs only a non-null, aligned address,
        // which the caller guarantees.
        ReadOnlyPtr(unsafe { &*p.cast::<[T; 0]>() })
    }

    /// The data pointer of a host slice (tests).
    #[inline(always)]
    #[must_use]
    pub fn from_slice(s: &'static [T]) -> Self
    where
        T: Sync,
    {
        // SAFETY: a slice's pointer is non-null and aligned even when it is empty, and a
        // shared borrow for `'static` is never written.
        unsafe { Self::from_ptr(s.as_ptr()) }
    }
}

/// The kernel parameter type of a `&mut [T]`'s data pointer in a kernel whose arrays nothing
/// else reaches (acc-codegen's experiment switch `ACC_EXP_NOALIAS`): a `#[repr(transparent)]`
/// `&mut [T; 0]`, which rustc marks `noalias` (and, being zero-sized, not `dereferenceable`),
/// so that LLVM may keep a value of one array in a register across stores to another. On the
/// launch side it is one 64-bit pointer, non-null and aligned for `T`.
#[repr(transparent)]
pub struct MutPtr<T: 'static>(&'static mut [T; 0]);

impl<T> MutPtr<T> {
    /// The address, as a raw pointer (its provenance stays the parameter's).
    #[inline(always)]
    #[must_use]
    pub fn as_ptr(self) -> *mut T {
        self.0.as_mut_ptr()
    }
}

/// A read-only view of a region's `&[T]` on the device: `len`, bounds-checked indexing
/// (`a[i]` panics with the caller's location when `i >= len`), and, through `Deref`, every
/// method of `[T]` (`iter`, `get`, sub-slices...).
pub struct Slice<T> {
    ptr: *const T,
    len: usize,
}

impl<T> Clone for Slice<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Slice<T> {}

impl<T> Slice<T> {
    /// The view of the `len` elements at `ptr`. Loads go through the read-only path only
    /// when `ptr` derives from a [`ReadOnlyPtr`] parameter; prefer [`Slice::from_param`].
    ///
    /// # Safety
    /// `ptr` is non-null, aligned, and valid for reads of `len` elements of `T`, which nobody
    /// writes while the view is in use.
    #[inline(always)]
    pub unsafe fn from_raw(ptr: *const T, len: usize) -> Self {
        Slice { ptr, len }
    }

    /// The view of a kernel's read-only slice parameter pair `(ptr, len)`; its loads compile
    /// to `ld.global.nc`.
    ///
    /// # Safety
    /// `ptr` points to `len` elements of `T` that nobody writes while the kernel runs.
    #[inline(always)]
    pub unsafe fn from_param(ptr: ReadOnlyPtr<T>, len: usize) -> Self {
        // SAFETY: the caller's contract is `from_raw`'s; `ReadOnlyPtr` is non-null and
        // aligned by its own contract.
        unsafe { Self::from_raw(ptr.as_ptr(), len) }
    }

    /// The number of elements.
    #[inline(always)]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the slice has no elements.
    #[inline(always)]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The data pointer.
    #[inline(always)]
    #[must_use]
    pub fn as_ptr(&self) -> *const T {
        self.ptr
    }
}

impl<T> Deref for Slice<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `from_raw`'s contract: `len` readable, unwritten elements at a non-null,
        // aligned `ptr`.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> Index<usize> for Slice<T> {
    type Output = T;
    #[inline(always)]
    #[track_caller]
    fn index(&self, i: usize) -> &T {
        if i >= self.len {
            out_of_bounds(i, self.len);
        }
        // SAFETY: `i < len`, and `from_raw`'s contract makes the first `len` elements valid
        // for reads for as long as the view is used.
        unsafe { &*self.ptr.add(i) }
    }
}

/// A view of a region's `&mut [T]` on the device. It is `Copy`: every thread holds one, and
/// the schedule (not the type system) keeps threads on distinct elements; elements that
/// several threads update go through [`atomic`](SliceMut::atomic).
pub struct SliceMut<T> {
    ptr: *mut T,
    len: usize,
    _m: PhantomData<*mut T>,
}

impl<T> Clone for SliceMut<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SliceMut<T> {}

/// A `&mut [T]` region parameter handed to a routine (`f(a)` in a loop body, lowered to
/// `f(a.into())`): the routine's parameter type picks `&[T]` or `&mut [T]`. As with the view
/// itself, the schedule keeps threads on distinct elements.
impl<T> From<SliceMut<T>> for &[T] {
    #[inline(always)]
    fn from(s: SliceMut<T>) -> Self {
        // SAFETY: `from_raw`'s contract: `len` valid elements at `ptr` while the view is used.
        unsafe { core::slice::from_raw_parts(s.ptr, s.len) }
    }
}

impl<T> From<SliceMut<T>> for &mut [T] {
    #[inline(always)]
    fn from(s: SliceMut<T>) -> Self {
        // SAFETY: as above, for writes too.
        unsafe { core::slice::from_raw_parts_mut(s.ptr, s.len) }
    }
}

impl<T> SliceMut<T> {
    /// The view of the `len` elements at `ptr`.
    ///
    /// # Safety
    /// `ptr` is non-null, aligned, and valid for reads and writes of `len` elements of `T`
    /// while the view is used; accesses to one element from several threads are either all
    /// reads or synchronised (a barrier, or atomics through [`atomic`](SliceMut::atomic)).
    #[inline(always)]
    pub unsafe fn from_raw(ptr: *mut T, len: usize) -> Self {
        SliceMut { ptr, len, _m: PhantomData }
    }

    /// The number of elements.
    #[inline(always)]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the slice has no elements.
    #[inline(always)]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The data pointer.
    #[inline(always)]
    #[must_use]
    pub fn as_mut_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Element `i`, if `i < len`.
    #[inline(always)]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&T> {
        // SAFETY: in bounds, and `from_raw`'s contract makes it valid for reads.
        (i < self.len).then(|| unsafe { &*self.ptr.add(i) })
    }

    /// Atomic access to element `i` (`acc::atomic!(a[i] += v)`); panics with the caller's
    /// location when `i >= len`.
    #[inline(always)]
    #[track_caller]
    pub fn atomic(&self, i: usize) -> AtomicRef<'_, T>
    where
        T: AtomicValue,
    {
        if i >= self.len {
            out_of_bounds(i, self.len);
        }
        // SAFETY: in bounds; `from_raw`'s contract makes the element valid for reads and
        // writes, `T`'s natural alignment is its atomic alignment on 64-bit targets, and the
        // caller's contract makes concurrent accesses to it atomic.
        unsafe { AtomicRef::from_ptr(self.ptr.add(i)) }
    }
}

impl<T> Index<usize> for SliceMut<T> {
    type Output = T;
    #[inline(always)]
    #[track_caller]
    fn index(&self, i: usize) -> &T {
        if i >= self.len {
            out_of_bounds(i, self.len);
        }
        // SAFETY: in bounds; `from_raw`'s contract makes it valid for reads.
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T> IndexMut<usize> for SliceMut<T> {
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, i: usize) -> &mut T {
        if i >= self.len {
            out_of_bounds(i, self.len);
        }
        // SAFETY: in bounds; `from_raw`'s contract makes it valid for writes, and the
        // schedule gives this thread the element (or the accesses are synchronised).
        unsafe { &mut *self.ptr.add(i) }
    }
}

use crate::panic::panic_bounds as out_of_bounds;
use crate::panic::panic_bounds_at;

/// An element index whose bounds check is acc's own: `x[ix(i, line, col)]` is `x[i]`, with the
/// check inlined ([`panic_bounds_at`]: the index, the length and the location go into the
/// panic record, the thread ends) instead of a call of `core::panicking::panic_bounds_check`.
///
/// acc-build writes every `x[i]` of device code (routines, kernel bodies, the methods of
/// carried types) as `x[::acc_device::ix(i, LINE, COL)]`, leaving ranges (`x[a..b]`) as they
/// are. `LINE` and `COL` are the user's line and column of the indexing expression (of `x`,
/// where rustc's own check on the host puts it; 0 when unknown: the caller's): the inserted
/// text moves the device crate's columns, and a body the lowering repeats (a nest's lean
/// kernel, the unrolled copies of a reduction round, the coarsened rows of a `tile`) stands on
/// later lines of the device crate than the user's. A call of core's check is a PTX `.func` call: ptxas then gives the kernel
/// the registers and stack of the whole panic path (a routine with twelve slice reads took a
/// 3-D stencil to 164 registers and an 88-byte stack). `Ix` indexes `[T]` (and so `[T; N]`,
/// through core's impl for arrays), [`Slice`] and [`SliceMut`]; acc-build gives a carried
/// type that implements `Index<usize>` the same impl for `Ix`. On the host the panic is
/// core's (same message, the caller's location).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ix {
    /// The element's index.
    pub index: usize,
    /// The line a bounds panic reports (1-based), 0 for the caller's.
    pub line: u32,
    /// The column a bounds panic reports (1-based), 0 for the caller's.
    pub column: u32,
}

/// What [`ix`] makes of an index: an [`Ix`] of a `usize`, a range (or any other index type
/// it implements this for) unchanged.
pub trait DeviceIndex {
    /// The index type device code uses.
    type Index;
    /// The index as device code uses it, with the line and column a bounds panic reports.
    fn device_index(self, line: u32, column: u32) -> Self::Index;
}

impl DeviceIndex for usize {
    type Index = Ix;
    #[inline(always)]
    fn device_index(self, line: u32, column: u32) -> Ix {
        Ix { index: self, line, column }
    }
}

macro_rules! pass_through {
    ($($t:ty),*) => {$(
        impl<T> DeviceIndex for $t {
            type Index = Self;
            #[inline(always)]
            fn device_index(self, _: u32, _: u32) -> Self {
                self
            }
        }
    )*};
}
pass_through!(
    core::ops::Range<T>,
    core::ops::RangeFrom<T>,
    core::ops::RangeTo<T>,
    core::ops::RangeInclusive<T>,
    core::ops::RangeToInclusive<T>,
    (core::ops::Bound<T>, core::ops::Bound<T>)
);

impl DeviceIndex for Unchecked {
    type Index = Self;
    #[inline(always)]
    fn device_index(self, _: u32, _: u32) -> Self {
        self
    }
}

impl DeviceIndex for UncheckedAt {
    type Index = Self;
    #[inline(always)]
    fn device_index(self, _: u32, _: u32) -> Self {
        self
    }
}

impl DeviceIndex for core::ops::RangeFull {
    type Index = Self;
    #[inline(always)]
    fn device_index(self, _: u32, _: u32) -> Self {
        self
    }
}

/// The index of `x[i]` in device code (see [`Ix`]): `x[ix(i, line, column)]`.
#[inline(always)]
#[must_use]
pub fn ix<I: DeviceIndex>(i: I, line: u32, column: u32) -> I::Index {
    i.device_index(line, column)
}

/// An element index that the launch proved inside its array (acc-codegen's `lower::bounds`:
/// the kernel without the checks of these indices runs only where their bounds, computed on the
/// host from the loops' ranges, are below the arrays' lengths): read and written with no check.
#[derive(Clone, Copy)]
pub struct Unchecked(usize);

/// `x[unsafe { unchecked(i) }]`: element `i` with no bounds check.
///
/// # Safety
/// `i` is less than the length of every slice it indexes.
#[inline(always)]
#[must_use]
pub unsafe fn unchecked(i: usize) -> Unchecked {
    Unchecked(i)
}

impl<T> Index<Unchecked> for [T] {
    type Output = T;
    #[inline(always)]
    fn index(&self, Unchecked(i): Unchecked) -> &T {
        debug_assert!(i < self.len());
        // SAFETY: `unchecked`'s contract.
        unsafe { self.get_unchecked(i) }
    }
}

impl<T> IndexMut<Unchecked> for [T] {
    #[inline(always)]
    fn index_mut(&mut self, Unchecked(i): Unchecked) -> &mut T {
        debug_assert!(i < self.len());
        // SAFETY: `unchecked`'s contract.
        unsafe { self.get_unchecked_mut(i) }
    }
}

impl<T> Index<Unchecked> for Slice<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: Unchecked) -> &T {
        &(**self)[i]
    }
}

impl<T> Index<Unchecked> for SliceMut<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, Unchecked(i): Unchecked) -> &T {
        debug_assert!(i < self.len);
        // SAFETY: `unchecked`'s contract; `from_raw`'s makes it valid for reads.
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T> IndexMut<Unchecked> for SliceMut<T> {
    #[inline(always)]
    fn index_mut(&mut self, Unchecked(i): Unchecked) -> &mut T {
        debug_assert!(i < self.len);
        // SAFETY: `unchecked`'s contract; `from_raw`'s makes it valid for writes, and the
        // schedule gives this thread the element (or the accesses are synchronised).
        unsafe { &mut *self.ptr.add(i) }
    }
}

/// An element index the launch proved inside its array, written `base + off` or `base - off`
/// with `base` a plain name (`u[c - s]`, `u[c + 2 * s]`: a stencil's neighbours of a flattened
/// point): its address is the base's element moved by `off` elements, so that the neighbours of
/// one `c` share the base's address (`&u[c]`) and each adds a distance the compiler computes
/// once (`-4 s`, `8 s`), where `&u[c - s]` would multiply and add its own index. The
/// intermediate address may lie outside the array (pointer arithmetic that wraps, not
/// `add`); the element is inside.
#[derive(Clone, Copy)]
pub struct UncheckedAt {
    base: usize,
    off: isize,
}

impl UncheckedAt {
    /// The element's index (debug checks only).
    #[inline(always)]
    fn index(self) -> usize {
        self.base.wrapping_add_signed(self.off)
    }
}

/// `x[unsafe { unchecked_add(b, o) }]`: element `b + o` with no bounds check.
///
/// # Safety
/// `b + o` (no overflow) is less than the length of every slice it indexes.
#[inline(always)]
#[must_use]
pub unsafe fn unchecked_add(base: usize, off: usize) -> UncheckedAt {
    UncheckedAt { base, off: off as isize }
}

/// `x[unsafe { unchecked_sub(b, o) }]`: element `b - o` with no bounds check.
///
/// # Safety
/// `b - o` (no overflow) is less than the length of every slice it indexes.
#[inline(always)]
#[must_use]
pub unsafe fn unchecked_sub(base: usize, off: usize) -> UncheckedAt {
    UncheckedAt { base, off: off.wrapping_neg() as isize }
}

impl<T> Index<UncheckedAt> for [T] {
    type Output = T;
    #[inline(always)]
    fn index(&self, at: UncheckedAt) -> &T {
        debug_assert!(at.index() < self.len());
        // SAFETY: `unchecked_add`'s and `unchecked_sub`'s contracts: the address wraps to
        // element `base + off`, inside the slice.
        unsafe { &*self.as_ptr().wrapping_add(at.base).wrapping_offset(at.off) }
    }
}

impl<T> IndexMut<UncheckedAt> for [T] {
    #[inline(always)]
    fn index_mut(&mut self, at: UncheckedAt) -> &mut T {
        debug_assert!(at.index() < self.len());
        // SAFETY: as for `index`.
        unsafe { &mut *self.as_mut_ptr().wrapping_add(at.base).wrapping_offset(at.off) }
    }
}

impl<T> Index<UncheckedAt> for Slice<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, at: UncheckedAt) -> &T {
        &(**self)[at]
    }
}

impl<T> Index<UncheckedAt> for SliceMut<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, at: UncheckedAt) -> &T {
        debug_assert!(at.index() < self.len);
        // SAFETY: as for `[T]`; `from_raw`'s contract makes the element valid for reads.
        unsafe { &*self.ptr.wrapping_add(at.base).wrapping_offset(at.off) }
    }
}

impl<T> IndexMut<UncheckedAt> for SliceMut<T> {
    #[inline(always)]
    fn index_mut(&mut self, at: UncheckedAt) -> &mut T {
        debug_assert!(at.index() < self.len);
        // SAFETY: as for `[T]`; `from_raw`'s contract makes the element valid for writes, and
        // the schedule gives this thread the element (or the accesses are synchronised).
        unsafe { &mut *self.ptr.wrapping_add(at.base).wrapping_offset(at.off) }
    }
}

/// Whether element indices are checked: always, but in a device build with the experiment
/// switch `ACC_EXP_NOCHECKS=1` (`--cfg acc_no_index_checks`, acc-build's), which measures what
/// the checks cost; there an index past its array is undefined behaviour.
const CHECKED: bool = !cfg!(acc_no_index_checks);

impl<T> Index<Ix> for [T] {
    type Output = T;
    #[inline(always)]
    #[track_caller]
    fn index(&self, Ix { index: i, line, column }: Ix) -> &T {
        if CHECKED && i >= self.len() {
            panic_bounds_at(i, self.len(), line, column);
        }
        // SAFETY: `i < len` (or, in a build without checks, the caller's word: `CHECKED`).
        unsafe { self.get_unchecked(i) }
    }
}

impl<T> IndexMut<Ix> for [T] {
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, Ix { index: i, line, column }: Ix) -> &mut T {
        if CHECKED && i >= self.len() {
            panic_bounds_at(i, self.len(), line, column);
        }
        // SAFETY: `i < len` (or, in a build without checks, the caller's word: `CHECKED`).
        unsafe { self.get_unchecked_mut(i) }
    }
}

impl<T> Index<Ix> for Slice<T> {
    type Output = T;
    #[inline(always)]
    #[track_caller]
    fn index(&self, i: Ix) -> &T {
        &(**self)[i]
    }
}

impl<T> Index<Ix> for SliceMut<T> {
    type Output = T;
    #[inline(always)]
    #[track_caller]
    fn index(&self, Ix { index: i, line, column }: Ix) -> &T {
        if CHECKED && i >= self.len {
            panic_bounds_at(i, self.len, line, column);
        }
        // SAFETY: in bounds (see `CHECKED`); `from_raw`'s contract makes it valid for reads.
        unsafe { &*self.ptr.add(i) }
    }
}

impl<T> IndexMut<Ix> for SliceMut<T> {
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, Ix { index: i, line, column }: Ix) -> &mut T {
        if CHECKED && i >= self.len {
            panic_bounds_at(i, self.len, line, column);
        }
        // SAFETY: in bounds (see `CHECKED`); `from_raw`'s contract makes it valid for writes, and the
        // schedule gives this thread the element (or the accesses are synchronised).
        unsafe { &mut *self.ptr.add(i) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static DATA: [f32; 4] = [1.0, 2.0, 3.0, 4.0];

    #[test]
    fn slice_reads_and_derefs() {
        // SAFETY: `DATA` is a static that nothing writes.
        let s = unsafe { Slice::from_param(ReadOnlyPtr::from_slice(&DATA), DATA.len()) };
        assert_eq!(s.len(), 4);
        assert!(!s.is_empty());
        assert_eq!(s[2], 3.0);
        assert_eq!(s.iter().sum::<f32>(), 10.0);
        assert_eq!((*s)[1..3], [2.0, 3.0]);
    }

    #[test]
    fn slice_out_of_bounds_panics_at_the_caller() {
        // SAFETY: as above.
        let s = unsafe { Slice::from_param(ReadOnlyPtr::from_slice(&DATA), DATA.len()) };
        let err = std::panic::catch_unwind(|| s[4]).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert_eq!(msg, "index out of bounds: the len is 4 but the index is 4");
    }

    #[test]
    fn slice_mut_writes_and_atomics() {
        let mut v = vec![0i64; 8];
        // SAFETY: `v` outlives the view and is only used through it meanwhile.
        let mut s = unsafe { SliceMut::from_raw(v.as_mut_ptr(), v.len()) };
        let t = s; // Copy
        s[3] = 5;
        assert_eq!(t[3], 5);
        assert_eq!(s.atomic(3).fetch_add(2), 5);
        assert_eq!(s.get(3), Some(&7));
        assert_eq!(s.get(8), None);
        assert!(std::panic::catch_unwind(|| s.atomic(8).load()).is_err());
        assert_eq!(v[3], 7);
    }

    #[test]
    fn unchecked_neighbours_are_the_elements_at_their_distance() {
        let mut v: Vec<i64> = (0..10).collect();
        // SAFETY: every index below is inside `v`.
        unsafe {
            let s: &[i64] = &v;
            assert_eq!((s[unchecked_sub(5, 3)], s[unchecked_add(5, 4)], s[unchecked_add(0, 0)]), (2, 9, 0));
            // The base alone may lie past the end: the element is what counts.
            assert_eq!(s[unchecked_sub(12, 3)], 9);
            let r = Slice::from_param(ReadOnlyPtr::from_slice(&DATA), DATA.len());
            assert_eq!(r[unchecked_sub(3, 2)], 2.0);
            let mut m = SliceMut::from_raw(v.as_mut_ptr(), v.len());
            m[unchecked_add(7, 1)] += 100;
            assert_eq!(m[unchecked_sub(9, 1)], 108);
            let s: &mut [i64] = &mut v;
            s[unchecked_sub(1, 1)] = -1;
        }
        assert_eq!((v[0], v[8]), (-1, 108));
    }

    #[test]
    fn ix_indexes_like_core() {
        let mut v = [1.0f32, 2.0, 3.0];
        let s: &mut [f32] = &mut v;
        s[ix(1, 0, 0)] += 5.0;
        assert_eq!(s[ix(1, 0, 0)], 7.0);
        assert_eq!(s[ix(1..3, 0, 0)], [7.0, 3.0]);
        let a = [[1u8, 2], [3, 4]];
        assert_eq!(a[ix(1, 0, 0)][ix(0, 0, 0)], 3);
        // SAFETY: `DATA` is a static that nothing writes.
        let r = unsafe { Slice::from_param(ReadOnlyPtr::from_slice(&DATA), DATA.len()) };
        assert_eq!(r[ix(3, 0, 0)], 4.0);
        let s: &[f32] = &v;
        let err = std::panic::catch_unwind(|| s[ix(3, 0, 0)]).unwrap_err();
        let msg = err.downcast_ref::<String>().unwrap();
        assert_eq!(msg, "index out of bounds: the len is 3 but the index is 3");
        let err = std::panic::catch_unwind(|| a[ix(2, 0, 0)]).unwrap_err();
        assert_eq!(err.downcast_ref::<String>().unwrap(), "index out of bounds: the len is 2 but the index is 2");
    }

    #[test]
    fn empty_slices() {
        static E: [u8; 0] = [];
        // SAFETY: an empty static.
        let s = unsafe { Slice::from_param(ReadOnlyPtr::from_slice(&E), 0) };
        assert!(s.is_empty());
        assert!(s.iter().next().is_none());
    }
}
