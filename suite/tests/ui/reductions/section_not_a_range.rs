// A section in `reduction` is a range of indices, not one index.
#[acc::parallel]
fn histogram(a: &[f64]) -> [f64; 10] {
    let mut q = [0.0f64; 10];
    #[acc::r#loop(gang, vector, reduction(+: q[3]))]
    for i in 0..a.len() {
        q[3] += a[i];
    }
    q
}

fn main() {}
