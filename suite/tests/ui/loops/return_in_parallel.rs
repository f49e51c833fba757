// `return` from inside a parallel loop would leave the whole region from one iteration.
#[acc::parallel]
fn clamp(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        if a[i].is_nan() {
            return;
        }
        a[i] = a[i].min(1.0);
    }
}

fn main() {}
