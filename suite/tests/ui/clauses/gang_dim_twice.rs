// Each grid dimension spreads one loop of a nest: two loops on `gang(dim: 2)` cannot share it.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang(dim: 2))]
    for i in 0..n {
        #[acc::r#loop(gang(dim: 2), vector)]
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
