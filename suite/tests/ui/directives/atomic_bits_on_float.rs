// Bitwise atomics take integers and `bool`, not floats.
#[acc::parallel]
fn flags(a: &[f32]) -> f32 {
    let mut bits = 0.0f32;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        acc::atomic!(bits |= a[i]);
    }
    bits
}

fn main() {}
