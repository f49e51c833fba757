// A region cannot be a method taking `self`.
struct Grid {
    data: Vec<f64>,
}

impl Grid {
    #[acc::parallel]
    fn zero(&mut self) {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.data.len() {
            self.data[i] = 0.0;
        }
    }
}

fn main() {
    let _ = Grid { data: Vec::new() };
}
