// Arrays are passed as slices, `&[f32]`, not `&Vec<f32>`.
#[acc::parallel]
fn sum(a: &Vec<f32>) -> f32 {
    let mut s = 0.0;
    #[acc::r#loop(gang, vector, reduction(+: s))]
    for i in 0..a.len() {
        s += a[i];
    }
    s
}

fn main() {}
