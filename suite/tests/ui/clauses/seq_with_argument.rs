// `seq` is a bare clause.
#[acc::parallel]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(seq(4))]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
