// An array parameter is reduced by the loops that update it, not by the region's clause.
#[acc::parallel(reduction(+: bins))]
fn histogram(a: &[f64], bins: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        bins[i % 10] += a[i];
    }
}

fn main() {}
