// `declare!` is a host directive: inside a region the data is the region's parameters.
#[acc::parallel]
fn f(a: &mut [f32]) {
    acc::declare!(copy(a));
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {
    f(&mut [0.0; 4]);
}
