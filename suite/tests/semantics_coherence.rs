//! Same answer on the GPU as on the host (issue 9): the code of a region outside its acc loops
//! reads and writes the device's copy of the arrays, never a stale host copy. Each region here
//! was wrong on the GPU before (it read the host's copy) or ran on the host.
//!
//! Statements that read arrays run on the device (a `let`, the region's value, a condition);
//! `if`, `while`, `loop` and sequential `for` loops around acc loops drive the launches from
//! the host.

mod common;

const N: usize = 1000;

#[acc::parallel]
fn fill_then_ends(a: &mut [f64]) -> f64 {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = i as f64 + 2.0;
    }
    let ends = a[0] + a[a.len() - 1];
    ends
}

#[test]
fn a_let_after_the_loop_reads_what_the_loop_wrote() {
    let mut a = vec![0.0; N];
    assert_eq!(fill_then_ends(&mut a), 2.0 + (N as f64 + 1.0));
    assert!(a.iter().enumerate().all(|(i, &x)| x == i as f64 + 2.0));
}

#[acc::parallel]
fn fill_then_tail(a: &mut [f64]) -> f64 {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = 3.0 * i as f64;
    }
    a[0] + a[a.len() - 1] + a[a.len() / 2]
}

#[test]
fn the_regions_value_reads_what_the_loop_wrote() {
    let mut a = vec![0.0; N];
    assert_eq!(fill_then_tail(&mut a), 3.0 * (N - 1) as f64 + 3.0 * (N / 2) as f64);
}

#[acc::parallel]
fn add_one(a: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += 1.0;
    }
}

/// `let f = a[0];` before the loop: inside a data region, the device's `a[0]` (the host's is
/// stale there).
#[acc::parallel]
fn scale_by_first(a: &mut [f64]) {
    let f = a[0];
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= f;
    }
}

#[test]
fn a_let_before_the_loop_reads_the_devices_copy() {
    let mut a: Vec<f64> = (0..N).map(|i| i as f64).collect();
    acc::data!(copy(a) {
        add_one(&mut a);
        add_one(&mut a);
        scale_by_first(&mut a);
    });
    // a[0] was 0, then 2: every element is scaled by 2.
    assert!(a.iter().enumerate().all(|(i, &x)| x == 2.0 * (i as f64 + 2.0)), "{:?}", &a[..4]);
}

/// Several values at once, one of them larger than 16 bytes, used by the loop after them.
#[acc::parallel]
fn weights_from_the_array(a: &mut [f64], out: &mut [f64]) -> f64 {
    let (lo, hi) = (a[0], a[a.len() - 1]);
    let w = [a[1], a[2], a[3], a[4]];
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = lo + hi + w[i % 4];
    }
    w[0] + w[3]
}

#[test]
fn tuple_and_array_values_come_from_the_device() {
    let mut a: Vec<f64> = (0..16).map(|i| i as f64).collect();
    let mut out = vec![0.0; 10];
    acc::data!(copy(a) {
        add_one(&mut a);
        let v = weights_from_the_array(&mut a, &mut out);
        assert_eq!(v, 2.0 + 5.0);
    });
    // lo = 1, hi = 16, w = [2, 3, 4, 5].
    let want: Vec<f64> = (0..10).map(|i| 17.0 + [2.0, 3.0, 4.0, 5.0][i % 4]).collect();
    assert_eq!(out, want);
}

/// A statement between the loops that writes an element, and a body-level `const`.
#[acc::parallel]
#[allow(clippy::erasing_op)] // the second loop reads `a[0]`, for no value
fn stamp_between(a: &mut [i64]) {
    const STAMP: i64 = 42;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = i as i64;
    }
    a[0] = STAMP;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += STAMP + a[0] * 0;
    }
}

#[test]
fn statements_and_consts_between_loops() {
    let mut a = vec![0i64; N];
    stamp_between(&mut a);
    assert_eq!(a[0], 84);
    assert!(a[1..].iter().enumerate().all(|(i, &x)| x == i as i64 + 1 + 42));
}

/// A time loop around acc loops in `parallel`: the host drives the launches.
#[acc::parallel]
fn steps_parallel(a: &mut [f64], steps: usize) {
    for t in 0..steps {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] += t as f64;
        }
    }
}

/// The same in `kernels`: the time loop carries a dependence, the loop inside does not.
#[acc::kernels]
fn steps_kernels(a: &mut [f64], steps: usize) {
    for _t in 0..steps {
        for i in 0..a.len() {
            a[i] = a[i] * 2.0 + 1.0;
        }
    }
}

#[test]
fn time_loops_around_acc_loops() {
    let mut a = vec![1.0; N];
    steps_parallel(&mut a, 5);
    assert!(a.iter().all(|&x| x == 11.0));
    let mut b = vec![0.0; N];
    steps_kernels(&mut b, 10);
    assert!(b.iter().all(|&x| x == 1023.0));
}

/// `if` around loops, and `while`/`break` on conditions read from the arrays.
#[acc::parallel]
fn grow_until(a: &mut [f64], limit: f64, double: bool) -> usize {
    let mut trips = 0;
    while a[0] < limit {
        if double {
            #[acc::r#loop(gang, vector)]
            for i in 0..a.len() {
                a[i] *= 2.0;
            }
        } else {
            #[acc::r#loop(gang, vector)]
            for i in 0..a.len() {
                a[i] += 1.0;
            }
        }
        trips += 1;
        let big = a[a.len() - 1] > 1000.0 * limit;
        if big {
            break;
        }
    }
    trips
}

#[test]
fn control_flow_on_device_values() {
    let mut a = vec![1.0; 64];
    assert_eq!(grow_until(&mut a, 100.0, true), 7);
    assert!(a.iter().all(|&x| x == 128.0));
    let mut b = vec![0.0; 64];
    b[63] = 1e9;
    assert_eq!(grow_until(&mut b, 100.0, false), 1);
    assert_eq!(b[0], 1.0);
}

/// `continue` in a gang loop that holds vector loops: the gang skips the rest of its trip.
#[acc::parallel(vector_length(64))]
fn even_rows(a: &[i64], out: &mut [i64], sums: &mut [i64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        if j % 2 == 1 {
            sums[j] = -1;
            continue;
        }
        let mut s = 0;
        #[acc::r#loop(vector, reduction(+: s))]
        for i in 0..m {
            out[j * m + i] = 2 * a[j * m + i];
            s += a[j * m + i];
        }
        sums[j] = s;
    }
}

#[test]
fn continue_in_a_gang_loop_skips_its_vector_loops() {
    for (n, m) in [(0, 3), (1, 1), (7, 100), (40, 333)] {
        let a: Vec<i64> = (0..n * m).map(|i| (i as i64 * 7) % 23 - 11).collect();
        let (mut out, mut sums) = (vec![0i64; n * m], vec![0i64; n]);
        even_rows(&a, &mut out, &mut sums, n, m);
        for j in 0..n {
            let row = &a[j * m..(j + 1) * m];
            if j % 2 == 1 {
                assert_eq!(sums[j], -1);
                assert!(out[j * m..(j + 1) * m].iter().all(|&x| x == 0));
            } else {
                assert_eq!(sums[j], row.iter().sum::<i64>(), "row {j} of {n}x{m}");
                assert!(out[j * m..(j + 1) * m].iter().zip(row).all(|(&o, &x)| o == 2 * x));
            }
        }
    }
}

/// Runs on the host (`self`) between GPU regions: it sees the device's data, and its writes
/// reach the device's copy.
#[acc::parallel(self)]
fn add_one_here(a: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += 1.0;
    }
}

/// `self(cond)`: on the host when `cond` holds.
#[acc::parallel(self(here))]
fn add_ten_maybe_here(a: &mut [f64], here: bool) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] += 10.0;
    }
}

#[test]
fn a_region_on_the_host_keeps_the_data_coherent() {
    let mut a = vec![0.0; N];
    acc::data!(copy(a) {
        add_one(&mut a);
        add_one_here(&mut a);
        add_ten_maybe_here(&mut a, true);
        add_one(&mut a);
        add_ten_maybe_here(&mut a, false);
    });
    assert!(a.iter().all(|&x| x == 23.0), "{:?}", &a[..4]);
}

/// OpenACCV-V `parallel_private`: an array declared in a gang loop's body is the gang's,
/// shared by its workers: a worker loop fills it, a `seq` loop of the gang reads it whole.
#[acc::parallel(num_workers(4), vector_length(32))]
fn gang_array(a: &[i64], out: &mut [i64], n: usize) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        let mut tmp = [0i64; 10];
        #[acc::r#loop(worker)]
        for k in 0..10 {
            tmp[k] = a[j * 10 + k] * (k as i64 + 1);
        }
        let mut s = 0;
        #[acc::r#loop(seq)]
        for k in 0..10 {
            s += tmp[k];
        }
        out[j] = s;
    }
}

/// An array declared in a worker loop's body is the worker's, shared by its vector lanes.
#[acc::parallel(num_workers(4), vector_length(32))]
fn worker_array(a: &[i64], out: &mut [i64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for j in 0..n {
        #[acc::r#loop(worker)]
        for w in 0..m {
            let mut tmp = [0i64; 8];
            #[acc::r#loop(vector)]
            for k in 0..8 {
                tmp[k] = a[(j * m + w) * 8 + k] + 1;
            }
            let mut s = 0;
            for k in 0..8 {
                s += tmp[k];
            }
            out[j * m + w] = s;
        }
    }
}

#[test]
fn arrays_of_gang_and_worker_bodies_are_shared_by_the_loops_inside() {
    for n in [0usize, 1, 3, 130] {
        let a: Vec<i64> = (0..n * 10).map(|i| (i as i64 % 13) + 1).collect();
        let mut out = vec![0i64; n];
        gang_array(&a, &mut out, n);
        let want: Vec<i64> = (0..n).map(|j| (0..10).map(|k| a[j * 10 + k] * (k as i64 + 1)).sum()).collect();
        assert_eq!(out, want, "gang array, {n} gangs");
    }
    for (n, m) in [(0usize, 3usize), (1, 1), (3, 5), (40, 9)] {
        let a: Vec<i64> = (0..n * m * 8).map(|i| (i as i64 * 7) % 31).collect();
        let mut out = vec![0i64; n * m];
        worker_array(&a, &mut out, n, m);
        let want: Vec<i64> = (0..n * m).map(|r| (0..8).map(|k| a[r * 8 + k] + 1).sum()).collect();
        assert_eq!(out, want, "worker array, {n}x{m}");
    }
}
