// `declare!` takes `copy`, `copyin`, `copyout`, `create`, `present`, `device_resident`: `link`
// and `deviceptr` say what to write instead, `if` belongs on `data!`, a name twice is an error,
// and the directive needs a clause.
fn main() {
    let mut a = vec![1.0f32; 8];
    let b = vec![2.0f32; 8];
    acc::declare!(link(a));
    acc::declare!(deviceptr(b));
    acc::declare!(copyin(b), if(true));
    acc::declare!(copy(a), copyin(a));
    acc::declare!();
}
