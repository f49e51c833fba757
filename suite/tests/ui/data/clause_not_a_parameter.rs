// A region's data clauses name its own parameters; `z` is none of them.
#[acc::parallel(copyin(x), copy(y), create(z))]
fn saxpy(alpha: f32, x: &[f32], y: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] += alpha * x[i];
    }
}

fn main() {}
