// `capture x = x + 1` is no swap: the value written reads the place exchanged.
#[acc::parallel]
fn tickets(out: &mut [u32]) -> u32 {
    let mut next = 0u32;
    #[acc::r#loop(gang, vector)]
    for i in 0..out.len() {
        out[i] = acc::atomic!(capture next = next + 1);
    }
    next
}

fn main() {}
