// A generic region's instances are fns of their own: they cannot name the impl's `Self`.
struct Grid;

impl Grid {
    const K: f64 = 2.0;

    #[acc::parallel(instances(f64))]
    fn scale<T: Copy + Into<f64>>(a: &mut [f64], k: T) {
        #[acc::r#loop(gang, vector)]
        for i in 0..a.len() {
            a[i] *= k.into() * Self::K;
        }
    }
}

fn main() {}
