// Every field of a `DeviceCopy` struct must be `DeviceCopy` itself.
#[derive(Clone, Copy)]
struct Units(f32);

#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct Cell {
    density: f64,
    units: Units,
}

fn main() {}
