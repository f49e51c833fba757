// A vector length that is not an integer: a type error at it (a cast would truncate it).
#[acc::parallel(vector_length(2.5))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
