// An acc loop needs its upper bound.
#[acc::parallel]
fn fill(a: &mut [u32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0.. {
        a[i] = i as u32;
    }
}

fn main() {}
