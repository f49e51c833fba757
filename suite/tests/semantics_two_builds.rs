//! One program, both builds: regions that the host build accepts and the GPU build must accept
//! too, checked against plain sequential Rust. A local whose type only the loop body fixes (a
//! reduction's `let mut s = 0.0`, read by a method after the loop), and a package's
//! `macro_rules!` index macro invoked in a loop body (NPB MG's `I3D`), which acc-build carries
//! into the device crate, closures bound before nests (NPB MG), and a routine given a float
//! constant in a nest whose indices the launch bounds (NPB FT).

mod common;
use common::*;

/// `s`'s type comes from `s += x[i] * x[i]` alone: `s.sqrt()` needs it on the host path of
/// either build.
#[acc::parallel]
fn norm2(x: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s.sqrt()
}

#[test]
fn a_reduction_typed_by_its_loop() {
    for n in [0usize, 1, 7, 1000, 1 << 16] {
        // Quarters: every sum of squares exact in any order.
        let x: Vec<f64> = (0..n).map(|i| ((hash(i) % 9) as f64 - 4.0) * 0.25).collect();
        let mut s = 0.0f64;
        for v in &x {
            s += v * v;
        }
        assert_eq!(norm2(&x), s.sqrt(), "{n} elements");
    }
}

/// A local a one-thread kernel assigns (the statement reads an array) and a count, each typed
/// only by its updates in the region: methods on them after need those types.
#[acc::parallel]
fn first_and_count(a: &[i32], limit: i32) -> (i32, u32) {
    let mut first = 0;
    first += a[0];
    let mut count = 0;
    #[acc::r#loop(gang, vector, reduction(+: count))]
    for i in 0..a.len() {
        if a[i] < limit {
            count += 1u32;
        }
    }
    (first.abs(), count.pow(2))
}

#[test]
fn locals_typed_by_device_statements() {
    for n in [1usize, 2, 5000] {
        let a: Vec<i32> = (0..n).map(|i| (hash(i) % 201) as i32 - 100).collect();
        let count = a.iter().filter(|&&v| v < 17).count() as u32;
        assert_eq!(first_and_count(&a, 17), (a[0].abs(), count * count), "{n} elements");
    }
}

macro_rules! i3d {
    ($n1:expr, $n2:expr, $i3:expr, $i2:expr, $i1:expr) => {
        ($i3 * $n2 + $i2) * $n1 + $i1
    };
}

/// NPB MG's zeroing of a grid's interior and a sum over it, indexed through `i3d!`.
#[acc::parallel]
fn interior(u: &mut [f64], n1: usize, n2: usize, n3: usize) -> f64 {
    #[acc::r#loop(gang)]
    for i3 in 1..n3 - 1 {
        #[acc::r#loop(vector)]
        for i2 in 1..n2 - 1 {
            for i1 in 1..n1 - 1 {
                u[i3d!(n1, n2, i3, i2, i1)] = 0.0;
            }
        }
    }
    let mut s = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for k in 0..n3 * n2 * n1 {
        let (i3, i2, i1) = (k / (n1 * n2), k / n1 % n2, k % n1);
        s += u[i3d!(n1, n2, i3, i2, i1)];
    }
    s
}

#[test]
fn an_index_macro_in_a_loop_body() {
    for (n1, n2, n3) in [(3usize, 3usize, 3usize), (5, 4, 6), (34, 18, 10)] {
        let mut u: Vec<f64> = (0..n1 * n2 * n3).map(|i| (hash(i) % 8) as f64 * 0.5).collect();
        let mut want = u.clone();
        for i3 in 1..n3 - 1 {
            for i2 in 1..n2 - 1 {
                for i1 in 1..n1 - 1 {
                    want[(i3 * n2 + i2) * n1 + i1] = 0.0;
                }
            }
        }
        let sum: f64 = want.iter().sum();
        assert_eq!(interior(&mut u, n1, n2, n3), sum, "{n1} x {n2} x {n3}");
        assert_eq!(u, want, "{n1} x {n2} x {n3}");
    }
}

/// NPB MG's `zero3` and `comm3`: index closures bound before the nests, capturing the
/// region's sizes (by reference) and one of its arrays, called in a gang / worker / vector
/// nest of 1024-thread blocks. The GPU kernel builds each closure again from its own values:
/// the closure's bytes on the host hold the host's addresses.
#[acc::parallel(num_gangs(n3), num_workers(8), vector_length(128))]
fn closures_before_nests(z: &mut [f64], w: &[f64], n1: usize, n2: usize, n3: usize) {
    let at = |i3: usize, i2: usize, i1: usize| (i3 * n2 + i2) * n1 + i1;
    let scale = 0.5;
    let weight = |k: usize| scale * w[k % w.len()];
    #[acc::r#loop(gang)]
    for i3 in 0..n3 {
        #[acc::r#loop(worker)]
        for i2 in 0..n2 {
            #[acc::r#loop(vector)]
            for i1 in 0..n1 {
                z[at(i3, i2, i1)] = weight(at(i3, i2, i1)) + i1 as f64;
            }
        }
    }
    #[acc::r#loop(gang)]
    for i3 in 0..n3 {
        #[acc::r#loop(vector)]
        for i2 in 0..n2 {
            z[at(i3, i2, 0)] = z[at(i3, i2, n1 - 1)];
        }
    }
}

#[test]
fn closures_bound_before_nests() {
    for (n1, n2, n3) in [(1usize, 1usize, 1usize), (34, 34, 34), (130, 9, 3)] {
        let w: Vec<f64> = (0..37).map(|i| (hash(i) % 16) as f64).collect();
        let mut z = vec![-1.0f64; n1 * n2 * n3];
        closures_before_nests(&mut z, &w, n1, n2, n3);
        let mut want = vec![0.0f64; n1 * n2 * n3];
        for k in 0..want.len() {
            want[k] = 0.5 * w[k % w.len()] + (k % n1) as f64;
        }
        for p in 0..n3 * n2 {
            want[p * n1] = want[p * n1 + n1 - 1];
        }
        assert_eq!(z, want, "{n1} x {n2} x {n3}");
    }
}

/// A multiplier of a generator, a constant of the module.
const MULT: f64 = 5.0;

/// A generator step `a x + 3 (mod 1024)`: small integers, exact in `f64` in any order.
#[acc::routine(seq)]
fn next_seed(x: f64, a: f64) -> f64 {
    let t = a * x + 3.0;
    t - (t / 1024.0).floor() * 1024.0
}

/// NPB FT's initial conditions: a nest whose indices the launch bounds, calling a routine
/// with a module's `f64` constant (the launch's check asks the routine's bounds for each
/// argument's interval; the constant has none).
#[acc::parallel(num_gangs(planes.div_ceil(32)), vector_length(32))]
fn seeded_planes(u: &mut [f64], starts: &[f64], planes: usize, per: usize) {
    #[acc::r#loop(gang, vector)]
    for k in 0..planes {
        let mut x = starts[k];
        for i in 0..per {
            x = next_seed(x, MULT);
            u[k * per + i] = x;
        }
    }
}

#[test]
fn a_routine_given_a_float_constant_in_a_bounded_nest() {
    for (planes, per) in [(1usize, 1usize), (33, 17), (64, 100)] {
        let starts: Vec<f64> = (0..planes).map(|k| (1 + 2 * k) as f64).collect();
        let mut u = vec![0.0f64; planes * per];
        seeded_planes(&mut u, &starts, planes, per);
        let mut want = vec![0.0f64; planes * per];
        for k in 0..planes {
            let mut x = starts[k];
            for i in 0..per {
                x = next_seed(x, MULT);
                want[k * per + i] = x;
            }
        }
        assert_eq!(u, want, "{planes} planes of {per}");
    }
}
