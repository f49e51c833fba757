//! Generic regions and routines, on every backend. A generic region names its instances
//! (`instances(f32, f64)`), each compiled to kernels of its own; a call runs the instance of its
//! arguments, and a call with arguments the clause does not list panics naming the region.
//! Generic routines are instantiated by rustc for the regions that call them. Bounds may be
//! `core`'s traits, `acc::Float` (`std`'s float methods in generic code) and traits of the
//! package, which acc-build carries to the device with their impls.

use std::ops::{Add, Mul, Sub};

/// A trait of the package, with impls for `f32` and `f64`: carried to the device crate.
trait Real: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + PartialOrd {
    const ZERO: Self;
    fn halve(self) -> Self;
    /// Named apart from `sqrt`, which `acc::Float` gives `f32` and `f64` on the device.
    fn root(self) -> Self;
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    fn halve(self) -> f32 {
        self * 0.5
    }
    fn root(self) -> f32 {
        acc::Float::sqrt(self)
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    fn halve(self) -> f64 {
        self * 0.5
    }
    fn root(self) -> f64 {
        acc::Float::sqrt(self)
    }
}

#[acc::parallel(instances(f32, f64))]
fn axpy<T: Real>(a: T, x: &[T], y: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// A generic routine: instantiated by rustc for its callers, on both sides.
#[acc::routine(seq)]
fn lerp<T: Real>(a: T, b: T, t: T) -> T {
    a + (b - a) * t
}

/// A reduction over `T` that returns it; the generic routine inside.
#[acc::parallel(instances(f32, f64))]
fn lerp_sum<T: Real>(a: &[T], b: &[T], t: T) -> T {
    let mut s = T::ZERO;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += lerp(a[i], b[i], t).halve();
    }
    s
}

/// `acc::Float` gives generic code `std`'s float methods, on the host and in the kernels; the
/// package's trait calls it in its impls.
#[acc::parallel(instances(f32, f64))]
fn norms<T: Real + acc::Float>(x: &[T], y: &[T], out: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = (x[i] * x[i] + y[i] * y[i]).sqrt() + (x[i] * x[i]).root();
    }
}

/// A type and a const parameter; instances name both (`<T, R>`).
#[acc::parallel(instances(<f64, 1>, <f64, 3>, <i64, 2>))]
fn box_sum<T: Copy + Add<Output = T> + Default, const R: usize>(a: &[T], out: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in R..a.len() - R {
        let mut s = T::default();
        for j in i - R..=i + R {
            s = s + a[j];
        }
        out[i] = s;
    }
}

/// A concrete region calling the generic routine.
#[acc::parallel]
fn midpoints(a: &[f64], b: &[f64], out: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = lerp(a[i], b[i], 0.5);
    }
}

fn data64(n: usize, k: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * k) % 17) as f64 - 8.0).collect()
}

#[test]
fn instances_of_a_generic_region() {
    let x = data64(1000, 3);
    let mut y = data64(1000, 5);
    let want: Vec<f64> = x.iter().zip(&y).map(|(x, y)| 2.0 * x + y).collect();
    axpy(2.0, &x, &mut y);
    assert_eq!(y, want);

    let x: Vec<f32> = data64(999, 3).iter().map(|&v| v as f32).collect();
    let mut y: Vec<f32> = data64(999, 7).iter().map(|&v| v as f32).collect();
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| -0.5 * x + y).collect();
    axpy(-0.5f32, &x, &mut y);
    assert_eq!(y, want);
}

#[test]
fn generic_routine_in_generic_and_concrete_regions() {
    let a = data64(4096, 3);
    let b = data64(4096, 11);
    let want: f64 = a.iter().zip(&b).map(|(a, b)| (a + (b - a) * 0.25) * 0.5).sum();
    assert_eq!(lerp_sum(&a, &b, 0.25), want);
    let a32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
    let b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
    let want32: f32 = a32.iter().zip(&b32).map(|(a, b)| (a + (b - a) * 0.25) * 0.5).sum();
    assert_eq!(lerp_sum(&a32, &b32, 0.25f32), want32);

    let mut out = vec![0.0; a.len()];
    midpoints(&a, &b, &mut out);
    assert_eq!(out, a.iter().zip(&b).map(|(a, b)| a + (b - a) * 0.5).collect::<Vec<_>>());
}

#[test]
fn float_methods_in_generic_code() {
    let x = data64(2000, 3);
    let y = data64(2000, 7);
    let mut out = vec![0.0; x.len()];
    norms(&x, &y, &mut out);
    // `sqrt` is correctly rounded everywhere: equal bits.
    assert_eq!(out, x.iter().zip(&y).map(|(x, y)| (x * x + y * y).sqrt() + x.abs()).collect::<Vec<_>>());
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let y32: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    let mut out32 = vec![0.0f32; x.len()];
    norms(&x32, &y32, &mut out32);
    assert_eq!(out32, x32.iter().zip(&y32).map(|(x, y)| (x * x + y * y).sqrt() + x.abs()).collect::<Vec<_>>());
}

fn box_want<T: Copy + Add<Output = T> + Default>(a: &[T], r: usize) -> Vec<T> {
    let mut out = vec![T::default(); a.len()];
    for i in r..a.len() - r {
        out[i] = a[i - r..=i + r].iter().fold(T::default(), |s, &v| s + v);
    }
    out
}

#[test]
fn const_parameters() {
    let a = data64(777, 5);
    let mut out = vec![0.0; a.len()];
    box_sum::<f64, 1>(&a, &mut out);
    assert_eq!(out, box_want(&a, 1));
    let mut out = vec![0.0; a.len()];
    box_sum::<f64, 3>(&a, &mut out);
    assert_eq!(out, box_want(&a, 3));
    let ai: Vec<i64> = (0..500).map(|i| (i % 9) - 4).collect();
    let mut out = vec![0i64; ai.len()];
    box_sum::<i64, 2>(&ai, &mut out);
    assert_eq!(out, box_want(&ai, 2));
}

#[test]
#[should_panic(expected = "region `box_sum` has no instance")]
fn an_instance_the_clause_does_not_list_panics() {
    let a = vec![1i64; 100];
    let mut out = vec![0i64; 100];
    box_sum::<i64, 1>(&a, &mut out);
}
