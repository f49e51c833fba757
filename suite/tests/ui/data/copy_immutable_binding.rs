// `copy` writes the device copy back into `a`, so `a` must be `let mut`.
fn main() {
    let a = vec![1.0f64; 1024];
    acc::data!(copy(a) {
        let _ = a.len();
    });
}
