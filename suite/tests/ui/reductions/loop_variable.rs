// The loop variable takes one value per iteration: it cannot be reduced.
#[acc::parallel]
fn count_positive(a: &[f64]) -> usize {
    let mut count = 0;
    #[acc::r#loop(gang, vector, reduction(+: i, count))]
    for i in 0..a.len() {
        if a[i] > 0.0 {
            count += 1;
        }
    }
    count
}

fn main() {}
