//! `cache!` on 1-D stencils (Lashgar and Baniasadi's RBI with the cache shared by a block): a
//! 3-point and a 9-point stencil on `N` `f32`s, and the paper's Listing 1 / Fig. 1 stencil of
//! radius 30 that reads its window through an inner loop (`for j in i - 30..=i + 30`), each as
//! acc without `cache!`, acc with `cache!` (the window staged in shared memory per block), beside
//! `benches/cuda/cache1d.cu` (hand-written CUDA: the plain kernel, and the classic shared-memory
//! kernel with its halo, built by nvcc). Run by `scripts/gpu-beside-nvcc.sh cache1d`. Every acc result is
//! checked against the host's loop.

mod common;
use common::median;

const N: usize = 1 << 26;

#[acc::parallel(present(a, b))]
fn s3_plain(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
}

#[acc::parallel(present(a, b))]
fn s3_cache(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        acc::cache!(a[i - 1..=i + 1]);
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
}

#[acc::parallel(present(a, b))]
fn s9_plain(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 4..a.len() - 4 {
        b[i] = 0.2 * a[i] + 0.16 * (a[i - 1] + a[i + 1]) + 0.12 * (a[i - 2] + a[i + 2]) + 0.08 * (a[i - 3] + a[i + 3]) + 0.04 * (a[i - 4] + a[i + 4]);
    }
}

#[acc::parallel(present(a, b))]
fn s9_cache(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 4..a.len() - 4 {
        acc::cache!(a[i - 4..=i + 4]);
        b[i] = 0.2 * a[i] + 0.16 * (a[i - 1] + a[i + 1]) + 0.12 * (a[i - 2] + a[i + 2]) + 0.08 * (a[i - 3] + a[i + 3]) + 0.04 * (a[i - 4] + a[i + 4]);
    }
}

#[acc::parallel(present(a, b))]
fn r30_plain(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 30..a.len() - 30 {
        let mut s = 0.0f32;
        for j in i - 30..=i + 30 {
            s += a[j];
        }
        b[i] = s;
    }
}

#[acc::parallel(present(a, b))]
fn r30_cache(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 30..a.len() - 30 {
        acc::cache!(a[i - 30..=i + 30]);
        let mut s = 0.0f32;
        for j in i - 30..=i + 30 {
            s += a[j];
        }
        b[i] = s;
    }
}

/// `r30_cache` with the exclusive range `i - 30..i + 31`.
#[acc::parallel(present(a, b))]
fn r30x_cache(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 30..a.len() - 30 {
        acc::cache!(a[i - 30..i + 31]);
        let mut s = 0.0f32;
        for j in i - 30..i + 31 {
            s += a[j];
        }
        b[i] = s;
    }
}

/// `r30_plain` with the exclusive range.
#[acc::parallel(present(a, b))]
fn r30x_plain(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 30..a.len() - 30 {
        let mut s = 0.0f32;
        for j in i - 30..i + 31 {
            s += a[j];
        }
        b[i] = s;
    }
}

fn main() {
    println!("# acc cache1d, device: {:?}", acc::device_type());
    let n = N;
    let a: Vec<f32> = (0..n).map(|x| ((x * 7919) % 1000) as f32 / 1000.0).collect();
    let mut want3 = vec![0.0f32; n];
    let mut want9 = vec![0.0f32; n];
    for i in 1..n - 1 {
        want3[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
    for i in 4..n - 4 {
        want9[i] = 0.2 * a[i] + 0.16 * (a[i - 1] + a[i + 1]) + 0.12 * (a[i - 2] + a[i + 2]) + 0.08 * (a[i - 3] + a[i + 3]) + 0.04 * (a[i - 4] + a[i + 4]);
    }
    let mut want30 = vec![0.0f32; n];
    for i in 30..n - 30 {
        let mut s = 0.0f32;
        for x in &a[i - 30..=i + 30] {
            s += x;
        }
        want30[i] = s;
    }
    type S = fn(&[f32], &mut [f32]);
    let cases: [(&str, S, &[f32]); 8] = [
        ("s3_plain", s3_plain, &want3),
        ("s3_cache", s3_cache, &want3),
        ("s9_plain", s9_plain, &want9),
        ("s9_cache", s9_cache, &want9),
        ("r30_plain", r30_plain, &want30),
        ("r30_cache", r30_cache, &want30),
        ("r30x_plain", r30x_plain, &want30),
        ("r30x_cache", r30x_cache, &want30),
    ];
    for (name, f, want) in cases {
        let mut b = vec![0.0f32; n];
        let secs;
        acc::data!(copyin(a), copy(b) {
            secs = median(|| f(&a, &mut b));
        });
        assert!(b == want, "{name}: wrong result");
        println!("acc  {name:<12} {:>9.4} ms {:>8.1} GB/s", secs * 1e3, 8.0 * n as f64 / secs / 1e9);
    }
    common::print_launches();
}
