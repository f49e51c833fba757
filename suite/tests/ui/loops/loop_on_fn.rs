// A loop directive on a fn item, outside any region.
#[acc::r#loop(gang, vector)]
fn scale(a: &[f32], out: &mut [f32]) {
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
