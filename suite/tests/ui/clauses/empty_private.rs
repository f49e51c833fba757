// `private()` names no variable.
#[acc::parallel]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(gang, vector, private())]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
