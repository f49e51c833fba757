// `vector`'s spelled size is `length:` (OpenACC's `vector(length: n)`), `num:` is gang's and worker's.
#[acc::kernels]
fn scale(a: &mut [f64]) {
    #[acc::r#loop(gang, vector(num: 64))]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

fn main() {}
