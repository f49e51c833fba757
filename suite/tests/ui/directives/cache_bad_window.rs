// A cache window is a range of elements, not one element.
#[acc::parallel]
fn smooth(a: &[f32], b: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 1..a.len() - 1 {
        acc::cache!(a[i]);
        b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    }
}

fn main() {}
