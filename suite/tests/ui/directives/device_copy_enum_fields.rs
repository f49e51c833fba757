// A `DeviceCopy` enum has unit variants only.
#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(u8)]
enum Boundary {
    Periodic,
    Fixed(f64),
}

fn main() {}
