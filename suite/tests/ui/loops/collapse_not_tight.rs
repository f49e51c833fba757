// `collapse(2)` needs the inner loop to be the whole body of the outer one.
#[acc::parallel]
fn rows(a: &mut [f64], row_sums: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(2))]
    for i in 0..n {
        row_sums[i] = 0.0;
        for j in 0..m {
            a[i * m + j] = 1.0;
        }
    }
}

fn main() {}
