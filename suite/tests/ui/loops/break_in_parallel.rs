// A parallel loop has no "first" iteration to stop at.
#[acc::parallel]
fn clamp(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        if a[i].is_nan() {
            break;
        }
        a[i] = a[i].min(1.0);
    }
}

fn main() {}
