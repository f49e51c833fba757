// `collapse(0)` collapses no loop at all.
#[acc::parallel]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(0))]
    for i in 0..n {
        for j in 0..m {
            a[i * m + j] = (i + j) as f64;
        }
    }
}

fn main() {}
