// A chunk of zero trips deals nothing: refused on the literal.
#[acc::parallel]
fn scale(a: &mut [f64]) {
    #[acc::r#loop(gang(static: 0), vector)]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

fn main() {}
