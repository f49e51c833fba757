// `host_data!` takes `use_device`, `if` and `if_present`: a data clause belongs on `data!`,
// a name twice is an error, and the block needs a `use_device` clause.
fn main() {
    let a = vec![1.0f32; 8];
    let b = vec![2.0f32; 8];
    acc::host_data!(use_device(a), copyin(b) { let _ = a; });
    acc::host_data!(use_device(a, a) { let _ = a; });
    acc::host_data!(if_present { let _ = &b; });
    acc::host_data!(use_device(a), if_presnt { let _ = a; });
}
