// An array section in `reduction` is refused: the whole array `q` reduces every element.
#[acc::parallel]
fn histogram(a: &[f64]) -> [f64; 10] {
    let mut q = [0.0f64; 10];
    #[acc::r#loop(gang, vector, reduction(+: q[0..10]))]
    for i in 0..a.len() {
        q[i % 10] += a[i];
    }
    q
}

fn main() {}
