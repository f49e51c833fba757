// `update!` takes variables, fields and sections, not other expressions.
fn main() {
    let a = vec![0.0f64; 16];
    acc::enter_data!(copyin(a));
    acc::update!(device(a.clone()));
}
