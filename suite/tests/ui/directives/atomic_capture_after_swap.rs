// The value after a swap is the value written: `capture { x = e; x }` is refused.
#[acc::parallel]
fn last(out: &mut [u32]) -> u32 {
    let mut cell = 0u32;
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = acc::atomic!(capture { cell = i as u32; cell });
    }
    cell
}

fn main() {}
