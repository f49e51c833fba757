// Region parameters are plain names, so that clauses can refer to them.
#[acc::parallel]
fn axpby((alpha, beta): (f32, f32), x: &[f32], y: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..y.len() {
        y[i] = alpha * x[i] + beta * y[i];
    }
}

fn main() {}
