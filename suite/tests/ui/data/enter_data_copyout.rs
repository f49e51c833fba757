// `copyout` happens when data leaves the device: it belongs on `exit_data!`.
fn main() {
    let mut a = vec![0.0f32; 1024];
    acc::enter_data!(copyout(a));
    a[0] = 1.0;
}
