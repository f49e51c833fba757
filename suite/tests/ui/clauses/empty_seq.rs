// `seq()` takes no arguments, not even empty parentheses.
#[acc::parallel]
fn fill(a: &mut [f32]) {
    #[acc::r#loop(seq())]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
