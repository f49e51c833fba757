// An array `declare!` names in `copyin` is read-only on the host until the block ends (its
// device copy would not see the write); `copy` or `create` give a writable one.
fn main() {
    let mut a = vec![1.0f32; 8];
    acc::declare!(copyin(a));
    a[0] = 2.0;
}
