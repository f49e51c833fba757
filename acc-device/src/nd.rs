//! n-d views on the device: [`NdSlice`] (read-only) and [`NdSliceMut`] are a region's
//! [`Slice`]/[`SliceMut`] with a shape of `D` axes in standard (row-major, C) layout, indexed
//! `a[[k, j, i]]` with the address arithmetic of the flat slice: the element at `[i0, .., iD-1]`
//! is `((i0 * n1 + i1) * n2 + i2) ..`. Each axis' index is checked against its extent (the
//! panic names the index and that extent, as a slice's check names the index and the length),
//! so an index that overflows one axis into the next is caught, not read from a neighbour.
//!
//! The type depends on no array crate: the host gives the device pointer, its length and the
//! shape, as `ndarray`'s standard-layout arrays have them.

use core::ops::{Index, IndexMut};

use crate::panic::panic_bounds as out_of_bounds;
use crate::slice::{Slice, SliceMut};

/// The flat offset of `ix` in `shape` (row-major), each axis checked.
#[inline(always)]
#[track_caller]
fn offset<const D: usize>(ix: [usize; D], shape: &[usize; D]) -> usize {
    let mut at = 0usize;
    let mut d = 0;
    while d < D {
        if ix[d] >= shape[d] {
            out_of_bounds(ix[d], shape[d]);
        }
        at = at * shape[d] + ix[d];
        d += 1;
    }
    at
}

/// The number of elements of `shape` (its extents' product).
#[inline(always)]
fn elements<const D: usize>(shape: &[usize; D]) -> usize {
    let mut n = 1usize;
    let mut d = 0;
    while d < D {
        n *= shape[d];
        d += 1;
    }
    n
}

macro_rules! nd_common {
    ($ty:ident, $flat:ident) => {
        impl<T, const D: usize> $ty<T, D> {
            /// The view of `flat`'s elements with `shape` (row-major); panics unless the
            /// shape's element count is `flat.len()`.
            #[inline(always)]
            #[track_caller]
            pub fn new(flat: $flat<T>, shape: [usize; D]) -> Self {
                let n = elements(&shape);
                if n != flat.len() {
                    out_of_bounds(n, flat.len());
                }
                $ty { flat, shape }
            }

            /// The extents of the axes (`ndarray`'s `.shape()`: `a.shape()[d]`).
            #[inline(always)]
            #[must_use]
            pub fn shape(&self) -> &[usize; D] {
                &self.shape
            }

            /// The extents as an array (`ndarray`'s `.dim()` for a fixed dimension, as an array
            /// rather than a tuple).
            #[inline(always)]
            #[must_use]
            pub fn dim(&self) -> [usize; D] {
                self.shape
            }

            /// The extent of axis `d` (`ndarray`'s `.len_of(Axis(d))`).
            #[inline(always)]
            #[must_use]
            #[track_caller]
            pub fn len_of(&self, d: usize) -> usize {
                self.shape[d]
            }

            /// The number of elements.
            #[inline(always)]
            #[must_use]
            pub fn len(&self) -> usize {
                self.flat.len()
            }

            /// True when some axis is empty.
            #[inline(always)]
            #[must_use]
            pub fn is_empty(&self) -> bool {
                self.flat.len() == 0
            }

            /// The number of axes.
            #[inline(always)]
            #[must_use]
            pub fn ndim(&self) -> usize {
                D
            }

            /// The elements in row-major order.
            #[inline(always)]
            #[must_use]
            pub fn flat(&self) -> &$flat<T> {
                &self.flat
            }
        }

        impl<T, const D: usize> Index<[usize; D]> for $ty<T, D> {
            type Output = T;
            #[inline(always)]
            #[track_caller]
            fn index(&self, ix: [usize; D]) -> &T {
                &self.flat[offset(ix, &self.shape)]
            }
        }
    };
}

/// A read-only n-d view on the device (see the [module docs](self)).
pub struct NdSlice<T, const D: usize> {
    flat: Slice<T>,
    shape: [usize; D],
}

impl<T, const D: usize> Clone for NdSlice<T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const D: usize> Copy for NdSlice<T, D> {}

/// A writable n-d view on the device (see the [module docs](self)). It is `Copy`, as
/// [`SliceMut`] is: each thread holds one, and the region's loop decides who writes where.
pub struct NdSliceMut<T, const D: usize> {
    flat: SliceMut<T>,
    shape: [usize; D],
}

impl<T, const D: usize> Clone for NdSliceMut<T, D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const D: usize> Copy for NdSliceMut<T, D> {}

nd_common!(NdSlice, Slice);
nd_common!(NdSliceMut, SliceMut);

impl<T, const D: usize> IndexMut<[usize; D]> for NdSliceMut<T, D> {
    #[inline(always)]
    #[track_caller]
    fn index_mut(&mut self, ix: [usize; D]) -> &mut T {
        let at = offset(ix, &self.shape);
        &mut self.flat[at]
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    fn flat(n: usize) -> Vec<f64> {
        (0..n).map(|x| x as f64).collect()
    }

    #[test]
    fn row_major_offsets_in_one_to_four_axes() {
        let v = flat(2 * 3 * 4 * 5);
        // SAFETY: `v` outlives the views and nothing writes it meanwhile.
        let s = unsafe { Slice::from_raw(v.as_ptr(), v.len()) };
        let a1 = NdSlice::new(s, [120]);
        assert_eq!(a1[[77]], 77.0);
        let a2 = NdSlice::new(s, [12, 10]);
        assert_eq!(a2[[7, 3]], 73.0);
        let a3 = NdSlice::new(s, [4, 6, 5]);
        assert_eq!(a3[[3, 2, 1]], (3 * 30 + 2 * 5 + 1) as f64);
        let a4 = NdSlice::new(s, [2, 3, 4, 5]);
        assert_eq!(a4[[1, 2, 3, 4]], 119.0);
        assert_eq!(a4[[1, 0, 2, 1]], (60 + 10 + 1) as f64);
        assert_eq!((*a4.shape(), a4.len_of(2), a4.len(), a4.ndim()), ([2, 3, 4, 5], 4, 120, 4));
    }

    #[test]
    fn writes_land_where_the_flat_index_says() {
        let mut v = std::vec![0i64; 24];
        // SAFETY: `v` outlives the view; one thread writes.
        let s = unsafe { SliceMut::from_raw(v.as_mut_ptr(), v.len()) };
        let mut a = NdSliceMut::new(s, [2, 3, 4]);
        for k in 0..2 {
            for j in 0..3 {
                for i in 0..4 {
                    a[[k, j, i]] = (k * 100 + j * 10 + i) as i64;
                }
            }
        }
        assert_eq!(v[23], 123);
        assert_eq!(v[6], 12);
        assert_eq!(v[14], 102);
    }

    #[test]
    #[should_panic(expected = "index out of bounds: the len is 4 but the index is 4")]
    fn an_axis_overflowing_into_the_next_is_caught() {
        let v = flat(24);
        // SAFETY: as above.
        let a = NdSlice::new(unsafe { Slice::from_raw(v.as_ptr(), v.len()) }, [2, 3, 4]);
        // Flat offset 8, inside the 24 elements, but axis 2 has 4.
        let _ = a[[0, 1, 4]];
    }

    #[test]
    #[should_panic]
    fn a_shape_not_covering_the_slice_is_refused() {
        let v = flat(24);
        // SAFETY: as above.
        let _ = NdSlice::new(unsafe { Slice::from_raw(v.as_ptr(), v.len()) }, [2, 3, 5]);
    }
}
