// A slice is not a reduction variable: reduce a local `[T; N]` and copy it out.
#[acc::parallel]
fn histogram(a: &[f64], bins: &mut [f64]) {
    #[acc::r#loop(gang, vector, reduction(+: bins))]
    for i in 0..a.len() {
        bins[i % 10] += a[i];
    }
}

fn main() {}
