// In a `parallel` region the vector length is a region clause, not a loop argument.
#[acc::parallel]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector(128))]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
