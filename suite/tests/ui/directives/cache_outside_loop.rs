// `cache!` at the top of a region, outside any acc loop.
#[acc::parallel]
fn smooth(a: &[f32], b: &mut [f32]) {
    acc::cache!(a[0..3]);
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
}

fn main() {}
