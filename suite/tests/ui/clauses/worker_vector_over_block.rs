// `worker(n)` and `vector(n)` on one loop share its block dimension: 64 x 32 threads is over 1024.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize) {
    #[acc::r#loop(gang, worker(64), vector(32))]
    for i in 0..n {
        a[i] = 0.0;
    }
}

fn main() {}
