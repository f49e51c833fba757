//! Chunked `vector` loops (acc-codegen `lower/chunk.rs`): on the GPU a streaming loop runs 4
//! consecutive trips a thread and moves each array reached as `a[e + i]` 4 elements an access
//! where the chunk is aligned and inside the array, the other trips one at a time. Each test
//! compares with the same loop in plain Rust over the cases that decide which path a trip
//! takes: sub-slices at every offset from an aligned start (no chunk aligned, a peel of 1-3
//! trips), trip counts around multiples of 4, loops starting at 1, arrays whose chunks do not
//! align together, rows of odd length in a nest, element types of 1 to 8 bytes, branches
//! that write some elements and not others. Reductions over an inner vector loop take chunks
//! in rounds of 12, 4, 2 and 1, chunks inside the arrays counted once: rows around each round's
//! edge. On the host backend the loops run as written.
//!
//! Also a gang per warp (acc-codegen `lower/schedule.rs`): a top-level gang loop whose trips
//! meet no barrier gives each warp trips of its own where it has at least as many trips as
//! the grid has warps; the gang loops below run on either side of that line (`num_gangs(4)`
//! blocks of 4 warps: 16 trips), with reductions over the gang and over every level.
//! And the lean kernel of a nest whose inner loops take chunks (the same nest without them,
//! launched where it fits more blocks or every warp has gang trips of its own: `gang_copy`
//! from 16 trips, `gw_copy` with more gangs than multiprocessors where its registers allow,
//! `row_stats` with more blocks than multiprocessors: its reductions take no chunks there);
//! `ACC_NOTIFY=1` marks its launches `(lean kernel)`. Where the launch proves the nest's
//! indices inside their arrays, the lean kernel runs without their checks (`(lean kernel,
//! indices bounded)`); where it cannot, the checked one panics at the access as the host does.

mod common;
use common::*;

const SIZES: [usize; 12] = [0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 1001, 65539];

// Few threads (`num_gangs`, `vector_length`): a loop takes chunks where it has at least a
// chunk for each thread, so that the sizes below cross that line.
#[acc::parallel(num_gangs(3), vector_length(32))]
fn copy_f32(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i];
    }
}

#[acc::parallel(num_gangs(2), vector_length(64))]
fn inner_scale(a: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 1..n - 1 {
        c[i] = a[i] * 2.0 + i as f32;
    }
}

#[acc::parallel(num_gangs(3), vector_length(64))]
fn saxpy_f64(alpha: f64, x: &[f64], y: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

/// `a` read one element ahead of `c`'s: the two arrays' chunks align at different trips
/// where `a` and `c` start aligned.
#[acc::parallel(num_gangs(2), vector_length(32))]
fn shifted(a: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        c[i + 3] = a[i + 1] - 1.0;
    }
}

#[acc::parallel(num_gangs(5), vector_length(32))]
fn positive_part(a: &[f64], c: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        if a[i] > 0.0 {
            c[i] = a[i];
        }
    }
}

#[acc::parallel(num_gangs(2), vector_length(96))]
fn bytes(a: &[u8], b: &[i16], c: &mut [u8], d: &mut [i64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i].wrapping_mul(3).wrapping_add(1);
        d[i] = d[i] * 2 + b[i] as i64;
    }
}

/// The rows of a `gang, worker, vector` nest: a row of odd length starts at a different
/// alignment from the row before.
#[acc::parallel(num_workers(4), vector_length(32))]
fn rows(a: &[f64], t: &mut [f32], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                t[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] as f32 + 0.5;
            }
        }
    }
}

/// A reduction over the top loop keeps its unrolled rounds (not chunked): the sizes cross
/// their edges too.
#[acc::parallel(num_gangs(4), vector_length(128))]
fn sum_f32(a: &[f32]) -> f32 {
    let mut s = 0.0f32;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

#[acc::parallel(num_gangs(3), vector_length(64))]
fn dot_shifted(a: &[f64], b: &[f64], n: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..n {
        s += a[i + 2] * b[i];
    }
    s
}

#[acc::parallel(num_workers(4), vector_length(64))]
fn row_max(a: &[i16], out: &mut [i16], rows: usize, cols: usize) {
    #[acc::r#loop(gang, worker)]
    for r in 0..rows {
        let mut m = i16::MIN;
        #[acc::r#loop(vector, reduction(max: m))]
        for i in 0..cols {
            m = m.max(a[r * cols + i]);
        }
        out[r] = m;
    }
}

/// Reductions over an inner vector loop take chunks in rounds of 12, 4, 2, then 1 (4 trips a
/// chunk where every array has 4-byte elements, else 2), chunks inside arrays counted once; arrays
/// whose chunks do not align together (`off` not a multiple of the chunk) take single trips.
#[acc::parallel(num_workers(2), vector_length(64))]
fn row_stats(a: &[i32], b: &[f64], sums: &mut [i32], prods: &mut [f64], mins: &mut [i32], rows: usize, cols: usize, off: usize) {
    #[acc::r#loop(gang, worker)]
    for r in 0..rows {
        let mut s = 0i32;
        let mut p = 1.0f64;
        let mut m = i32::MAX;
        #[acc::r#loop(vector, reduction(+: s), reduction(*: p), reduction(min: m))]
        for i in 0..cols {
            s += a[off + r * cols + i];
            p *= b[r * cols + i];
            m = m.min(a[off + r * cols + i]);
        }
        sums[r] = s;
        prods[r] = p;
        mins[r] = m;
    }
}

/// 4-byte elements alone: chunks of 4 trips, the row starting `off` elements in.
#[acc::parallel(num_workers(2), vector_length(64))]
fn row_sums_f32(a: &[f32], out: &mut [f32], rows: usize, cols: usize, off: usize) {
    #[acc::r#loop(gang, worker)]
    for r in 0..rows {
        let mut s = 0.0f32;
        #[acc::r#loop(vector, reduction(+: s))]
        for i in 1..cols {
            s += a[off + r * cols + i] * 0.5;
        }
        out[r] = s;
    }
}

/// The papers' gang position: the gang loop reduces, the worker and vector loops copy.
#[acc::parallel(num_gangs(4), num_workers(2), vector_length(64))]
fn gang_copy(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> (f64, f64) {
    let mut s = 0.0f64;
    let mut m = f64::MIN;
    #[acc::r#loop(gang, reduction(+: s), reduction(max: m))]
    for k in 0..nk {
        s += c[k];
        m = m.max(c[k] * 0.5);
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
            }
        }
    }
    (s, m)
}

/// Every level reduces (the papers' gang worker vector position), default geometry.
#[acc::parallel]
fn gwv_sum(a: &[i64], nk: usize, nj: usize, ni: usize) -> i64 {
    let mut s = 0i64;
    #[acc::r#loop(gang, reduction(+: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            #[acc::r#loop(vector, reduction(+: s))]
            for i in 0..ni {
                s += a[(k * nj + j) * ni + i] * (j as i64 + 1);
            }
        }
    }
    s
}

/// The papers' gang worker position in blocks of 1024 threads: the gang and worker loops
/// reduce, the vector loop copies. Where its kernel holds one block a multiprocessor and its
/// lean kernel (no chunks) two, launches of more gangs than multiprocessors run the lean one.
#[acc::parallel(num_workers(8), vector_length(128))]
fn gw_copy(a: &[f64], b: &mut [f64], c: &[f64], nk: usize, nj: usize, ni: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s))]
    for k in 0..nk {
        #[acc::r#loop(worker, reduction(+: s))]
        for j in 0..nj {
            s += c[k * nj + j];
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] * 2.0;
            }
        }
    }
    s
}

/// A worker loop whose body is one vector loop: in the lean kernel without index checks its
/// trips run in pairs (acc-codegen `Scheduler::paired_trips`), the vector loop running both
/// trips' bodies, their reads of `a` first; the body binds a local and uses the worker loop's
/// variable, so that a pair's trips mixed up would show.
#[acc::parallel(num_gangs(4), num_workers(2), vector_length(64))]
fn pairs(a: &[f64], b: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        #[acc::r#loop(worker)]
        for j in 0..nj {
            #[acc::r#loop(vector)]
            for i in 0..ni {
                let x = a[(k * nj + j) * ni + i] * 2.0;
                b[(k * nj + j) * ni + i] = x + j as f64;
            }
        }
    }
}

fn data_f32(n: usize) -> Vec<f32> {
    vec_of(n, |i| (hash(i) % 1000) as f32 - 300.0)
}

fn data_f64(n: usize) -> Vec<f64> {
    vec_of(n, |i| (hash(i + 7) % 1000) as f64 - 500.0)
}

#[test]
fn copies_match_at_every_offset_and_length() {
    let base = data_f32(65539 + 8);
    for off in 0..5 {
        for n in SIZES {
            let a = &base[off..off + n];
            let mut store = vec![-1.0f32; n + 8];
            // Inside a data region a sub-slice is a part of the device copy: its start is
            // aligned as the host's is (`off` elements past an aligned start).
            acc::data!(copyin(base), copy(store) {
                copy_f32(&base[off..off + n], &mut store[off..off + n]);
            });
            let mut want = vec![-1.0f32; n + 8];
            want[off..off + n].copy_from_slice(a);
            assert_eq!(store, want, "copy, offset {off}, n {n}");
        }
    }
}

#[test]
fn a_loop_from_one_peels_to_the_first_aligned_chunk() {
    for n in SIZES.into_iter().filter(|&n| n >= 2) {
        for off in 0..4 {
            let a = data_f32(n + off);
            let mut c = vec![7.0f32; n + off];
            acc::data!(copyin(a), copy(c) {
                inner_scale(&a[off..], &mut c[off..], n);
            });
            let mut want = vec![7.0f32; n + off];
            for i in 1..n - 1 {
                want[off + i] = a[off + i] * 2.0 + i as f32;
            }
            assert_eq!(c, want, "inner_scale n {n} offset {off}");
        }
    }
}

#[test]
fn read_modify_write_matches() {
    for n in SIZES {
        for off in [0, 1] {
            let x = data_f64(n + off);
            let mut y = data_f64(n + off + 3);
            let before = y.clone();
            acc::data!(copyin(x), copy(y) {
                saxpy_f64(0.5, &x[off..], &mut y[off..off + n]);
            });
            let mut want = before;
            for i in 0..n {
                want[off + i] += 0.5 * x[off + i];
            }
            assert_eq!(y, want, "saxpy n {n} offset {off}");
        }
    }
}

#[test]
fn arrays_that_do_not_align_together_take_single_trips() {
    for n in SIZES {
        // `c` 0 to 3 elements further than `a`: at 2 the chunks of both align together.
        for (off, coff) in [(0, 0), (1, 1), (0, 2), (1, 3), (3, 1)] {
            let a = data_f32(n + 1 + off);
            let mut c = vec![0.25f32; n + 3 + coff];
            acc::data!(copyin(a), copy(c) {
                shifted(&a[off..], &mut c[coff..], n);
            });
            let mut want = vec![0.25f32; n + 3 + coff];
            for i in 0..n {
                want[coff + i + 3] = a[off + i + 1] - 1.0;
            }
            assert_eq!(c, want, "shifted n {n} offsets {off} {coff}");
        }
    }
}

#[test]
fn elements_a_trip_does_not_write_keep_their_values() {
    for n in SIZES {
        let a = data_f64(n);
        let mut c = vec_of(n, |i| i as f64 * 0.25);
        let mut want = c.clone();
        positive_part(&a, &mut c);
        for i in 0..n {
            if a[i] > 0.0 {
                want[i] = a[i];
            }
        }
        assert_eq!(c, want, "positive_part n {n}");
    }
}

#[test]
fn one_and_two_byte_elements_match() {
    for n in SIZES {
        for off in 0..3 {
            let a: Vec<u8> = vec_of(n + off, |i| hash(i) as u8);
            let b: Vec<i16> = vec_of(n + off, |i| (hash(i + 1) % 60000) as i16);
            let mut c = vec![9u8; n + off];
            let mut d: Vec<i64> = vec_of(n + off, |i| i as i64 - 40);
            let (c0, d0) = (c.clone(), d.clone());
            acc::data!(copyin(a, b), copy(c, d) {
                bytes(&a[off..], &b[off..], &mut c[off..], &mut d[off..off + n]);
            });
            let (mut wc, mut wd) = (c0, d0);
            for i in 0..n {
                wc[off + i] = a[off + i].wrapping_mul(3).wrapping_add(1);
                wd[off + i] = wd[off + i] * 2 + b[off + i] as i64;
            }
            assert_eq!((c, d), (wc, wd), "bytes n {n} offset {off}");
        }
    }
}

#[test]
fn rows_of_odd_length_in_a_nest_match() {
    for (nk, nj, ni) in [(3, 5, 1), (2, 3, 3), (4, 7, 5), (5, 9, 33), (2, 2, 130), (3, 4, 64), (3, 5, 257), (2, 3, 1031)] {
        let n = nk * nj * ni;
        let a = data_f64(n);
        let mut t = vec![-2.0f32; n];
        rows(&a, &mut t, nk, nj, ni);
        let want: Vec<f32> = a.iter().map(|&x| x as f32 + 0.5).collect();
        assert_eq!(t, want, "rows {nk}x{nj}x{ni}");
    }
}

#[test]
fn reductions_in_chunk_rounds_match() {
    // Small integers: every f32 and f64 sum is exact whatever the order.
    let base: Vec<f32> = vec_of(65539 + 8, |i| (hash(i) % 16) as f32 - 7.0);
    let based = data_f64(65539 + 8);
    for off in 0..5 {
        for n in SIZES {
            let got = acc::data!(copyin(base, based) {
                (sum_f32(&base[off..off + n]), dot_shifted(&based[off..off + n + 2], &based[1..n + 1], n))
            });
            let want_sum: f32 = base[off..off + n].iter().sum();
            let want_dot: f64 = (0..n).map(|i| based[off + i + 2] * based[1 + i]).sum();
            assert_eq!(got, (want_sum, want_dot), "sum and dot, offset {off}, n {n}");
        }
    }
    for (rows, cols) in [(1, 1), (3, 5), (7, 67), (9, 1030), (2, 4099)] {
        let a: Vec<i16> = vec_of(rows * cols, |i| (hash(i) % 50000) as i16);
        let mut out = vec![0i16; rows];
        row_max(&a, &mut out, rows, cols);
        let want: Vec<i16> = a.chunks(cols).map(|r| *r.iter().max().unwrap()).collect();
        assert_eq!(out, want, "row_max {rows}x{cols}");
    }
}

#[test]
fn reductions_over_inner_loops_match_in_rounds_of_chunks() {
    // 64 lanes: rounds of 12, 4, 2, 1 chunks of 4 `f32`s (48, 16, 8, 4 trips a lane) start at rows
    // of 3072, 1024, 512, 256 trips; of 2 elements (8-byte arrays) at 1536, 512, 256, 128.
    let cols_list = [1, 3, 64, 127, 128, 129, 255, 256, 257, 511, 512, 513, 767, 1023, 1024, 1025, 1536, 2047, 2048, 2049, 3071, 3072, 3073, 4095, 4096, 4101, 6143, 8193];
    let most = 3 * 8193 + 8;
    let a: Vec<i32> = vec_of(most, |i| (hash(i) % 2001) as i32 - 1000);
    let b: Vec<f64> = vec_of(most, |i| match hash(i + 3) % 9 {
        0 => 2.0,
        1 => 0.5,
        2 => -1.0,
        _ => 1.0,
    });
    // Small integers and halves: every f32 sum is exact whatever the order.
    let x: Vec<f32> = vec_of(most, |i| (hash(i + 5) % 64) as f32 - 20.0);
    for cols in cols_list {
        for off in 0..5 {
            let rows = 3;
            let (mut sums, mut prods, mut mins) = (vec![0i32; rows], vec![0.0f64; rows], vec![0i32; rows]);
            row_stats(&a, &b, &mut sums, &mut prods, &mut mins, rows, cols, off);
            let row = |r: usize| off + r * cols..off + (r + 1) * cols;
            let want_sums: Vec<i32> = (0..rows).map(|r| a[row(r)].iter().sum()).collect();
            let want_prods: Vec<f64> = (0..rows).map(|r| b[r * cols..(r + 1) * cols].iter().product()).collect();
            let want_mins: Vec<i32> = (0..rows).map(|r| *a[row(r)].iter().min().unwrap()).collect();
            assert_eq!((sums, prods, mins), (want_sums, want_prods, want_mins), "row_stats {rows}x{cols}, offset {off}");
            let mut out = vec![0.0f32; rows];
            row_sums_f32(&x, &mut out, rows, cols, off);
            let want: Vec<f32> = (0..rows).map(|r| (1..cols).map(|i| x[off + r * cols + i] * 0.5).sum()).collect();
            assert_eq!(out, want, "row_sums_f32 {rows}x{cols}, offset {off}");
        }
    }
    // Rows for more blocks than a GPU has multiprocessors: the lean kernel.
    let (rows, cols) = (600, 301);
    let a: Vec<i32> = vec_of(rows * cols + 1, |i| (hash(i) % 2001) as i32 - 1000);
    let b = vec![1.0f64; rows * cols];
    let (mut sums, mut prods, mut mins) = (vec![0i32; rows], vec![0.0f64; rows], vec![0i32; rows]);
    row_stats(&a, &b, &mut sums, &mut prods, &mut mins, rows, cols, 1);
    let want_sums: Vec<i32> = (0..rows).map(|r| a[1 + r * cols..1 + (r + 1) * cols].iter().sum()).collect();
    let want_mins: Vec<i32> = (0..rows).map(|r| *a[1 + r * cols..1 + (r + 1) * cols].iter().min().unwrap()).collect();
    assert_eq!((sums, prods, mins), (want_sums, vec![1.0; rows], want_mins), "row_stats {rows}x{cols}");
}

#[test]
fn gang_loops_match_with_a_gang_per_block_or_per_warp() {
    for (nk, nj, ni) in [(1, 2, 32), (15, 2, 32), (16, 2, 32), (17, 1, 5), (100, 3, 33), (1000, 2, 7), (20000, 2, 32), (9001, 1, 1)] {
        let n = nk * nj * ni;
        let a = data_f64(n);
        let c = data_f64(nk + 3);
        let mut b = vec![0.0f64; n];
        let (s, m) = gang_copy(&a, &mut b, &c[..nk], nk, nj, ni);
        let want_b: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
        let want_s: f64 = c[..nk].iter().sum();
        let want_m = c[..nk].iter().map(|x| x * 0.5).fold(f64::MIN, f64::max);
        assert_eq!((s, m), (want_s, want_m), "gang reductions {nk}x{nj}x{ni}");
        assert!(b == want_b, "gang copy {nk}x{nj}x{ni}");
    }
    // Both kernels of a nest whose rows take chunks: few gangs (the nest's kernel), more
    // gangs than multiprocessors (the lean one, where it fits more blocks), rows short and long.
    for (nk, nj, ni) in [(3, 5, 600), (300, 16, 64), (1000, 2, 130), (9000, 1, 7)] {
        let n = nk * nj * ni;
        let a = data_f64(n);
        let c = data_f64(nk * nj + 1);
        let mut b = vec![0.0f64; n];
        let s = gw_copy(&a, &mut b, &c[..nk * nj], nk, nj, ni);
        let want: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
        assert_eq!(s, c[..nk * nj].iter().sum::<f64>(), "gw sum {nk}x{nj}x{ni}");
        assert!(b == want, "gw copy {nk}x{nj}x{ni}");
    }
    for (nk, nj, ni) in [(3, 4, 5), (9000, 2, 3), (20000, 3, 2), (40, 1030, 3)] {
        let a: Vec<i64> = vec_of(nk * nj * ni, |i| (hash(i) % 1000) as i64 - 400);
        let want: i64 = (0..nk * nj * ni).map(|x| a[x] * ((x / ni) % nj) as i64 + a[x]).sum();
        assert_eq!(gwv_sum(&a, nk, nj, ni), want, "gwv {nk}x{nj}x{ni}");
    }
}

#[test]
fn worker_trips_in_pairs_match() {
    // A gang per warp from 16 gangs (`pairs`' geometry): 2 to 5 worker trips (pairs, and one
    // trip after them where the count is odd), rows shorter and longer than a warp.
    for (nk, nj, ni) in [(20000, 2, 32), (20000, 3, 40), (9000, 5, 7), (17, 4, 70), (20000, 1, 32), (3, 3, 3)] {
        let n = nk * nj * ni;
        let a = data_f64(n);
        let mut b = vec![-1.0f64; n];
        let before = acc::profile::launch_counts();
        pairs(&a, &mut b, nk, nj, ni);
        let after = acc::profile::launch_counts();
        let want: Vec<f64> = (0..n).map(|x| a[x] * 2.0 + ((x / ni) % nj) as f64).collect();
        assert!(b == want, "pairs {nk}x{nj}x{ni}");
        if after.gpu > before.gpu && nk >= 9000 {
            assert!(after.lean > before.lean && after.bounded > before.bounded, "the lean kernel without index checks ran ({nk}x{nj}x{ni}): {before:?} -> {after:?}");
        }
    }
}

#[test]
fn lean_kernels_run_unchecked_only_where_the_launch_proves_their_indices() {
    // 20000 gangs of 2 x 32: a gang per warp, the lean kernel (see `gang_copy`).
    let (nk, nj, ni) = (20000, 2, 32);
    let n = nk * nj * ni;
    let a = data_f64(n);
    let c = data_f64(nk);
    let mut b = vec![0.0f64; n];
    let before = acc::profile::launch_counts();
    let (s, _) = gang_copy(&a, &mut b, &c, nk, nj, ni);
    let after = acc::profile::launch_counts();
    assert_eq!(s, c.iter().sum::<f64>());
    assert!(b.iter().zip(&a).all(|(b, a)| *b == a * 2.0), "the copy");
    if after.gpu > before.gpu {
        assert!(after.lean > before.lean && after.bounded > before.bounded, "the lean kernel without index checks ran: {before:?} -> {after:?}");
    }
    // `b` one element short: the launch cannot bound its index, the checked kernel runs and
    // panics at the store past its end.
    let mut short = vec![0.0f64; n - 1];
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| gang_copy(&a, &mut short, &c, nk, nj, ni)));
    let msg = panic_message(&*r.expect_err("a store past b's end panics"));
    assert!(msg.contains(&format!("the len is {} but the index is {}", n - 1, n - 1)), "{msg}");
}
