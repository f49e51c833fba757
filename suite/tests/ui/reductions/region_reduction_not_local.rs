// A region-level reduction names a local of the region, not a parameter.
#[acc::parallel(reduction(+: a))]
fn sum(a: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

fn main() {}
