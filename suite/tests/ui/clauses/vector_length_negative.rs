// A negative vector length.
#[acc::parallel(vector_length(-1))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
