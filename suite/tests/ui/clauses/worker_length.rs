// `worker`'s spelled size is `num:`; `length:` belongs to `vector`.
#[acc::kernels]
fn scale(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, worker(length: 4))]
    for i in 0..n {
        #[acc::r#loop(vector)]
        for j in 0..m {
            a[i * m + j] *= 2.0;
        }
    }
}

fn main() {}
