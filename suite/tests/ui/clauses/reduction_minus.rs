// `-` is not an OpenACC reduction operator (subtraction does not reassociate).
#[acc::parallel]
fn balance(credits: &[f64]) -> f64 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(-: s))]
    for i in 0..credits.len() {
        s -= credits[i];
    }
    s
}

fn main() {}
