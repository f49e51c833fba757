// `&` is a bitwise reduction: floats have none.
#[acc::parallel]
fn mask(a: &[f64]) -> f64 {
    let mut m = 0.0f64;
    #[acc::r#loop(gang, vector, reduction(&: m))]
    for i in 0..a.len() {
        m = a[i];
    }
    m
}

fn main() {}
