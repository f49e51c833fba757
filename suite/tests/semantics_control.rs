//! Control flow around acc loops, on both backends: `if`/`else if`/`else` and `if let` around
//! parallel loops inside a gang loop's body (real branches on the GPU: the gang's threads
//! all take the same one), and `if let`/`while let` around acc loops in the region body
//! (host control flow that drives the launches; a scrutinee that reads an array is computed
//! on the device). Each result is checked against the same loops written sequentially.

mod common;

/// Row `r` of `a` (`n` rows of `m`) in one of three ways, by `r % 3`.
#[acc::parallel(vector_length(64))]
fn rows_by_kind(a: &[f64], out: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for r in 0..n {
        if r % 3 == 0 {
            #[acc::r#loop(vector)]
            for c in 0..m {
                out[r * m + c] = 2.0 * a[r * m + c];
            }
        } else if r % 3 == 1 {
            let mut t = 0.0;
            #[acc::r#loop(vector, reduction(+: t))]
            for c in 0..m {
                t += a[r * m + c];
            }
            out[r * m] = t;
            #[acc::r#loop(vector)]
            for c in 1..m {
                out[r * m + c] = t - a[r * m + c];
            }
        } else {
            #[acc::r#loop(vector)]
            for c in 0..m {
                out[r * m + c] = -1.0;
            }
        }
    }
}

fn rows_by_kind_seq(a: &[f64], out: &mut [f64], n: usize, m: usize) {
    for r in 0..n {
        if r % 3 == 0 {
            for c in 0..m {
                out[r * m + c] = 2.0 * a[r * m + c];
            }
        } else if r % 3 == 1 {
            let mut t = 0.0;
            for c in 0..m {
                t += a[r * m + c];
            }
            out[r * m] = t;
            for c in 1..m {
                out[r * m + c] = t - a[r * m + c];
            }
        } else {
            for c in 0..m {
                out[r * m + c] = -1.0;
            }
        }
    }
}

fn data(len: usize) -> Vec<f64> {
    // Small integers: every sum is exact in any order.
    (0..len).map(|i| (common::hash(i) % 17) as f64).collect()
}

#[test]
fn branches_around_vector_loops_in_a_gang_loop() {
    for (n, m) in [(0, 5), (1, 1), (7, 33), (50, 129), (301, 1000)] {
        let a = data(n * m);
        let (mut got, mut want) = (vec![9.0; n * m], vec![9.0; n * m]);
        rows_by_kind(&a, &mut got, n, m);
        rows_by_kind_seq(&a, &mut want, n, m);
        assert_eq!(got, want, "n={n} m={m}");
    }
}

/// The branch depends on the row's data (read by every thread of the gang), and an `if let`
/// binds the value the inner loop uses.
#[acc::parallel(vector_length(32))]
fn rows_by_data(a: &[f64], out: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for r in 0..n {
        if let Some(first) = (a[r * m] > 8.0).then_some(a[r * m]) {
            #[acc::r#loop(vector)]
            for c in 0..m {
                out[r * m + c] = a[r * m + c] + first;
            }
        }
        if a[r * m] < 3.0 {
            #[acc::r#loop(vector)]
            for c in 0..m {
                out[r * m + c] = 0.5 * a[r * m + c];
            }
        }
    }
}

fn rows_by_data_seq(a: &[f64], out: &mut [f64], n: usize, m: usize) {
    for r in 0..n {
        if let Some(first) = (a[r * m] > 8.0).then_some(a[r * m]) {
            for c in 0..m {
                out[r * m + c] = a[r * m + c] + first;
            }
        }
        if a[r * m] < 3.0 {
            for c in 0..m {
                out[r * m + c] = 0.5 * a[r * m + c];
            }
        }
    }
}

#[test]
fn branches_on_the_rows_data() {
    for (n, m) in [(1, 1), (13, 7), (200, 257)] {
        let a = data(n * m);
        let (mut got, mut want) = (vec![7.0; n * m], vec![7.0; n * m]);
        rows_by_data(&a, &mut got, n, m);
        rows_by_data_seq(&a, &mut want, n, m);
        assert_eq!(got, want, "n={n} m={m}");
        assert!(n < 13 || (want.iter().any(|&x| x == 7.0) && want.iter().any(|&x| x != 7.0)), "both outcomes occur");
    }
}

/// `if let` around an acc loop in the region body: the bound value reaches the kernel.
/// (`scale == 0.0` clears.)
#[acc::parallel]
fn scale_or_clear(a: &mut [f32], scale: f32) {
    if let Some(s) = (scale != 0.0).then_some(scale) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] *= s;
        }
    } else {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] = 0.0;
        }
    }
}

#[test]
fn if_let_around_a_loop_binds_for_the_kernel() {
    let mut a: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    scale_or_clear(&mut a, 3.0);
    assert!(a.iter().enumerate().all(|(i, &x)| x == 3.0 * i as f32));
    scale_or_clear(&mut a, 0.0);
    assert!(a.iter().all(|&x| x == 0.0));
}

/// `while let` whose scrutinee reads the array the loop writes: computed on the device before
/// each trip. Adds `step` until the first element reaches `limit`; returns the trips.
#[acc::parallel]
fn add_until(a: &mut [i64], step: i64, limit: i64) -> u32 {
    let mut trips = 0u32;
    while let Some(gap) = (a[0] < limit).then(|| limit - a[0]) {
        let add = if gap < step { gap } else { step };
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] += add;
        }
        trips += 1;
    }
    trips
}

#[test]
fn while_let_reads_the_device_copy_each_trip() {
    let mut a: Vec<i64> = (0..777).collect();
    let trips = add_until(&mut a, 10, 95);
    assert_eq!(trips, 10, "9 steps of 10, then one of 5");
    assert!(a.iter().enumerate().all(|(i, &x)| x == i as i64 + 95), "{:?}", &a[..4]);
}

/// `while let` over a host value, with a kernel per trip using the bound value.
#[acc::parallel]
fn countdown(a: &mut [u64], from: u64) {
    let mut next = Some(from);
    while let Some(k) = next {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] = a[i] * 2 + k;
        }
        next = k.checked_sub(1).filter(|&x| x > 0);
    }
}

#[test]
fn while_let_over_a_host_value() {
    let mut a: Vec<u64> = (0..300).collect();
    countdown(&mut a, 5);
    let want: Vec<u64> = (0..300u64).map(|x| (1..=5).rev().fold(x, |v, k| v * 2 + k)).collect();
    assert_eq!(a, want);
}
