// A `DeviceCopy` enum needs an integer representation: `repr(C)` leaves its size to the C ABI.
#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
enum Boundary {
    Periodic,
    Fixed,
}

fn main() {}
