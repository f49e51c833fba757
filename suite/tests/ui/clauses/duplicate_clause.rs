// `vector_length` twice: reported at the second one.
#[acc::parallel(vector_length(128), copyin(a), vector_length(256))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
