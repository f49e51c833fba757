// Each instance gives every type and const parameter its argument.
#[acc::parallel(instances(<f32, 4>, f64))]
fn window<T: Copy + Default, const R: usize>(a: &mut [T]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = T::default();
    }
}

fn main() {}
