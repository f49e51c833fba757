// The loops of a `collapse` nest share the outer directive's schedule.
#[acc::parallel]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, collapse(2))]
    for i in 0..n {
        #[acc::r#loop(vector)]
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
