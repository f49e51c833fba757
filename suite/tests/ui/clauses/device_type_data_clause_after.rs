// Only the tuning clauses may follow `device_type`; a data clause there says where it goes.
#[acc::parallel(device_type(nvidia), copyin(a), vector_length(64))]
fn total(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = a[i];
    }
}

fn main() {}
