// A GPU grid has three dimensions: `gang(dim: 4)` names none of them.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang(dim: 4))]
    for i in 0..n {
        #[acc::r#loop(gang(dim: 1), vector)]
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
