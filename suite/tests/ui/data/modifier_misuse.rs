// Data clause modifiers: each clause takes its own (`copyin` takes always, alwaysin,
// readonly, capture; `create` zero, capture; `present` none), each once.
fn main() {
    let mut a = vec![1.0f32; 8];
    acc::data!(present(always: a) {});
    acc::data!(create(readonly: a) {});
    acc::data!(copyin(alway: a) {});
    acc::data!(copy(always, always: a) {});
    acc::enter_data!(copyin(zero: a));
    a[0] = 2.0;
}
