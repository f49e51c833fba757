//! `cache!` on a 2-D Jacobi step (issue 11; the cache paper's Jacobi, Section V-B 3): each
//! point of an `N x N` `f32` grid becomes the weighted average of its 3 x 3 neighbourhood, as
//! acc `tile` nests without `cache!` (every neighbour read from global memory through the
//! caches) and with `cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)])` at the top of the nest's
//! body (each block stages its tile of the grid and the halo around it in shared memory once,
//! `acc-codegen/src/lower/tiles.rs`), on 32 x 32 and 32 x 16 tiles (and 32 x 8 without `cache!`,
//! the block of nvcc's plain kernel), beside
//! `benches/cuda/jacobi.cu` (hand-written CUDA: a plain kernel and two shared-memory kernels,
//! built by nvcc). Run by `scripts/gpu-beside-nvcc.sh jacobi`. Every acc result is checked:
//! the data are small integers and the weights powers of two, so every case gives the same
//! grid, bit for bit, and 64 rows are checked against the host's loop.

mod common;
use common::median;

const N: usize = 4096;

#[acc::parallel(present(a, b))]
fn plain32(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

#[acc::parallel(present(a, b))]
fn cache32(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 32))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]);
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

#[acc::parallel(present(a, b))]
fn plain16(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 16))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

#[acc::parallel(present(a, b))]
fn plain8(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 8))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

#[acc::parallel(present(a, b))]
fn cache16(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 16))]
    for i in 1..n - 1 {
        for j in 1..n - 1 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]);
            b[i * n + j] = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                + 0.25 * a[i * n + j];
        }
    }
}

fn main() {
    println!("# acc jacobi, device: {:?}", acc::device_type());
    let n = N;
    let a: Vec<f32> = (0..n * n).map(|k| ((k * 7919) % 16) as f32).collect();
    type F = fn(&[f32], &mut [f32], usize);
    let cases: [(&str, F); 5] = [("plain32", plain32), ("cache32", cache32), ("plain16", plain16), ("cache16", cache16), ("plain8", plain8)];
    let mut first: Option<Vec<f32>> = None;
    for (name, f) in cases {
        let mut b = vec![0.0f32; n * n];
        let secs;
        acc::data!(copyin(a), copy(b) {
            secs = median(|| f(&a, &mut b, n));
        });
        match &first {
            None => {
                for t in 0..64 {
                    let i = 1 + (t * 523) % (n - 2);
                    for j in 1..n - 1 {
                        let want = 0.0625 * (a[(i - 1) * n + j - 1] + a[(i - 1) * n + j + 1] + a[(i + 1) * n + j - 1] + a[(i + 1) * n + j + 1])
                            + 0.125 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1])
                            + 0.25 * a[i * n + j];
                        assert_eq!(b[i * n + j], want, "{name}: ({i}, {j})");
                    }
                }
                first = Some(b.clone());
            }
            Some(w) => assert!(b == *w, "{name}: differs from the first case"),
        }
        let sum: f64 = b.iter().map(|&v| f64::from(v)).sum();
        // Bytes: the grid read once and written once.
        println!("acc  {name:<14} {:>9.4} ms {:>8.1} GB/s   # checksum {sum:.9e}", secs * 1e3, (2 * n * n * 4) as f64 / secs / 1e9);
    }
    common::print_launches();
}
