//! `ndarray`'s arrays with acc (the `ndarray` feature, which this package turns on): an `Array`,
//! `ArrayView` or `ArrayViewMut` in standard (C, contiguous) layout in data clauses
//! (`data!`, `update!`, `enter_data!`/`exit_data!`), its row-major block handed to regions as
//! the slice `a.as_slice()` gives, indexed there with the address arithmetic `ndarray` uses
//! (`((k * nj + j) * ni + i)`); every result checked exactly against plain Rust over the same
//! arrays with `a[[k, j, i]]`. A layout that is not standard named in a data clause panics.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::{s, Array2, Array3, Array4, ArrayView3, ArrayViewMut3};

/// A 7-point stencil over the interior of an `nk x nj x ni` grid in row-major order.
#[acc::parallel]
fn stencil3(u: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang, collapse(2))]
    for k in 1..nk - 1 {
        for j in 1..nj - 1 {
            #[acc::r#loop(vector)]
            for i in 1..ni - 1 {
                let c = (k * nj + j) * ni + i;
                out[c] = 6.0 * u[c] - u[c - 1] - u[c + 1] - u[c - ni] - u[c + ni] - u[c - nj * ni] - u[c + nj * ni];
            }
        }
    }
}

/// NPB's `u[[k, j, i, m]] += dt * rhs[[k, j, i, m]]` over a grid of five-value cells.
#[acc::parallel]
fn add_rhs4(u: &mut [f64], rhs: &[f64], nk: usize, nj: usize, ni: usize, dt: f64) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(vector, collapse(2))]
        for j in 0..nj {
            for i in 0..ni {
                for m in 0..5 {
                    let c = ((k * nj + j) * ni + i) * 5 + m;
                    u[c] += dt * rhs[c];
                }
            }
        }
    }
}

#[acc::parallel]
fn sum(a: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel]
fn scale(a: &mut [f64], k: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= k;
    }
}

fn grid3(nk: usize, nj: usize, ni: usize) -> Array3<f64> {
    Array3::from_shape_fn((nk, nj, ni), |(k, j, i)| ((k * 7 + j * 3 + i) % 11) as f64 - 5.0)
}

fn stencil3_host(u: &ArrayView3<f64>, out: &mut ArrayViewMut3<f64>) {
    let (nk, nj, ni) = u.dim();
    for k in 1..nk - 1 {
        for j in 1..nj - 1 {
            for i in 1..ni - 1 {
                out[[k, j, i]] = 6.0 * u[[k, j, i]]
                    - u[[k, j, i - 1]]
                    - u[[k, j, i + 1]]
                    - u[[k, j - 1, i]]
                    - u[[k, j + 1, i]]
                    - u[[k - 1, j, i]]
                    - u[[k + 1, j, i]];
            }
        }
    }
}

/// `&Array3` in, `&mut Array3` out, inside `data!(copyin(u), copy(out))`: the boundary keeps
/// the host's values, the interior is the stencil's.
#[test]
fn stencil_over_array3_in_a_data_region() {
    for (nk, nj, ni) in [(3, 3, 3), (5, 7, 9), (17, 13, 40)] {
        let u = grid3(nk, nj, ni);
        let mut out = Array3::<f64>::from_elem((nk, nj, ni), 0.5);
        acc::data!(copyin(u), copy(out) {
            assert!(acc::is_present(&u) && acc::is_present(&out));
            stencil3(u.as_slice().unwrap(), out.as_slice_mut().unwrap(), nk, nj, ni);
        });
        assert!(!acc::is_present(&u) && !acc::is_present(&out));
        let mut want = Array3::<f64>::from_elem((nk, nj, ni), 0.5);
        stencil3_host(&u.view(), &mut want.view_mut());
        assert_eq!(out, want, "{nk}x{nj}x{ni}");
        assert_eq!(out[[0, 1, 1]], 0.5);
    }
}

/// The same stencil with an `ArrayView3` in and an `ArrayViewMut3` out, the views of arrays the
/// caller owns, named in the data clauses themselves.
#[test]
fn stencil_over_views() {
    let (nk, nj, ni) = (6, 5, 33);
    let base = grid3(nk, nj, ni);
    let mut target = Array3::<f64>::zeros((nk, nj, ni));
    {
        let u: ArrayView3<f64> = base.view();
        let mut out: ArrayViewMut3<f64> = target.view_mut();
        acc::data!(copyin(u), copyout(out) {
            stencil3(u.as_slice().unwrap(), out.as_slice_mut().unwrap(), nk, nj, ni);
        });
    }
    let mut want = Array3::<f64>::zeros((nk, nj, ni));
    stencil3_host(&base.view(), &mut want.view_mut());
    assert_eq!(target, want);
}

/// NPB's 4-D `u[[k, j, i, m]]`: one time step through a data region, `rhs` copied in.
#[test]
fn npb_like_4d_update() {
    let (nk, nj, ni) = (7, 6, 10);
    let mut u = Array4::<f64>::from_shape_fn((nk, nj, ni, 5), |(k, j, i, m)| (k + j + i + m) as f64);
    let rhs = Array4::<f64>::from_shape_fn((nk, nj, ni, 5), |(k, j, i, m)| ((k * j + i * m) % 5) as f64 - 2.0);
    let dt = 0.25;
    let mut want = u.clone();
    for k in 0..nk {
        for j in 0..nj {
            for i in 0..ni {
                for m in 0..5 {
                    want[[k, j, i, m]] += dt * rhs[[k, j, i, m]];
                }
            }
        }
    }
    acc::data!(copy(u), copyin(rhs) {
        add_rhs4(u.as_slice_mut().unwrap(), rhs.as_slice().unwrap(), nk, nj, ni, dt);
    });
    assert_eq!(u, want);
    assert_eq!(u[[6, 5, 9, 4]], (6 + 5 + 9 + 4) as f64 + dt * (((6 * 5 + 9 * 4) % 5) as f64 - 2.0));
}

/// A reduction over a 2-D array and over a 3-D array's contiguous sub-block (`s![2.., .., ..]`
/// keeps standard layout): small integers, so the sums are exact.
#[test]
fn reduction_over_an_ndarray() {
    let a = Array2::<f64>::from_shape_fn((37, 29), |(j, i)| ((j * 29 + i) % 13) as f64);
    let want: f64 = a.iter().sum();
    let got = acc::data!(copyin(a) { sum(a.as_slice().unwrap()) });
    assert_eq!(got, want);
    let g = grid3(9, 8, 7);
    let tail = g.slice(s![2.., .., ..]);
    assert!(tail.is_standard_layout());
    let want: f64 = tail.iter().sum();
    let got = acc::data!(copyin(tail) { sum(tail.as_slice().unwrap()) });
    assert_eq!(got, want);
}

/// `update!(device(a))` after a host change and `update!(host(a))` after a region, inside one
/// data region; then `enter_data!`/`exit_data!` around the same array.
#[test]
fn data_region_with_update() {
    let mut a = Array3::<f64>::from_shape_fn((4, 5, 6), |(k, j, i)| (k * 30 + j * 6 + i) as f64);
    acc::data!(copy(a) {
        a[[1, 2, 3]] = 1000.0;
        acc::update!(device(a));
        scale(a.as_slice_mut().unwrap(), 2.0);
        acc::update!(host(a));
        assert_eq!(a[[1, 2, 3]], 2000.0);
        assert_eq!(a[[3, 4, 5]], 2.0 * 119.0);
        scale(a.as_slice_mut().unwrap(), 0.5);
    });
    let want = Array3::<f64>::from_shape_fn((4, 5, 6), |(k, j, i)| if (k, j, i) == (1, 2, 3) { 1000.0 } else { (k * 30 + j * 6 + i) as f64 });
    assert_eq!(a, want);

    acc::enter_data!(copyin(a));
    assert!(acc::is_present(&a));
    scale(a.as_slice_mut().unwrap(), 3.0);
    acc::exit_data!(copyout(a));
    assert!(!acc::is_present(&a));
    assert_eq!(a, want.mapv(|x| 3.0 * x));
}

/// A transposed view and a slice with steps are not in standard layout: naming one in a data
/// clause panics with its shape and strides, and nothing is left present.
#[test]
fn non_standard_layout_is_refused() {
    let a = grid3(2, 3, 4);
    let t = a.t();
    let e = catch_unwind(AssertUnwindSafe(|| acc::data!(copyin(t) {}))).expect_err("a transposed view is refused");
    let msg = common::panic_message(&*e);
    assert!(msg.contains("standard (C, contiguous) layout") && msg.contains("shape [4, 3, 2]"), "{msg}");
    let stepped = a.slice(s![.., .., ..;2]);
    let e = catch_unwind(AssertUnwindSafe(|| acc::enter_data!(copyin(stepped)))).expect_err("a stepped slice is refused");
    let msg = common::panic_message(&*e);
    assert!(msg.contains("strides [12, 4, 2]"), "{msg}");
    assert!(!acc::is_present(&a));
}
