//! Matrix product with a vector `+` reduction on the innermost loop.
//! `cargo run --release -p acc-examples --example 04-matmul`

#[acc::parallel(copyin(a, b), copyout(c))]
fn matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, worker, collapse(2))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            #[acc::r#loop(vector, reduction(+: s))]
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

fn main() {
    let n = 512;
    // Small integers keep every sum exact, whatever the order.
    let a: Vec<f32> = (0..n * n).map(|x| (x % 5) as f32).collect();
    let b: Vec<f32> = (0..n * n).map(|x| (x % 3) as f32 - 1.0).collect();
    let mut c = vec![0.0f32; n * n];
    let start = std::time::Instant::now();
    matmul(&a, &b, &mut c, n);
    let secs = start.elapsed().as_secs_f64();
    let mut wrong = 0;
    for i in 0..n {
        for j in 0..n {
            let s: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
            if s != c[i * n + j] {
                wrong += 1;
            }
        }
    }
    println!(
        "matmul {n}x{n} on {:?}: {:.2} GFLOP/s, {wrong} wrong elements",
        acc::device_type(),
        2.0 * (n as f64).powi(3) / secs / 1e9
    );
    assert_eq!(wrong, 0, "matmul gave wrong results");
    println!("verified");
}
