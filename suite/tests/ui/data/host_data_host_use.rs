// Inside `host_data!`'s block the name is the device address (`acc::DevicePtr`), not the
// host array: host code cannot index it.
fn main() {
    let a = vec![1.0f32; 8];
    acc::host_data!(use_device(a), if_present {
        let _x = a[0];
    });
}
