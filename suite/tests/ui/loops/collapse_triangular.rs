// A collapsed nest must be rectangular: the inner bounds cannot use the outer variable.
#[acc::parallel]
fn lower(a: &mut [f64], n: usize) {
    #[acc::r#loop(gang, vector, collapse(2))]
    for i in 0..n {
        for j in 0..i {
            a[i * n + j] = 1.0;
        }
    }
}

fn main() {}
