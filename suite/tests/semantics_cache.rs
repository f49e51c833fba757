//! `acc::cache!` (issue 11): a window that moves with a `vector` (or `gang, vector`) loop's
//! index, `a[i - r..=i + r]`, is staged in the block's shared memory on the GPU (fetched in
//! parallel by the block each trip, clamped to the array; the references read it with no range
//! check, proved inside the window at compile time). On the host it is a no-op. Either way the
//! results are the sequential Rust's: 3- and 5-point stencils at odd sizes (not multiples of a
//! block), their edges (`i = 0`, `i = n - 1`, windows clamped), several trips per thread
//! (grid-stride), a vector loop inside a gang loop, and `f64`/`i32` elements.

mod common;
use common::*;

const SIZES: [usize; 8] = [1, 2, 3, 31, 257, 1000, 4097, 100_003];

/// The 3-point stencil of `a` at `i`, one-sided at the edges (sequential Rust).
fn three(a: &[f32], i: usize) -> f32 {
    let n = a.len();
    let left = if i > 0 { a[i - 1] } else { 0.0 };
    let right = if i + 1 < n { a[i + 1] } else { 0.0 };
    left + 2.0 * a[i] + right
}

#[acc::parallel]
fn stencil3(a: &[f32], c: &mut [f32]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        acc::cache!(a[i - 1..=i + 1]);
        let left = if i > 0 { a[i - 1] } else { 0.0 };
        let right = if i + 1 < n { a[i + 1] } else { 0.0 };
        c[i] = left + 2.0 * a[i] + right;
    }
}

/// The same loop without `cache!` (its kernel has no shared memory and no barrier: PTX facts).
#[acc::parallel]
fn stencil3_plain(a: &[f32], c: &mut [f32]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        let left = if i > 0 { a[i - 1] } else { 0.0 };
        let right = if i + 1 < n { a[i + 1] } else { 0.0 };
        c[i] = left + 2.0 * a[i] + right;
    }
}

/// Blocks of 32 on 2 gangs: every thread takes many trips of the grid-stride loop, each
/// with its own fetch.
#[acc::parallel(num_gangs(2), vector_length(32))]
fn stencil3_strided(a: &[f32], c: &mut [f32]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        acc::cache!(a[i - 1..=i + 1]);
        let left = if i > 0 { a[i - 1] } else { 0.0 };
        let right = if i + 1 < n { a[i + 1] } else { 0.0 };
        c[i] = left + 2.0 * a[i] + right;
    }
}

#[test]
fn three_point_stencil() {
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 1000) as f32 * 0.5);
        let want: Vec<f32> = (0..n).map(|i| three(&a, i)).collect();
        let mut c = vec![0.0f32; n];
        stencil3(&a, &mut c);
        assert_eq!(c, want, "stencil3, {n} elements");
        let mut c = vec![0.0f32; n];
        stencil3_strided(&a, &mut c);
        assert_eq!(c, want, "stencil3_strided, {n} elements");
        let mut c = vec![0.0f32; n];
        stencil3_plain(&a, &mut c);
        assert_eq!(c, want, "stencil3_plain, {n} elements");
    }
}

/// A 5-point window written as a half-open range, on `f64`, over an interior loop (its lower
/// bound is not 0), the edges written by a second loop.
#[acc::parallel]
fn stencil5(a: &[f64], c: &mut [f64]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 2..n - 2 {
        acc::cache!(a[i - 2..i + 3]);
        c[i] = (a[i - 2] + a[i + 2]) * 0.125 + (a[i - 1] + a[i + 1]) * 0.25 + a[i] * 0.5;
    }
}

#[test]
fn five_point_stencil() {
    for n in SIZES.into_iter().filter(|&n| n >= 4) {
        let a = vec_of(n, |i| (hash(i) % 4096) as f64 / 7.0);
        let mut want = vec![-1.0f64; n];
        for i in 2..n - 2 {
            want[i] = (a[i - 2] + a[i + 2]) * 0.125 + (a[i - 1] + a[i + 1]) * 0.25 + a[i] * 0.5;
        }
        let mut c = vec![-1.0f64; n];
        stencil5(&a, &mut c);
        assert_eq!(c, want, "{n} elements");
    }
}

/// A window reaching only forward (`a[i..=i + 2]`) of `i32`, in a vector loop inside a gang
/// loop: each gang's vector loop fetches its windows, the last ones clamped at the end.
#[acc::parallel]
fn forward_rows(a: &[i32], c: &mut [i32], reps: usize) {
    let n = a.len();
    #[acc::r#loop(gang)]
    for t in 0..reps {
        #[acc::r#loop(vector)]
        for i in 0..n {
            acc::cache!(a[i..i + 3]);
            let mut s = a[i];
            if i + 2 < n {
                s = s.wrapping_mul(3).wrapping_add(a[i + 1]).wrapping_sub(a[i + 2]);
            }
            c[t * n + i] = s.wrapping_mul(t as i32 + 1);
        }
    }
}

#[test]
fn forward_window_in_a_gang_loop() {
    for n in SIZES {
        let reps = 3;
        let a = vec_of(n, |i| (hash(i) % 100_000) as i32 - 50_000);
        let mut want = vec![0i32; reps * n];
        for t in 0..reps {
            for i in 0..n {
                let mut s = a[i];
                if i + 2 < n {
                    s = s.wrapping_mul(3).wrapping_add(a[i + 1]).wrapping_sub(a[i + 2]);
                }
                want[t * n + i] = s.wrapping_mul(t as i32 + 1);
            }
        }
        let mut c = vec![0i32; reps * n];
        forward_rows(&a, &mut c, reps);
        assert_eq!(c, want, "{n} elements");
    }
}

/// A cached loop with a reduction: the sum of a 3-point stencil.
#[acc::parallel]
fn stencil_sum(a: &[f64]) -> f64 {
    let n = a.len();
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 1..n - 1 {
        acc::cache!(a[i - 1..=i + 1]);
        s += a[i - 1] - 2.0 * a[i] + a[i + 1];
    }
    s
}

#[test]
fn cached_loop_with_a_reduction() {
    for n in SIZES.into_iter().filter(|&n| n >= 2) {
        // Small integers: every sum exact, in any order.
        let a = vec_of(n, |i| (hash(i) % 64) as f64);
        let want: f64 = (1..n - 1).map(|i| a[i - 1] - 2.0 * a[i] + a[i + 1]).sum();
        assert_eq!(stencil_sum(&a), want, "{n} elements");
    }
}

// ---- Several points a thread a trip ----
//
// A trip of the block gives each thread 4 points a block apart where the nest's windows of 4
// points fit 32 KiB (`acc_device::window_points`), 2 or 1 where they do not; a window of more
// than 5 x blockDim.x elements a trip is fetched in a loop rather than a trip ahead.

/// Blocks of 32 and a 41-element window: `4 * 32 + 40` elements a trip, more than the `5 * 32`
/// a trip ahead holds.
#[acc::parallel(vector_length(32))]
fn wide41(a: &[f32], c: &mut [f32]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 20..n - 20 {
        acc::cache!(a[i - 20..=i + 20]);
        c[i] = a[i - 20] + 2.0 * a[i] + 3.0 * a[i + 20] - a[i + 7];
    }
}

/// Blocks of 1024 with two `f64` windows: 2 points a thread (4 would take 64 KiB).
#[acc::parallel(vector_length(1024))]
fn two_windows(a: &[f64], b: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        acc::cache!(a[i - 1..=i + 1], b[i..=i + 1]);
        c[i] = a[i - 1] - a[i + 1] + b[i] * b[i + 1];
    }
}

/// Blocks of 1024 with three `f64` windows: one point a thread (2 would take 48 KiB).
#[acc::parallel(vector_length(1024))]
fn three_windows(a: &[f64], b: &[f64], d: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        acc::cache!(a[i - 1..=i + 1], b[i..=i + 1], d[i - 1..=i]);
        c[i] = a[i - 1] - a[i + 1] + b[i] * b[i + 1] + d[i - 1] * 0.5 + d[i];
    }
}

/// Two vector loops of a gang loop, each staging a window of its own, on blocks of 1024: the
/// first's `f64` window alone would take 4 points a thread, the two together (12 bytes a point)
/// take 2 in both loops, which the launch sized their windows for.
#[acc::parallel(vector_length(1024))]
fn two_loops(a: &[f64], b: &[f32], c: &mut [f64], d: &mut [f32], reps: usize) {
    let n = a.len();
    #[acc::r#loop(gang)]
    for t in 0..reps {
        #[acc::r#loop(vector)]
        for i in 1..n - 1 {
            acc::cache!(a[i - 1..=i + 1]);
            c[t * n + i] = (a[i - 1] + a[i + 1]) * (t as f64 + 1.0);
        }
        #[acc::r#loop(vector)]
        for i in 2..n - 2 {
            acc::cache!(b[i - 2..=i + 2]);
            d[t * n + i] = b[i - 2] - b[i + 2] + t as f32;
        }
    }
}

#[test]
fn trips_of_several_points_a_thread() {
    for n in SIZES.into_iter().chain([41, 42, 4 * 32 + 40, 8191, 2 * 1024 + 5]).filter(|&n| n >= 4) {
        let a = vec_of(n, |i| (hash(i) % 1000) as f32 * 0.25);
        if n >= 41 {
            let mut want = vec![-1.0f32; n];
            for i in 20..n - 20 {
                want[i] = a[i - 20] + 2.0 * a[i] + 3.0 * a[i + 20] - a[i + 7];
            }
            let mut c = vec![-1.0f32; n];
            wide41(&a, &mut c);
            assert_eq!(c, want, "wide41, {n} elements");
        }
        let x = vec_of(n, |i| (hash(i) % 4096) as f64 / 8.0);
        let y = vec_of(n, |i| (hash(i + 7) % 512) as f64 / 4.0);
        let z = vec_of(n, |i| (hash(i + 11) % 256) as f64);
        let mut want2 = vec![-1.0f64; n];
        let mut want3 = vec![-1.0f64; n];
        for i in 1..n - 1 {
            want2[i] = x[i - 1] - x[i + 1] + y[i] * y[i + 1];
            want3[i] = x[i - 1] - x[i + 1] + y[i] * y[i + 1] + z[i - 1] * 0.5 + z[i];
        }
        let mut c = vec![-1.0f64; n];
        two_windows(&x, &y, &mut c);
        assert_eq!(c, want2, "two_windows, {n} elements");
        let mut c = vec![-1.0f64; n];
        three_windows(&x, &y, &z, &mut c);
        assert_eq!(c, want3, "three_windows, {n} elements");
        let reps = 3;
        let (mut wc, mut wd) = (vec![-1.0f64; reps * n], vec![-1.0f32; reps * n]);
        for t in 0..reps {
            for i in 1..n - 1 {
                wc[t * n + i] = (x[i - 1] + x[i + 1]) * (t as f64 + 1.0);
            }
            for i in 2..n - 2 {
                wd[t * n + i] = a[i - 2] - a[i + 2] + t as f32;
            }
        }
        let (mut c, mut d) = (vec![-1.0f64; reps * n], vec![-1.0f32; reps * n]);
        two_loops(&x, &a, &mut c, &mut d, reps);
        assert_eq!(c, wc, "two_loops' first loop, {n} elements");
        assert_eq!(d, wd, "two_loops' second loop, {n} elements");
    }
}

// ---- 2-D windows: the paper's GEMM (Section V-B 1) ----
//
// `acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j])` at the top of the k-tile
// loop of a `tile(x, y)` nest: on the GPU each block stages a (blockDim.y x 16) tile of `a` and a
// (16 x blockDim.x) tile of `b` in shared memory per trip, every thread of the block (those past
// the matrix's edge too) fetching; on the host a no-op. Sizes not multiples of 16 (windows past
// the edge, clamped), more tiles than blocks (grid-stride), the windows of `a`, of `b`, or both;
// small integers in `f32`, so every sum is exact.

/// `c = a * b` for `n x n` row-major matrices (sequential Rust).
fn gemm_want(a: &[f32], b: &[f32], n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
    c
}

#[acc::parallel]
fn gemm_both16(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// 32 x 32 blocks, the k-tile loop over tile numbers (`kk = t * 16`), the last tile's
/// columns past `n` guarded in the body.
#[acc::parallel]
fn gemm_both32(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for t in 0..n.div_ceil(16) {
                acc::cache!(a[i * n + (t * 16..t * 16 + 16)], b[(t * 16..t * 16 + 16) * n + j]);
                for k in t * 16..t * 16 + 16 {
                    if k < n {
                        s += a[i * n + k] * b[k * n + j];
                    }
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// Only `a`'s window, two gangs a dimension (many grid-stride tiles a block).
#[acc::parallel(num_gangs(2))]
fn gemm_a16(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// Only `b`'s window.
#[acc::parallel]
fn gemm_b32(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// The same GEMM without `cache!` (its kernel has no shared memory: PTX facts).
#[acc::parallel]
fn gemm_plain16(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

#[test]
fn gemm_with_2d_windows() {
    for n in [1, 16, 17, 100, 129] {
        let a = vec_of(n * n, |i| (hash(i) % 7) as f32 - 3.0);
        let b = vec_of(n * n, |i| (hash(i + 7919) % 5) as f32 - 2.0);
        let want = gemm_want(&a, &b, n);
        let run: [(&str, fn(&[f32], &[f32], &mut [f32], usize)); 5] =
            [("both16", gemm_both16), ("both32", gemm_both32), ("a16", gemm_a16), ("b32", gemm_b32), ("plain16", gemm_plain16)];
        for (name, f) in run {
            let mut c = vec![-1.0f32; n * n];
            f(&a, &b, &mut c, n);
            assert_eq!(c, want, "gemm_{name}, n = {n}");
        }
    }
}

/// A window wider than the trip's reads and an offset reference `lo + c` (row `i` of `a`,
/// 32 columns from `kk`; the body reads the first 16 through a loop and two by offsets), and
/// a `kernels` region whose tile rows are not square (8 x 4 blocks).
#[acc::kernels]
fn gemm_offsets(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(8, 4))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(32) {
                acc::cache!(a[i * n + (kk..kk + 32)]);
                for k in kk..(kk + 32).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
                if kk + 1 < n {
                    s += a[i * n + (kk + 1)] - a[i * n + kk];
                }
            }
            c[i * n + j] = s;
        }
    }
}

#[test]
fn gemm_with_offset_references() {
    for n in [1, 2, 31, 33, 70] {
        let a = vec_of(n * n, |i| (hash(i) % 9) as f32 - 4.0);
        let b = vec_of(n * n, |i| (hash(i + 31) % 3) as f32);
        let mut want = gemm_want(&a, &b, n);
        for i in 0..n {
            for j in 0..n {
                for kk in (0..n).step_by(32) {
                    if kk + 1 < n {
                        want[i * n + j] += a[i * n + kk + 1] - a[i * n + kk];
                    }
                }
            }
        }
        let mut c = vec![-1.0f32; n * n];
        gemm_offsets(&a, &b, &mut c, n);
        assert_eq!(c, want, "n = {n}");
    }
}

// ---- Several rows of the tile a thread ----
//
// On the GPU a staged nest whose tile has 8 or more rows, a multiple of 4, runs blocks of a
// quarter of the rows: each thread takes rows `ty`, `ty + blockDim.y`, .. of the tile, the
// copies of the body jammed into the k-tile loop (acc-codegen's `tiles::Coarse`). Sizes with
// partial tiles (the copies one after the other at the edges), `f64` tiles, temporaries and a
// macro in the body, windows whose columns follow the rows' variable and whose rows follow the
// columns', arrays whose elements are not 16-byte aligned (the fetch's 16-byte copies fall
// back to elements), and a body that keeps one row a thread.

/// `f64` tiles (two elements a 16-byte copy), two sums, a temporary in the k loop, a `let`
/// before the k-tile loop and an `assert!` that reads it.
#[acc::parallel]
fn gemm_f64_rows(a: &[f64], b: &[f64], c: &mut [f64], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f64;
            let mut t = 0.0f64;
            let row = i * n;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    let p = a[i * n + k] * b[k * n + j];
                    s += p;
                    t += 0.5 * p;
                }
            }
            assert!(row / n == i);
            c[row + j] = s + t;
        }
    }
}

/// `at` is `a` transposed (its window's columns follow `i`, the rows a thread takes), `bt` is
/// `b` transposed (its window's rows follow `j`).
#[acc::parallel]
fn gemm_transposed(at: &[f32], bt: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(at[(kk..kk + 16) * n + i], bt[j * n + (kk..kk + 16)]);
                for k in kk..(kk + 16).min(n) {
                    s += at[k * n + i] * bt[j * n + k];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// `k` is bound by a `let` and by a loop: the nest keeps one row of the tile a thread.
#[acc::parallel]
fn gemm_one_row(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            let k = i * n + j;
            c[k] = s;
        }
    }
}

#[test]
fn gemm_with_several_rows_a_thread() {
    for n in [1, 5, 16, 17, 33, 100, 129] {
        let a = vec_of(n * n, |i| (hash(i) % 7) as f32 - 3.0);
        let b = vec_of(n * n, |i| (hash(i + 7919) % 5) as f32 - 2.0);
        let want = gemm_want(&a, &b, n);

        let (a64, b64): (Vec<f64>, Vec<f64>) = (a.iter().map(|&x| f64::from(x)).collect(), b.iter().map(|&x| f64::from(x)).collect());
        let mut c64 = vec![-1.0f64; n * n];
        gemm_f64_rows(&a64, &b64, &mut c64, n);
        let want64: Vec<f64> = want.iter().map(|&x| 1.5 * f64::from(x)).collect();
        assert_eq!(c64, want64, "gemm_f64_rows, n = {n}");

        let at = vec_of(n * n, |x| a[(x % n) * n + x / n]);
        let bt = vec_of(n * n, |x| b[(x % n) * n + x / n]);
        let mut c = vec![-1.0f32; n * n];
        gemm_transposed(&at, &bt, &mut c, n);
        assert_eq!(c, want, "gemm_transposed, n = {n}");

        let mut c = vec![-1.0f32; n * n];
        gemm_one_row(&a, &b, &mut c, n);
        assert_eq!(c, want, "gemm_one_row, n = {n}");

        // Arrays that start 4 bytes past a 16-byte boundary: the regions read them inside
        // the arrays a data region put on the device (present by containment).
        let mut a1 = vec![0.0f32; n * n + 1];
        let mut b1 = vec![0.0f32; n * n + 1];
        a1[1..].copy_from_slice(&a);
        b1[1..].copy_from_slice(&b);
        let run: [(&str, fn(&[f32], &[f32], &mut [f32], usize)); 2] = [("both16", gemm_both16), ("both32", gemm_both32)];
        for (name, f) in run {
            let mut c = vec![-1.0f32; n * n];
            acc::data!(copyin(a1, b1) {
                f(&a1[1..], &b1[1..], &mut c, n);
            });
            assert_eq!(c, want, "gemm_{name} on unaligned arrays, n = {n}");
        }
    }
}

// ---- 1-D windows of a tile loop: the paper's N-body (Section V-B 2) ----
//
// `acc::cache!(x[jj..jj + 64], ..)` at the top of a sequential loop over tiles of the other
// bodies, in the body of a `gang, vector` loop over the bodies: on the GPU the whole block
// fetches each tile into shared memory (the vector loop in trips of the whole block, threads
// past its end fetching and meeting the barriers); the host runs the loops as written. Sizes
// not multiples of the tile or of a block; `f64`; a tile wider than the reads; a `vector`
// loop inside a `gang` loop.

/// Softened forces (one component) of `n` bodies on each other, positions `x`, `y`, masses `m`.
#[acc::parallel]
fn nbody_tiles(x: &[f32], y: &[f32], m: &[f32], f: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        let (xi, yi) = (x[i], y[i]);
        let mut fx = 0.0f32;
        for jj in (0..n).step_by(64) {
            acc::cache!(x[jj..jj + 64], y[jj..jj + 64], m[jj..jj + 64]);
            for j in jj..(jj + 64).min(n) {
                let (dx, dy) = (x[j] - xi, y[j] - yi);
                let r2 = dx * dx + dy * dy + 0.5;
                fx += dx * m[j] / r2;
            }
        }
        f[i] = fx;
    }
}

/// The same sums in `f64`, the tile loop over tile numbers, the window wider than the reads
/// (`t * 32..t * 32 + 48`, 32 read), in a `vector` loop inside a `gang` loop over rows.
#[acc::parallel]
fn rows_tiles(a: &[f64], w: &[f64], out: &mut [f64], rows: usize, n: usize) {
    #[acc::r#loop(gang)]
    for r in 0..rows {
        #[acc::r#loop(vector)]
        for i in 0..n {
            let mut s = 0.0f64;
            for t in 0..n.div_ceil(32) {
                acc::cache!(w[t * 32..t * 32 + 48]);
                for j in t * 32..(t * 32 + 32).min(n) {
                    s += w[j] * a[r * n + i] + (j % 3) as f64;
                }
            }
            out[r * n + i] = s;
        }
    }
}

#[test]
fn one_dimensional_windows_of_tile_loops() {
    for n in [1, 5, 63, 64, 65, 300, 1000] {
        let x = vec_of(n, |i| (hash(i) % 17) as f32 - 8.0);
        let y = vec_of(n, |i| (hash(i + 3) % 13) as f32 - 6.0);
        let m = vec_of(n, |i| (hash(i + 5) % 4) as f32 + 1.0);
        let want: Vec<f32> = (0..n)
            .map(|i| {
                let mut fx = 0.0f32;
                for j in 0..n {
                    let (dx, dy) = (x[j] - x[i], y[j] - y[i]);
                    fx += dx * m[j] / (dx * dx + dy * dy + 0.5);
                }
                fx
            })
            .collect();
        let mut f = vec![-1.0f32; n];
        nbody_tiles(&x, &y, &m, &mut f, n);
        assert_eq!(f, want, "nbody_tiles, n = {n}");

        let rows = 3;
        let a = vec_of(rows * n, |i| (hash(i) % 9) as f64);
        let w = vec_of(n, |i| (hash(i + 11) % 5) as f64 - 2.0);
        let want: Vec<f64> = (0..rows * n)
            .map(|ri| {
                let mut s = 0.0f64;
                for j in 0..n {
                    s += w[j] * a[ri] + (j % 3) as f64;
                }
                s
            })
            .collect();
        let mut out = vec![-1.0f64; rows * n];
        rows_tiles(&a, &w, &mut out, rows, n);
        assert_eq!(out, want, "rows_tiles, n = {n}");
    }
}

// ---- 2-D windows that move with both loops of a tile nest: the paper's Jacobi (V-B 3) ----
//
// `acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)])` at the top of a `tile` nest's body:
// on the GPU each block fetches its tile of the grid and the halo around it (`rows + 2` by
// `cols + 2`) once per tile of the block, and the body reads its 3 x 3 neighbours there. The
// host runs the loops as written. Sizes not multiples of the tile; tiles of 2, 4 and 8 adjacent
// rows a thread (`tile(32, 8)`, `tile(16, 16)`, `tile(32, 32)`), of one (`tile(8, 3)`); `f64`; inclusive and asymmetric
// windows; a window moving with one loop only; a nest from 0 whose body guards its edges (the
// window's first row is then `i - 1` at `i = 0`); references written `i * n + j - 1`.

/// The 9-point weighted average at `(i, j)` (sequential Rust).
fn nine(a: &[f32], n: usize, i: usize, j: usize) -> f32 {
    0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
        + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
        + 0.25 * a[i * n + j]
}

#[acc::parallel]
fn jacobi9_32x8(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 8))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]);
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

/// 8 adjacent rows of the tile a thread (`tile(32, 32)`: blocks of 32 x 4 threads), the rows
/// the copies share read from the tile once for them all.
#[acc::parallel]
fn jacobi9_32x32(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]);
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

/// A window of 5 rows (a halo of 2 above and below) on 16-row tiles: 4 adjacent rows a thread.
#[acc::parallel]
fn column5_16x16(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 2..n - 2 {
        for j in 0..n {
            acc::cache!(a[(i - 2..i + 3) * n + j]);
            b[i * n + j] = a[(i - 2) * n + j] + 2.0 * a[(i - 1) * n + j] + 4.0 * a[i * n + j] + 8.0 * a[(i + 1) * n + j] + 16.0 * a[(i + 2) * n + j];
        }
    }
}

/// One row of the tile a thread (`tile(8, 3)`), the window written inclusive, a `let` first.
#[acc::parallel]
fn jacobi9_8x3(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(8, 3))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..=i + 1) * n + (j - 1..=j + 1)]);
            let corners = a[(i - 1) * n + (j - 1)] + a[(i - 1) * n + (j + 1)] + a[(i + 1) * n + (j - 1)] + a[(i + 1) * n + (j + 1)];
            let edges = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + (j - 1)] + a[i * n + (j + 1)];
            b[i * n + j] = 0.0625 * corners + 0.125 * edges + 0.25 * a[i * n + j];
        }
    }
}

/// The nest from 0, its edges guarded; an `f64` window of two rows and three columns that
/// does not centre on `(i, j)`; a second array with a window moving with `j` only (its rows
/// follow `i`) and a third moving with `i` only.
#[acc::parallel]
fn skewed_16x16(a: &[f64], w: &[f64], v: &[f64], b: &mut [f64], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            acc::cache!(a[(i..i + 2) * n + (j - 2..j + 1)], w[i * n + (j - 1..j + 2)], v[(i - 1..i + 1) * n + j]);
            if i + 1 < n && j >= 2 && j + 1 < n && i >= 1 {
                b[i * n + j] = a[i * n + j - 2] + 2.0 * a[(i + 1) * n + j - 1] + 4.0 * a[(i + 1) * n + j] + w[i * n + j - 1] - w[i * n + j + 1] + 8.0 * v[(i - 1) * n + j] + v[i * n + j];
            } else {
                b[i * n + j] = -2.0;
            }
        }
    }
}

#[test]
fn jacobi_windows_that_move_with_the_nest() {
    for n in [2, 3, 4, 9, 33, 34, 35, 67, 130] {
        let a = vec_of(n * n, |k| (hash(k) % 16) as f32);
        let mut want = vec![-1.0f32; n * n];
        for i in 1..n.saturating_sub(1) {
            for j in 1..n - 1 {
                want[i * n + j] = nine(&a, n, i, j);
            }
        }
        let run: [(&str, fn(&[f32], &mut [f32], usize)); 3] = [("jacobi9_32x8", jacobi9_32x8), ("jacobi9_8x3", jacobi9_8x3), ("jacobi9_32x32", jacobi9_32x32)];
        for (name, f) in run {
            let mut b = vec![-1.0f32; n * n];
            f(&a, &mut b, n);
            assert_eq!(b, want, "{name}, n = {n}");
        }
        let mut want = vec![-1.0f32; n * n];
        for i in 2..n.saturating_sub(2) {
            for j in 0..n {
                want[i * n + j] = a[(i - 2) * n + j] + 2.0 * a[(i - 1) * n + j] + 4.0 * a[i * n + j] + 8.0 * a[(i + 1) * n + j] + 16.0 * a[(i + 2) * n + j];
            }
        }
        let mut b = vec![-1.0f32; n * n];
        column5_16x16(&a, &mut b, n);
        assert_eq!(b, want, "column5_16x16, n = {n}");

        let a = vec_of(n * n, |k| (hash(k + 1) % 9) as f64 - 4.0);
        let w = vec_of(n * n, |k| (hash(k + 2) % 5) as f64);
        let v = vec_of(n * n, |k| (hash(k + 3) % 7) as f64);
        let want: Vec<f64> = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                if i + 1 < n && j >= 2 && j + 1 < n && i >= 1 {
                    a[i * n + j - 2] + 2.0 * a[(i + 1) * n + j - 1] + 4.0 * a[(i + 1) * n + j] + w[i * n + j - 1] - w[i * n + j + 1] + 8.0 * v[(i - 1) * n + j] + v[i * n + j]
                } else {
                    -2.0
                }
            })
            .collect();
        let mut b = vec![-1.0f64; n * n];
        skewed_16x16(&a, &w, &v, &mut b, n);
        assert_eq!(b, want, "skewed_16x16, n = {n}");
    }
}

/// A window wider than the references need: at the first two and last two trips it passes the
/// array's ends (each reference there guarded by an `if`). The trips whose whole window lies
/// inside the array read it without checking each reference, the others check each one.
#[acc::parallel]
fn wide_window(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        acc::cache!(a[i - 2..=i + 2]);
        let mut s = a[i];
        if i >= 1 {
            s += 2.0 * a[i - 1];
        }
        if i + 2 < a.len() {
            s += 4.0 * a[i + 2];
        }
        c[i] = s;
    }
}

/// A reference past the array's end at the last trip: the trip's window passes it too, and the
/// checked reference panics there.
#[acc::parallel]
fn one_past_the_end(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        acc::cache!(a[i..=i + 1]);
        c[i] = a[i] + a[i + 1];
    }
}

#[test]
fn windows_past_the_arrays_ends_check_their_references() {
    for n in SIZES {
        let a = vec_of(n, |i| (hash(i) % 64) as f32);
        let mut c = vec![-1.0f32; n];
        acc::data!(copyin(a), copy(c) {
            wide_window(&a, &mut c);
        });
        let want: Vec<f32> = (0..n)
            .map(|i| {
                let mut s = a[i];
                if i >= 1 {
                    s += 2.0 * a[i - 1];
                }
                if i + 2 < n {
                    s += 4.0 * a[i + 2];
                }
                s
            })
            .collect();
        assert_eq!(c, want, "wide window, n = {n}");
    }
    // On the GPU the kernel's record names the reference `a[i + 1]` at the user's line and
    // column, where the host's check panics (the checked copy of the loop's body stands further
    // right on that line of the device crate).
    let src = include_str!("semantics_cache.rs");
    let (line, text) = src.lines().enumerate().find(|(_, l)| l.trim() == "c[i] = a[i] + a[i + 1];").expect("the reference's line");
    let at = format!("tests/semantics_cache.rs:{}:{}: ", line + 1, text.find("a[i + 1]").unwrap() + 1);
    for n in [1, 2, 300, 70_001] {
        let a = vec_of(n, |i| i as f32);
        let mut c = vec![-1.0f32; n];
        let gpu = acc::profile::launch_counts().gpu;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| one_past_the_end(&a, &mut c)));
        let msg = panic_message(&*r.expect_err("a reference past the array's end panics"));
        assert!(msg.contains(&format!("the len is {n} but the index is {n}")), "n = {n}: {msg}");
        if acc::profile::launch_counts().gpu > gpu {
            assert!(msg.contains(&format!("panicked at {at}")), "n = {n}: the panic names {at}: {msg}");
        }
    }
}

/// A nest staging a 2-D window has a kernel without index checks too, which the launch runs
/// where every index is inside its array (`jacobi9_32x8` into a whole grid); a store past the
/// end of `b` (a grid one element short of the last interior point) leaves the checked kernel
/// to run, and it panics there as the host does.
#[test]
fn staged_tile_nests_run_unchecked_only_where_the_launch_proves_their_indices() {
    for n in [35, 130] {
        let a = vec_of(n * n, |k| (hash(k) % 16) as f32);
        let mut b = vec![-1.0f32; n * n];
        let before = acc::profile::launch_counts();
        jacobi9_32x8(&a, &mut b, n);
        let after = acc::profile::launch_counts();
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                assert_eq!(b[i * n + j], nine(&a, n, i, j), "n = {n}: ({i}, {j})");
            }
        }
        if after.gpu > before.gpu {
            assert!(after.bounded > before.bounded, "n = {n}: the kernel without index checks ran");
        }
        let last = (n - 2) * n + (n - 2);
        let mut short = vec![-1.0f32; last];
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| jacobi9_32x8(&a, &mut short, n)));
        let msg = panic_message(&*r.expect_err("a store past b's end panics"));
        assert!(msg.contains(&format!("the len is {last} but the index is {last}")), "n = {n}: {msg}");
    }
}

/// The cache paper's Listing 1 / Fig. 1 stencil (radius 30): the window read through an inner
/// sequential loop, `for j in i - 30..=i + 30 { s += a[j]; }`, each `a[j]` inside the window.
#[acc::parallel]
fn radius30(a: &[f64], b: &mut [f64]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 30..n - 30 {
        acc::cache!(a[i - 30..=i + 30]);
        let mut s = 0.0;
        for j in i - 30..=i + 30 {
            s += a[j];
        }
        b[i] = s;
    }
}

/// A part of the window through an exclusive range, beside `a[i + c]` references.
#[acc::parallel(vector_length(64))]
fn half_window(a: &[i64], b: &mut [i64]) {
    let n = a.len();
    #[acc::r#loop(gang, vector)]
    for i in 4..n - 4 {
        acc::cache!(a[i - 4..i + 5]);
        let mut s = a[i + 4] * 100;
        for j in i - 4..i {
            s += a[j] * (j as i64 % 3);
        }
        b[i] = s;
    }
}

#[test]
fn a_window_read_through_an_inner_loop() {
    for n in [61usize, 62, 100, 1000, 4097, 100_003] {
        let a: Vec<f64> = (0..n).map(|i| (hash(i) % 1000) as f64).collect();
        let mut b = vec![-1.0; n];
        radius30(&a, &mut b);
        for i in 0..n {
            let want = if (30..n - 30).contains(&i) { a[i - 30..=i + 30].iter().sum() } else { -1.0 };
            assert_eq!(b[i], want, "{n} elements, at {i}");
        }
        let a: Vec<i64> = (0..n).map(|i| (hash(i) % 77) as i64 - 30).collect();
        let mut b = vec![0i64; n];
        half_window(&a, &mut b);
        for i in 4..n - 4 {
            let want = a[i + 4] * 100 + (i - 4..i).map(|j| a[j] * (j as i64 % 3)).sum::<i64>();
            assert_eq!(b[i], want, "{n} elements, at {i}");
        }
    }
}
