//! Dot product with a `+` reduction; the reduced value comes back to the host.
//! `cargo run --release -p acc-examples --example 02-dot`

#[acc::parallel]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

fn main() {
    let n = 1 << 24;
    // Small integers: every partial sum is exact, so any summation order gives the same value.
    let a: Vec<f64> = (0..n).map(|i| (i % 16) as f64).collect();
    let b: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
    let expected: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let mut got = 0.0;
    acc::data!(copyin(a, b) {
        // Inside the data region the arrays stay on the device: no transfer per call.
        for _ in 0..10 {
            got = dot(&a, &b);
        }
    });
    println!("dot of {n} f64 on {:?}: {got} (expected {expected})", acc::device_type());
    assert_eq!(got, expected, "dot gave a wrong result");
    println!("verified");
}
