// Multi-dimensional gangs are a `kernels` feature.
#[acc::parallel]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang(dim: 2))]
    for i in 0..n {
        #[acc::r#loop(vector)]
        for j in 0..m {
            a[i * m + j] = 1.0;
        }
    }
}

fn main() {}
