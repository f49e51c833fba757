// A structured data region needs the block it covers.
fn main() {
    let a = vec![1.0f64; 1024];
    acc::data!(copyin(a));
}
