// `last` is shared by every iteration: writing it from a parallel loop is a race.
#[acc::parallel]
fn last_positive(a: &[i32]) -> usize {
    let mut last = 0;
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        if a[i] > 0 {
            last = i;
        }
    }
    last
}

fn main() {}
