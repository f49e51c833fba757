// In a parallel loop the iterations share `s` through its atomics: assigning it plainly, even
// the value an atomic captures, races with the other iterations' updates.
#[acc::parallel]
fn count(a: &[u32]) -> u32 {
    let mut s = 0u32;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        s = acc::atomic!(capture { s += a[i]; s });
    }
    s
}

fn main() {}
