// The same array in two clauses of one data region.
fn main() {
    let a = vec![1.0f64; 1024];
    let mut b = vec![0.0f64; 1024];
    acc::data!(copyin(a), copyout(b), create(a) {
        b[0] = a[0];
    });
}
