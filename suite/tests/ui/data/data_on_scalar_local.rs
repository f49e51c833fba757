// `data!` moves arrays; `tol` is an `f64`.
fn main() {
    let a = vec![1.0f64; 1024];
    let tol = 1e-6f64;
    acc::data!(copyin(a, tol) {
        let _ = a.len();
    });
}
