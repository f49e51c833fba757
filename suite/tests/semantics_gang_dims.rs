//! Multi-dimensional gangs in `parallel` (OpenACC 3.3): `num_gangs(n1, n2, n3)` sizes the
//! grid's dimensions and `gang(dim: d)` spreads a loop over dimension `d`'s gangs, a loop over
//! a lower dimension nested inside. On the GPU a tight nest of such loops takes the
//! multi-dimensional schedule (`kernels`' too, `lower/grid.rs`), its grid the `num_gangs`
//! values; other nests keep one dimension, the inner gang loop run in order in each thread.
//! Each test against the sequential loops over the same data, with sizes from 0 up.

mod common;
use common::*;

#[acc::parallel(num_gangs(4, 8), vector_length(64))]
fn fill_2d(out: &mut [f64], rows: usize, cols: usize) {
    #[acc::r#loop(gang(dim: 2))]
    for r in 0..rows {
        #[acc::r#loop(gang(dim: 1), vector)]
        for c in 0..cols {
            out[r * cols + c] = (r * 1000 + c) as f64;
        }
    }
}

#[test]
fn a_two_dimensional_gang_nest_writes_every_element() {
    for (rows, cols) in [(0, 5), (1, 1), (3, 7), (100, 33), (513, 1025)] {
        let mut out = vec![-1.0; rows * cols];
        fill_2d(&mut out, rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                assert_eq!(out[r * cols + c], (r * 1000 + c) as f64, "({r}, {c}) of {rows} x {cols}");
            }
        }
    }
}

#[acc::parallel(num_gangs(gx, gy, gz))]
fn fill_3d(out: &mut [u32], n: [usize; 3], gx: usize, gy: usize, gz: usize) {
    #[acc::r#loop(gang(dim: 3))]
    for k in 0..n[2] {
        #[acc::r#loop(gang(dim: 2))]
        for j in 0..n[1] {
            #[acc::r#loop(gang(dim: 1), vector)]
            for i in 0..n[0] {
                out[(k * n[1] + j) * n[0] + i] = (k * 10_000 + j * 100 + i) as u32;
            }
        }
    }
}

#[test]
fn a_three_dimensional_gang_nest_with_runtime_gang_counts() {
    for (n, g) in [([1, 1, 1], (1, 1, 1)), ([7, 5, 3], (2, 3, 4)), ([99, 40, 17], (5, 64, 3)), ([64, 64, 64], (1000, 1, 2))] {
        let mut out = vec![0u32; n[0] * n[1] * n[2]];
        fill_3d(&mut out, n, g.0, g.1, g.2);
        for (at, v) in out.iter().enumerate() {
            let (i, j, k) = (at % n[0], (at / n[0]) % n[1], at / (n[0] * n[1]));
            assert_eq!(*v, (k * 10_000 + j * 100 + i) as u32, "{n:?} gangs {g:?} at ({i}, {j}, {k})");
        }
    }
}

#[acc::parallel(num_gangs(16, 16))]
fn sum_2d(x: &[f64], rows: usize, cols: usize) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang(dim: 2), reduction(+: s))]
    for r in 0..rows {
        #[acc::r#loop(gang(dim: 1), vector, reduction(+: s))]
        for c in 0..cols {
            s += x[r * cols + c];
        }
    }
    s
}

#[test]
fn a_reduction_over_a_two_dimensional_gang_nest() {
    for (rows, cols) in [(0, 0), (1, 3), (17, 19), (300, 1000)] {
        let x: Vec<f64> = (0..rows * cols).map(|i| (hash(i) % 1024) as f64).collect();
        let want: f64 = x.iter().sum();
        assert_eq!(sum_2d(&x, rows, cols), want, "{rows} x {cols}");
    }
}

/// A statement between the gang loops: not a tight nest, one dimension on the GPU.
#[acc::parallel(num_gangs(8, 8))]
fn rows_scaled(out: &mut [f64], x: &[f64], rows: usize, cols: usize) {
    #[acc::r#loop(gang(dim: 2))]
    for r in 0..rows {
        let k = (r + 1) as f64;
        #[acc::r#loop(gang(dim: 1), vector)]
        for c in 0..cols {
            out[r * cols + c] = k * x[r * cols + c];
        }
    }
}

#[test]
fn gang_loops_with_code_between_them() {
    let (rows, cols) = (37, 300);
    let x: Vec<f64> = (0..rows * cols).map(|i| i as f64).collect();
    let mut out = vec![0.0; rows * cols];
    rows_scaled(&mut out, &x, rows, cols);
    assert!(out.iter().enumerate().all(|(i, v)| *v == ((i / cols) + 1) as f64 * i as f64));
}
