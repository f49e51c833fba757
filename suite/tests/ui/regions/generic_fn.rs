// A generic region names its instances: each becomes kernels of its own.
#[acc::parallel]
fn scale<T: Copy + std::ops::Mul<Output = T>>(k: T, a: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = k * a[i];
    }
}

fn main() {}
