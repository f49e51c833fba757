// The device cannot follow a host reference.
#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct Particle<'a> {
    mass: f64,
    neighbours: &'a [u32],
}

fn main() {}
