// `?` returns early from the region, which a parallel loop cannot do.
fn checked(x: u32) -> Result<u32, ()> {
    x.checked_mul(3).ok_or(())
}

#[acc::parallel]
fn triple(a: &mut [u32]) -> Result<(), ()> {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = checked(a[i])?;
    }
    Ok(())
}

fn main() {}
