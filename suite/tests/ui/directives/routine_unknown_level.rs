// `fast` is not a routine level.
#[acc::routine(fast)]
fn sq(x: f64) -> f64 {
    x * x
}

fn main() {}
