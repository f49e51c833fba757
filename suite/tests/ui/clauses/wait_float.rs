// A `wait` clause's queue that is not an integer, and an `update`'s.
#[acc::parallel(wait(q))]
fn scale(a: &[f32], out: &mut [f32], q: f64) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {
    let a = vec![1.0f32; 4];
    acc::update!(device(a), async(1.5));
}
