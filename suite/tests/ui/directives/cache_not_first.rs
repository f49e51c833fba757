// `cache!` stages the window before the body runs: it must come first.
#[acc::parallel]
fn smooth(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        let w = 0.25;
        acc::cache!(a[i - 1..i + 2]);
        b[i] = w * a[i - 1] + 0.5 * a[i] + w * a[i + 1];
    }
}

fn main() {}
