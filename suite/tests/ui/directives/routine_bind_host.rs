// The host calls the routine itself: `bind` after `device_type(host)` is refused.
#[acc::routine(seq)]
fn square_host(x: f32) -> f32 {
    x * x
}

#[acc::routine(seq, device_type(host), bind(square_host))]
fn square(x: f32) -> f32 {
    x * x
}

fn main() {}
