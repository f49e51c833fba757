// Rust's default layout may differ between the host and the device crate.
#[derive(Clone, Copy, acc::DeviceCopy)]
struct Point {
    x: f32,
    y: f32,
}

fn main() {}
