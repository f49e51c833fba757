//! Host-backend speed: `vadd` and `dot` over 1<<24 elements through acc's rayon backend against
//! a plain sequential loop and the machine's copy bandwidth, in one run.
//! `cargo bench -p acc-benches --bench host` (set ACC_DEVICE_TYPE=host to be sure of the backend).

mod common;

use std::hint::black_box;

#[acc::parallel]
fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
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

fn vadd_seq(a: &[f32], b: &[f32], c: &mut [f32]) {
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

fn dot_seq(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

/// Median seconds of `reps` runs after one warm-up.
fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    common::median_of(reps, f)
}

fn main() {
    let n = 1usize << 24;
    let reps = 15;
    let threads = rayon::current_num_threads();
    println!("host backend: {:?}, {threads} rayon threads, n = {n}", acc::device_type());

    let a: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 89) as f32).collect();
    let mut c = vec![0.0f32; n];
    let mut d = vec![0.0f32; n];
    let copy = time(reps, || d.copy_from_slice(black_box(&a)));
    let pcopy = time(reps, || {
        use rayon::prelude::*;
        d.par_chunks_mut(1 << 16).zip(a.par_chunks(1 << 16)).for_each(|(d, a)| d.copy_from_slice(a))
    });
    let seq = time(reps, || vadd_seq(black_box(&a), black_box(&b), black_box(&mut c)));
    let par = time(reps, || vadd(black_box(&a), black_box(&b), black_box(&mut c)));
    assert!((0..n).all(|i| c[i] == a[i] + b[i]));
    let gb = |bytes: usize, s: f64| bytes as f64 / s / 1e9;
    let copy_gbs = gb(2 * 4 * n, copy);
    println!("{:<28}{:>10}{:>12}{:>14}", "kernel", "GB/s", "vs seq", "vs memcpy");
    println!("{:<28}{:>10.1}{:>12}{:>14}", "memcpy (copy_from_slice)", copy_gbs, "", "1.00");
    println!("{:<28}{:>10.1}{:>12}{:>14.2}", "memcpy rayon (all cores)", gb(2 * 4 * n, pcopy), "", gb(2 * 4 * n, pcopy) / copy_gbs);
    let v_seq = gb(3 * 4 * n, seq);
    let v_par = gb(3 * 4 * n, par);
    println!("{:<28}{:>10.1}{:>12}{:>14.2}", "vadd f32 sequential", v_seq, "1.00", v_seq / copy_gbs);
    println!("{:<28}{:>10.1}{:>12.2}{:>14.2}", "vadd f32 acc host", v_par, seq / par, v_par / copy_gbs);

    let x: Vec<f64> = (0..n).map(|i| (i % 13) as f64).collect();
    let y: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
    let mut r_seq = 0.0;
    let mut r_par = 0.0;
    let seq = time(reps, || r_seq = dot_seq(black_box(&x), black_box(&y)));
    let par = time(reps, || r_par = dot(black_box(&x), black_box(&y)));
    assert_eq!(r_seq, r_par, "dot results differ");
    let d_seq = gb(2 * 8 * n, seq);
    let d_par = gb(2 * 8 * n, par);
    println!("{:<28}{:>10.1}{:>12}{:>14.2}", "dot f64 sequential", d_seq, "1.00", d_seq / copy_gbs);
    println!("{:<28}{:>10.1}{:>12.2}{:>14.2}", "dot f64 acc host", d_par, seq / par, d_par / copy_gbs);
}
