// `zero` writes the device copy, which on the host backend is the array itself: a read-only
// `&[T]` cannot take it.
#[acc::parallel(copyin(a), create(zero: b))]
fn f(a: &[f32], b: &[f32]) -> f32 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] + b[i];
    }
    s
}

fn main() {}
