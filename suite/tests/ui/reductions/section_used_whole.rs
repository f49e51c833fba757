// A loop that reduces a section may use the array only through its elements: a use of the
// whole array or of a range of it could touch elements outside the section.
#[acc::parallel]
fn histogram(a: &[f64]) -> [f64; 10] {
    let mut q = [0.0f64; 10];
    #[acc::r#loop(gang, vector, reduction(+: q[0..5]))]
    for i in 0..a.len() {
        q[i % 5] += a[i];
        let total: f64 = q.iter().sum();
        q[0] += total;
        q[1] += q[2..4][0];
    }
    q
}

fn main() {}
