//! 2-D and 3-D stencils on `kernels` schedules (issue 11; OpenUH's stencil benchmarks): a
//! 5-point Laplacian on an `L2 x L2` grid and a 13-point wave step (4th order in space, radius 2
//! on each axis) on an `L3^3` grid, each as
//! - `bare`: the nest without level clauses (the multi-dimensional default: innermost loop on
//!   `threadIdx.x`, the next on `y` (and `z`), grid-stride loops);
//! - `gv_gv` / `gv_gv_gv`: OpenUH's schedule written out, with `vector(n)` sizes;
//! - `rows_1d`: the inner loops `seq` (what a bare nest ran as before: each thread one row, in
//!   order; uncoalesced),
//! beside `benches/cuda/stencils.cu` (hand-written CUDA, one thread per point, built by nvcc).
//! Then NVIDIA's Jacobi step with its `max` reduction (acc only: `jacobi_*`), and the wave step
//! in a time loop (`wave3d_steps`: each step synchronised, and all on one async queue, beside
//! the same loop in CUDA).
//! Run by `scripts/gpu-beside-nvcc.sh stencils`. Every acc result is checked against the host's loops.

mod common;
use common::median;

const L2: usize = 8192;
const L3: usize = 256;

#[acc::kernels(present(a, b))]
fn lap2d_bare(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(independent)]
    for i in 1..n - 1 {
        #[acc::r#loop(independent)]
        for j in 1..n - 1 {
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1] - 4.0 * a[i * n + j];
        }
    }
}

#[acc::kernels(present(a, b))]
fn lap2d_gv_gv(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector(8), independent)]
    for i in 1..n - 1 {
        #[acc::r#loop(gang, vector(64), independent)]
        for j in 1..n - 1 {
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1] - 4.0 * a[i * n + j];
        }
    }
}

#[acc::kernels(present(a, b))]
fn lap2d_rows_1d(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(independent)]
    for i in 1..n - 1 {
        #[acc::r#loop(seq)]
        for j in 1..n - 1 {
            b[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1] - 4.0 * a[i * n + j];
        }
    }
}

/// NVIDIA's Jacobi step in `f64` on an `LJ x LJ` grid (the new grid and the largest change, a
/// `max` reduction) as a bare `kernels` nest (a 2-D grid schedule with the reduction combined
/// per block), with the inner loop `seq` (one row per thread: the one-dimensional schedule such
/// nests took before), and as `parallel` gang/vector loops (`examples/03-jacobi.rs`: rows over
/// the gangs, columns over the vector lanes).
const LJ: usize = 4096;

#[acc::kernels(present(a, anew))]
fn jacobi_bare(a: &[f64], anew: &mut [f64], n: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(independent, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(independent, reduction(max: err))]
        for i in 1..n - 1 {
            let v = 0.25 * (a[j * n + i - 1] + a[j * n + i + 1] + a[(j - 1) * n + i] + a[(j + 1) * n + i]);
            err = err.max((v - a[j * n + i]).abs());
            anew[j * n + i] = v;
        }
    }
    err
}

#[acc::kernels(present(a, anew))]
fn jacobi_rows_1d(a: &[f64], anew: &mut [f64], n: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(independent, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(seq)]
        for i in 1..n - 1 {
            let v = 0.25 * (a[j * n + i - 1] + a[j * n + i + 1] + a[(j - 1) * n + i] + a[(j + 1) * n + i]);
            err = err.max((v - a[j * n + i]).abs());
            anew[j * n + i] = v;
        }
    }
    err
}

#[acc::parallel(present(a, anew))]
fn jacobi_parallel_g_v(a: &[f64], anew: &mut [f64], n: usize) -> f64 {
    let mut err = 0.0f64;
    #[acc::r#loop(gang, reduction(max: err))]
    for j in 1..n - 1 {
        #[acc::r#loop(vector, reduction(max: err))]
        for i in 1..n - 1 {
            let v = 0.25 * (a[j * n + i - 1] + a[j * n + i + 1] + a[(j - 1) * n + i] + a[(j + 1) * n + i]);
            err = err.max((v - a[j * n + i]).abs());
            anew[j * n + i] = v;
        }
    }
    err
}

/// The 13-point Laplacian of `u` at `c` (4th order: -1/12, 4/3, -5/2 per axis), strides `s`.
#[acc::routine(seq)]
fn lap13(u: &[f32], c: usize, s1: usize, s2: usize) -> f32 {
    let axis = |s: usize| -> f32 { (4.0 / 3.0) * (u[c - s] + u[c + s]) - (1.0 / 12.0) * (u[c - 2 * s] + u[c + 2 * s]) };
    axis(1) + axis(s2) + axis(s1) - 7.5 * u[c]
}

/// The bare nest, on queue `q` (`acc::ASYNC_SYNC`: synchronous; the time loop's steps take
/// both).
#[acc::kernels(present(u, prev, next), async(q))]
fn wave3d_bare(u: &[f32], prev: &[f32], next: &mut [f32], n: usize, q: i64) {
    #[acc::r#loop(independent)]
    for i in 2..n - 2 {
        #[acc::r#loop(independent)]
        for j in 2..n - 2 {
            #[acc::r#loop(independent)]
            for k in 2..n - 2 {
                let c = (i * n + j) * n + k;
                next[c] = 2.0 * u[c] - prev[c] + 0.1 * lap13(u, c, n * n, n);
            }
        }
    }
}

#[acc::kernels(present(u, prev, next))]
fn wave3d_gv_gv_gv(u: &[f32], prev: &[f32], next: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector(1), independent)]
    for i in 2..n - 2 {
        #[acc::r#loop(gang, vector(8), independent)]
        for j in 2..n - 2 {
            #[acc::r#loop(gang, vector(32), independent)]
            for k in 2..n - 2 {
                let c = (i * n + j) * n + k;
                next[c] = 2.0 * u[c] - prev[c] + 0.1 * lap13(u, c, n * n, n);
            }
        }
    }
}

#[acc::kernels(present(u, prev, next))]
fn wave3d_rows_1d(u: &[f32], prev: &[f32], next: &mut [f32], n: usize) {
    #[acc::r#loop(independent)]
    for i in 2..n - 2 {
        #[acc::r#loop(independent)]
        for j in 2..n - 2 {
            #[acc::r#loop(seq)]
            for k in 2..n - 2 {
                let c = (i * n + j) * n + k;
                next[c] = 2.0 * u[c] - prev[c] + 0.1 * lap13(u, c, n * n, n);
            }
        }
    }
}

/// Steps of a time loop (`wave3d_steps`): a multiple of 3, so that the grids end in the roles
/// they started in.
const STEPS: usize = 21;

/// `STEPS` steps of the wave equation, the grids taking turns as the current, the previous and
/// the next step (as `benches/cuda/stencils.cu`'s `wave3d_steps`): each step on queue `q`, then
/// a wait for it. `step` is the step itself (`wave3d_bare`, or the host's loops).
fn wave3d_steps(g: [&mut [f32]; 3], n: usize, q: i64, step: fn(&[f32], &[f32], &mut [f32], usize, i64)) {
    let [g0, g1, g2] = g;
    for s in 0..STEPS {
        match s % 3 {
            0 => step(g0, g1, g2, n, q),
            1 => step(g2, g0, g1, n, q),
            _ => step(g1, g2, g0, n, q),
        }
    }
    if q != acc::ASYNC_SYNC {
        acc::wait(q);
    }
}

fn wave3d_step_host(u: &[f32], prev: &[f32], next: &mut [f32], n: usize, _q: i64) {
    for i in 2..n - 2 {
        for j in 2..n - 2 {
            for k in 2..n - 2 {
                let c = (i * n + j) * n + k;
                next[c] = 2.0 * u[c] - prev[c] + 0.1 * lap13_host(u, c, n * n, n);
            }
        }
    }
}

/// `case`'s median time and bandwidth (`bytes` moved once per call).
fn row(case: &str, secs: f64, bytes: f64) {
    println!("acc  {case:<22} {:>9.4} ms {:>8.1} GB/s", secs * 1e3, bytes / secs / 1e9);
}

/// The largest difference from the host's result (printed; at most 1e-4, else a panic).
fn check(name: &str, got: &[f32], want: &[f32]) {
    let d = got.iter().zip(want).map(|(g, w)| (g - w).abs()).fold(0.0f32, f32::max);
    let sum: f64 = got.iter().map(|&v| v as f64).sum();
    println!("#    {name}: max |acc - host| = {d:e}, checksum {sum:.6e}");
    assert!(d <= 1e-4, "{name}: wrong result (max difference {d})");
}

fn lap13_host(u: &[f32], c: usize, s1: usize, s2: usize) -> f32 {
    let axis = |s: usize| -> f32 { (4.0 / 3.0) * (u[c - s] + u[c + s]) - (1.0 / 12.0) * (u[c - 2 * s] + u[c + 2 * s]) };
    axis(1) + axis(s2) + axis(s1) - 7.5 * u[c]
}

fn main() {
    println!("# acc stencils, device: {:?}", acc::device_type());
    let n = L2;
    let a: Vec<f32> = (0..n * n).map(|x| ((x * 7919) % 1000) as f32 / 1000.0).collect();
    let mut want = vec![0.0f32; n * n];
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            want[i * n + j] = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1] - 4.0 * a[i * n + j];
        }
    }
    let bytes = 8.0 * (n * n) as f64;
    type Lap = fn(&[f32], &mut [f32], usize);
    let cases: [(&str, Lap); 3] = [("lap2d_bare", lap2d_bare), ("lap2d_gv_gv", lap2d_gv_gv), ("lap2d_rows_1d", lap2d_rows_1d)];
    for (name, f) in cases {
        let mut b = vec![0.0f32; n * n];
        acc::data!(copyin(a), copy(b) {
            row(name, median(|| f(&a, &mut b, n)), bytes);
        });
        check(name, &b, &want);
    }

    // Jacobi: quarters of small integers, so every acc result equals the host's exactly.
    let n = LJ;
    let a: Vec<f64> = (0..n * n).map(|x| ((x * 7919) % 64) as f64 * 0.25).collect();
    let mut want = vec![0.0f64; n * n];
    let mut want_err = 0.0f64;
    for j in 1..n - 1 {
        for i in 1..n - 1 {
            let v = 0.25 * (a[j * n + i - 1] + a[j * n + i + 1] + a[(j - 1) * n + i] + a[(j + 1) * n + i]);
            want_err = want_err.max((v - a[j * n + i]).abs());
            want[j * n + i] = v;
        }
    }
    let bytes = 16.0 * (n * n) as f64;
    type Jacobi = fn(&[f64], &mut [f64], usize) -> f64;
    let cases: [(&str, Jacobi); 3] = [("jacobi_bare", jacobi_bare), ("jacobi_rows_1d", jacobi_rows_1d), ("jacobi_parallel_g_v", jacobi_parallel_g_v)];
    for (name, f) in cases {
        let mut anew = vec![0.0f64; n * n];
        let mut err = 0.0;
        acc::data!(copyin(a), copy(anew) {
            row(name, median(|| err = f(&a, &mut anew, n)), bytes);
        });
        println!("#    {name}: err {err} (host {want_err})");
        assert!(err == want_err && anew == want, "{name}: wrong result (err {err}, host {want_err})");
    }

    let n = L3;
    let u: Vec<f32> = (0..n * n * n).map(|x| ((x * 7919) % 1000) as f32 / 1000.0).collect();
    let prev: Vec<f32> = (0..n * n * n).map(|x| ((x * 104729) % 1000) as f32 / 1000.0).collect();
    let mut want = vec![0.0f32; n * n * n];
    for i in 2..n - 2 {
        for j in 2..n - 2 {
            for k in 2..n - 2 {
                let c = (i * n + j) * n + k;
                want[c] = 2.0 * u[c] - prev[c] + 0.1 * lap13_host(&u, c, n * n, n);
            }
        }
    }
    let bytes = 12.0 * (n * n * n) as f64;
    type Wave = fn(&[f32], &[f32], &mut [f32], usize);
    let cases: [(&str, Wave); 3] = [("wave3d_bare", |u, p, x, n| wave3d_bare(u, p, x, n, acc::ASYNC_SYNC)), ("wave3d_gv_gv_gv", wave3d_gv_gv_gv), ("wave3d_rows_1d", wave3d_rows_1d)];
    for (name, f) in cases {
        let mut next = vec![0.0f32; n * n * n];
        acc::data!(copyin(u, prev), copy(next) {
            row(name, median(|| f(&u, &prev, &mut next, n)), bytes);
        });
        check(name, &next, &want);
    }

    // The time loop: each step waited for (`sync`), and all on one queue, waited for once
    // (`async`). Times per step. The grids' state after one loop is checked against the host's.
    let mut want = [u.clone(), prev.clone(), vec![0.0f32; n * n * n]];
    let [w0, w1, w2] = &mut want;
    wave3d_steps([w0, w1, w2], n, acc::ASYNC_SYNC, wave3d_step_host);
    for (name, q) in [("wave3d_steps_sync", acc::ASYNC_SYNC), ("wave3d_steps_async", 1)] {
        let (mut g0, mut g1, mut g2) = (u.clone(), prev.clone(), vec![0.0f32; n * n * n]);
        acc::data!(copy(g0, g1, g2) {
            wave3d_steps([&mut g0, &mut g1, &mut g2], n, q, wave3d_bare);
        });
        for (g, w) in [&g0, &g1, &g2].into_iter().zip(&want) {
            check(name, g, w);
        }
        acc::data!(copy(g0, g1, g2) {
            let t = median(|| wave3d_steps([&mut g0, &mut g1, &mut g2], n, q, wave3d_bare));
            row(name, t / STEPS as f64, bytes);
        });
    }
    common::print_launches();
}
