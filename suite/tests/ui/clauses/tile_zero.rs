// A tile of zero iterations.
#[acc::parallel]
fn transpose(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector, tile(32, 0))]
    for i in 0..n {
        for j in 0..n {
            b[j * n + i] = a[i * n + j];
        }
    }
}

fn main() {}
