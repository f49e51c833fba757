// One variable, two operators on nested loops.
#[acc::parallel]
fn grid_sum(a: &[f64], n: usize, m: usize) -> f64 {
    let mut s = 0.0f64;
    #[acc::r#loop(gang, reduction(+: s))]
    for i in 0..n {
        #[acc::r#loop(vector, reduction(max: s))]
        for j in 0..m {
            s = s.max(a[i * m + j]);
        }
    }
    s
}

fn main() {}
