// One loop, two `acc::loop` attributes: the second would be ignored, so it is an error.
#[acc::parallel]
fn sum(a: &[f32]) -> f32 {
    let mut t = 0.0f32;
    #[acc::r#loop(gang)]
    #[acc::r#loop(reduction(+: t))]
    for i in 0..a.len() {
        t += a[i];
    }
    t
}

fn main() {}
