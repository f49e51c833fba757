// A 2-D window's ranges have literal widths and go in parentheses; at most two of them.
#[acc::parallel]
fn width(a: &[f32], c: &mut [f32], n: usize, w: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + w)]);
                s += a[i * n + kk];
            }
            c[i * n + j] = s;
        }
    }
}

#[acc::parallel]
fn three(a: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(gang, vector)]
    for i in 0..n {
        acc::cache!(a[(i..i + 2) * n * n + (i..i + 2) * n + (i..i + 2)]);
        c[i] = a[i];
    }
}

fn main() {}
