//! Jacobi iteration on a 2-D grid: a 5-point stencil inside a data region, iterated until the
//! largest change (a `max` reduction) falls under a tolerance. The main example of acc.
//! `cargo run --release -p acc-examples --example 03-jacobi`

/// One sweep: `anew` = average of the four neighbours of `a`; returns the largest change.
#[acc::parallel(present(a, anew))]
fn sweep(a: &[f64], anew: &mut [f64], n: usize, m: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(gang, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(vector, reduction(max: err))]
        for i in 1..m - 1 {
            let v = 0.25 * (a[j * m + i + 1] + a[j * m + i - 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            err = err.max((v - a[j * m + i]).abs());
            anew[j * m + i] = v;
        }
    }
    err
}

/// Copies the interior of `anew` back into `a`.
#[acc::parallel(present(a, anew))]
fn copy_interior(a: &mut [f64], anew: &[f64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for j in 1..n - 1 {
        #[acc::r#loop(vector)]
        for i in 1..m - 1 {
            a[j * m + i] = anew[j * m + i];
        }
    }
}

/// The same computation in plain sequential Rust, to check against.
fn reference(a: &mut [f64], n: usize, m: usize, tol: f64, max_iter: usize) -> (usize, f64) {
    let mut anew = a.to_vec();
    let mut err = f64::INFINITY;
    let mut iter = 0;
    while err > tol && iter < max_iter {
        err = 0.0;
        for j in 1..n - 1 {
            for i in 1..m - 1 {
                let v = 0.25 * (a[j * m + i + 1] + a[j * m + i - 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
                err = err.max((v - a[j * m + i]).abs());
                anew[j * m + i] = v;
            }
        }
        for j in 1..n - 1 {
            for i in 1..m - 1 {
                a[j * m + i] = anew[j * m + i];
            }
        }
        iter += 1;
    }
    (iter, err)
}

fn initial(n: usize, m: usize) -> Vec<f64> {
    // Hot left edge, cold elsewhere.
    let mut a = vec![0.0f64; n * m];
    for j in 0..n {
        a[j * m] = 1.0;
    }
    a
}

fn main() {
    let (n, m) = (1024, 1024);
    let (tol, max_iter) = (1e-4, 500);
    let mut a = initial(n, m);
    let mut anew = a.clone();
    let start = std::time::Instant::now();
    let mut err = f64::INFINITY;
    let mut iter = 0;
    acc::data!(copy(a), create(anew) {
        // `create` leaves the device copy uninitialised; its boundary must match `a`'s.
        acc::update!(device(anew));
        while err > tol && iter < max_iter {
            err = sweep(&a, &mut anew, n, m);
            copy_interior(&mut a, &anew, n, m);
            iter += 1;
        }
    });
    let secs = start.elapsed().as_secs_f64();
    println!("jacobi {n}x{m} on {:?}: {iter} iterations, max change {err:.3e}, {:.1} ms", acc::device_type(), secs * 1e3);

    let mut r = initial(n, m);
    let (riter, rerr) = reference(&mut r, n, m, tol, max_iter);
    let diff = a.iter().zip(&r).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    println!("sequential reference: {riter} iterations, max change {rerr:.3e}; largest difference {diff:.3e}");
    assert_eq!(iter, riter, "iteration counts differ");
    assert!(diff < 1e-12 && (err - rerr).abs() < 1e-12, "jacobi differs from the sequential reference");
    println!("verified");
}
