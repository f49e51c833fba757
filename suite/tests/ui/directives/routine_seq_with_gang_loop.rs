// A `routine(seq)` runs on one thread: it cannot contain a gang loop.
#[acc::routine(seq)]
fn zero(a: &mut [f64]) {
    #[acc::r#loop(gang)]
    for i in 0..a.len() {
        a[i] = 0.0;
    }
}

fn main() {}
