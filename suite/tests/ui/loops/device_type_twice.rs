// A device type's clauses stand together after one `device_type`.
#[acc::parallel]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(device_type(nvidia), gang, vector, device_type(host, nvidia), seq)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
