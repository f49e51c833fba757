// `auto` lets the compiler decide; `independent` asserts the answer.
#[acc::kernels]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(independent, auto)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
