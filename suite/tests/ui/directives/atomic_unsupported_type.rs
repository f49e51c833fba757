// Hardware atomics go up to 64 bits.
#[acc::parallel]
fn count(keys: &[u64]) -> u128 {
    let mut total: u128 = 0;
    #[acc::r#loop(gang, vector)]
    for i in 0..keys.len() {
        acc::atomic!(total += keys[i] as u128);
    }
    total
}

fn main() {}
