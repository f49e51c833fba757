// `vector()`: empty parentheses on the loop.
#[acc::kernels]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(vector())]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
