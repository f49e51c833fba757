// `bind("symbol")` would link device code from elsewhere; acc's is this package's Rust.
#[acc::routine(seq, bind("__nv_fast_square"))]
fn square(x: f32) -> f32 {
    x * x
}

fn main() {}
