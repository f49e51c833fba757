// An async queue that is not an integer.
#[acc::parallel(async("x"))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
