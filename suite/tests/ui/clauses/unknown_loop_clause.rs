// `vectorize` is not an OpenACC loop clause: the error lists the loop clauses.
#[acc::parallel]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vectorize)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
