// A generic region cannot take `self`: its instances are fns of their own.
struct Grid {
    data: Vec<f64>,
}

impl Grid {
    #[acc::parallel(instances(f64))]
    fn scale<T: Copy + Into<f64>>(&mut self, k: T) {
        #[acc::r#loop(gang, vector)]
        for i in 0..self.data.len() {
            self.data[i] *= k.into();
        }
    }
}

fn main() {}
