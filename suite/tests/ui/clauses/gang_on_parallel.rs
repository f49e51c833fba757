// `gang` is a loop clause, not a region clause.
#[acc::parallel(gang, copyin(a))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
