// `+` does not reduce `bool`s: `||` does.
#[acc::parallel]
fn any_negative(a: &[f32]) -> bool {
    let mut any = false;
    #[acc::r#loop(gang, vector, reduction(+: any))]
    for i in 0..a.len() {
        any = a[i] < 0.0;
    }
    any
}

fn main() {}
