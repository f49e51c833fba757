// A tile's third size is the block's `z`, at most 64 threads on the GPU.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize, m: usize, l: usize) {
    #[acc::r#loop(tile(2, 2, 128))]
    for i in 0..n {
        for j in 0..m {
            for k in 0..l {
                a[(i * m + j) * l + k] = 0.0;
            }
        }
    }
}

fn main() {}
