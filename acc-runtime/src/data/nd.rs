//! `ndarray`'s arrays in data clauses (the `ndarray` feature): an `Array`, `ArrayView` or
//! `ArrayViewMut` of any dimension is its elements in row-major order, so a data clause moves
//! the one contiguous block that `as_slice()` would give, and a region that takes that slice
//! finds it present. Only the standard (C, contiguous) layout has such a block: any other
//! layout (a transposed view, a slice with steps) named in a data clause panics, naming the
//! layout's shape and strides.

use ndarray::{ArrayBase, Data, Dimension};

use super::HostData;

/// Panics unless `a` is in standard layout (row-major, contiguous).
fn standard<S: Data, D: Dimension>(a: &ArrayBase<S, D>) {
    if !a.is_standard_layout() {
        panic!(
            "acc: an ndarray named in a data clause must be in standard (C, contiguous) layout; \
             this one has shape {:?} and strides {:?} (make a standard copy with \
             `.as_standard_layout()` or `.to_owned()`)",
            a.shape(),
            a.strides()
        );
    }
}

impl<S, D> HostData for ArrayBase<S, D>
where
    S: Data,
    S::Elem: Copy,
    D: Dimension,
{
    type Elem = S::Elem;
    fn host_ptr(&self) -> *const S::Elem {
        standard(self);
        self.as_ptr()
    }
    fn host_len(&self) -> usize {
        standard(self);
        self.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array3};

    #[test]
    fn standard_layout_is_its_row_major_block() {
        let a = Array3::<f64>::from_shape_fn((2, 3, 4), |(k, j, i)| (k * 100 + j * 10 + i) as f64);
        assert_eq!(a.host_ptr(), a.as_slice().unwrap().as_ptr());
        assert_eq!(a.host_len(), 24);
        let v = a.view();
        assert_eq!((v.host_ptr(), v.host_len()), (a.as_ptr(), 24));
        // A slice along the outermost axis is still contiguous.
        let w = a.slice(s![1.., .., ..]);
        assert_eq!((w.host_ptr(), w.host_len()), (a.as_slice().unwrap()[12..].as_ptr(), 12));
    }

    #[test]
    #[should_panic(expected = "standard (C, contiguous) layout; this one has shape [4, 3, 2]")]
    fn a_transposed_view_is_refused() {
        let a = Array3::<f64>::zeros((2, 3, 4));
        let _ = a.t().host_ptr();
    }

    #[test]
    #[should_panic(expected = "strides [12, 4, 2]")]
    fn a_stepped_slice_is_refused() {
        let a = Array3::<f64>::zeros((2, 3, 4));
        let _ = a.slice(s![.., .., ..;2]).host_len();
    }
}
