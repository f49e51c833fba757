// `copyout` writes back to the host: a `&self` method cannot write its fields.
struct Grid {
    data: Vec<f64>,
}

impl Grid {
    #[acc::parallel(copyout(self.data))]
    fn fill(&self) {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.data.len() {
            let _ = self.data[i];
        }
    }
}

fn main() {
    Grid { data: Vec::new() }.fill();
}
