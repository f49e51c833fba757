// Data clauses of `data!` take names: a section is bound to one first.
fn main() {
    let a = vec![0.0f64; 16];
    acc::data!(copyin(a[0..8]) {
        let _ = a.len();
    });
}
