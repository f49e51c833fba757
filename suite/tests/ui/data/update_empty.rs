// `update!` with nothing to update.
fn main() {
    let a = vec![0.0f32; 1024];
    acc::enter_data!(copyin(a));
    acc::update!();
    let _ = a;
}
