// A region method uses `self` through its fields only: the device has no `Grid`.
struct Grid {
    data: Vec<f64>,
}

impl Grid {
    fn scale(&self) -> f64 {
        2.0
    }

    #[acc::parallel]
    fn zero(&mut self) {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.data.len() {
            self.data[i] = self.scale();
        }
    }
}

fn main() {
    Grid { data: Vec::new() }.zero();
}
