// A `String` owns host memory: it cannot be copied to the device.
#[acc::parallel]
fn fill(label: String, a: &mut [usize]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = label.len();
    }
}

fn main() {}
