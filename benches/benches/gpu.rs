//! GPU bench of acc regions against hand-written CUDA (`benches/cuda/baseline.cu`) and CuPy
//! (`benches/gpu_baseline.py`), measured in one run by `scripts/gpu-bench.sh` on the GPU
//! machine. Every case runs inside a data region (no transfers), is timed as the median
//! wall-clock time of one call (launch, kernel, reduced value back on the host), and is checked
//! against plain sequential Rust. See `benches/README.md` for the cases and the bytes counted.
//!
//! Output: one line per case, `acc <case> <ms> <rate>`, rate in GB/s (GFLOP/s for `matmul_f32`,
//! `-` for `launch`); lines starting with `#` are comments.
//! Build: `cargo bench -p acc-benches --features cuda --bench gpu --no-run` (or `../shared/tools/gpu-pack bench
//! -p acc-benches --features cuda --bench gpu --no-run` for the GPU machine).

mod common;

use std::time::Instant;

// ---------------------------------------------------------------------------------------------
// Streaming: copy, vadd, saxpy (50M elements).

#[acc::parallel(vector_length(256))]
fn copy32(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i];
    }
}

#[acc::parallel(vector_length(256))]
fn copy64(a: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i];
    }
}

#[acc::parallel(vector_length(256))]
fn vadd32(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

#[acc::parallel(vector_length(256))]
fn vadd64(a: &[f64], b: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

#[acc::parallel(vector_length(256))]
fn saxpy32(alpha: f32, x: &[f32], y: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

#[acc::parallel(vector_length(256))]
fn saxpy64(alpha: f64, x: &[f64], y: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

// ---------------------------------------------------------------------------------------------
// Single-loop reductions (50M elements).

#[acc::parallel]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

#[acc::parallel]
fn sum32(a: &[f32]) -> f32 {
    let mut s = 0.0f32;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel]
fn max32(a: &[f32]) -> f32 {
    let mut m = f32::NEG_INFINITY;
    #[acc::r#loop(gang, vector, reduction(max: m))]
    for i in 0..a.len() {
        m = m.max(a[i]);
    }
    m
}

#[acc::parallel]
fn min32(a: &[f32]) -> f32 {
    let mut m = f32::INFINITY;
    #[acc::r#loop(gang, vector, reduction(min: m))]
    for i in 0..a.len() {
        m = m.min(a[i]);
    }
    m
}

#[acc::parallel]
fn sum64(a: &[f64]) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel]
fn max64(a: &[f64]) -> f64 {
    let mut m = f64::NEG_INFINITY;
    #[acc::r#loop(gang, vector, reduction(max: m))]
    for i in 0..a.len() {
        m = m.max(a[i]);
    }
    m
}

#[acc::parallel]
fn min64(a: &[f64]) -> f64 {
    let mut m = f64::INFINITY;
    #[acc::r#loop(gang, vector, reduction(min: m))]
    for i in 0..a.len() {
        m = m.min(a[i]);
    }
    m
}

/// Row sums of a `rows x cols` matrix: one gang per row, a vector reduction along the row.
#[acc::parallel(vector_length(256))]
fn row_sums(a: &[f64], out: &mut [f64], rows: usize, cols: usize) {
    #[acc::r#loop(gang)]
    for r in 0..rows {
        let mut s = 0.0f64;
        #[acc::r#loop(vector, reduction(+: s))]
        for c in 0..cols {
            s += a[r * cols + c];
        }
        out[r] = s;
    }
}

// ---------------------------------------------------------------------------------------------
// Table 2 of the OpenUH reductions paper (Xu et al., PMAM'14): the triple nest k (gang) /
// j (worker) / i (vector) over `a[k][j][i]` (nk x nj x ni f64), the reduction at each position,
// with the `+` and `*` operators. The paper's geometry: 8 workers of 128 vector lanes. Where
// the reduced loops are not the innermost, the inner loops copy `a` into `t` in parallel and
// the reduction reads `t[k][j][0]` (the paper's Figure 4 (b), (c)).

/// gang (Figure 4 (c)): `s = sum_k t[k][0][0]` after each gang copies its slab.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gang_add(a: &[f64], t: &mut [f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s))]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
        }
        s += t[k * nj * ni];
    }
    s
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gang_mul(a: &[f64], t: &mut [f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 1.0f64;
    #[acc::r#loop(gang, reduction(*: s))]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
        }
        s *= t[k * nj * ni];
    }
    s
}

/// worker (Figure 4 (b)): `out[k] = k + sum_j t[k][j][0]` after the vector loop copies row (k, j).
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_worker_add(a: &[f64], t: &mut [f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut s = k as f64;
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
            s += t[(k * nj + j) * ni];
        }
        out[k] = s;
    }
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_worker_mul(a: &[f64], t: &mut [f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut s = 1.0f64;
        #[acc::r#loop(worker, reduction(*: s))]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
            s *= t[(k * nj + j) * ni];
        }
        out[k] = s;
    }
}

/// vector (Figure 4 (a)): `out[k * nj + j] = j + sum_i a[k][j][i]`.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_vector_add(a: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            let mut s = j as f64;
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..ni {
                s += a[(k * nj + j) * ni + i];
            }
            out[k * nj + j] = s;
        }
    }
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_vector_mul(a: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            let mut s = 1.0f64;
            #[acc::r#loop(vector, reduction(*: s))]
            for i in 0..ni {
                s *= a[(k * nj + j) * ni + i];
            }
            out[k * nj + j] = s;
        }
    }
}

/// gang worker: `s = sum_{k,j} t[k][j][0]`, the vector loop copying in parallel.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gw_add(a: &[f64], t: &mut [f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
            s += t[(k * nj + j) * ni];
        }
    }
    s
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gw_mul(a: &[f64], t: &mut [f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 1.0f64;
    #[acc::r#loop(gang, reduction(*: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(*: s))]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i];
            }
            s *= t[(k * nj + j) * ni];
        }
    }
    s
}

/// worker vector (Figure 9): `out[k] = k + sum_{j,i} a[k][j][i]`.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_wv_add(a: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut s = k as f64;
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..ni {
                s += a[(k * nj + j) * ni + i];
            }
        }
        out[k] = s;
    }
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_wv_mul(a: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut s = 1.0f64;
        #[acc::r#loop(worker, reduction(*: s))]
        for j in 0..nj {
            #[acc::r#loop(vector, reduction(*: s))]
            for i in 0..ni {
                s *= a[(k * nj + j) * ni + i];
            }
        }
        out[k] = s;
    }
}

/// gang worker vector: `s = sum_{k,j,i} a[k][j][i]` through the nest.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gwv_add(a: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..ni {
                s += a[(k * nj + j) * ni + i];
            }
        }
    }
    s
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_gwv_mul(a: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 1.0f64;
    #[acc::r#loop(gang, reduction(*: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(*: s))]
        for j in 0..nj {
            #[acc::r#loop(vector, reduction(*: s))]
            for i in 0..ni {
                s *= a[(k * nj + j) * ni + i];
            }
        }
    }
    s
}

/// same line gang worker vector (Figure 10): one loop over all of `a`.
#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_sgwv_add(a: &[f64]) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, worker, vector, reduction(+: s))]
    for x in 0..a.len() {
        s += a[x];
    }
    s
}

#[acc::parallel(num_workers(8), vector_length(128))]
fn nest_sgwv_mul(a: &[f64]) -> f64 {
    let mut s = 1.0f64;
    #[acc::r#loop(gang, worker, vector, reduction(*: s))]
    for x in 0..a.len() {
        s *= a[x];
    }
    s
}

// ---------------------------------------------------------------------------------------------
// The paper's applications (its Figure 13): a Heat2D step with a max-error reduction, a naive
// matrix product whose inner loop is a vector `+` reduction, Monte Carlo pi.

/// One Jacobi step of the 2-D heat equation on an `n x m` grid; returns max |new - old|.
#[acc::parallel(present(a, anew), vector_length(256))]
fn heat_step(a: &[f64], anew: &mut [f64], n: usize, m: usize) -> f64 {
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

#[acc::parallel(vector_length(128))]
fn matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, worker, collapse(2))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            #[acc::r#loop(vector, reduction(+: s))]
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

/// Points `(x[i], y[i])` inside the unit circle.
#[acc::parallel(vector_length(256))]
fn pi_count(x: &[f32], y: &[f32]) -> u32 {
    let mut m = 0u32;
    #[acc::r#loop(gang, vector, reduction(+: m))]
    for i in 0..x.len() {
        if x[i] * x[i] + y[i] * y[i] < 1.0 {
            m += 1;
        }
    }
    m
}

#[acc::parallel]
fn tiny(c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += 1.0;
    }
}

// ---------------------------------------------------------------------------------------------
// Sizes (the same in benches/cuda/baseline.cu and benches/gpu_baseline.py).

const N: usize = 50_000_000;
const NK: usize = 512;
const NJ: usize = 64;
const NI: usize = 4096;
const ROWS: usize = 8192;
const COLS: usize = 6144;
const HEAT: usize = 4096;
const MATMUL: usize = 1024;

/// Median seconds of one call of `f`: two warm-ups, then `REPS` timed calls (3 when one call
/// takes over 0.2 s, so that a slow lowering does not hold the machine for minutes).
fn median(mut f: impl FnMut()) -> f64 {
    let s = Instant::now();
    f();
    if s.elapsed().as_secs_f64() > 0.2 {
        common::median_of(3, f)
    } else {
        common::median(f)
    }
}

/// Prints one result line: `acc <case> <ms> <rate>`, `rate = work / seconds / 1e9`.
fn row(case: &str, secs: f64, work: f64) {
    println!("acc  {case:<20} {:>10.4} {:>10.1}", secs * 1e3, work / secs / 1e9);
}

/// `|got - want| <= tol * max(1, |want|)`, else a panic naming the case.
fn close(case: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol * want.abs().max(1.0), "{case}: got {got}, want {want}");
}

/// A deterministic hash of `i` (splitmix64); the CUDA baseline uses the same one.
fn hash(i: usize) -> u64 {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Reduction data: values in [-0.5, 1.5) in steps of 0.001, without visible pattern.
fn red_value(i: usize) -> f64 {
    (hash(i) % 2000) as f64 / 1000.0 - 0.5
}

/// The triple nest's data: 1.0 but for a few hundred 2.0 and 0.5, some at `i == 0` (what the
/// gang and worker positions reduce), so that every sum and product is exact in any order
/// (no subset holds more than ~520 factors of 2: far from overflow).
fn nest_value(idx: usize, ni: usize) -> f64 {
    let (row, i) = (idx / ni, idx % ni);
    if i == 0 {
        if row % 127 == 0 {
            2.0
        } else if row % 131 == 7 {
            0.5
        } else {
            1.0
        }
    } else if idx % 524_287 == 1000 {
        2.0
    } else if idx % 524_309 == 77 {
        0.5
    } else {
        1.0
    }
}

fn streaming() {
    let n = N;
    let a32 = vec![1.0f32; n];
    let b32 = vec![2.0f32; n];
    let mut c32 = vec![0.0f32; n];
    let mut saxpys = 0;
    acc::data!(copyin(a32, b32), copy(c32) {
        row("copy_f32", median(|| copy32(&a32, &mut c32)), 8.0 * n as f64);
        row("vadd_f32", median(|| vadd32(&a32, &b32, &mut c32)), 12.0 * n as f64);
        row("saxpy_f32", median(|| { saxpy32(0.5, &a32, &mut c32); saxpys += 1 }), 12.0 * n as f64);
    });
    let want = 3.0 + 0.5 * saxpys as f32;
    assert!(c32.iter().all(|&x| x == want), "vadd/saxpy f32 results wrong");

    let a64 = vec![1.0f64; n];
    let b64 = vec![2.0f64; n];
    let mut c64 = vec![0.0f64; n];
    let mut d = 0.0;
    let mut saxpys = 0;
    acc::data!(copyin(a64, b64), copy(c64) {
        row("copy_f64", median(|| copy64(&a64, &mut c64)), 16.0 * n as f64);
        row("vadd_f64", median(|| vadd64(&a64, &b64, &mut c64)), 24.0 * n as f64);
        row("saxpy_f64", median(|| { saxpy64(0.5, &a64, &mut c64); saxpys += 1 }), 24.0 * n as f64);
        row("dot_f64", median(|| d = dot(&a64, &b64)), 16.0 * n as f64);
    });
    assert_eq!(d, 2.0 * n as f64, "dot wrong");
    let want = 3.0 + 0.5 * saxpys as f64;
    assert!(c64.iter().all(|&x| x == want), "vadd/saxpy f64 results wrong");
}

fn reductions() {
    let n = N;
    let r64: Vec<f64> = (0..n).map(red_value).collect();
    let r32: Vec<f32> = r64.iter().map(|&x| x as f32).collect();
    let sum: f64 = r64.iter().sum();
    let (lo, hi) = r64.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    let (mut s32, mut mx32, mut mn32) = (0.0f32, 0.0f32, 0.0f32);
    acc::data!(copyin(r32) {
        row("sum_f32", median(|| s32 = sum32(&r32)), 4.0 * n as f64);
        row("max_f32", median(|| mx32 = max32(&r32)), 4.0 * n as f64);
        row("min_f32", median(|| mn32 = min32(&r32)), 4.0 * n as f64);
    });
    let sum32_want: f64 = r32.iter().map(|&x| x as f64).sum();
    close("sum_f32", s32 as f64, sum32_want, 1e-4);
    assert_eq!((mx32 as f64, mn32 as f64), (hi as f32 as f64, lo as f32 as f64), "max/min f32 wrong");
    drop(r32);
    let (mut s64, mut mx64, mut mn64) = (0.0, 0.0, 0.0);
    acc::data!(copyin(r64) {
        row("sum_f64", median(|| s64 = sum64(&r64)), 8.0 * n as f64);
        row("max_f64", median(|| mx64 = max64(&r64)), 8.0 * n as f64);
        row("min_f64", median(|| mn64 = min64(&r64)), 8.0 * n as f64);
    });
    close("sum_f64", s64, sum, 1e-9);
    assert_eq!((mx64, mn64), (hi, lo), "max/min f64 wrong");
    drop(r64);

    let (rows, cols) = (ROWS, COLS);
    let a: Vec<f64> = (0..rows * cols).map(red_value).collect();
    let mut out = vec![0.0f64; rows];
    acc::data!(copyin(a), copyout(out) {
        row("rowsum_f64", median(|| row_sums(&a, &mut out, rows, cols)), 8.0 * (rows * cols + rows) as f64);
    });
    for r in 0..rows {
        let want: f64 = a[r * cols..(r + 1) * cols].iter().sum();
        close("rowsum_f64", out[r], want, 1e-9);
    }
}

fn nest() {
    let (nk, nj, ni) = (NK, NJ, NI);
    let n = nk * nj * ni;
    println!("# triple nest {nk} x {nj} x {ni} f64 (gang x worker x vector)");
    let a: Vec<f64> = (0..n).map(|x| nest_value(x, ni)).collect();
    // What each position reduces, sequentially: row r = k * nj + j.
    let first: Vec<f64> = (0..nk * nj).map(|r| a[r * ni]).collect();
    let rows_add: Vec<f64> = (0..nk * nj).map(|r| (r % nj) as f64 + a[r * ni..(r + 1) * ni].iter().sum::<f64>()).collect();
    let rows_mul: Vec<f64> = (0..nk * nj).map(|r| a[r * ni..(r + 1) * ni].iter().product::<f64>()).collect();
    let slab = nj * ni;
    let slab_add: Vec<f64> = (0..nk).map(|k| k as f64 + a[k * slab..(k + 1) * slab].iter().sum::<f64>()).collect();
    let slab_mul: Vec<f64> = (0..nk).map(|k| a[k * slab..(k + 1) * slab].iter().product::<f64>()).collect();
    let worker_add: Vec<f64> = (0..nk).map(|k| k as f64 + first[k * nj..(k + 1) * nj].iter().sum::<f64>()).collect();
    let worker_mul: Vec<f64> = (0..nk).map(|k| first[k * nj..(k + 1) * nj].iter().product::<f64>()).collect();
    let gang_add: f64 = (0..nk).map(|k| first[k * nj]).sum();
    let gang_mul: f64 = (0..nk).map(|k| first[k * nj]).product();
    let gw_add: f64 = first.iter().sum();
    let gw_mul: f64 = first.iter().product();
    let all_add: f64 = a.iter().sum();
    let all_mul: f64 = a.iter().product();

    let mut t = vec![0.0f64; n];
    let mut out_k = vec![0.0f64; nk];
    let mut out_kj = vec![0.0f64; nk * nj];
    let (copy, read) = (16.0 * n as f64, 8.0 * n as f64);
    let mut s = 0.0;
    acc::data!(copyin(a), create(t, out_k, out_kj) {
        row("nest_gang_add", median(|| s = nest_gang_add(&a, &mut t, nk, nj, ni)), copy);
        close("nest_gang_add", s, gang_add, 1e-12);
        row("nest_gang_mul", median(|| s = nest_gang_mul(&a, &mut t, nk, nj, ni)), copy);
        close("nest_gang_mul", s, gang_mul, 1e-12);

        row("nest_worker_add", median(|| nest_worker_add(&a, &mut t, &mut out_k, nk, nj, ni)), copy + 8.0 * nk as f64);
        acc::update!(host(out_k));
        (0..nk).for_each(|k| close("nest_worker_add", out_k[k], worker_add[k], 1e-12));
        row("nest_worker_mul", median(|| nest_worker_mul(&a, &mut t, &mut out_k, nk, nj, ni)), copy + 8.0 * nk as f64);
        acc::update!(host(out_k));
        (0..nk).for_each(|k| close("nest_worker_mul", out_k[k], worker_mul[k], 1e-12));

        row("nest_vector_add", median(|| nest_vector_add(&a, &mut out_kj, nk, nj, ni)), read + 8.0 * (nk * nj) as f64);
        acc::update!(host(out_kj));
        (0..nk * nj).for_each(|r| close("nest_vector_add", out_kj[r], rows_add[r], 1e-12));
        row("nest_vector_mul", median(|| nest_vector_mul(&a, &mut out_kj, nk, nj, ni)), read + 8.0 * (nk * nj) as f64);
        acc::update!(host(out_kj));
        (0..nk * nj).for_each(|r| close("nest_vector_mul", out_kj[r], rows_mul[r], 1e-12));

        row("nest_gw_add", median(|| s = nest_gw_add(&a, &mut t, nk, nj, ni)), copy);
        close("nest_gw_add", s, gw_add, 1e-12);
        row("nest_gw_mul", median(|| s = nest_gw_mul(&a, &mut t, nk, nj, ni)), copy);
        close("nest_gw_mul", s, gw_mul, 1e-12);

        row("nest_wv_add", median(|| nest_wv_add(&a, &mut out_k, nk, nj, ni)), read + 8.0 * nk as f64);
        acc::update!(host(out_k));
        (0..nk).for_each(|k| close("nest_wv_add", out_k[k], slab_add[k], 1e-12));
        row("nest_wv_mul", median(|| nest_wv_mul(&a, &mut out_k, nk, nj, ni)), read + 8.0 * nk as f64);
        acc::update!(host(out_k));
        (0..nk).for_each(|k| close("nest_wv_mul", out_k[k], slab_mul[k], 1e-12));

        row("nest_gwv_add", median(|| s = nest_gwv_add(&a, nk, nj, ni)), read);
        close("nest_gwv_add", s, all_add, 1e-12);
        row("nest_gwv_mul", median(|| s = nest_gwv_mul(&a, nk, nj, ni)), read);
        close("nest_gwv_mul", s, all_mul, 1e-12);

        row("nest_sgwv_add", median(|| s = nest_sgwv_add(&a)), read);
        close("nest_sgwv_add", s, all_add, 1e-12);
        row("nest_sgwv_mul", median(|| s = nest_sgwv_mul(&a)), read);
        close("nest_sgwv_mul", s, all_mul, 1e-12);
    });
}

fn applications() {
    // Heat2D: one Jacobi step of a HEAT x HEAT grid and its max change.
    let (n, m) = (HEAT, HEAT);
    let a: Vec<f64> = (0..n * m).map(|x| (hash(x) % 1000) as f64 / 1000.0).collect();
    let mut anew = a.clone();
    let mut err = 0.0;
    acc::data!(copyin(a), copy(anew) {
        row("heat2d_f64", median(|| err = heat_step(&a, &mut anew, n, m)), 16.0 * (n * m) as f64);
    });
    let mut want = 0.0f64;
    for j in 1..n - 1 {
        for i in 1..m - 1 {
            let v = 0.25 * (a[j * m + i + 1] + a[j * m + i - 1] + a[(j - 1) * m + i] + a[(j + 1) * m + i]);
            want = want.max((v - a[j * m + i]).abs());
            assert!((anew[j * m + i] - v).abs() <= 1e-15, "heat2d_f64: anew[{j}][{i}] wrong");
        }
    }
    close("heat2d_f64", err, want, 1e-12);

    // Naive matrix product (small integers: every sum exact).
    let n = MATMUL;
    let a: Vec<f32> = (0..n * n).map(|x| (x % 5) as f32).collect();
    let b: Vec<f32> = (0..n * n).map(|x| (x % 3) as f32 - 1.0).collect();
    let mut c = vec![0.0f32; n * n];
    acc::data!(copyin(a, b), copyout(c) {
        row("matmul_f32", median(|| matmul(&a, &b, &mut c, n)), 2.0 * (n * n * n) as f64);
    });
    let mut want = vec![0.0f32; n * n];
    for i in 0..n {
        for k in 0..n {
            let aik = a[i * n + k];
            for j in 0..n {
                want[i * n + j] += aik * b[k * n + j];
            }
        }
    }
    assert!(c == want, "matmul_f32 wrong");

    // Monte Carlo pi from pre-generated points in [-1, 1)^2.
    let n = N;
    let x: Vec<f32> = (0..n).map(|i| (hash(2 * i) >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
    let y: Vec<f32> = (0..n).map(|i| (hash(2 * i + 1) >> 40) as f32 / (1u64 << 23) as f32 - 1.0).collect();
    let mut inside = 0u32;
    acc::data!(copyin(x, y) {
        row("pi_f32", median(|| inside = pi_count(&x, &y)), 8.0 * n as f64);
    });
    let want = (0..n).filter(|&i| x[i] * x[i] + y[i] * y[i] < 1.0).count() as u32;
    assert_eq!(inside, want, "pi_f32 count wrong");
    println!("# pi ~ {:.6}", 4.0 * inside as f64 / n as f64);
}

/// The median and mean seconds of 1000 calls of `call`, each timed, after 10 untimed.
fn time_calls(mut call: impl FnMut()) -> (f64, f64) {
    for _ in 0..10 {
        call();
    }
    let mut t: Vec<f64> = (0..1000)
        .map(|_| {
            let s = Instant::now();
            call();
            s.elapsed().as_secs_f64()
        })
        .collect();
    let mean = t.iter().sum::<f64>() / t.len() as f64;
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (t[t.len() / 2], mean)
}

/// Launch cost: 1000 launches of a 1024-element region inside a data region, each timed; then
/// the same region with its array in no data region: each call allocates the device copy,
/// copies it in and out (4 KiB each way) and frees it (benches/cuda/launch.cu's
/// `copy_inc1024`: cudaMemcpy, the launch, cudaMemcpy, into one cudaMalloc).
fn launch() {
    let mut small = vec![0.0f32; 1024];
    let (median, mean);
    let mut queued = (0.0, 0.0);
    acc::data!(copy(small) {
        // Each call waited for (`acc::wait_all`): on the GPU the region's call returns before
        // its kernel ends, its results staying on the device.
        (median, mean) = time_calls(|| {
            tiny(&mut small);
            acc::wait_all();
        });
        // Calls not waited for: what the host spends on each launch (nvcc's `enqueue`).
        queued = time_calls(|| tiny(&mut small));
    });
    assert!(small.iter().all(|&x| x == 2020.0));
    println!("acc  {:<20} {:>10.4} {:>10}", "launch", median * 1e3, "-");
    println!("# launch + sync of a small region inside a data region: median {:.2} us, mean {:.2} us", median * 1e6, mean * 1e6);
    println!("# launch of the small region inside a data region, not waited for: median {:.2} us, mean {:.2} us", queued.0 * 1e6, queued.1 * 1e6);
    let (median, mean) = time_calls(|| tiny(&mut small));
    assert!(small.iter().all(|&x| x == 3030.0));
    println!("# launch + sync of the small region copying its 4 KiB in and out: median {:.2} us, mean {:.2} us", median * 1e6, mean * 1e6);
}

fn main() {
    // `cargo bench -p acc-benches --bench gpu -- launch nest` runs those groups alone; no name runs them all
    // (`--bench`, which cargo passes, is not a group).
    let groups: [(&str, fn()); 5] = [("streaming", streaming), ("reductions", reductions), ("nest", nest), ("applications", applications), ("launch", launch)];
    let asked: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if let Some(a) = asked.iter().find(|a| !groups.iter().any(|(g, _)| g == a)) {
        eprintln!("no group `{a}` in this bench; its groups: {}", groups.map(|(g, _)| g).join(", "));
        std::process::exit(2);
    }
    println!("# acc bench, device: {:?}", acc::device_type());
    println!("# tool case                        ms       rate (GB/s; GFLOP/s for matmul)");
    for (name, run) in groups {
        if asked.is_empty() || asked.iter().any(|a| a == name) {
            run();
        }
    }
    common::print_launches();
}
