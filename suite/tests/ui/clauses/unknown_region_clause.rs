// `num_gang` is a typo of `num_gangs`: the error lists the clauses `parallel` accepts.
#[acc::parallel(copyin(a), num_gang(64))]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
