// acc builds for the host and NVIDIA GPUs: another device type is named with the accepted ones.
#[acc::parallel(device_type(radeon), vector_length(64))]
fn scale(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

fn main() {}
