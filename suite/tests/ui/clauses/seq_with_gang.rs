// `seq` runs the loop in order; `gang` spreads it over gangs: pick one.
#[acc::parallel]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, seq)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

fn main() {}
