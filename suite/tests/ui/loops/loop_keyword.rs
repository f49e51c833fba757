// `loop` is a keyword: rustc asks for the raw identifier `r#loop`.
#[acc::parallel]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
