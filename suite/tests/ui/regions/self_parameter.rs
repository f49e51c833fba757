// A region method takes `&self` or `&mut self`: the device gets its fields, so the method
// cannot take `self` by value.
struct Grid {
    data: Vec<f64>,
}

impl Grid {
    #[acc::parallel]
    fn zero(mut self) -> Grid {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.data.len() {
            self.data[i] = 0.0;
        }
        self
    }
}

fn main() {
    let _ = Grid { data: Vec::new() }.zero();
}
