// `y` is named in two data clauses: which transfer is meant?
#[acc::parallel(copyin(x, y), copy(y))]
fn saxpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

fn main() {}
