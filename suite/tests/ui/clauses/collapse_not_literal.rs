// The collapse depth must be known when the macro runs: a literal, not a variable.
#[acc::parallel]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(n))]
    for i in 0..n {
        for j in 0..m {
            a[i * m + j] = (i + j) as f64;
        }
    }
}

fn main() {}
