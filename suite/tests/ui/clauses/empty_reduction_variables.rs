// `reduction(+:)` names no variable: reported on the loop's clause, not on the region.
#[acc::parallel]
fn sum(a: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+:))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

fn main() {}
