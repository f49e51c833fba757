// `x = y + 1` is no atomic update of `x`.
#[acc::parallel]
fn histogram(keys: &[usize], bins: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..keys.len() {
        let k = keys[i];
        acc::atomic!(bins[k] = bins[0] + 1);
    }
}

fn main() {}
