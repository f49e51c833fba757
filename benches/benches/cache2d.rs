//! `cache!` with 2-D windows (issue 11; the cache paper's GEMM, Section V-B 1): `c = a * b` for
//! `N x N` `f32` matrices as acc `tile(16, 16)` without `cache!`, acc with
//! `cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j])` in the k-tile loop (the two
//! tiles staged in shared memory per trip), on 16 x 16 and 32 x 32 tiles (and 32-wide k-tiles
//! on 32 x 32), beside `benches/cuda/cache2d.cu` (hand-written CUDA 16 x 16 and 32 x 32
//! shared-memory tiled kernels, built by nvcc). Run by `scripts/gpu-beside-nvcc.sh cache2d`.
//! Every acc result is checked: small integers, so every sum is exact; all the cases agree,
//! and 64 entries against the host's loop.

mod common;
use common::median;

const N: usize = 2048;

#[acc::parallel(present(a, b, c))]
fn tile16_plain(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

#[acc::parallel(present(a, b, c))]
fn tile16_cache(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// The same with the trip's 16 steps fixed and the columns past `n` guarded.
#[acc::parallel(present(a, b, c))]
fn tile16_cache_if(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..kk + 16 {
                    if k < n {
                        s += a[i * n + k] * b[k * n + j];
                    }
                }
            }
            c[i * n + j] = s;
        }
    }
}

#[acc::parallel(present(a, b, c))]
fn tile32_cache(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)], b[(kk..kk + 16) * n + j]);
                for k in kk..(kk + 16).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

/// 32 x 32 tiles with 32-wide k-tiles (nvcc's 32 x 32 kernel's shape).
#[acc::parallel(present(a, b, c))]
fn tile32_cache32(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(32) {
                acc::cache!(a[i * n + (kk..kk + 32)], b[(kk..kk + 32) * n + j]);
                for k in kk..(kk + 32).min(n) {
                    s += a[i * n + k] * b[k * n + j];
                }
            }
            c[i * n + j] = s;
        }
    }
}

fn main() {
    println!("# acc cache2d, device: {:?}", acc::device_type());
    let n = N;
    let a: Vec<f32> = (0..n * n).map(|x| ((x * 7919) % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..n * n).map(|x| ((x * 104_729) % 5) as f32 - 2.0).collect();
    type G = fn(&[f32], &[f32], &mut [f32], usize);
    let cases: [(&str, G); 5] =
        [("tile16_plain", tile16_plain), ("tile16_cache", tile16_cache), ("tile16_cache_if", tile16_cache_if), ("tile32_cache", tile32_cache), ("tile32_cache32", tile32_cache32)];
    let mut first: Option<Vec<f32>> = None;
    for (name, f) in cases {
        let mut c = vec![0.0f32; n * n];
        let secs;
        acc::data!(copyin(a, b), copy(c) {
            secs = median(|| f(&a, &b, &mut c, n));
        });
        match &first {
            None => {
                for t in 0..64 {
                    let (i, j) = ((t * 523) % n, (t * 1031 + 7) % n);
                    let want: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
                    assert_eq!(c[i * n + j], want, "{name}: c[{i}][{j}]");
                }
                first = Some(c);
            }
            Some(w) => assert!(c == *w, "{name}: differs from the first case"),
        }
        println!("acc  {name:<16} {:>9.4} ms {:>8.1} GFLOP/s", secs * 1e3, 2.0 * (n * n * n) as f64 / secs / 1e9);
    }
    common::print_launches();
}
