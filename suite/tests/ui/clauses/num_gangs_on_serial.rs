// A serial region runs one gang: `num_gangs` makes no sense there.
#[acc::serial(num_gangs(4))]
fn prefix_sum(a: &mut [i64]) {
    for i in 1..a.len() {
        a[i] += a[i - 1];
    }
}

fn main() {}
