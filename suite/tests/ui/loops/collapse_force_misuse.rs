// `collapse(force: n)` sinks the code between its loops into the innermost body: a jump in
// that code would leave another loop, and a body with two loops is no nest.
#[acc::parallel]
fn jump(a: &mut [f64], b: &[f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(force: 2))]
    for i in 0..n {
        if b[i] < 0.0 {
            continue;
        }
        for j in 0..m {
            a[i * m + j] = b[i];
        }
    }
}

#[acc::parallel]
fn two_loops(a: &mut [f64], n: usize, m: usize) {
    #[acc::r#loop(gang, vector, collapse(force: 2))]
    for i in 0..n {
        for j in 0..m {
            a[i * m + j] = 1.0;
        }
        for j in 0..m {
            a[i * m + j] += 1.0;
        }
    }
}

fn main() {}
