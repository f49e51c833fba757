// The reduction variable must exist before the loop.
#[acc::parallel]
fn sum(a: &[f64]) -> f64 {
    let mut total = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: sum))]
    for i in 0..a.len() {
        total += a[i];
    }
    total
}

fn main() {}
