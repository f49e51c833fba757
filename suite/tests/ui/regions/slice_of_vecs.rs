// A jagged array: each `Vec` points into host memory the device cannot follow.
#[acc::parallel]
fn row_lengths(rows: &[Vec<f64>], len: &mut [usize]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..rows.len() {
        len[i] = rows[i].len();
    }
}

fn main() {}
