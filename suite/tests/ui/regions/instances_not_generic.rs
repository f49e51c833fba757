// `instances` is for generic regions.
#[acc::parallel(instances(f32))]
fn zero(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = 0.0;
    }
}

fn main() {}
