// `if` on a data directive needs its condition; `async` is not a clause of `host_data!`.
fn main() {
    let mut a = vec![1.0f32; 8];
    acc::data!(copy(a), if {});
    acc::enter_data!(copyin(a), if(1));
    acc::host_data!(use_device(a), async(1) {});
}
