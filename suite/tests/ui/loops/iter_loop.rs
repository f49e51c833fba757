// Iterator loops have no trip count the device can split: acc loops run over ranges.
#[acc::parallel]
fn sum(a: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for x in a.iter() {
        s += *x;
    }
    s
}

fn main() {}
