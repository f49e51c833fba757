// A region attribute goes on a fn: its body is the region.
#[acc::parallel]
struct Grid {
    data: Vec<f64>,
}

fn main() {}
