// `gang(0)` would launch a grid with no blocks.
#[acc::kernels]
fn fill(a: &mut [f64], n: usize) {
    #[acc::r#loop(gang(0), vector)]
    for i in 0..n {
        a[i] = 0.0;
    }
}

fn main() {}
