// `collapse(force: 2)` over loops with a statement between them: refused on `force`, saying
// what to write.
#[acc::parallel]
fn rows(a: &mut [f64], b: &[f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(force: 2))]
    for i in 0..n {
        let w = b[i];
        for j in 0..m {
            a[i * m + j] = w;
        }
    }
}

fn main() {}
