// `if(cond)` is a clause before the operation, separated by a comma.
#[acc::parallel]
fn count(a: &[u32], shared: bool) -> u32 {
    let mut n = 0u32;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        acc::atomic!(if(shared) n += a[i]);
    }
    n
}

fn main() {}
