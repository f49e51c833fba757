// An array reduces element by element, so its operator must be one its element type has.
#[acc::parallel]
fn flags(a: &[f32]) -> [bool; 4] {
    let mut any = [false; 4];
    #[acc::r#loop(gang, vector, reduction(+: any))]
    for i in 0..a.len() {
        any[i % 4] = a[i] < 0.0;
    }
    any
}

fn main() {}
