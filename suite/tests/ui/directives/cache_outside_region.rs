// `cache!` in plain host code.
fn main() {
    let a = vec![0.0f32; 16];
    for i in 1..a.len() - 1 {
        acc::cache!(a[i - 1..i + 2]);
        let _ = a[i];
    }
}
