// Levels nest gang > worker > vector: a gang loop cannot sit inside a vector loop.
#[acc::parallel]
fn fill(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(vector)]
    for i in 0..n {
        #[acc::r#loop(gang)]
        for j in 0..m {
            a[i * m + j] = 0.0;
        }
    }
}

fn main() {}
