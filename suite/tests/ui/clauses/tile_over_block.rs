// On the GPU a tile is one block of threads: 64 x 64 elements is over 1024.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(tile(64, 64))]
    for i in 0..n {
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
