// A scalar result comes back as the region's return value, not through `&mut f64`.
#[acc::parallel]
fn sum(a: &[f64], out: &mut f64) {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    *out = s;
}

fn main() {}
