// A field the region reads as a value is a copy: assigning it would be lost.
struct Counter {
    data: Vec<f64>,
    total: f64,
}

impl Counter {
    #[acc::serial]
    fn count(&mut self) {
        for i in 0..self.data.len() {
            self.total += self.data[i];
        }
    }
}

fn main() {
    Counter { data: Vec::new(), total: 0.0 }.count();
}
