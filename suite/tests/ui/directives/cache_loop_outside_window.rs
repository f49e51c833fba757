// A loop that reads a cached array through its variable must run inside the window: this
// one's range starts one element before it.
#[acc::parallel]
fn sum7(a: &[f64], b: &mut [f64]) {
    #[acc::r#loop(gang, vector)]
    for i in 4..a.len() - 4 {
        acc::cache!(a[i - 3..=i + 3]);
        let mut s = 0.0;
        for j in i - 4..=i + 3 {
            s += a[j];
        }
        b[i] = s;
    }
}

fn main() {}
