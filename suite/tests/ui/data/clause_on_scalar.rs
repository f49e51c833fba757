// `alpha` is a value parameter (firstprivate): it is not device data.
#[acc::parallel(copyin(x, alpha), copy(y))]
fn saxpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

fn main() {}
