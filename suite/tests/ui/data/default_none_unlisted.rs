// `default(none)` asks for every array to be named; `b` is not.
#[acc::parallel(default(none), copyin(a), copyout(c))]
fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

fn main() {}
