// `attach`/`detach` attach pointers inside present data; acc's data holds none.
fn main() {
    let mut a = vec![1.0f32; 8];
    acc::data!(copy(a), attach(a) {});
    acc::exit_data!(copyout(a), detach(a));
}
