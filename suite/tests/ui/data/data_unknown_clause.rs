// `copy_in` is not a data clause.
fn main() {
    let a = vec![1.0f64; 1024];
    acc::data!(copy_in(a) {
        let _ = a.len();
    });
}
