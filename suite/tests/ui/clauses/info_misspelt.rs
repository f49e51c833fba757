// `infos` is a typo of `info` (the schedule report of the region): the error is on the token.
#[acc::parallel(copyin(a), infos)]
fn scale(a: &[f32], out: &mut [f32]) {
    #[acc::r#loop(gang, vector)]
    for i in 0..a.len() {
        out[i] = 2.0 * a[i];
    }
}

// `info` is a clause of the compute constructs, not of loops.
#[acc::kernels(info)]
fn double(a: &mut [f32]) {
    #[acc::r#loop(info)]
    for i in 0..a.len() {
        a[i] *= 2.0;
    }
}

// `info` takes no arguments.
#[acc::serial(info(all))]
fn first(a: &mut [f32]) {
    a[0] = 1.0;
}

fn main() {}
