// `gang(static: n)` takes a literal chunk size or `*`: an expression is refused on it.
#[acc::parallel]
fn scale(a: &mut [f64]) {
    #[acc::r#loop(gang(static: a.len() / 4), vector)]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

fn main() {}
