// The host backend runs a region before the call returns: `async` for the host alone is refused.
#[acc::parallel(device_type(host), async(1))]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
