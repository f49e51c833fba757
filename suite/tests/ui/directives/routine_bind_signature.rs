// `bind(g)`: both builds check that `g` takes and returns what the routine does.
#[acc::routine(seq)]
fn square_gpu(x: f64) -> f64 {
    x * x
}

#[acc::routine(seq, bind(square_gpu))]
fn square(x: f32) -> f32 {
    x * x
}

#[acc::routine(seq, bind(cube_gpu))]
fn cube(x: f32) -> f32 {
    x * x * x
}

fn main() {}
