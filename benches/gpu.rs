//! GPU bandwidth of acc regions (issue 4's bench): `vadd` and `saxpy` on 50M f32 and f64, `dot`
//! on 50M f64, each inside a data region (no transfers), and the cost of one launch. Run on a
//! GPU machine with `benches/gpu_baseline.py` in the same command for the baselines (the
//! device-to-device copy and CuPy). Build: `cargo bench --features cuda --bench gpu --no-run`.

use std::time::Instant;

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
fn tiny(c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] += 1.0;
    }
}

/// Median seconds of `reps` calls after two warm-ups.
fn median(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    f();
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[reps / 2]
}

fn main() {
    let n = 50_000_000usize;
    let reps = 20;
    println!("device: {:?}", acc::device_type());
    println!("{:<22}{:>12}{:>12}", "kernel", "time (ms)", "GB/s");
    let row = |name: &str, s: f64, bytes: usize| println!("{name:<22}{:>12.3}{:>12.1}", s * 1e3, bytes as f64 / s / 1e9);

    let a32 = vec![1.0f32; n];
    let b32 = vec![2.0f32; n];
    let mut c32 = vec![0.0f32; n];
    acc::data!(copyin(a32, b32), copy(c32) {
        row("vadd f32", median(reps, || vadd32(&a32, &b32, &mut c32)), 12 * n);
        row("saxpy f32", median(reps, || saxpy32(0.5, &a32, &mut c32)), 12 * n);
    });
    assert!(c32.iter().all(|&x| x == 3.0 + 0.5 * 22.0), "f32 results wrong");

    let a64 = vec![1.0f64; n];
    let b64 = vec![2.0f64; n];
    let mut c64 = vec![0.0f64; n];
    let mut d = 0.0;
    acc::data!(copyin(a64, b64), copy(c64) {
        row("vadd f64", median(reps, || vadd64(&a64, &b64, &mut c64)), 24 * n);
        row("saxpy f64", median(reps, || saxpy64(0.5, &a64, &mut c64)), 24 * n);
        row("dot f64", median(reps, || d = dot(&a64, &b64)), 16 * n);
    });
    assert_eq!(d, 2.0 * n as f64, "dot wrong");
    assert!(c64.iter().all(|&x| x == 3.0 + 0.5 * 22.0), "f64 results wrong");

    // Launch cost: 1000 launches of a 1024-element region inside a data region.
    let mut small = vec![0.0f32; 1024];
    let mut per = 0.0;
    acc::data!(copy(small) {
        tiny(&mut small);
        let s = Instant::now();
        for _ in 0..1000 {
            tiny(&mut small);
        }
        per = s.elapsed().as_secs_f64() / 1000.0;
    });
    assert!(small.iter().all(|&x| x == 1001.0));
    println!("launch + sync of a small region inside a data region: {:.2} us", per * 1e6);
}
