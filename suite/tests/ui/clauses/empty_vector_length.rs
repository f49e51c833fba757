// `vector_length()` on the region: reported on that clause.
#[acc::parallel(copy(a), vector_length())]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
