//! Streaming loops of the whole grid (acc-codegen `lower/schedule.rs`, `STREAM_WAVES`): a
//! top-level `gang, vector` loop with no parallel loop or reduction inside runs on up to 8
//! waves of blocks (`Geometry::waves`) instead of one, each thread's trips a grid stride
//! apart, chunked (`chunk.rs`; then a thread per chunk, up to `CHUNK_WAVES`) or not. Each test compares with the same loop in plain Rust on
//! lengths around the places where the trips meet the grid: less than a block, one block, the
//! threads of one wave and of eight waves on an H100 (132 multiprocessors x 8 blocks x 256
//! threads = 270,336 a wave; chunks take 4 trips a thread), and past them; loops from 1 and
//! with a step; a loop that stores under a branch; a gang loop over vector loops (row sums, as
//! many rows as around a wave and 8 waves of blocks); and a loop with a reduction, which keeps
//! one wave (its partials are one a block). On the host backend the loops run as written.

mod common;

/// Lengths around a block (256), a block of chunks (1024 trips: a loop of chunks gets a thread
/// per whole chunk, `Geometry::chunks`, so one block up to 2047 trips), a wave (270,336
/// threads) and 8 waves (2,162,688 threads, 8,650,752 chunked trips) of an H100's grid.
const SIZES: [usize; 14] = [1, 255, 257, 1023, 1024, 1025, 2049, 270_335, 270_337, 1_081_345, 2_162_689, 8_650_751, 8_650_753, 9_000_003];

#[acc::parallel]
fn copy_f32(a: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i];
    }
}

#[acc::parallel]
fn stencil3(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
}

#[acc::parallel]
fn every_third(a: &[i32], b: &mut [i32]) {
    #[acc::r#loop(gang, vector)]
    for i in (2..a.len()).step_by(3) {
        b[i] = a[i] - a[i - 2];
    }
}

#[acc::parallel]
fn clamp_negatives(a: &[f64], b: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        if a[i] < 0.0 {
            b[i] = 0.0;
        } else if a[i] > 1000.0 {
            b[i] = a[i] - 1000.0;
        }
    }
}

#[acc::parallel]
fn sum_i64(a: &[i32]) -> i64 {
    let mut s = 0i64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] as i64;
    }
    s
}

#[acc::parallel(vector_length(64))]
fn row_sums(a: &[i32], out: &mut [i64], cols: usize) {
    #[acc::r#loop(gang)]
    for r in 0..out.len() {
        let mut s = 0i64;
        #[acc::r#loop(vector, reduction(+: s))]
        for c in 0..cols {
            s += a[r * cols + c] as i64;
        }
        out[r] = s;
    }
}

fn data(n: usize) -> Vec<f32> {
    (0..n).map(|i| (common::hash(i) % 4096) as f32 / 16.0).collect()
}

/// Asserts that `got` equals `want` element for element, naming the first difference.
fn assert_same<T: PartialEq>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let bad = (0..got.len()).find(|&i| got[i] != want[i]);
    assert!(bad.is_none(), "{what}: first difference at {bad:?}");
}

#[test]
fn chunked_copies_match_on_every_length() {
    for n in SIZES {
        let a = data(n);
        let mut c = vec![-1.0f32; n];
        acc::data!(copyin(a), copy(c) {
            copy_f32(&a, &mut c);
        });
        assert!(c == a, "copy, n {n}");
    }
}

#[test]
fn unchunked_stencils_match_on_every_length() {
    for n in SIZES.into_iter().filter(|&n| n >= 2) {
        let a = data(n);
        let mut b = vec![-1.0f32; n];
        acc::data!(copyin(a), copy(b) {
            stencil3(&a, &mut b);
        });
        let mut want = vec![-1.0f32; n];
        for i in 1..n - 1 {
            want[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
        }
        assert_same(&b, &want, &format!("stencil, n {n}"));
    }
}

#[test]
fn stepped_loops_write_only_their_trips() {
    for n in SIZES {
        let a: Vec<i32> = (0..n).map(|i| (common::hash(i) % 100_000) as i32).collect();
        let mut b = vec![7i32; n];
        acc::data!(copyin(a), copy(b) {
            every_third(&a, &mut b);
        });
        let mut want = vec![7i32; n];
        for i in (2..n).step_by(3) {
            want[i] = a[i] - a[i - 2];
        }
        assert_same(&b, &want, &format!("every third, n {n}"));
    }
}

#[test]
fn branches_store_only_where_they_are_taken() {
    for n in SIZES {
        let a: Vec<f64> = (0..n).map(|i| (common::hash(i) % 3000) as f64 - 1000.0).collect();
        let mut b = vec![0.5f64; n];
        acc::data!(copyin(a), copy(b) {
            clamp_negatives(&a, &mut b);
        });
        let want: Vec<f64> = a.iter().map(|&x| if x < 0.0 { 0.0 } else if x > 1000.0 { x - 1000.0 } else { 0.5 }).collect();
        assert_same(&b, &want, &format!("branches, n {n}"));
    }
}

#[test]
fn a_reduction_beside_them_keeps_its_partials() {
    for n in SIZES {
        let a: Vec<i32> = (0..n).map(|i| (common::hash(i) % 2001) as i32 - 1000).collect();
        let got = acc::data!(copyin(a) { sum_i64(&a) });
        let want: i64 = a.iter().map(|&x| x as i64).sum();
        assert_eq!(got, want, "sum, n {n}");
    }
}

#[test]
fn gang_rows_match_around_one_and_eight_waves_of_blocks() {
    // Blocks of 64 threads: 32 a multiprocessor, 4224 a wave on an H100, 33,792 in 8 waves.
    for (rows, cols) in [(1, 5), (1000, 3), (4223, 2), (4225, 7), (33_791, 1), (33_793, 3), (40_001, 2)] {
        let a: Vec<i32> = (0..rows * cols).map(|i| (common::hash(i) % 2001) as i32 - 1000).collect();
        let mut out = vec![-1i64; rows];
        acc::data!(copyin(a), copy(out) {
            row_sums(&a, &mut out, cols);
        });
        let want: Vec<i64> = (0..rows).map(|r| a[r * cols..(r + 1) * cols].iter().map(|&x| x as i64).sum()).collect();
        assert_same(&out, &want, &format!("row sums, {rows} x {cols}"));
    }
}
