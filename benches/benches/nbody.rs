//! `cache!` on the N-body forces (issue 11; the cache paper's N-body, Section V-B 2): the
//! softened forces of `N` bodies on each other (positions and masses as separate arrays), one
//! `gang, vector` loop over the bodies whose inner loop walks the others in tiles of 256, as
//! acc without `cache!` (every body read from global memory through the caches) and with
//! `cache!(x[jj..jj + 256], ..)` at the top of the tile loop (the block stages each tile in
//! shared memory, `acc-codegen/src/lower/tiles.rs`), beside `benches/cuda/nbody.cu`
//! (hand-written CUDA, a plain kernel and the classic shared-memory kernel, built by nvcc).
//! Run by `scripts/gpu-beside-nvcc.sh nbody`. Every acc result is checked: both acc cases give
//! the same forces, and 64 bodies against the host's loop, bit for bit (the same operations in
//! the same order, no fused multiply-adds).

mod common;
use common::median;

const N: usize = 65536;
const EPS: f32 = 0.01;

#[acc::parallel(present(x, y, z, m, ax, ay, az))]
fn forces_plain(x: &[f32], y: &[f32], z: &[f32], m: &[f32], ax: &mut [f32], ay: &mut [f32], az: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        let (xi, yi, zi) = (x[i], y[i], z[i]);
        let (mut fx, mut fy, mut fz) = (0.0f32, 0.0f32, 0.0f32);
        for jj in (0..n).step_by(256) {
            for j in jj..(jj + 256).min(n) {
                let (dx, dy, dz) = (x[j] - xi, y[j] - yi, z[j] - zi);
                let r2 = dx * dx + dy * dy + dz * dz + EPS;
                let s = m[j] / (r2 * r2.sqrt());
                fx += dx * s;
                fy += dy * s;
                fz += dz * s;
            }
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
    }
}

#[acc::parallel(present(x, y, z, m, ax, ay, az))]
fn forces_cache(x: &[f32], y: &[f32], z: &[f32], m: &[f32], ax: &mut [f32], ay: &mut [f32], az: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        let (xi, yi, zi) = (x[i], y[i], z[i]);
        let (mut fx, mut fy, mut fz) = (0.0f32, 0.0f32, 0.0f32);
        for jj in (0..n).step_by(256) {
            acc::cache!(x[jj..jj + 256], y[jj..jj + 256], z[jj..jj + 256], m[jj..jj + 256]);
            for j in jj..(jj + 256).min(n) {
                let (dx, dy, dz) = (x[j] - xi, y[j] - yi, z[j] - zi);
                let r2 = dx * dx + dy * dy + dz * dz + EPS;
                let s = m[j] / (r2 * r2.sqrt());
                fx += dx * s;
                fy += dy * s;
                fz += dz * s;
            }
        }
        ax[i] = fx;
        ay[i] = fy;
        az[i] = fz;
    }
}

fn main() {
    println!("# acc nbody, device: {:?}", acc::device_type());
    let n = N;
    let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 * 0.001).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 1000) as f32 * 0.001).collect();
    let z: Vec<f32> = (0..n).map(|i| ((i * 15_485_863) % 1000) as f32 * 0.001).collect();
    let m: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32).collect();
    type F = fn(&[f32], &[f32], &[f32], &[f32], &mut [f32], &mut [f32], &mut [f32], usize);
    let cases: [(&str, F); 2] = [("plain", forces_plain), ("cache", forces_cache)];
    let mut first: Option<Vec<f32>> = None;
    for (name, f) in cases {
        let (mut ax, mut ay, mut az) = (vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]);
        let secs;
        acc::data!(copyin(x, y, z, m), copyout(ax, ay, az) {
            secs = median(|| f(&x, &y, &z, &m, &mut ax, &mut ay, &mut az, n));
        });
        match &first {
            None => {
                for t in 0..64 {
                    let i = (t * 523) % n;
                    let (mut fx, mut fy, mut fz) = (0.0f32, 0.0f32, 0.0f32);
                    for j in 0..n {
                        let (dx, dy, dz) = (x[j] - x[i], y[j] - y[i], z[j] - z[i]);
                        let r2 = dx * dx + dy * dy + dz * dz + EPS;
                        let s = m[j] / (r2 * r2.sqrt());
                        fx += dx * s;
                        fy += dy * s;
                        fz += dz * s;
                    }
                    assert_eq!((ax[i], ay[i], az[i]), (fx, fy, fz), "{name}: body {i}");
                }
                first = Some(ax.iter().chain(&ay).chain(&az).copied().collect());
            }
            Some(w) => assert!(ax.iter().chain(&ay).chain(&az).copied().eq(w.iter().copied()), "{name}: differs from the first case"),
        }
        let sum: f64 = ax.iter().map(|&v| f64::from(v)).sum();
        println!("acc  {name:<14} {:>9.4} ms {:>8.2} G interactions/s   # checksum {sum:.9e}", secs * 1e3, (n * n) as f64 / secs / 1e9);
    }
    common::print_launches();
}
