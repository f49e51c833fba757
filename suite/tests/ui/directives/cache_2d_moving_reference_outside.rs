// A window that moves with both loops of a tile nest (the Jacobi's 3 x 3 neighbourhood): a
// reference two rows down, or two columns right, lies outside it; one written with its offset
// at the end of the sum (`i * n + j - 1`) is inside.
#[acc::parallel]
fn step(a: &[f32], b: &mut [f32], n: usize) {
    #[acc::r#loop(tile(32, 8))]
    for i in 1..n - 2 {
        for j in 1..n - 2 {
            acc::cache!(a[(i - 1..i + 2) * n + (j - 1..j + 2)]);
            b[i * n + j] = a[i * n + j - 1] + a[(i + 2) * n + j] + a[i * n + j + 2];
        }
    }
}

fn main() {}
