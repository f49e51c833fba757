//! Vector add: the smallest acc program. `cargo run --release -p acc-examples --example 01-vadd`
//! (add `--features cuda` to run it on a GPU where one is found).

#[acc::parallel(copyin(a, b), copyout(c), vector_length(256))]
fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..c.len() {
        c[i] = a[i] + b[i];
    }
}

fn main() {
    let n = 1 << 24;
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (2 * (i % 7)) as f32).collect();
    let mut c = vec![0.0f32; n];
    vadd(&a, &b, &mut c);
    let bad = (0..n).filter(|&i| c[i] != a[i] + b[i]).count();
    println!("vadd of {n} f32 on {:?}: {} wrong elements", acc::device_type(), bad);
    assert_eq!(bad, 0, "vadd gave wrong results");
    println!("verified");
}
