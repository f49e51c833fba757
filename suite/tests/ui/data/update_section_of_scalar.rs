// A section `x[lo..hi]` is of an array; `x` is an `f64`.
fn main() {
    let a = vec![0.0f64; 16];
    let x = 1.0f64;
    acc::enter_data!(copyin(a));
    acc::update!(device(a[0..4], x[0..2]));
}
