// `copyout` writes back to the host, but `a` is a shared `&[T]`.
#[acc::parallel(copyout(a))]
fn fill(a: &[f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        let _ = a[i];
    }
}

fn main() {}
