// A reference to an array cached in a 2-D window must have the window's shape with each range
// replaced by something provably inside it: `k` runs past the window (`kk..kk + 32` is wider than
// `kk..kk + 16`), `a[kk * n + i]` is not the window's shape, `a[i * n + (kk + 16)]` is one past
// its end.
#[acc::parallel]
fn gemm(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    #[acc::r#loop(tile(16, 16))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0f32;
            for kk in (0..n).step_by(16) {
                acc::cache!(a[i * n + (kk..kk + 16)]);
                for k in kk..kk + 32 {
                    s += a[i * n + k] * b[k * n + j];
                }
                s += a[kk * n + i] + a[i * n + (kk + 16)];
            }
            c[i * n + j] = s;
        }
    }
}

fn main() {}
