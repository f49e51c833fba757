// Enums are not `DeviceCopy`.
#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
enum Boundary {
    Periodic,
    Fixed,
}

fn main() {}
