// `collapse()`: the number of loops is missing.
#[acc::parallel]
fn fill(a: &mut [f32], n: usize) {
    #[acc::r#loop(gang, collapse())]
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = 1.0;
        }
    }
}

fn main() {}
