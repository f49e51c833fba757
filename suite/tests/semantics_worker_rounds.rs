//! Counted worker rounds (acc-codegen `Scheduler::worker_rounds`): on the GPU a worker loop
//! that runs a worker per warp, whose body updates its reduction from arrays and then copies a
//! row in a vector loop, runs its trips in rounds of 8, 4 and 2, each round's loads before its
//! stores. Where every index is affine in the worker loop's variable, each thread checks once,
//! before its rounds, that each index stays inside its array from its first trip to the loop's
//! last; a thread whose check fails, or whose rows are longer than its warp, takes its trips
//! one at a time. The regions below reach the arrays at shifted, reversed and stepped rows,
//! two arrays at different steps, and rows shorter and longer than a warp, over worker trip
//! counts around each round's size; each is compared with the same loops in plain Rust. An
//! index past the end of its array still panics. On the host backend the loops run as written.

mod common;
use common::*;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Worker trips: around rounds of 16, 8, 4 and 2 trips for each of a block's workers.
const ROWS: [usize; 14] = [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 63, 65, 257, 1000];
/// Row lengths: shorter than a warp, a warp, longer (no rounds), a row of 2 warps.
const COLS: [usize; 5] = [1, 7, 32, 33, 64];

/// Rows shifted: the reduction reads `c` one element on, the row is stored 3 elements on.
#[acc::parallel(num_gangs(2), num_workers(4), vector_length(64))]
fn shifted(a: &[i32], b: &mut [i32], c: &[i32], out: &mut [i32], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut t = 0i32;
        #[acc::r#loop(worker, reduction(+: t))]
        for j in 0..nj {
            t += c[k * nj + j + 1];
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + j) * ni + i + 3] = a[(k * nj + j) * ni + i] * 2 + 1;
            }
        }
        out[k] = t;
    }
}

/// Rows stored in reverse order (a falling index: its step wraps) and `c` read backwards.
#[acc::parallel(num_gangs(2), num_workers(4), vector_length(64))]
fn reversed(a: &[f64], b: &mut [f64], c: &[f64], out: &mut [f64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut t = 0.0f64;
        #[acc::r#loop(worker, reduction(+: t))]
        for j in 0..nj {
            t += c[k * nj + nj - 1 - j];
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + nj - 1 - j) * ni + i] = a[(k * nj + j) * ni + i] - 0.5;
            }
        }
        out[k] = t;
    }
}

/// A stepped worker loop (every third row), `c` read at twice the row and `d` at a row of its
/// own stride: indices with different steps in one round.
#[acc::parallel(num_gangs(2), num_workers(4), vector_length(64))]
fn stepped(a: &[i64], b: &mut [i64], c: &[i64], d: &[i64], out: &mut [i64], nk: usize, nj: usize, ni: usize) {
    #[acc::r#loop(gang)]
    for k in 0..nk {
        let mut t = 0i64;
        #[acc::r#loop(worker, reduction(+: t))]
        for j in (0..nj).step_by(3) {
            t += c[2 * j + k];
            #[acc::r#loop(vector)]
            for i in 0..ni {
                b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] + d[(j << 1) * ni + i];
            }
        }
        out[k] = t;
    }
}

fn data_i32(n: usize) -> Vec<i32> {
    vec_of(n, |i| (hash(i) % 1000) as i32 - 300)
}

fn data_f64(n: usize) -> Vec<f64> {
    vec_of(n, |i| (hash(i + 5) % 1000) as f64 * 0.25 - 100.0)
}

fn data_i64(n: usize) -> Vec<i64> {
    vec_of(n, |i| (hash(i + 9) % 100000) as i64 - 40000)
}

const NK: usize = 3;

#[test]
fn shifted_rows_match() {
    for nj in ROWS {
        for ni in COLS {
            let a = data_i32(NK * nj * ni);
            let c = data_i32(NK * nj + 1);
            let mut b = vec![-7i32; NK * nj * ni + 3];
            let mut out = vec![0i32; NK];
            acc::data!(copyin(a, c), copy(b, out) {
                shifted(&a, &mut b, &c, &mut out, NK, nj, ni);
            });
            let mut want_b = vec![-7i32; NK * nj * ni + 3];
            let mut want_out = vec![0i32; NK];
            for k in 0..NK {
                for j in 0..nj {
                    want_out[k] += c[k * nj + j + 1];
                    for i in 0..ni {
                        want_b[(k * nj + j) * ni + i + 3] = a[(k * nj + j) * ni + i] * 2 + 1;
                    }
                }
            }
            assert_eq!(out, want_out, "shifted sums, {nj} rows of {ni}");
            assert!(b == want_b, "shifted rows, {nj} rows of {ni}: first difference at {:?}", b.iter().zip(&want_b).position(|(x, y)| x != y));
        }
    }
}

#[test]
fn reversed_rows_match() {
    for nj in ROWS {
        for ni in COLS {
            let a = data_f64(NK * nj * ni);
            let c = data_f64(NK * nj);
            let mut b = vec![9.0f64; NK * nj * ni];
            let mut out = vec![0.0f64; NK];
            acc::data!(copyin(a, c), copy(b, out) {
                reversed(&a, &mut b, &c, &mut out, NK, nj, ni);
            });
            let mut want_b = vec![9.0f64; NK * nj * ni];
            for k in 0..NK {
                let want: f64 = (0..nj).map(|j| c[k * nj + nj - 1 - j]).sum();
                // Quarter multiples below 2^52: every order of the sum gives the same value.
                assert_eq!(out[k], want, "reversed sum {k}, {nj} rows of {ni}");
                for j in 0..nj {
                    for i in 0..ni {
                        want_b[(k * nj + nj - 1 - j) * ni + i] = a[(k * nj + j) * ni + i] - 0.5;
                    }
                }
            }
            assert!(b == want_b, "reversed rows, {nj} rows of {ni}: first difference at {:?}", b.iter().zip(&want_b).position(|(x, y)| x != y));
        }
    }
}

#[test]
fn stepped_rows_with_indices_of_different_steps_match() {
    for nj in ROWS {
        for ni in COLS {
            let a = data_i64(NK * nj * ni);
            let c = data_i64(2 * nj + NK);
            let d = data_i64(2 * nj * ni + ni);
            let mut b = vec![3i64; NK * nj * ni];
            let mut out = vec![0i64; NK];
            acc::data!(copyin(a, c, d), copy(b, out) {
                stepped(&a, &mut b, &c, &d, &mut out, NK, nj, ni);
            });
            let mut want_b = vec![3i64; NK * nj * ni];
            let mut want_out = vec![0i64; NK];
            for k in 0..NK {
                for j in (0..nj).step_by(3) {
                    want_out[k] += c[2 * j + k];
                    for i in 0..ni {
                        want_b[(k * nj + j) * ni + i] = a[(k * nj + j) * ni + i] + d[(j << 1) * ni + i];
                    }
                }
            }
            assert_eq!(out, want_out, "stepped sums, {nj} rows of {ni}");
            assert!(b == want_b, "stepped rows, {nj} rows of {ni}: first difference at {:?}", b.iter().zip(&want_b).position(|(x, y)| x != y));
        }
    }
}

#[test]
fn a_row_past_the_end_of_its_array_still_panics() {
    // `b` one element short of the last row: the check before the rounds fails for every
    // thread whose trips run up to that row, those trips run one at a time, and the last
    // row's store panics as written. The rows before it are stored, and copied back.
    let (nj, ni) = (257, 32);
    let a = data_i32(NK * nj * ni);
    let c = data_i32(NK * nj + 1);
    let mut b = vec![-7i32; NK * nj * ni + 2];
    let mut out = vec![0i32; NK];
    let r = catch_unwind(AssertUnwindSafe(|| {
        acc::data!(copyin(a, c), copy(b, out) {
            shifted(&a, &mut b, &c, &mut out, NK, nj, ni);
        });
    }));
    let e = r.expect_err("the last row's store is out of bounds");
    let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
    assert!(msg.contains("out of bounds"), "{msg}");
    // The first row was stored before the panic (a worker's trips run in order, and the first
    // rows are other workers' than the last), and the data region copied `b` back.
    assert_eq!(&b[3..3 + ni], &a[..ni].iter().map(|x| x * 2 + 1).collect::<Vec<_>>()[..], "the first row, copied back");
}
