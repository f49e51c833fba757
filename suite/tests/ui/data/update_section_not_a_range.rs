// A section is an element range: `a[3..4]`, not `a[3]`.
fn main() {
    let a = vec![0.0f64; 16];
    acc::enter_data!(copyin(a));
    acc::update!(device(a[3]));
}
