// `vector(n)` is the threads of one block dimension: a GPU block holds at most 1024 threads.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang)]
    for i in 0..n {
        #[acc::r#loop(gang, vector(2048))]
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
