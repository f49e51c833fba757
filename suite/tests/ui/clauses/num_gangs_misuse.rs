// `num_gangs(n1, n2, n3)` is `parallel`'s: at most three values, each at least 1; on
// `kernels` one value (its loops set their own gangs); `gang(dim:)` in `serial` has no gangs
// to spread over.
#[acc::parallel(num_gangs(2, 2, 2, 2))]
fn four(a: &mut [f32]) {
    #[acc::r#loop(gang)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

#[acc::parallel(num_gangs(4, 0))]
fn zero(a: &mut [f32]) {
    #[acc::r#loop(gang)]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

#[acc::kernels(num_gangs(4, 4))]
fn in_kernels(a: &mut [f32]) {
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

#[acc::serial]
fn in_serial(a: &mut [f32]) {
    #[acc::r#loop(gang(dim: 2))]
    for i in 0..a.len() {
        a[i] = 1.0;
    }
}

fn main() {}
