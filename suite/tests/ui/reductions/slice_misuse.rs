// A loop that reduces an array parameter only updates its elements, with the clause's
// operator; a read-only parameter cannot be reduced.
#[acc::parallel]
fn histogram(a: &[f64], bins: &mut [f64], hi: &mut [f64], fixed: &[f64]) {
    #[acc::r#loop(gang, vector, reduction(+: bins), reduction(max: hi), reduction(+: fixed))]
    for i in 0..a.len() {
        bins[i % 10] += a[i] * fixed[i];
        bins[(i + 1) % 10] -= a[i];
        let first = bins[0];
        hi[0] = first.max(a[i]);
    }
}

fn main() {}
